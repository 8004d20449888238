"""What students might type, per spec, for the shared numeric-answer vectors.

Chosen to run every line of livelab.builder.answer_text, answer_vector and answers
(test_answer_vectors checks that) and the places where JavaScript and Python could part:
whitespace sets, characters outside the Basic Multilingual Plane, object keys such as "constructor",
rounding of long numbers, overflow edges, half-way cases of the "g" format in messages, and
the tolerance and "close" edges of every number of decimals a fence may ask for (0 to 8).
"""

from __future__ import annotations

import math

SIN1 = math.sin(1)
SPECS: dict[str, dict] = {
    "sin-1": {
        "answer": SIN1,
        "decimals": 2,
        "wrong": [
            [0.54, "That is cos 1, the other entry."],
            [-0.84, "The sign is off: the turn goes counter-clockwise."],
        ],
    },
    "exact-12": {"answer": 12.0, "decimals": None, "wrong": [[64.0, "That is one head's width."]]},
    "small": {"answer": 0.002, "decimals": 4, "wrong": []},
    "large": {"answer": 2000.0, "decimals": None, "wrong": []},
    "pair": {
        "answer": [0.0, math.sqrt(2)],
        "decimals": 3,
        "wrong": [[[0.0, 1.0], "You divided by 2, the length of the row."]],
    },
    "four": {"answer": [0.5, -1.5, 2.25, 4.0], "decimals": 1, "wrong": []},
    "exact-0": {"answer": 0.0, "decimals": None, "wrong": []},
    **{f"zero-{d}": {"answer": 0.0, "decimals": d, "wrong": []} for d in range(9)},
}


def _edges(decimals: int | None) -> list[str]:
    """Right at the tolerance and the "close" limit, and one double beyond each."""
    tol = 1e-9 if decimals is None else 0.5 * 10.0**-decimals + 1e-9
    near = math.nextafter(0.5, 0) if decimals is None else 10.0 ** (1 - decimals)
    points = [tol, math.nextafter(tol, math.inf), near, math.nextafter(near, math.inf)]
    return [repr(p) for p in points] + [repr(-tol)]


def repeat(text: str, times: int, before: str = "", after: str = "") -> dict:
    """A long typed text as a description: before + text * times + after."""
    ends = {"before": before, "after": after}
    return {"repeat": text, "times": times} | {k: v for k, v in ends.items() if v}


# Tables of typed texts, several to a line.
# fmt: off
NUMBERS = [
    "0.84", ".84", "0,84", "0,845", "+0.84", "--0.84", "- -0.84", "(0.84)", "((0.84))",
    "0.8414709848", "8.4e-1", "8.4E-1", "84e-2", "0.0084e2", "8.4e-01", "84.e-2", ".84e0",
    "0.845", "0.835", "0.8351", "0.85", "0.86", "0.9", "0.94", "0.95", "1", "-0.84", "−0.84",
    "–0.84", "0.54", "0.5400", "0.5449", "2E3", "-1.5e+2", "3.0e-05", "1e-3", "1.", ",84",
    "1" * 200, "0." + "0" * 197 + "1", "9007199254740993", "9007199254740993.000000000000000001",
    "0.1000000000000000055511151231257827021181583404541015625",
    "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "-1e309", "1e400", "4.9e-324",
    "2e-324", "1e-400",
]
ARITHMETIC = [
    "21/25", "0.42*2", "0.42·2", "0.42×2", "1.68÷2", "1.68/2", "1 - 0.16", "1 − 0.16",
    "1 – 0.16", "2^-1 + 0.34", "2**-1+0.34", "2 ** 3", "2^3^2", "sqrt(0.7056)", "√0.7056",
    "√(0.7056)", "sqrt 0.7056", "SQRT(0.7056)", "sin(1)", "SIN(1)", "sin 1", "sin1",
    "cos(pi/2 - 1)", "exp(ln(0.84))", "ln(exp(0.84))", "log(e^0.84)", "e^ln(0.84)",
    "pi/3.74", "π/3.74", "PI/3.74", "1/(1+e^-1)", "e-1.88", "E-1.88", "e^-1", "2*e", "0^0",
    "(-2)^3", "-8^(1/3)", "(-1)^(1e300)", "10^-4", "1.1^100", "2^-1075", "2^1023", "exp(-1000)",
    "exp(709.78)", "exp(709.782712893384)", "sqrt(-0)", "-0", "1/-7", "1e-300/1e300",
    "0.84 + 1e-9", "\t0.84\n", " 0.84 ", "\u00a00.84", "0.84\u3000", "\u20030.84",
    "\x1c0.84", "\x850.84", "0.84" + "+0" * 98, repeat("(", 20, "", "0.84" + ")" * 20),
    repeat("-", 20, "", "0.84"), repeat("1^", 20, "", "0.84"), repeat("+", 19, "", "0.84"),
]
UNREADABLE = [
    "", "   ", "one radian", "0.84 radians", "x", "2x", "2pi", "2π", "2e", "2E", "2e - 3",
    "2e3e", "2sqrt(2)", "2√2", "2 pi", "pi 2", "pi2", "sqrt(2)3", "(1", "((1)", "1)", "(1))",
    "()", "(", ")", "+", "-", "1+", "1 +", "1*", "2 * *3", "sqrt", "sqrt()", "sqrt(", "√-4",
    "sqrt(-4)", "SQRT(-2)", "√(-2)", "ln(0)", "ln(-0)", "log(-1)", "exp(1000)", "exp(710)",
    "exp(709.782712893385)", "10^400", "10^308*10", "(-8)^(1/3)", "(-2)^0.5", "(-0.5)^-0.5",
    "0^-1", "0^-0.5", "(-0)^-1", "(-2)^(1e300)", "2^1024", "1/0", "1/(1-1)", "0/0", "1/-0",
    "1e308*10", "1e308+1e308", "-1e308-1e308", "1e300/1e-300", "nan", "NaN", "inf", "-inf",
    "Infinity", "∞", "2inf", "2nan", "[0.84]", "[0.84, 1]", " [1]", "0.84, 0.85", "0,84,1",
    "1..2", ".", ",", "$5", "5%", "0.84!", "½", "0.84 ± 0.01", "‐0.84",
    "﹣0.84", "\ufeff0.84", "\u200b0.84", "😀", "1+😀", "0.84😀", "😀" * 13, "😀" * 150,
    "😀" * 201, "a" * 201, "1" * 201, "constructor", "toString", "__proto__", "hasOwnProperty",
    "abcdefghijklmnopq", "sqrt(constructor)", "sqrt(-1234565)", "sqrt(-123456.5)",
    "sqrt(-999999.5)", "sqrt(-0.00001)", "sqrt(-0.0001)", "sqrt(-1e16)", "exp(999999.5)",
    "(-1234565)^0.5", "(-0.000123456789)^0.5", "sqrt(-5e-324)", "1e300^2",
    repeat("a", 1_000_000), repeat("(", 500, "", "1"), repeat("(", 21, "", "1" + ")" * 21),
    repeat("-", 21, "", "1"), repeat("1^", 21, "", "1"), repeat("sqrt ", 21, "", "1"),
    repeat("😀", 100, "1+"),
]
# Digits of other scripts: full-width and Arabic-Indic ones are read, others get a message.
OTHER_SCRIPTS = [
    "٠.٨٤", "٠٫٨٤", "۰٫۸۴", "٠,٨٤", "０.８４", "０．８４", "０，８４", "（０．８４）",
    "０.８４＋０", "१.८४", "0.8४", "0.84 १", "٠٫٨٤ ٠", "[０．８４]",
]
TEXTS: dict[str, list] = {
    "sin-1": NUMBERS + ARITHMETIC + UNREADABLE + OTHER_SCRIPTS,
    "exact-12": [
        "12", "12.0", "12,0", "1.2e1", "24/2", "12.4", "12.49", "12.5", "11.6", "11.5", "64",
        "64.0000000001", "12.000000001", "12.0000000009", "13", "[12]", "12 dozen", "",
        "2 6", "2, 6", "2 * 6", "2 6 1", "2(6)", "2 (6)", "2 pi", "0.84 radians",
    ],
    "small": [
        "0.002", "2e-3", "2E-3", "2.0e-03", "0.0020", "20e-4", "2/1000", "0,002", "0.0021",
        "0.0025", "0.003", "0.02", "2e", "2e-3e", "2e-3 e", "2 e-3", "2e+-3",
    ],
    "large": ["2000", "2e3", "2E3", "2.0e+3", "2,000", "2 000", "2000.4", "1999.6", "2000.5"],
    "pair": [
        "[0, 1.414]", "0, 1.414", "0; 1.414", "[0; 1.414]", "(0, 1.414)", "(0), (1.414)",
        "[0, sqrt(2)]", "[0,sqrt 2]", "[ 0 , √2 ]", "[−0, √2]", "[0, 1.41]", "[0.01, 1.41]",
        "[0, 1]", "[0.0004, 1.0004]", "[1, 1.414]", "[1, 2]", "[0, 1.414, 0]", "[0]", "0",
        "[0, 1.414", "[]", "[ ]", "", "  ", "[0,,1.414]", "[0, ]", "[,]", "[0, 1,414]",
        "[0, (1,414)]", "[0, 1.414)", "(0, 1.414]", "[[0, 1.414]]", "[0, x]", "[0, 2pi]",
        "[0, nan]", "[0, 1/0]", "[0, 1e309]", "[0, 1e308*10]", "[0, sqrt(-2)]", "[😀, 1]",
        "[😀😀, x]", "[0, 1.414] extra", "0, 1.414]", "[0 1.414]", "1, 2; 3", "[0, (1.414]",
        "[0, 1.414))", "[0, 1.414]]", "[0, 1.414\u00a0]", "\u3000[0, 1.414]", "[0, ()]",
        "[0, 1.414,]", repeat("(", 21, "[0, ", "1" + ")" * 21 + "]"), repeat("😀", 90, "[0, ", "]"),
        "[0, 2, 3e]", "[0; (1; 2)]", "(0; 1.414)", "[(0, 1.414)]",
        # decimal commas, blanks between the numbers, digits of other scripts
        "[0; 1,414]", "[0,0; 1,414]", "0; 1,414", "0,0 1,414", "0,0  1,414", "[0 1,414]",
        "0 1.414", "[0 (1.414)]", "[0 √2]", "[0 sqrt 2]", "[0 -1.414]", "[0 - 1.414]",
        "[0 -1.414 2]", "0 1.414 )", "0 1.414)", "0 1.414 😀", "[0 1.414 2pi]", "0 1.414 ٠",
        "[0; 1, 414]", "[0;1,414,]", "[0,5, 1]", "[0, 0,5]", "[0,1,414]", "0,1,414",
        "[0,5; 1,41]", "０，１．４１４", "[０； １，４１４]", "[٠؛ ١٫٤١٤]", "٠ ١٫٤١٤", "[۰ ۱٫۴۱۴]",
        "[0, ५]", "[0, 1.41४]", "[0 (1; 2)]", "1,0 2,0 3,0",
        # one list three ways, as a phone types it; numbers run together; a list too long
        "0 1.41", "[0 1.41]", "0, 1.41", "0 1.414, 2", "[0, 1.414 2]", "0; 1.414 2",
        "[0, 2(3)]", "0 (1)(2)", "0 1.414 radians", repeat("1 ", 101),
    ],
    "four": [
        "0.5, -1.5, 2.25, 4", "0.5, -1.5, 2.3, 4", "0.5, -1.5, 2.2, 4", "0.6, -1.4, 2.4, 4.1",
        "0.6, -1.5, 2.4, 4", "0.5, 1.5, 2.25, 4", "0.5, 1.5, 3.5, 9", "1/2; -3/2; 9/4; 2^2",
        "0,5 -1,5 2,25 4", "[ 0.5  -1.5   2.25  4.  ]", "0,5; -1,5; 2,25; 4", "0,5,-1,5,2,25,4",
        "[0.5 -1.5 2.25 4]", "[0.5 - 1.5 2.25 4]", "0.5 -1.5 +2.25 4",
    ],
    "exact-0": _edges(None),
    **{f"zero-{d}": _edges(d) for d in range(9)},
}
# fmt: on

"""Reading a typed vector answer: numbers separated by commas, semicolons or blank space.

Each entry is read as livelab.builder.answer_text reads one number. Brackets around the whole list
are optional: `[0, sqrt(2)]`, `0; 1.41`, `[0.5 -1.5]` as NumPy prints an array.

A comma is both a list sign and, in much of the world, a decimal point, so the rule is:

- with a `;` between the numbers, `;` separates them and a comma is a decimal comma, which
  must sit between two digits: `[0,5; 1,41]`;
- with commas only, each comma glued between two digits and blank space between the
  numbers, blank space separates them and the commas are decimal commas: `0,5 1,41`;
- otherwise commas separate the numbers: `[0, 1.41]`, `[0,1]`; a comma between two digits
  next to commas followed by a blank (`[0, 1,41]`) could be either, so it gets a message
  that shows both ways to write it, and nothing counts as an attempt;
- with neither, blank space separates the numbers, and a blank then a sign glued to a number
  starts the next one (`1 -2` is two numbers, `1 - 2` is one).

Kept with the same words and columns as web/grading/answer-vector.js (the shared vectors in
tests/answer_vectors.json hold the two together).
"""

from __future__ import annotations

import re

from livelab.builder.answer_text import SIGNS, Parser, Unreadable, check_length, quote

A_LIST = "a list such as [0, 1.41] or 0 1.41"

DIGIT_COMMA = re.compile(r"[0-9],[0-9]")
"""A comma glued between two digits: a decimal comma, or a list written without blanks."""
DECIMAL_EXAMPLE = "0,5; 1,41"


def _outer_brackets(text: str) -> tuple[int, int]:
    """Start and end of the text inside one pair of brackets around the whole answer."""
    lead = len(text) - len(text.lstrip())
    inner = text.strip()
    if len(inner) < 2 or inner[0] + inner[-1] not in ("[]", "()"):
        return 0, len(text)
    depth = 0
    for char in inner[:-1]:
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(char, 0)
        if depth == 0:
            return 0, len(text)  # as in "(1), (2)": the first bracket closes early
    return lead + 1, lead + len(inner) - 1


def _signs(text: str, start: int, end: int) -> list[tuple[int, str]]:
    """Where the commas, semicolons and blanks outside parentheses are, between start and end."""
    found, depth = [], 0
    for i in range(start, end):
        char = text[i]
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and (char in ",;" or char.isspace()):
            found.append((i, "blank" if char.isspace() else char))
    return found


def _split(text: str, start: int, end: int, cuts: list[int]) -> list[tuple[int, str]]:
    """The parts between the cuts; each part with where it starts."""
    parts = []
    for cut in [*cuts, end]:
        parts.append((start, text[start:cut]))
        start = cut + 1
    return parts


def _glued(text: str, i: int) -> bool:
    return i > 0 and DIGIT_COMMA.fullmatch(text, i - 1, i + 2) is not None


def _after_semicolons(text: str, i: int) -> Unreadable:
    """A comma that is not a decimal comma in a list separated by semicolons."""
    return Unreadable(
        f"Could not read {quote(text[i:].strip())} (character {i + 1}): “;” separates the "
        "numbers here, so a comma can only be a decimal comma between two digits, as in "
        "1,41; put “;” between every two numbers.",
        i + 1,
    )


def _unclear(text: str, i: int) -> Unreadable:
    """A comma glued between digits in a list whose other commas are followed by a blank."""
    first, last = i, i + 1
    while first > 0 and text[first - 1] in "0123456789.":
        first -= 1
    while last < len(text) and text[last] in "0123456789":
        last += 1
    number = text[first:last]
    return Unreadable(
        f"Could not read {quote(text[first:].strip())} (character {first + 1}): commas "
        f"separate the numbers here, so the comma in {number} is unclear; write "
        f"{number.replace(',', '.')} for a decimal, or put “;” between the numbers, as in "
        f"{DECIMAL_EXAMPLE}.",
        first + 1,
    )


def read_vector(text: str) -> list[float]:
    """The numbers of a typed list; Unreadable (saying where and why) if it is not one."""
    check_length(text, A_LIST)
    typed = text.translate(SIGNS)
    if typed.strip()[:1] == "[" and typed.strip()[-1:] != "]":
        raise Unreadable("The answer opens a “[” but does not close it with “]” at the end.")
    start, end = _outer_brackets(typed)
    if not typed[start:end].strip():
        raise Unreadable("The answer is empty.")
    signs = _signs(typed, start, end)
    semicolons = [i for i, sign in signs if sign == ";"]
    commas = [i for i, sign in signs if sign == ","]
    glued = [i for i in commas if _glued(typed, i)]
    body = typed[start:end]
    first = start + len(body) - len(body.lstrip())
    last = start + len(body.rstrip())
    blanks = any(sign == "blank" and first < i < last for i, sign in signs)
    if semicolons:
        for i in commas:
            if not _glued(typed, i):
                raise _after_semicolons(typed, i)
        return _entries(typed, start, end, semicolons, decimal_comma=True)
    if commas and glued and len(glued) < len(commas):
        raise _unclear(typed, glued[0])
    if commas and not (len(glued) == len(commas) and blanks):
        return _entries(typed, start, end, commas, decimal_comma=False)
    return Parser(typed[:end], True, spaced=True, pos=start).read_spaced()


def _entries(text: str, start: int, end: int, cuts: list[int], decimal_comma: bool) -> list[float]:
    separator = ";" if decimal_comma else ","
    return [
        Parser(part, decimal_comma, offset, f"entry {index}", separator=separator).read()
        for index, (offset, part) in enumerate(_split(text, start, end, cuts), start=1)
    ]

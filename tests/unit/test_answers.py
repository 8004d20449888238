"""Numeric answers as a student meets them: what they type and the verdict line they see.

The page shows "Correct. " + message, "Not yet. " + message, or an unreadable entry's
message alone; `seen` below composes the line the same way.
"""

import math
import random
import re

import pytest

from livelab.builder.answer_text import MAX_DEPTH, MAX_LENGTH
from livelab.builder.answers import NumericSpec, grade_numeric, read_number, read_vector

PREFIX = {"correct": "Correct. ", "wrong": "Not yet. ", "unreadable": ""}
SENTENCE = re.compile(r"^[A-Z“].*[.?]$", re.DOTALL)

TWO_DECIMALS = NumericSpec(math.sin(1), decimals=2)
EXACT = NumericSpec(12.0)
E2_LIKE = NumericSpec((0.0, math.sqrt(2)), decimals=3)
E4_LIKE = NumericSpec((2 * math.e / (1 + math.e), -3 / (1 + math.e)), decimals=6)


def seen(spec: NumericSpec, typed: str) -> str:
    """The verdict line the page shows after the student checks `typed`."""
    result = grade_numeric(spec, typed)
    return PREFIX[result["verdict"]] + result["message"]


def message(typed: str, spec: NumericSpec = TWO_DECIMALS) -> str:
    result = grade_numeric(spec, typed)
    assert result["verdict"] == "unreadable", result
    return result["message"]


# --- what is read ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.84", 0.84),
        (".84", 0.84),
        ("0,84", 0.84),
        ("3", 3.0),
        ("-2.5", -2.5),
        ("sqrt(9)", 3.0),
        ("2/3", 2 / 3),
        ("2^3", 8.0),
        ("2**3", 8.0),
        ("-2^2", -4.0),
        ("sin(1)", math.sin(1)),
        ("pi/2", math.pi / 2),
        ("e", math.e),
        ("1/(1+e^-1)", 1 / (1 + math.exp(-1))),
        (" 3 × 4 ", 12.0),
        ("−1", -1.0),
        ("√(20.5)", math.sqrt(20.5)),
        ("ln(e)", 1.0),
        ("(1+1+9+25)/4", 9.0),
        ("√2", math.sqrt(2)),
        ("sqrt 4 + 1", 3.0),
    ],
)
def test_reads_numbers_and_arithmetic(text, value):
    assert read_number(text) == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("8.4e-1", 0.84),
        ("3.0e-05", 3.0e-05),
        ("1e-3", 0.001),
        ("2E3", 2000.0),
        ("-1.5e+2", -150.0),
        (".5e1", 5.0),
        ("0,84e-1", 0.084),  # decimal comma with an exponent
        ("1e-3 * 2", 0.002),
    ],
)
def test_reads_scientific_notation_as_numpy_prints_it(text, value):
    assert read_number(text) == pytest.approx(value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("e", math.e),
        ("2*e", 2 * math.e),
        ("e-3", math.e - 3),
        ("e^-1", math.exp(-1)),
        ("2*e/(1+e)", 2 * math.e / (1 + math.e)),
        ("E", math.e),
    ],
)
def test_e_away_from_digits_is_eulers_number(text, value):
    assert read_number(text) == pytest.approx(value)


@pytest.mark.parametrize("typed", ["2e", "2e - 3", "2E"])
def test_a_number_glued_to_e_without_digits_shows_both_spellings(typed):
    said = message(typed)
    assert "2e-3" in said and "2*e" in said


def test_a_number_glued_to_a_name_asks_for_a_times_sign():
    assert (
        message("2pi") == "Could not read “pi” (character 2): put * between 2 and pi, as in 2*pi."
    )


@pytest.mark.parametrize("text", ["[0, sqrt(2)]", "0, 1.41421356", "(0; sqrt(2))", "0,sqrt(2)"])
def test_reads_vectors(text):
    assert read_vector(text) == pytest.approx([0, math.sqrt(2)])


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("[8.4e-1, 3.0e-05]", [0.84, 3.0e-05]),
        ("(1), (2)", [1.0, 2.0]),  # the brackets belong to the entries, not to the list
        ("[2*e/(1+e), -3/(1+e)]", [2 * math.e / (1 + math.e), -3 / (1 + math.e)]),
    ],
)
def test_reads_vectors_with_exponents_and_bracketed_entries(text, values):
    assert read_vector(text) == pytest.approx(values)


# --- what an unreadable entry says ------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "line"),
    [
        ("", "The answer is empty."),
        ("2 +", "The answer ends too soon: expected a number."),
        ("(1 + 2", "The answer ends too soon: a “(” is not closed."),
        ("1/0", "The answer divides by zero, so it has no value."),
        ("sqrt(-1)", "The function sqrt is not defined at -1."),
        ("ln(0)", "The function ln is not defined at 0."),
        (
            "abc",
            "Could not read “abc” (character 1): the name “abc” is unknown; the known names "
            "are sqrt, sin, cos, exp, ln, pi and e.",
        ),
        (
            "2 $ 3",
            "Could not read “$ 3” (character 3): only digits, + - * / ^, parentheses and "
            "names such as sqrt or pi can be read.",
        ),
        (
            "3 4",
            "Could not read “4” (character 3): this question asks for one number, and a second "
            "one starts here; to combine them, put an operator such as * or + between them.",
        ),
        (
            "3(4)",
            "Could not read “(4)” (character 2): a complete number ends just before this; join "
            "the parts with an operator such as * or +.",
        ),
        (
            "0.84 radians",
            "Could not read “radians” (character 6): the name “radians” is unknown; the known "
            "names are sqrt, sin, cos, exp, ln, pi and e.",
        ),
        ("(1+2))", "Could not read “)” (character 6): this “)” has no “(” to close."),
        (
            "√2 $",
            "Could not read “$” (character 4): only digits, + - * / ^, parentheses and "
            "names such as sqrt or pi can be read.",
        ),
    ],
)
def test_an_unreadable_entry_shows_a_sentence_that_says_where_and_why(typed, line):
    assert seen(TWO_DECIMALS, typed) == line


# --- lists typed on a phone, and advice that fits what is asked (issue 31) ---------------


@pytest.mark.parametrize("typed", ["0 1.414", "[0 1.414]", "0, 1.414", "[0, 1.414]", "0; 1.414"])
def test_a_list_with_blanks_commas_or_brackets_is_one_and_the_same_list(typed):
    assert read_vector(typed) == [0.0, 1.414]
    assert seen(E2_LIKE, typed) == "Correct. "


@pytest.mark.parametrize(
    ("typed", "where", "advice"),
    [
        ("0 1.414, 2", "“1.414” in entry 1 (character 3)", "put “,” between every two numbers"),
        ("[0, 1.414 2]", "“2” in entry 2 (character 11)", "put “,” between every two numbers"),
        ("0; 1,414 2", "“2” in entry 2 (character 10)", "put “;” between every two numbers"),
        ("[0, 2(3)]", "“(3)” in entry 2 (character 6)", "put “,” between every two numbers"),
        ("0 (1)(2)", "“(2)” in entry 2 (character 6)", "put a blank or a comma between every"),
    ],
)
def test_a_wrong_shaped_list_gets_advice_about_separating_its_numbers(typed, where, advice):
    said = message(typed, E2_LIKE)
    assert said.startswith(f"Could not read {where}: a number ends just before this; {advice}")
    assert "operator" not in said


@pytest.mark.parametrize("typed", ["2 6", "2, 6", "2\t6", "2 6 1", "[2 6]"])
def test_two_numbers_for_one_are_caught_as_one_number_asked_not_read_as_a_list(typed):
    assert "this question asks for one number" in message(typed, EXACT)


@pytest.mark.parametrize("typed", ["2 * 6", "2*6", "2 ^ 2 * 3", "24 / 2", " 12 "])
def test_arithmetic_with_blanks_still_reads_as_one_number(typed):
    assert seen(EXACT, typed) == "Correct. "


def test_a_too_long_answer_is_shown_an_example_of_what_is_asked():
    assert "for example a list such as [0, 1.41]" in message("1 " * 101, E2_LIKE)
    assert "for example a number such as 0.84" in message("1" * 201, EXACT)


def test_an_unreadable_entry_is_not_an_attempt():
    result = grade_numeric(TWO_DECIMALS, "zero point eight")
    assert result["verdict"] == "unreadable"
    assert result["message"].startswith("Could not read “zero point e…” (character 1)")


def test_a_vector_entry_that_cannot_be_read_is_named_and_located_in_the_whole_text():
    assert message("[1, foo]", E2_LIKE).startswith("Could not read “foo” in entry 2 (character 5)")
    assert message("[1, , 2]", E2_LIKE) == "Entry 2 is empty: put a number there."
    assert message("[1, 2", E2_LIKE) == (
        "The answer opens a “[” but does not close it with “]” at the end."
    )


def test_a_list_typed_where_one_number_is_asked_is_explained():
    assert "asks for one number, not a list" in message("[0.84, 1]")


# --- edge cases: a short message a student can act on, never a crash ----------------------

EDGE_CASES = [
    ("(" * 500 + "1" + ")" * 500, f"The answer is 1001 characters long; type at most {MAX_LENGTH}"),
    ("(" * 30 + "1" + ")" * 30, f"more than {MAX_DEPTH} parentheses, signs, powers or functions"),
    ("-" * 150 + "1", f"more than {MAX_DEPTH} parentheses"),
    ("sqrt " * 30 + "2", f"more than {MAX_DEPTH} parentheses"),
    ("exp(1000)", "The value of exp(1000) is too large to compute."),
    ("10^400", "The power 10^400 is too large to compute."),
    ("1e309", "The number “1e309” is too large to use; the largest is about 1.8e308."),
    ("1e308 * 10", "The answer is too large to compute."),
    ("nan", "The answer must be a finite number, not “nan”."),
    ("inf", "The answer must be a finite number, not “inf”."),
    ("-inf", "The answer must be a finite number, not “inf”."),
    ("(-8)^(1/3)", "A negative number to a fractional power ((-8)^0.333333) has no real value."),
    ("0^-1", "Zero to a negative power (0^-1) has no value."),
    ("a" * 1_000_000, f"The answer is 1000000 characters long; type at most {MAX_LENGTH}"),
    ("9" * 1_000_000, f"The answer is 1000000 characters long; type at most {MAX_LENGTH}"),
]


@pytest.mark.parametrize(("typed", "says"), EDGE_CASES, ids=[t[:12] for t, _ in EDGE_CASES])
def test_edge_cases_get_a_short_message_the_student_can_act_on(typed, says):
    for spec in (TWO_DECIMALS, E2_LIKE):
        said = message(typed, spec)
        assert says.replace("The answer", "") in said
        assert len(said) < 250 and SENTENCE.match(said)
        assert "recursion" not in said and "range error" not in said


def test_a_vector_entry_that_is_not_finite_is_named():
    assert message("[nan, 1]", E2_LIKE) == "Entry 1 must be a finite number, not “nan”."


def test_random_typing_only_ever_gives_a_number_or_a_sentence():
    alphabet = "0123456789.,eE+-*/^() √πsqrtexplnpinaf[];−×"
    rng = random.Random(19)
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        for spec in (TWO_DECIMALS, E2_LIKE, EXACT):
            result = grade_numeric(spec, text)  # anything but Unreadable would escape here
            if result["verdict"] == "unreadable":
                assert SENTENCE.match(result["message"]), (text, result["message"])


# --- how a readable but wrong value is judged ---------------------------------------------


@pytest.mark.parametrize("text", ["0.84", ".84", "0,84", "sin(1)", "0.841", "8.4e-1"])
def test_two_decimals_accepts_anything_within_half_a_unit(text):
    assert seen(TWO_DECIMALS, text) == "Correct. "


def test_a_value_rounded_too_early_is_called_close():
    assert seen(TWO_DECIMALS, "0.83") == (
        "Not yet. Close. Work with unrounded values and give 2 decimals."
    )


def test_a_value_far_off_is_sent_back_to_the_steps():
    assert seen(TWO_DECIMALS, "0.5") == (
        "Not yet. That is not it. Rework the steps above and try again."
    )


def test_an_exact_answer_needs_the_exact_value():
    assert seen(EXACT, "12") == "Correct. "
    assert seen(EXACT, "12.1") == (
        "Not yet. Close, but this answer is exact: no rounding is needed."
    )


def test_a_listed_wrong_answer_gets_its_own_message():
    spec = NumericSpec(1.0, wrong=((0.5, "That is the step, not the angle."),))
    assert seen(spec, "0.5") == "Not yet. That is the step, not the angle."


def test_vector_answers_compare_entry_by_entry():
    assert seen(E2_LIKE, "[0, 1.414]") == "Correct. "
    assert seen(E2_LIKE, "[0, 1.41, 3]") == "Not yet. The answer has 2 numbers; you gave 3."
    assert seen(E2_LIKE, "[0, 2]") == "Not yet. Entry 2 is off; check how you computed it."


def test_a_vector_rounded_too_early_is_called_close_like_a_single_number():
    assert seen(E4_LIKE, "[1.46, -0.81]") == "Not yet. Entry 1 is off; check how you computed it."
    assert seen(E4_LIKE, "[1.46212, -0.806824]") == (
        "Not yet. Entry 1 is close. Work with unrounded values and give 6 decimals."
    )
    assert seen(E4_LIKE, "[1.46212, -0.80682]") == (
        "Not yet. Entries 1 and 2 are close. Work with unrounded values and give 6 decimals."
    )
    assert seen(E4_LIKE, "[1.462117, -0.806824]") == "Correct. "


def test_a_vector_with_one_entry_far_off_names_that_entry_not_the_close_one():
    assert seen(E4_LIKE, "[1.46212, 0.806824]") == (
        "Not yet. Entry 2 is off; check how you computed it."
    )


@pytest.mark.parametrize(
    "typed", ["0.5", "0.83", "1", "[1, 2]", "12.1", "", "abc", "2e", "1/0", "nan", "x" * 300]
)
@pytest.mark.parametrize("spec", [TWO_DECIMALS, EXACT, E2_LIKE, E4_LIKE])
def test_every_message_is_a_capitalised_sentence_that_reads_after_its_prefix(spec, typed):
    result = grade_numeric(spec, typed)
    if result["verdict"] != "correct":
        assert SENTENCE.match(result["message"]), result["message"]
        assert not result["message"].startswith(("I ", "Correct", "Not yet"))


def test_a_spec_survives_the_trip_through_json_unchanged():
    import json

    spec = NumericSpec((0.0, math.sqrt(2)), decimals=3, wrong=(((0.0, 2.0), "length, not RMS"),))
    assert NumericSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec


@pytest.mark.parametrize(("typed", "column"), [("0.8x4", 4), ("[1, foo]", 5), ("", None)])
def test_an_unreadable_entry_tells_the_page_which_character_to_mark(typed, column):
    spec = E2_LIKE if typed.startswith("[") else TWO_DECIMALS
    assert grade_numeric(spec, typed)["column"] == column

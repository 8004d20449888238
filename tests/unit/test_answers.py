"""Reading numeric answers safely and judging them with the precision the question asks."""

import math

import pytest

from livelab.answers import NumericSpec, Unreadable, grade_numeric, read_number, read_vector


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
    ("text", "says"),
    [
        ("", "empty"),
        ("abc", "unknown name “abc”"),
        ("2 +", "expected a number"),
        ("(1 + 2", "not closed"),
        ("3 4", "unexpected text"),
        ("1/0", "division by zero"),
        ("sqrt(-1)", "not defined"),
        ("sqrt", "expected a number"),
        ("__import__('os')", "could not read"),
        ("2 $ 3", "could not read “$ 3”"),
    ],
)
def test_unreadable_text_says_what_was_not_understood(text, says):
    with pytest.raises(Unreadable) as info:
        read_number(text)
    assert says in str(info.value)


@pytest.mark.parametrize("text", ["[0, sqrt(2)]", "0, 1.41421356", "(0; sqrt(2))", "0,sqrt(2)"])
def test_reads_vectors(text):
    assert read_vector(text) == pytest.approx([0, math.sqrt(2)])


def test_a_vector_entry_that_cannot_be_read_is_named():
    with pytest.raises(Unreadable, match="entry 2"):
        read_vector("[1, foo]")


TWO_DECIMALS = NumericSpec(math.sin(1), decimals=2)


@pytest.mark.parametrize("text", ["0.84", ".84", "0,84", "sin(1)", "0.841"])
def test_two_decimals_accepts_anything_within_half_a_unit(text):
    assert grade_numeric(TWO_DECIMALS, text)["verdict"] == "correct"


def test_two_decimals_rejects_a_value_outside_the_tolerance():
    result = grade_numeric(TWO_DECIMALS, "0.83")
    assert result["verdict"] == "wrong"
    assert "2 decimals" in result["message"]


def test_an_exact_answer_needs_the_exact_value():
    exact = NumericSpec(12.0)
    assert grade_numeric(exact, "12")["verdict"] == "correct"
    assert grade_numeric(exact, "12.1")["verdict"] == "wrong"


def test_a_listed_wrong_answer_gets_its_own_message():
    spec = NumericSpec(1.0, wrong=((0.5, "That is the step, not the angle."),))
    assert grade_numeric(spec, "0.5") == {
        "verdict": "wrong",
        "message": "That is the step, not the angle.",
    }


def test_an_unreadable_entry_is_not_an_attempt():
    result = grade_numeric(TWO_DECIMALS, "zero point eight")
    assert result["verdict"] == "unreadable"
    assert "could not read" in result["message"]


def test_vector_answers_compare_entry_by_entry():
    spec = NumericSpec((0.0, math.sqrt(2)), decimals=2)
    assert grade_numeric(spec, "[0, 1.41]")["verdict"] == "correct"
    assert "2 numbers" in grade_numeric(spec, "[0, 1.41, 3]")["message"]
    assert "Entry 2" in grade_numeric(spec, "[0, 2]")["message"]


def test_a_spec_survives_the_trip_through_json_unchanged():
    import json

    spec = NumericSpec((0.0, math.sqrt(2)), decimals=3, wrong=(((0.0, 2.0), "length, not RMS"),))
    assert NumericSpec.from_json(json.loads(json.dumps(spec.to_json()))) == spec

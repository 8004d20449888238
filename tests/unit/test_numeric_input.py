"""The keyboard an answer field asks a phone for (issue 31), and the sign buttons.

A plain number gets the decimal keypad (iOS's has digits and a point only) and a "±" button;
a list or an expression gets a text keyboard. A prompt that invites an expression on a field
that would give only the number keypad stops the build.
"""

import re

import pytest

from livelab.builder.kinds import QuestionError
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.labs import lab
from livelab.labs.markup import Marks, number_control
from livelab.options import Option
from tests.answer_vectors import course_specs


def fence(**options):
    return {"id": "q1", "prompt": "How much?", "answer": 1, **options}


def field_and_buttons(options: dict) -> tuple[str, list[str]]:
    """The rendered answer field's tag and the buttons of its answer row."""
    html = NUMERIC.markup(NUMERIC.question(options), lambda text: f"<p>{text}</p>")
    row = re.search(r'<div class="livelab-answer-row".*?</div>', html)
    assert row
    field = re.search(r"<input [^>]*>", row.group(0))
    assert field
    return field.group(0), re.findall(r"<button [^>]*>[^<]*</button>", row.group(0))


def test_a_plain_number_gets_the_decimal_keypad_and_a_sign_button_beside_it():
    field, buttons = field_and_buttons(fence(answer="5/3", decimals=2))
    assert 'inputmode="decimal"' in field and 'enterkeyhint="done"' in field
    sign = [b for b in buttons if "data-sign" in b]
    assert len(sign) == 1
    assert 'aria-label="Change sign"' in sign[0] and 'aria-controls="q1-answer"' in sign[0]
    assert sign[0].endswith(">±</button>") and " disabled" in sign[0]
    assert buttons.index(sign[0]) == 0, "the sign button sits next to the field, before Check"


@pytest.mark.parametrize(
    ("options", "kind"),
    [
        ({"answer": [0, "sqrt(2)"], "decimals": 3}, "list"),
        ({"answer": [1, 2], "input": "list"}, "list"),
        ({"answer": "sin(1)", "decimals": 2, "input": "expression"}, "expression"),
    ],
)
def test_a_list_or_an_expression_gets_a_text_keyboard_that_types_as_it_is(options, kind):
    assert NUMERIC.question(fence(**options)).input == kind
    field, buttons = field_and_buttons(fence(**options))
    for attribute in (
        'inputmode="text"',
        'autocapitalize="off"',
        'autocorrect="off"',
        'spellcheck="false"',
        'enterkeyhint="done"',
    ):
        assert attribute in field
    assert not [b for b in buttons if "data-sign" in b]


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"answer": [0, 1], "input": "number"}, "option 'input' is 'number', but the answer is"),
        ({"answer": [0, 1], "input": "expression"}, "write input: list, or leave input out"),
        ({"answer": 2, "input": "list"}, "option 'input' is 'list', but the answer is one number"),
        ({"answer": 2, "input": "keypad"}, "input must be one of number, list, expression"),
    ],
)
def test_an_input_that_cannot_serve_the_answer_stops_the_build(options, error):
    with pytest.raises(QuestionError, match=re.escape(error)):
        NUMERIC.question(fence(**options))


@pytest.mark.parametrize(
    ("prompt", "quoted"),
    [
        ("Give 2 decimals; `sqrt(…)` is allowed.", "`sqrt(…)`"),
        ("Type `sin(1)` or its value.", "`sin(1)`"),
        ("Type ``2*pi/3`` or a number.", "``2*pi/3``"),
        ("Give 2 decimals (an expression is accepted too).", "“an expression is accepted”"),
        ("You may type arithmetic in the field.", "“type arithmetic”"),
        ("Arithmetic such as 2/3 is allowed.", "“Arithmetic such as 2/3 is allowed”"),
    ],
)
def test_a_prompt_inviting_an_expression_on_a_number_keypad_stops_the_build(prompt, quoted):
    with pytest.raises(QuestionError) as raised:
        NUMERIC.question(fence(prompt=prompt, decimals=2))
    said = str(raised.value)
    assert said.startswith(f"option 'prompt' invites an expression ({quoted}), but input is ")
    assert "write input: expression" in said
    with pytest.raises(QuestionError, match=r"but input is number, whose phone keypad"):
        NUMERIC.question(fence(prompt=prompt, decimals=2, input="number"))
    assert NUMERIC.question(fence(prompt=prompt, decimals=2, input="expression")).input == (
        "expression"
    )


@pytest.mark.parametrize(
    "prompt",
    [
        "What is $\\sqrt{2}$ to 2 decimals?",  # math is read, not typed
        "What does `rope_theta` give for pair 0?",  # a code span without a call
        "Evaluate the expression above. Give 2 decimals.",
    ],
)
def test_a_prompt_that_only_shows_math_or_names_keeps_the_number_keypad(prompt):
    assert NUMERIC.question(fence(prompt=prompt, decimals=2)).input == "number"


def test_the_course_gives_lists_and_invited_expressions_a_text_keyboard():
    inputs = {name.split(":")[1]: q.input for name, q in course_specs().items()}
    assert {inputs[i] for i in ("e1-arrows", "e2", "e2-zero", "e4")} == {"list"}
    assert {inputs[i] for i in ("q7", "clock-slowest", "capstone-params")} == {"expression"}
    assert {inputs[i] for i in ("q2", "q4", "e1", "clock-base")} == {"number"}


def test_a_lab_number_field_that_takes_negatives_has_a_sign_button_and_others_none():
    marks = Marks("lab", {"text": {}})
    signed = number_control("c", Option(0.0, -10.0, 10.0, 0.5, "shift c"), 0.0, marks)
    unsigned = number_control("n", Option(2, 1, 4, 1, "n", control="number"), 2, marks)
    unbounded = number_control("u", Option(0.0, None, None, 0.5, "u"), 0.0, marks)
    assert 'aria-label="Change sign of shift c" aria-controls="lab-c"' in signed
    assert 'aria-controls="lab-u"' in unbounded
    assert "data-sign" not in unsigned


@pytest.mark.parametrize(("kind", "entries"), [("rms", 6), ("rms_geometry", 2)])
def test_every_negative_entry_of_the_rms_labs_has_its_own_sign_button(kind, entries):
    chosen = lab(kind)
    first = chosen.first_view({})
    page = chosen.body(first["params"], Marks(kind, first["view"]))
    buttons = re.findall(r'data-sign aria-label="([^"]+)" aria-controls="([^"]+)"', page)
    assert page.count("data-sign") == len(buttons) == entries
    names = {name for name, _ in buttons}
    assert len(names) == entries and all(n.startswith("Change sign of ") for n in names)
    for _, target in buttons:
        assert re.search(rf'<input type="number" id="{target}"', page)

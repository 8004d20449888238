"""The numeric question: a number (or arithmetic, or a list) typed into a field.

The page grades it in JavaScript (web/grading/numeric.js, which the numeric widget imports),
from the spec sealed into the markup; CPython grades it with livelab.builder.answers (build
only: the build's replays and the tests), the same rules.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from livelab import i18n
from livelab.builder.answers import NumericSpec, Unreadable, grade_numeric, read_number, read_vector
from livelab.builder.kinds import (
    HINTS_OPTION,
    LAB_OPTION,
    BrowserReplay,
    QuestionError,
    QuestionKind,
    Render,
    Replay,
    hint_texts,
    register_kind,
)
from livelab.builder.question_markup import (
    EXCLUDE,
    SLOT,
    button_html,
    container,
    hints_html,
    prompt_html,
    reveal_box,
    verdict_html,
    with_html,
)
from livelab.labs.markup import attr, sign_button
from livelab.options import REQUIRED, Option, Options

OPTIONS = Options(
    id=Option(REQUIRED, types=(str,), what="the stable id, e.g. q2"),
    prompt=Option(REQUIRED, types=(str,), what="the question, Markdown"),
    answer=Option(REQUIRED, types=(int, float, str, list), what="a number, arithmetic or a list"),
    input=Option(
        "",
        choices=(("number", "number"), ("list", "list"), ("expression", "expression")),
        what="the keyboard a phone shows: number (digits, a point and a ± button) or list or "
        "expression (letters and signs); list for a list answer, else number by default",
    ),
    decimals=Option(None, types=(int,), what="decimals asked for; omit for an exact answer"),
    reveal=Option("", types=(str,), what="how the answer is shown when revealed"),
    explanation=Option("", types=(str,), what="shown once the answer is right or revealed"),
    wrong=Option((), types=(list,), what="list of {answer, message}: expected mistakes"),
    lab=LAB_OPTION,
    hints=HINTS_OPTION,
)


@dataclass(frozen=True)
class NumericQuestion:
    id: str
    prompt: str
    spec: NumericSpec
    answer_text: str
    reveal: str
    explanation: str
    input: str = "number"
    """The keyboard the field asks a phone for: number, list or expression."""
    lab: str = ""
    hints: tuple[str, ...] = ()
    kind: str = "numeric"

    def grade(self, text: str) -> dict:
        return grade_numeric(self.spec, text)


def _value(raw: Any, where: str) -> float | tuple[float, ...]:
    try:
        if isinstance(raw, list):
            return tuple(read_vector(", ".join(str(v) for v in raw)))
        return read_number(str(raw), decimal_comma=False)
    except Unreadable as exc:
        raise QuestionError(f"{where} {raw!r}: {exc}") from None


def _format_answer(value: float | tuple[float, ...], decimals: int | None) -> str:
    def one(v: float) -> str:
        return f"{v:.{decimals}f}" if decimals is not None else f"{v:g}"

    return "[" + ", ".join(map(one, value)) + "]" if isinstance(value, tuple) else one(value)


def parse(data: dict) -> NumericQuestion:
    """Checked options -> a question whose listed wrong answers cannot count as right."""
    answer = _value(data["answer"], "answer")
    decimals = data["decimals"]
    if decimals is not None and not 0 <= decimals <= 8:
        raise QuestionError(f"decimals must be between 0 and 8, got {decimals}")
    wrong = []
    for item in data["wrong"]:
        if not isinstance(item, dict) or set(item) != {"answer", "message"}:
            raise QuestionError(f"each wrong answer needs exactly answer and message: {item!r}")
        wrong.append((_value(item["answer"], "wrong answer"), str(item["message"])))
    spec = NumericSpec(answer, decimals, tuple(wrong))
    for value, _ in wrong:
        if spec.close(value, answer):
            raise QuestionError(f"the wrong answer {value!r} would count as right")
    answer_text = _format_answer(answer, decimals)
    return NumericQuestion(
        data["id"],
        data["prompt"],
        spec,
        answer_text,
        data["reveal"] or answer_text,
        data["explanation"],
        _input(data["input"], answer, data["prompt"]),
        data["lab"],
        hint_texts(data["hints"]),
    )


# What a prompt may show a student to type that a phone's number keypad cannot: a function
# call or a root in a code span, or words saying that an expression or arithmetic is accepted
# or may be typed.
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.DOTALL)
CALL = re.compile(r"\b(?:sqrt|sin|cos|exp|ln|log)\s*\(|√|\bpi\b|π")
EXPRESSION = r"\b(?:an? )?(?:expressions?|arithmetic)\b"
ACCEPTED = re.compile(
    rf"{EXPRESSION}[^.;:!?]*?\b(?:accepted|allowed)\b"
    rf"|\b(?:accepted|allowed)\b[^.;:!?]*?{EXPRESSION}"
    rf"|\b(?:type|enter|write)\b[^.;:!?]*?{EXPRESSION}",
    re.IGNORECASE,
)


def invited_expression(prompt: str) -> str:
    """What in a prompt invites typing an expression (quoted as written), or ""."""
    for match in CODE_SPAN.finditer(prompt):
        if CALL.search(match.group(2)):
            return match.group(0)
    words = ACCEPTED.search(prompt)
    return f"“{words.group(0)}”" if words else ""


def _input(given: str, answer: float | tuple[float, ...], prompt: str) -> str:
    """The keyboard of the field: as given, else from the answer; QuestionError if it cannot
    serve the answer, or if the number keypad would keep a student from typing what the
    prompt invites."""
    is_list = isinstance(answer, tuple)
    if is_list and given not in ("", "list"):
        raise QuestionError(
            f"option 'input' is {given!r}, but the answer is a list, whose commas and "
            "brackets need a text keyboard: write input: list, or leave input out"
        )
    if not is_list and given == "list":
        raise QuestionError(
            "option 'input' is 'list', but the answer is one number: give the answer as a "
            "YAML list such as [0, 1.41], or write input: number or input: expression"
        )
    chosen = given or ("list" if is_list else "number")
    invited = invited_expression(prompt) if chosen == "number" else ""
    if invited:
        set_how = "input is number" if given else "input is number (the default)"
        raise QuestionError(
            f"option 'prompt' invites an expression ({invited}), but {set_how}, whose phone "
            "keypad has only digits and a decimal point: write input: expression, or leave "
            "the expression out of the prompt"
        )
    return chosen


# The keyboard a phone shows for each input: iOS's decimal pad has digits and a point only,
# so a number field has a button that changes the sign; a list or an expression needs letters,
# brackets, commas and blanks, typed as they are (no capitals, corrections or spell check).
KEYBOARD = {
    "number": 'inputmode="decimal"',
    "list": 'inputmode="text" autocapitalize="off" autocorrect="off"',
    "expression": 'inputmode="text" autocapitalize="off" autocorrect="off"',
}


def markup(q: NumericQuestion, render: Render) -> str:
    """Prompt, a text field (with a sign button for a number), Check, a verdict line, hints
    and the answer, each on request."""
    field_id = f"{q.id}-answer"
    explanation = render(q.explanation) if q.explanation else ""
    answer = with_html(
        i18n.text("markup.answer", answer=SLOT), f"<strong>{html.escape(q.reveal)}</strong>"
    )
    reveal = f"<p>{answer}</p>{explanation}"
    field = (
        f'<input type="text" id="{attr(field_id)}" class="livelab-field" {KEYBOARD[q.input]} '
        'enterkeyhint="done" autocomplete="off" spellcheck="false" disabled>'
    )
    if q.input == "number":  # the field and its sign button stay side by side
        field = f'<span class="livelab-signed">{field}{sign_button(field_id)}</span>'
    body = (
        prompt_html(q.id, render(q.prompt)) + f'<div class="livelab-answer-row"{EXCLUDE}>'
        f'<label for="{attr(field_id)}">{html.escape(i18n.text("markup.your_answer"))}</label>'
        + field
        + button_html("check", i18n.text("markup.check"))
        + button_html("hint", i18n.text("markup.hint"), hidden=True)
        + button_html("reveal", i18n.text("markup.show_answer"), hidden=True)
        + "</div>"
        + verdict_html()
        + hints_html()
        + reveal_box()
    )
    hints = [render(hint) for hint in q.hints]
    sealed = {"spec": q.spec.to_json(), "reveal": reveal, "hints": hints}
    return container("numeric", q.id, body, sealed)


def replays(q: NumericQuestion) -> Iterator[Replay]:
    """The answer as the page shows it must pass; each listed mistake gets its own message."""
    yield Replay(q.answer_text, "correct")
    for value, message in q.spec.wrong:
        text = ", ".join(map(repr, value)) if isinstance(value, tuple) else repr(value)
        yield Replay(text, "wrong", message)


KIND = register_kind(
    QuestionKind(
        name="numeric",
        options=OPTIONS,
        parse=parse,
        markup=markup,
        replays=replays,
        grade=lambda q, answer: q.grade(answer),
        browser=BrowserReplay(
            where="the page's JavaScript",
            module="grading/numeric.js",
            call="gradeNumeric",
            # Through JSON, as the page carries the spec.
            args=lambda q, answer: [q.spec.to_json(), answer],
        ),
        module=__name__,
    )
)

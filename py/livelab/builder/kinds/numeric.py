"""The numeric question: a number (or arithmetic, or a list) typed into a field.

The page grades it in JavaScript (web/grading/numeric.js, which the numeric widget imports),
from the spec sealed into the markup; CPython grades it with livelab.answers, the same rules.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from livelab.answers import NumericSpec, Unreadable, grade_numeric, read_number, read_vector
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
    button_html,
    container,
    hints_html,
    prompt_html,
    reveal_box,
    verdict_html,
)
from livelab.labs.markup import attr
from livelab.options import REQUIRED, Option, Options

OPTIONS = Options(
    id=Option(REQUIRED, types=(str,), what="the stable id, e.g. q2"),
    prompt=Option(REQUIRED, types=(str,), what="the question, Markdown"),
    answer=Option(REQUIRED, types=(int, float, str, list), what="a number, arithmetic or a list"),
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
        data["lab"],
        hint_texts(data["hints"]),
    )


def markup(q: NumericQuestion, render: Render) -> str:
    """Prompt, a text field, Check, a verdict line, hints and the answer, each on request."""
    field_id = f"{q.id}-answer"
    explanation = render(q.explanation) if q.explanation else ""
    reveal = f"<p>Answer: <strong>{html.escape(q.reveal)}</strong></p>{explanation}"
    body = (
        prompt_html(q.id, render(q.prompt)) + f'<div class="livelab-answer-row"{EXCLUDE}>'
        f'<label for="{attr(field_id)}">Your answer</label>'
        f'<input type="text" id="{attr(field_id)}" class="livelab-field" inputmode="decimal" '
        'autocomplete="off" spellcheck="false" disabled>'
        + button_html("check", "Check")
        + button_html("hint", "Hint", hidden=True)
        + button_html("reveal", "Show answer", hidden=True)
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

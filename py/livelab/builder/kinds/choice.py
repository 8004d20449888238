"""The choice question: one right option among several, each with its reason.

The page grades it in the choice widget from the sealed index of the right option, so there
is nothing for the browser to replay: the author check replays it in CPython only.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from livelab.builder.kinds import (
    HINTS_OPTION,
    LAB_OPTION,
    QuestionError,
    QuestionKind,
    Render,
    Replay,
    hint_texts,
    register_kind,
)
from livelab.builder.question_markup import (
    EXCLUDE,
    actions_html,
    button_html,
    container,
    hints_html,
    prompt_html,
    verdict_html,
)
from livelab.labs.markup import attr
from livelab.options import REQUIRED, Option, Options

OPTIONS = Options(
    id=Option(REQUIRED, types=(str,), what="the stable id, e.g. q1"),
    prompt=Option(REQUIRED, types=(str,), what="the question, Markdown"),
    options=Option(
        REQUIRED, types=(list,), what="list of {text, why, correct: true on exactly one}"
    ),
    label=Option("", types=(str,), what="a tag shown before the prompt, e.g. Predict"),
    lab=LAB_OPTION,
    hints=HINTS_OPTION,
)


@dataclass(frozen=True)
class ChoiceOption:
    text: str
    why: str
    correct: bool


@dataclass(frozen=True)
class ChoiceQuestion:
    id: str
    prompt: str
    options: tuple[ChoiceOption, ...]
    label: str
    lab: str = ""
    hints: tuple[str, ...] = ()
    kind: str = "choice"

    @property
    def correct_index(self) -> int:
        return next(i for i, option in enumerate(self.options) if option.correct)


def parse(data: dict) -> ChoiceQuestion:
    """Checked options -> a question with at least two options and exactly one right."""
    options = []
    for index, item in enumerate(data["options"], start=1):
        if not isinstance(item, dict) or not {"text", "why"} <= set(item):
            raise QuestionError(f"option {index} needs text and why: {item!r}")
        extra = set(item) - {"text", "why", "correct"}
        if extra:
            raise QuestionError(f"option {index} has unknown keys {sorted(extra)}")
        if not isinstance(item.get("correct", False), bool):
            raise QuestionError(f"option {index}: correct must be true or false")
        options.append(
            ChoiceOption(str(item["text"]), str(item["why"]), item.get("correct", False))
        )
    if len(options) < 2:
        raise QuestionError("a choice question needs at least two options")
    if sum(o.correct for o in options) != 1:
        raise QuestionError("exactly one option must be marked correct: true")
    return ChoiceQuestion(
        data["id"],
        data["prompt"],
        tuple(options),
        data["label"],
        data["lab"],
        hint_texts(data["hints"]),
    )


def markup(q: ChoiceQuestion, render: Render) -> str:
    """Prompt, a radio group with an empty slot per option for its reason, Check, verdict,
    and the hints and the answer, each on request."""
    options = []
    for index, option in enumerate(q.options):
        option_id = f"{q.id}-option-{index}"
        options.append(
            '<div class="livelab-option">'
            f'<input type="radio" name="{attr(q.id)}" id="{attr(option_id)}" value="{index}" '
            "disabled>"
            f'<label for="{attr(option_id)}">{render(option.text)}</label>'
            f'<div class="livelab-why" data-why="{index}" hidden{EXCLUDE}></div>'
            "</div>"
        )
    body = (
        prompt_html(q.id, render(q.prompt), q.label)
        + f'<div role="radiogroup" aria-labelledby="{attr(q.id)}-prompt">{"".join(options)}</div>'
        + actions_html(
            button_html("check", "Check"),
            button_html("hint", "Hint", hidden=True),
            button_html("reveal", "Show answer", hidden=True),
        )
        + verdict_html()
        + hints_html()
    )
    sealed = {
        "correct": q.correct_index,
        "why": [render(o.why) for o in q.options],
        "hints": [render(hint) for hint in q.hints],
    }
    return container("choice", q.id, body, sealed)


def replays(q: ChoiceQuestion) -> Iterator[Replay]:
    """Every option by its index: the marked one is right, each other is wrong with its reason."""
    for index, option in enumerate(q.options):
        yield Replay(str(index), "correct" if option.correct else "wrong", option.why)


def grade(q: ChoiceQuestion, answer: str) -> dict:
    """As the choice widget grades a picked option: against the sealed index, with its reason."""
    picked = int(answer)
    right = picked == q.correct_index
    return {"verdict": "correct" if right else "wrong", "message": q.options[picked].why}


KIND = register_kind(
    QuestionKind(
        name="choice",
        options=OPTIONS,
        parse=parse,
        markup=markup,
        replays=replays,
        grade=grade,
        module=__name__,
    )
)

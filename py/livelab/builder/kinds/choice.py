"""The choice question: one right option among several, each with its reason; or, with
`multiple: true`, every right option among several, picked together and graded as a whole,
with the reason of each wrong pick and a count of the right options not picked.

The page grades it in the choice widget from the sealed index (or indices) of the right
options, so there is nothing for the browser to replay: the author check replays it in
CPython only.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass

from livelab import i18n
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
        REQUIRED,
        types=(list,),
        what="list of {text, why, correct: true on exactly one (on one or more if multiple)}",
    ),
    multiple=Option(
        False, types=(bool,), what="true: several options may be right; the student picks all"
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
    multiple: bool = False
    kind: str = "choice"

    @property
    def correct_index(self) -> int:
        return next(i for i, option in enumerate(self.options) if option.correct)

    @property
    def correct_indices(self) -> list[int]:
        return [i for i, option in enumerate(self.options) if option.correct]


def not_picked(count: int) -> str:
    """What a multiple-answer check says of right options left out (the widget says the same)."""
    return f"{count} right option{'s are' if count > 1 else ' is'} not picked yet."


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
    right = sum(o.correct for o in options)
    if data["multiple"] and right == 0:
        raise QuestionError("at least one option must be marked correct: true")
    if not data["multiple"] and right != 1:
        raise QuestionError(
            f"exactly one option must be marked correct: true ({right} are); "
            "write multiple: true if the student should pick several"
        )
    return ChoiceQuestion(
        data["id"],
        data["prompt"],
        tuple(options),
        data["label"],
        data["lab"],
        hint_texts(data["hints"]),
        data["multiple"],
    )


def markup(q: ChoiceQuestion, render: Render) -> str:
    """Prompt, a radio group with an empty slot per option for its reason, Check, verdict,
    and the hints and the answer, each on request."""
    options = []
    kind = "checkbox" if q.multiple else "radio"
    for index, option in enumerate(q.options):
        option_id = f"{q.id}-option-{index}"
        options.append(
            '<div class="livelab-option">'
            f'<input type="{kind}" name="{attr(q.id)}" id="{attr(option_id)}" value="{index}" '
            "disabled>"
            f'<label for="{attr(option_id)}">{render(option.text)}</label>'
            f'<div class="livelab-why" data-why="{index}" hidden{EXCLUDE}></div>'
            "</div>"
        )
    # The question is a group named by its prompt; several boxes sit in a group of their own,
    # named by the line that says to pick every right one.
    if q.multiple:
        note_id = f"{q.id}-note"
        note = html.escape(i18n.text("markup.pick_every"))
        head = f'<p class="livelab-choice-note" id="{attr(note_id)}">{note}</p>'
        group = f'<div role="group" aria-labelledby="{attr(note_id)}">'
    else:
        head, group = "", f'<div role="radiogroup" aria-labelledby="{attr(q.id)}-prompt">'
    body = (
        prompt_html(q.id, render(q.prompt), q.label)
        + head
        + group
        + f"{''.join(options)}</div>"
        + actions_html(
            button_html("check", i18n.text("markup.check")),
            button_html("hint", i18n.text("markup.hint"), hidden=True),
            button_html("reveal", i18n.text("markup.show_answer"), hidden=True),
        )
        + verdict_html()
        + hints_html()
    )
    sealed = {
        "correct": q.correct_indices if q.multiple else q.correct_index,
        "why": [render(o.why) for o in q.options],
        "hints": [render(hint) for hint in q.hints],
    }
    return container("choice", q.id, body, sealed)


def _answer(indices) -> str:
    return ",".join(str(i) for i in sorted(indices))


def replays(q: ChoiceQuestion) -> Iterator[Replay]:
    """Every option by its index: the marked one is right, each other is wrong with its reason.
    Multiple: the right set is right; it plus any wrong option is wrong with that option's
    reason; it less any one right option is wrong, saying one is not picked yet."""
    if not q.multiple:
        for index, option in enumerate(q.options):
            yield Replay(str(index), "correct" if option.correct else "wrong", option.why)
        return
    right = q.correct_indices
    yield Replay(_answer(right), "correct")
    for index, option in enumerate(q.options):
        if option.correct and len(right) > 1:
            yield Replay(_answer(set(right) - {index}), "wrong", not_picked(1))
        elif not option.correct:
            yield Replay(_answer([*right, index]), "wrong", option.why)


def grade(q: ChoiceQuestion, answer: str) -> dict:
    """As the choice widget grades a pick: against the sealed index, with its reason; or, for
    several, against the right set, with the reason of each wrong pick and what is missing."""
    if not q.multiple:
        picked = int(answer)
        right = picked == q.correct_index
        return {"verdict": "correct" if right else "wrong", "message": q.options[picked].why}
    picked_set = {int(i) for i in answer.split(",") if i}
    right_set = set(q.correct_indices)
    if picked_set == right_set:
        return {"verdict": "correct", "message": ""}
    said = [q.options[i].why for i in sorted(picked_set - right_set)]
    if right_set - picked_set:
        said.append(not_picked(len(right_set - picked_set)))
    return {"verdict": "wrong", "message": " ".join(said)}


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

"""Questions as authors declare them in fences: numeric, choice and code.

Each kind has its options declared as data (name -> accepted types, required or not); the
fence body is checked against that table, then turned into a frozen question object that
the markup renders and the author check replays. Build-time only.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from livelab.answers import NumericSpec, Unreadable, grade_numeric, read_number, read_vector
from livelab.questions import BLANK, CODE_QUESTIONS


class QuestionError(ValueError):
    """An authoring mistake in a question fence."""


@dataclass(frozen=True)
class Option:
    """One declared fence option: the types it accepts and whether it must be given."""

    types: tuple[type, ...]
    required: bool = False
    what: str = ""


LAB_OPTION = Option((str,), False, "the id of a lab on this page that helps answer it")

OPTIONS: dict[str, dict[str, Option]] = {
    "numeric": {
        "id": Option((str,), True, "the stable id, e.g. q2"),
        "prompt": Option((str,), True, "the question, Markdown"),
        "answer": Option((int, float, str, list), True, "a number, arithmetic or a list"),
        "decimals": Option((int,), False, "decimals asked for; omit for an exact answer"),
        "reveal": Option((str,), False, "how the answer is shown when revealed"),
        "explanation": Option((str,), False, "shown once the answer is right or revealed"),
        "wrong": Option((list,), False, "list of {answer, message}: expected mistakes"),
        "lab": LAB_OPTION,
    },
    "choice": {
        "id": Option((str,), True, "the stable id, e.g. q1"),
        "prompt": Option((str,), True, "the question, Markdown"),
        "options": Option((list,), True, "list of {text, why, correct: true on exactly one}"),
        "label": Option((str,), False, "a tag shown before the prompt, e.g. Predict"),
        "lab": LAB_OPTION,
    },
    "code": {
        "id": Option((str,), True, "the stable id, e.g. c1"),
        "question": Option((str,), True, "the code question's name in livelab.questions"),
        "prompt": Option((str,), True, "the task, Markdown"),
        "blank_label": Option((str,), False, "accessible name of the blank's text field"),
        "lab": LAB_OPTION,
    },
}


def check_options(kind: str, data: dict) -> None:
    """Reject unknown options, missing required ones and values of the wrong type."""
    table = OPTIONS[kind]
    unknown = sorted(set(data) - set(table))
    if unknown:
        raise QuestionError(
            f"unknown option {', '.join(map(repr, unknown))}; a {kind} question takes "
            f"{', '.join(table)}"
        )
    for name, option in table.items():
        if name not in data:
            if option.required:
                raise QuestionError(f"missing option {name!r} ({option.what})")
            continue
        value = data[name]
        if isinstance(value, bool) or not isinstance(value, option.types):
            raise QuestionError(f"option {name!r} must be {option.what}; got {value!r}")


def _value(raw: Any, where: str) -> float | tuple[float, ...]:
    try:
        if isinstance(raw, list):
            return tuple(read_vector(", ".join(str(v) for v in raw)))
        return read_number(str(raw), decimal_comma=False)
    except Unreadable as exc:
        raise QuestionError(f"{where} {raw!r}: {exc}") from None


@dataclass(frozen=True)
class NumericQuestion:
    id: str
    prompt: str
    spec: NumericSpec
    answer_text: str
    reveal: str
    explanation: str
    lab: str = ""
    kind: str = "numeric"

    def grade(self, text: str) -> dict:
        return grade_numeric(self.spec, text)


def _format_answer(value: float | tuple[float, ...], decimals: int | None) -> str:
    def one(v: float) -> str:
        return f"{v:.{decimals}f}" if decimals is not None else f"{v:g}"

    return "[" + ", ".join(map(one, value)) + "]" if isinstance(value, tuple) else one(value)


def numeric_question(data: dict) -> NumericQuestion:
    check_options("numeric", data)
    answer = _value(data["answer"], "answer")
    decimals = data.get("decimals")
    if decimals is not None and not 0 <= decimals <= 8:
        raise QuestionError(f"decimals must be between 0 and 8, got {decimals}")
    wrong = []
    for item in data.get("wrong", []):
        if not isinstance(item, dict) or set(item) != {"answer", "message"}:
            raise QuestionError(f"each wrong answer needs exactly answer and message: {item!r}")
        wrong.append((_value(item["answer"], "wrong answer"), str(item["message"])))
    spec = NumericSpec(answer, decimals, tuple(wrong))
    for value, _ in wrong:
        if spec.close(value, answer):
            raise QuestionError(f"the wrong answer {value!r} would count as right")
    answer_text = _format_answer(answer, decimals)
    reveal = data.get("reveal") or answer_text
    explanation = data.get("explanation", "")
    return NumericQuestion(
        data["id"], data["prompt"], spec, answer_text, reveal, explanation, data.get("lab", "")
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
    kind: str = "choice"

    @property
    def correct_index(self) -> int:
        return next(i for i, option in enumerate(self.options) if option.correct)


def choice_question(data: dict) -> ChoiceQuestion:
    check_options("choice", data)
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
        data["id"], data["prompt"], tuple(options), data.get("label", ""), data.get("lab", "")
    )


@dataclass(frozen=True)
class CodeQuestionRef:
    id: str
    question: str
    prompt: str
    blank_label: str
    lab: str = ""
    kind: str = "code"

    @property
    def template(self) -> str:
        return CODE_QUESTIONS[self.question].template

    @property
    def reference_blank(self) -> str:
        return CODE_QUESTIONS[self.question].reference_blank


def code_question(data: dict) -> CodeQuestionRef:
    check_options("code", data)
    name = data["question"]
    if name not in CODE_QUESTIONS:
        raise QuestionError(
            f"no code question {name!r}; known: {', '.join(sorted(CODE_QUESTIONS))}"
        )
    from livelab import grading

    result = grading.check_reference(name)
    if result["verdict"] != "correct":
        raise QuestionError(
            f"the reference blank of {name!r} fails its grader: {result['message']}"
        )
    if CODE_QUESTIONS[name].template.count(BLANK) != 1:
        raise QuestionError(f"the template of {name!r} must hold exactly one {BLANK}")
    label = data.get("blank_label", "blank: your code")
    if "blank" not in label.lower():
        raise QuestionError("blank_label must contain the word blank")
    return CodeQuestionRef(data["id"], name, data["prompt"], label, data.get("lab", ""))


Question = NumericQuestion | ChoiceQuestion | CodeQuestionRef
QUESTION_KINDS: dict[str, Callable[[dict], Question]] = {
    "numeric": numeric_question,
    "choice": choice_question,
    "code": code_question,
}

"""The exercise: a code question written wholly in its fence (issue 34).

    ```exercise
    id: e1
    prompt: Write the body of `rms_norm`.
    function: rms_norm
    template: |
      def rms_norm(x, eps=1e-6):
          ____
    solution: |
      ms = np.mean(x ** 2, axis=-1, keepdims=True)
      return x / np.sqrt(ms + eps)
    example:
      - args: [[3.0, 4.0]]
    wrong:
      - blank: return x / np.mean(x ** 2, axis=-1, keepdims=True)
        feedback: That divides by the mean square; its root is the row's size.
    ```

The build makes the CodeQuestion (livelab.questions.exercise), grades the solution and every
known wrong answer in CPython, and stops naming the field when one does not do what the fence
says. The page shows it as a code question (widgets/code.js, the same grader, isolation, time
limit and messages); the grading data travels sealed with the question, and the page's main
worker defines the question from it before its first plan (worker_api `exercise`).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass

from livelab import grading
from livelab.builder.kinds import (
    HINTS_OPTION,
    LAB_OPTION,
    BrowserReplay,
    QuestionError,
    QuestionKind,
    Render,
    Replay,
    code,
    hint_texts,
    judge,
    register_kind,
)
from livelab.options import REQUIRED, Option, Options
from livelab.questions.exercise import (
    EXERCISE_PREFIX,
    GRADING_FIELDS,
    define,
    exercise_question,
    solution_blanks,
    wrong_blanks,
)

OPTIONS = Options(
    id=Option(REQUIRED, types=(str,), what="the stable id, e.g. e1"),
    prompt=Option(REQUIRED, types=(str,), what="the task, Markdown"),
    function=Option(
        REQUIRED, types=(str,), what="the function the template defines and the grader calls"
    ),
    template=Option(
        REQUIRED,
        types=(str,),
        what="the program shown, with one ____ or several (alone on its line, a blank takes "
        "several lines)",
    ),
    solution=Option(
        REQUIRED,
        types=(str, list),
        what="the reference answer for the blank; for several, a list: one per blank, in order",
    ),
    example=Option(
        REQUIRED,
        types=(list,),
        what="the cases the student sees: each {args: [...], kwargs: {...}, label: ...}; "
        "a list of numbers is a float array",
    ),
    cases=Option([], types=(list,), what="hidden cases, as example"),
    generate=Option(
        "",
        types=(str,),
        what="Python defining cases(rng) that returns more hidden cases (rng: a seeded NumPy "
        "generator)",
    ),
    compare=Option(
        {},
        types=(dict, str),
        what='"exact", or tolerances {rtol: 1e-6, atol: 1e-9} (those are the default)',
    ),
    seed=Option(0, types=(int,), what="the seed of the generator given to generate"),
    wrong=Option(
        [],
        types=(list,),
        what="known wrong answers, each {blank: ..., feedback: Markdown} ({blanks: [...], ...} "
        "for several blanks): each must fail with its feedback",
    ),
    blank_label=code.OPTIONS["blank_label"],  # one default, so the two kinds name it alike
    lab=LAB_OPTION,
    hints=HINTS_OPTION,
)


@dataclass(frozen=True)
class Exercise(code.CodeQuestionRef):
    """A code question from its fence: the data the worker grades it by, as JSON."""

    data: str = "{}"
    kind: str = "exercise"


def exercise_name(qid: str, grading_data: dict) -> str:
    """exercise-<id>-<digest of what grades it>: one name per exercise across the site."""
    text = json.dumps(grading_data, sort_keys=True)
    return f"{EXERCISE_PREFIX}{qid}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def parse(data: dict) -> Exercise:
    """Checked options -> an exercise whose solution passes and whose wrong answers fail."""
    grading_data = {key: data[key] for key in GRADING_FIELDS}
    name = exercise_name(data["id"], grading_data)
    question = exercise_question(name, grading_data)  # ExerciseError names the field
    try:
        result = grading.check_reference(question)
    except RuntimeError as exc:  # the solution raised, or returned no NumPy array
        raise QuestionError(f"solution: it fails its own cases: {exc}") from None
    if result["verdict"] != "correct":
        raise QuestionError(f"solution: it fails its own cases: {result['message']}")
    label = code.checked_label(data["blank_label"], question.blank_count)
    for number, replay in enumerate(_wrong_replays(grading_data), start=1):
        problem = judge(replay, grading.check(question, replay.answer))
        if problem:
            raise QuestionError(f"wrong {number}: {problem}")
    define(name, grading_data, question)  # only once it is right: a page may name it now
    return Exercise(
        id=data["id"],
        question=name,
        prompt=data["prompt"],
        blank_label=label,
        lab=data["lab"],
        hints=hint_texts(data["hints"]),
        data=json.dumps(grading_data),
    )


def markup(q: Exercise, render: Render) -> str:
    """A code question's markup, with its grading data sealed beside the reference."""
    return code.markup(q, render, exercise=json.loads(q.data))


def _answer(texts: list[str]) -> str | list[str]:
    """An answer as the page sends it: one blank's text, or a list of each blank's."""
    return texts[0] if len(texts) == 1 else texts


def _wrong_replays(data: dict) -> list[Replay]:
    """Each known wrong answer, which must fail with its feedback."""
    count = str(data["template"]).count(code.BLANK)
    return [
        Replay(_answer(wrong_blanks(item, count, i)), "wrong", item["feedback"])
        for i, item in enumerate(data["wrong"], 1)
    ]


def replays(q: Exercise) -> list[Replay]:
    data = json.loads(q.data)
    solution = _answer([text.strip("\n") for text in solution_blanks(data)])
    return [Replay(solution, "correct"), *_wrong_replays(data)]


KIND = register_kind(
    QuestionKind(
        name="exercise",
        options=OPTIONS,
        parse=parse,
        markup=markup,
        replays=replays,
        grade=lambda q, blank: grading.check(q.question, blank),
        browser=BrowserReplay(
            where="Pyodide",
            module="runtime/page/checks.js",
            call="codeRequest",
            args=lambda q, blank: [
                "check",
                q.question,
                blank,
                {"timeoutMs": code.CHECK_TIMEOUT_MS, "exercise": json.loads(q.data)},
            ],
        ),
        module=__name__,
    )
)

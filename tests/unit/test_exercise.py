"""Code exercises written as data (issue 34, the `exercise` fence's body): the question they
make grades the solution right, each known wrong answer with its own feedback, and a blank of
several lines; mistakes in the data are named by field."""

import json
import re
from pathlib import Path

import pytest

from livelab import grading, worker_api
from livelab.builder import fence_yaml
from livelab.builder.kinds import QuestionError, judge, question_kind
from livelab.builder.question_markup import unseal
from livelab.questions.exercise import ExerciseError, exercise_question

RMS = {
    "function": "rms_norm",
    "template": ("def rms_norm(x, eps=1e-6):\n    ____\n\nprint(rms_norm(np.array([3.0, 4.0])))\n"),
    "solution": ("ms = np.mean(x ** 2, axis=-1, keepdims=True)\nreturn x / np.sqrt(ms + eps)\n"),
    "example": [{"args": [[3.0, 4.0]]}],
    "cases": [
        {"args": [[[1.0, 2.0], [3.0, 4.0]]], "label": "a batch of two rows"},
        {"args": [[0.0, 0.0]], "kwargs": {"eps": 1.0}, "label": "zeros with eps 1"},
    ],
    "generate": "def cases(rng):\n    return [{'args': [rng.standard_normal((2, 5)).tolist()]}]\n",
    "wrong": [
        {
            "blank": "return x / np.sqrt(np.mean(x ** 2) + eps)",
            "feedback": "One mean over the whole array mixes the rows: take it along the last.",
        },
        {
            "blank": "return x / np.mean(x ** 2, axis=-1, keepdims=True)",
            "feedback": "That divides by the mean square; its root is the size of the row.",
        },
    ],
}


def test_the_solution_passes_and_each_wrong_answer_gets_its_feedback():
    q = exercise_question("exercise-page-e1", RMS)
    assert q.blank_is_whole_line
    assert grading.check_reference(q)["verdict"] == "correct"
    for item in RMS["wrong"]:
        result = grading.check(q, item["blank"])
        assert result["verdict"] == "wrong"
        assert item["feedback"] in result["message"]
    other = grading.check(q, "return x")
    assert other["verdict"] == "wrong"
    assert not any(item["feedback"] in other["message"] for item in RMS["wrong"])


def test_literal_and_generated_cases_are_all_checked():
    q = exercise_question("exercise-page-e1", RMS)
    labels = [case.label for case in q.cases()]
    assert labels[1:3] == ["a batch of two rows", "zeros with eps 1"]
    assert len(labels) == 4  # the example, two literal cases, one generated


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"template": "def rms_norm(x):\n    return x\n"}, "template: needs a ____"),
        ({"solution": "return x +"}, "solution: the template with it does not run"),
        ({"function": "rms"}, "solution: the template defines no function 'rms'"),
        ({"wrong": [{"blank": "return x"}]}, "wrong 1: needs exactly blank (or blanks) and"),
        (
            {"wrong": [{"blanks": ["return x", "x"], "feedback": "F."}]},
            "wrong 1: blanks: the template has 1 blank but 2 texts are given",
        ),
        ({"solution": ["return x", "x"]}, "solution: the template has 1 blank but 2 texts"),
        ({"example": [{"arg": [1]}]}, "example 1: each case is {args: [...]"),
        ({"generate": "x = 1"}, "generate: define a function cases(rng)"),
    ],
)
def test_a_mistake_in_the_data_is_named_by_its_field(change, said):
    with pytest.raises(ExerciseError, match=re.escape(said)):
        exercise_question("exercise-page-e1", {**RMS, **change})


# ---- the fence: the build checks it, the page keeps it sealed, the worker grades it ----------

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "authoring.md"
FENCE = re.compile(r"^```exercise\n(.*?)^```$", re.S | re.M)


def guide_exercises() -> list[dict]:
    """The exercises the authoring guide shows, as an author would copy them: a whole body in
    one blank (e1), then two blanks (e2)."""
    found = FENCE.findall(GUIDE.read_text(encoding="utf-8"))
    assert len(found) == 2
    return [fence_yaml.load(text) for text in found]


def guide_exercise() -> dict:
    """The guide's first exercise: one blank, a whole function body."""
    return guide_exercises()[0]


@pytest.mark.parametrize("number", [0, 1])
def test_the_guides_exercises_build_and_replay_as_the_guide_says(number):
    kind = question_kind("exercise")
    data = guide_exercises()[number]
    q = kind.question(data)
    assert q.question.startswith(f"exercise-{data['id']}-")
    assert q.blank_count == number + 1
    replays = list(kind.replays(q))
    assert [r.verdict for r in replays] == ["correct", "wrong", "wrong"]
    for replay in replays:
        assert judge(replay, kind.grade(q, replay.answer)) is None


SAME = "return x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + eps)"


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            # The solution written another way: a "wrong" answer that is right.
            {"wrong": [{"blank": SAME, "feedback": "x * x is not x ** 2."}]},
            f"wrong 1: {SAME!r} should be wrong, but passed",
        ),
        (
            {"wrong": [{"blank": "return x", "feedback": "Not this message."}]},
            "wrong 1: 'return x' should say 'Not this message.'",
        ),
        # Axis 1 does not exist for the example's one row, and the template prints it.
        ({"solution": "return x / np.sqrt(np.mean(x ** 2, axis=1) + eps)"}, "solution: the "),
        # Without keepdims a batch of 2 rows of 5 does not broadcast.
        ({"solution": "return x / np.sqrt(np.mean(x ** 2, axis=-1) + eps)"}, "solution: it fails"),
        ({"compare": {"tol": 1e-3}}, 'compare: "exact", or {rtol: ..., atol: ...}'),
        ({"example": "[3, 4]"}, "option 'example'"),
    ],
)
def test_a_mistake_in_the_fence_is_named_by_its_field(change, said):
    with pytest.raises(QuestionError, match=re.escape(said)):
        question_kind("exercise").question({**guide_exercise(), **change})


def test_the_page_carries_the_solution_and_wrong_answers_only_sealed():
    kind = question_kind("exercise")
    data = guide_exercise()
    html = kind.markup(kind.question(data), lambda text: text)
    assert "np.sqrt(ms + eps)" not in html
    assert "mixes the rows" not in html
    assert 'data-livelab="code"' in html  # graded by the code question's widget
    sealed = re.search(r'data-sealed="([^"]+)"', html)[1]
    assert unseal(sealed)["exercise"]["solution"] == data["solution"]


def test_a_worker_that_never_saw_the_exercise_grades_it_from_the_data_the_page_sends():
    kind = question_kind("exercise")
    q = kind.question(guide_exercise())
    sent = json.loads(q.data)
    name = q.question.replace("exercise-e1-", "exercise-e1-fresh")  # not defined here yet
    wrong = sent["wrong"][0]

    def call(fn: str, **args) -> dict:
        reply = json.loads(worker_api.call(fn, json.dumps(args)))
        assert "value" in reply, reply
        return reply["value"]

    plan = call("code_plan", question=name, action="check", exercise=sent)
    raw = call("code_execute", plan=plan, blank=wrong["blank"])
    verdict = call("code_grade", question=name, raw=raw, exercise=sent)
    assert verdict["verdict"] == "wrong"
    assert wrong["feedback"] in verdict["message"]

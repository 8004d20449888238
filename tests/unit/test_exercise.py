"""Code exercises written as data (issue 34, the `exercise` fence's body): the question they
make grades the solution right, each known wrong answer with its own feedback, and a blank of
several lines; mistakes in the data are named by field."""

import re

import pytest

from livelab import grading
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
        ({"template": "def rms_norm(x):\n    return x\n"}, "template: needs exactly one ____"),
        ({"solution": "return x +"}, "solution: the template with it does not run"),
        ({"function": "rms"}, "solution: the template defines no function 'rms'"),
        ({"wrong": [{"blank": "return x"}]}, "wrong 1: needs exactly blank and feedback"),
        ({"example": [{"arg": [1]}]}, "example 1: each case is {args: [...]"),
        ({"generate": "x = 1"}, "generate: define a function cases(rng)"),
    ],
)
def test_a_mistake_in_the_data_is_named_by_its_field(change, said):
    with pytest.raises(ExerciseError, match=re.escape(said)):
        exercise_question("exercise-page-e1", {**RMS, **change})

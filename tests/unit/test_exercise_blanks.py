"""An exercise whose template has several blanks: the solution is a list, one text per blank;
each known wrong answer gives `blanks:`; a check fills every blank in, names an empty one by
its number, and locates an error in the blank it comes from; mistakes in the fence are named
by field."""

import re

import pytest

from livelab import grading, i18n
from livelab.builder.kinds import QuestionError, judge, question_kind
from livelab.grading_program import fill_blanks
from livelab.questions.exercise import ExerciseError, exercise_question

TWO = {
    "function": "rms_norm",
    "template": (
        "def rms_norm(x, eps=1e-6):\n"
        "    ms = ____\n"
        "    return x / ____\n\n"
        "print(rms_norm(np.array([3.0, 4.0])))\n"
    ),
    "solution": ["np.mean(x ** 2, axis=-1, keepdims=True)", "np.sqrt(ms + eps)"],
    "example": [{"args": [[3.0, 4.0]]}],
    "cases": [{"args": [[[1.0, 2.0], [3.0, 4.0]]], "label": "a batch of two rows"}],
    "wrong": [
        {
            "blanks": ["np.mean(x ** 2)", "np.sqrt(ms + eps)"],
            "feedback": "One mean over the whole array mixes the rows.",
        },
        {
            "blanks": ["np.mean(x ** 2, axis=-1, keepdims=True)", "ms"],
            "feedback": "That divides by the mean square, not its root.",
        },
    ],
}

# Three blanks: a whole line of two statements, then two blanks that share a line.
THREE = {
    "function": "affine",
    "template": (
        "def affine(x, a, b):\n"
        "    ____\n"
        "    return ____ * centred + ____\n\n"
        "print(affine(np.array([1.0, 3.0]), 2.0, 1.0))\n"
    ),
    "solution": ["mean = x.mean()\ncentred = x - mean", "a", "b"],
    "example": [{"args": [[1.0, 3.0], 2.0, 1.0]}],
    "cases": [{"args": [[0.0, 1.0, 5.0], -1.0, 0.5], "label": "three numbers"}],
    "wrong": [{"blanks": ["centred = x", "a", "b"], "feedback": "Subtract the mean first."}],
}


def test_two_blanks_the_solution_passes_and_each_wrong_answer_gets_its_feedback():
    q = exercise_question("exercise-page-e2", TWO)
    assert q.blank_count == 2 and q.whole_lines == (False, False)
    assert grading.check_reference(q)["verdict"] == "correct"
    for item in TWO["wrong"]:
        result = grading.check(q, item["blanks"])
        assert result["verdict"] == "wrong"
        assert item["feedback"] in result["message"]
    assert grading.run(q, TWO["solution"])["stdout"] == "[0.8485281 1.1313708]\n"


def test_three_blanks_a_whole_line_and_two_on_one_line_are_filled_in_order():
    q = exercise_question("exercise-page-e3", THREE)
    assert q.whole_lines == (True, False, False)
    assert grading.check_reference(q)["verdict"] == "correct"
    result = grading.check(q, THREE["wrong"][0]["blanks"])
    assert "Subtract the mean first." in result["message"]
    source, places = fill_blanks(THREE["template"], ["m = 1\nc = x", "a", "bb"])
    assert source.splitlines()[1:4] == ["    m = 1", "    c = x", "    return a * centred + bb"]
    line = source.splitlines()[3]
    assert places.locate(4, line.index("bb")) == (3, 1, 1)
    assert places.locate(4, line.index("a *")) == (2, 1, 1)
    assert places.locate(3, 4) == (1, 2, 1)
    assert places.locate(1, 0) == (None, None, None)


def test_an_empty_blank_is_named_by_its_number():
    q = exercise_question("exercise-page-e3", THREE)
    result = grading.check(q, ["centred = x - x.mean()", "a", "  "])
    assert result["verdict"] == "error"
    assert result["message"] == ("Blank 3 is still empty: type your code in place of ____.")
    one_line = grading.check(q, ["centred = x", "a\n+ 1", "b"])["message"]
    assert one_line == "Blank 2 takes a single line: write it without line breaks."
    assert "3 blanks" in grading.check(q, ["centred = x", "a"])["message"]


def test_a_syntax_error_is_located_in_the_blank_it_comes_from():
    q = exercise_question("exercise-page-e3", THREE)
    result = grading.check(q, ["centred = x - x.mean()", "a", "b +"])
    error = result["error"]
    assert (error["type"], error["blank"], error["line"]) == ("SyntaxError", 3, 1)
    assert result["message"].startswith("Syntax error at column ")
    assert " of blank 3: " in result["message"]
    second_line = grading.check(q, ["mean = x.mean()\ncentred = x - mean)", "a", "b"])
    assert second_line["error"]["blank"] == 1
    assert "Syntax error at line 2, column 19 of blank 1" in second_line["message"]


def test_a_traceback_is_located_in_the_blank_it_comes_from():
    q = exercise_question("exercise-page-e3", THREE)
    result = grading.check(q, ["centred = x - x.mean()", "aa", "b"])
    error = result["error"]
    assert (error["type"], error["blank"], error["line"], error["column"]) == (
        "NameError",
        2,
        1,
        1,
    )
    assert "raised NameError at column 1 of blank 2" in result["message"]
    body = grading.check(q, ["mean = x.mean()\ncentred = x - maen", "a", "b"])
    assert "at line 2, column 15 of blank 1" in body["message"]


def fence(**change) -> dict:
    base = {
        "id": "e2",
        "prompt": "Fill in both blanks.",
        "blank_label": "blank: rms_norm",
        **TWO,
    }
    return {**base, **change}


def test_a_fence_of_two_blanks_replays_as_written():
    kind = question_kind("exercise")
    q = kind.question(fence())
    replays = list(kind.replays(q))
    assert replays[0].answer == TWO["solution"]
    assert [r.verdict for r in replays] == ["correct", "wrong", "wrong"]
    for replay in replays:
        assert judge(replay, kind.grade(q, replay.answer)) is None
    html = kind.markup(q, lambda text: text)
    assert html.count("<textarea") == 2
    assert 'aria-label="blank 1 of 2: rms_norm"' in html
    assert 'aria-label="blank 2 of 2: rms_norm"' in html
    labelled = kind.markup(kind.question(fence(blank_label=["blank: ms", "blank: root"])), str)
    assert 'aria-label="blank: ms"' in labelled and 'aria-label="blank: root"' in labelled


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (
            {"solution": "np.mean(x ** 2, axis=-1, keepdims=True)"},
            "solution: the template has 2 blanks: give a list of 2 texts",
        ),
        (
            {"solution": ["np.mean(x ** 2, axis=-1, keepdims=True)"]},
            "solution: the template has 2 blanks but 1 text is given",
        ),
        (
            {"wrong": [{"blank": "np.mean(x ** 2)", "feedback": "F."}]},
            "wrong 1: blank: the template has 2 blanks: give a list of 2 texts",
        ),
        (
            {"wrong": [{"blanks": ["np.mean(x ** 2)"], "feedback": "F."}]},
            "wrong 1: blanks: the template has 2 blanks but 1 text is given",
        ),
        (
            {"wrong": [{"blanks": ["np.mean(x ** 2)", "ms"], "blank": "x", "feedback": "F."}]},
            "wrong 1: needs exactly blank (or blanks) and feedback",
        ),
        ({"blank_label": ["blank: ms"]}, "blank_label: the template has 2 blank(s)"),
        ({"blank_label": ["blank: ms", "the root"]}, "blank_label must contain the word blank"),
    ],
)
def test_a_mistake_in_a_fence_of_two_blanks_is_named_by_its_field(change, said):
    error = QuestionError if "blank_label" in said else (QuestionError, ExerciseError)
    with pytest.raises(error, match=re.escape(said)):
        question_kind("exercise").question(fence(**change))


def test_a_french_student_sees_the_fields_buttons_and_messages_in_french(monkeypatch):
    monkeypatch.setattr(i18n, "_current", ["fr"])
    kind = question_kind("exercise")
    # As a French author writes it: the label names the trou.
    question = kind.question(fence(blank_label="trou\u00a0: rms_norm"))
    html = kind.markup(question, lambda text: text)
    assert 'aria-label="trou 1 sur 2\u00a0: rms_norm"' in html
    assert ">Vérifier</button>" in html and ">Afficher la réponse</button>" in html
    q = exercise_question("exercise-page-e3", THREE)
    empty = grading.check(q, ["centred = x - x.mean()", "a", ""])["message"]
    assert empty == "Le trou 3 est encore vide\u00a0: écrivez votre code à la place de ____."
    located = grading.check(q, ["mean = x.mean()\ncentred = x - maen", "a", "b"])["message"]
    assert "ligne 2, colonne 15 du trou 1" in located
    one = grading.check(exercise_question("exercise-page-e1", {**TWO, **ONE_BLANK}), "")
    assert one["message"] == "Le trou est encore vide\u00a0: écrivez votre code à la place de ____."


ONE_BLANK = {
    "template": "def rms_norm(x, eps=1e-6):\n    return x / ____\n",
    "solution": "np.sqrt(np.mean(x ** 2, axis=-1, keepdims=True) + eps)",
    "wrong": [],
}

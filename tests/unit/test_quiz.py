"""Question fences as data: what an author may write, and the mistakes that stop the build."""

import dataclasses

import pytest

from livelab.build import quiz
from livelab.build.fences import parse_body
from livelab.questions import CODE_QUESTIONS


def test_a_code_question_whose_reference_fails_its_grader_is_refused(monkeypatch):
    broken = dataclasses.replace(CODE_QUESTIONS["rotate"], reference_blank="np.array([1.0, 0.0])")
    monkeypatch.setattr(quiz, "CODE_QUESTIONS", {"rotate": broken})
    monkeypatch.setattr("livelab.grading.CODE_QUESTIONS", {"rotate": broken})
    with pytest.raises(quiz.QuestionError, match="reference blank of 'rotate' fails its grader"):
        quiz.code_question({"id": "c2", "question": "rotate", "prompt": "P"})


def test_a_code_question_takes_its_template_and_answer_from_the_question_module():
    q = quiz.code_question({"id": "c2", "question": "rotate", "prompt": "P"})
    assert q.template == CODE_QUESTIONS["rotate"].template
    assert q.reference_blank == CODE_QUESTIONS["rotate"].reference_blank


def test_the_blank_label_must_name_the_blank():
    with pytest.raises(quiz.QuestionError, match="blank_label must contain the word blank"):
        quiz.code_question({"id": "c2", "question": "rotate", "prompt": "P", "blank_label": "x"})


def test_numeric_answers_may_be_arithmetic_and_vectors():
    q = quiz.numeric_question({"id": "e2", "prompt": "P", "answer": [0, "sqrt(2)"], "decimals": 3})
    assert q.answer_text == "[0.000, 1.414]"
    assert q.grade("[0, 1.414]")["verdict"] == "correct"


def test_an_option_of_the_wrong_type_is_named():
    with pytest.raises(quiz.QuestionError, match="option 'decimals' must be"):
        quiz.numeric_question({"id": "q", "prompt": "P", "answer": 1, "decimals": "two"})


def test_every_declared_option_says_what_it_is_for():
    for kind, table in quiz.OPTIONS.items():
        for name, option in table.items():
            assert option.what, f"{kind}.{name} has no description"


@pytest.mark.parametrize(
    ("body", "key", "value"),
    [
        ("answer: 010", "answer", 10),  # YAML 1.1 would read the octal 8
        ("id: no", "id", "no"),  # YAML 1.1 would read false
        ("answer: 1e-3", "answer", 0.001),  # YAML 1.1 would read the text "1e-3"
        ("answer: -2.5E+2", "answer", -250.0),
        ("answer: 0x1F", "answer", 31),
        ("correct: true", "correct", True),
        ("correct: yes", "correct", "yes"),
    ],
)
def test_fence_bodies_are_read_as_yaml_1_2(body, key, value):
    data = parse_body(body)
    assert data[key] == value and type(data[key]) is type(value)

"""Question fences as data: what an author may write, and the mistakes that stop the build."""

import dataclasses
import re

import pytest

import livelab.questions as questions
from livelab.builder.fences import FenceContext, custom_fences, parse_body
from livelab.builder.kinds import QuestionError, Replay, all_kinds, judge, question_kind
from livelab.builder.kinds.code import KIND as CODE
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.questions import code_question
from tests.unit.test_exercise import guide_exercise


def test_the_four_kinds_are_registered_and_each_is_a_fence():
    assert list(all_kinds()) == ["choice", "code", "exercise", "numeric"]
    fences = {entry["name"] for entry in custom_fences(FenceContext())}
    assert set(all_kinds()) <= fences


def test_an_unknown_kind_names_the_known_ones():
    known = r"did you mean 'numeric'.*known question kinds: choice, code"
    with pytest.raises(ValueError, match=known):
        question_kind("numerc")


def test_a_code_question_whose_reference_fails_its_grader_is_refused(monkeypatch):
    broken = dataclasses.replace(code_question("rotate"), reference_blank="np.array([1.0, 0.0])")
    monkeypatch.setitem(questions.CODE_QUESTIONS.items, "rotate", broken)
    with pytest.raises(QuestionError, match="reference blank of 'rotate' fails its grader"):
        CODE.question({"id": "c2", "question": "rotate", "prompt": "P"})


def test_a_code_question_takes_its_template_and_answer_from_the_question_module():
    q = CODE.question({"id": "c2", "question": "rotate", "prompt": "P"})
    assert q.template == code_question("rotate").template
    assert q.reference_blank == code_question("rotate").reference_blank
    assert q.blank_label == "blank: your code"


def test_an_unknown_code_question_is_named_with_a_close_one():
    with pytest.raises(QuestionError, match="unknown code question 'rotat' \\(did you mean"):
        CODE.question({"id": "c2", "question": "rotat", "prompt": "P"})


def test_the_blank_label_must_name_the_blank():
    with pytest.raises(QuestionError, match="blank_label must contain the word blank"):
        CODE.question({"id": "c2", "question": "rotate", "prompt": "P", "blank_label": "x"})


def test_numeric_answers_may_be_arithmetic_and_vectors():
    q = NUMERIC.question({"id": "e2", "prompt": "P", "answer": [0, "sqrt(2)"], "decimals": 3})
    assert q.answer_text == "[0.000, 1.414]"
    assert q.grade("[0, 1.414]")["verdict"] == "correct"


def test_an_option_of_the_wrong_type_is_named():
    with pytest.raises(QuestionError, match="option 'decimals' must be"):
        NUMERIC.question({"id": "q", "prompt": "P", "answer": 1, "decimals": "two"})


def test_a_missing_option_says_what_it_is_for():
    with pytest.raises(QuestionError, match="missing option 'answer' \\(a number, arithmetic"):
        NUMERIC.question({"id": "q", "prompt": "P"})


def test_an_unknown_option_gets_a_did_you_mean():
    with pytest.raises(QuestionError, match="unknown option 'promt' \\(did you mean 'prompt'"):
        NUMERIC.question({"id": "q", "promt": "P", "answer": 1})


def test_every_declared_option_says_what_it_is_for():
    for name, kind in all_kinds().items():
        assert "lab" in kind.options, f"{name} questions cannot name their lab"
        for option_name, option in kind.options.items():
            assert option.what, f"{name}.{option_name} has no description"


def test_each_kind_replays_its_own_question_clean_in_cpython():
    bodies = {
        "numeric": {
            "id": "q",
            "prompt": "P",
            "answer": 2,
            "wrong": [{"answer": 3, "message": "M"}],
        },
        "choice": {
            "id": "q",
            "prompt": "P",
            "options": [{"text": "a", "why": "A", "correct": True}, {"text": "b", "why": "B"}],
        },
        "code": {"id": "c", "question": "rotate", "prompt": "P"},
        "exercise": guide_exercise(),
    }
    for name, kind in all_kinds().items():
        q = kind.question(bodies[name])
        replays = list(kind.replays(q))
        assert {r.verdict for r in replays} == {"correct", "wrong"}, name
        assert [judge(r, kind.grade(q, r.answer)) for r in replays] == [None] * len(replays)


def test_the_judge_names_a_wrong_answer_that_passes_and_a_message_that_differs():
    assert judge(Replay("1", "wrong", "M"), {"verdict": "correct", "message": ""}) == (
        "'1' should be wrong, but passed"
    )
    assert judge(Replay("1", "wrong", "M"), {"verdict": "wrong", "message": "N"}) == (
        "'1' should say 'M', said 'N'"
    )
    assert judge(Replay("1", "correct"), {"verdict": "error", "message": "E"}) == (
        "'1' should be right, got: E"
    )


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


def test_a_reference_of_several_lines_gets_a_text_area_that_says_how_its_keys_work(monkeypatch):
    lines = dataclasses.replace(
        code_question("swiglu_ffn"),
        reference_blank="hidden = silu(x @ W_gate) * (x @ W_up)\nreturn hidden @ W_down",
    )
    monkeypatch.setitem(questions.CODE_QUESTIONS.items, "swiglu_ffn", lines)
    q = CODE.question({"id": "c3", "question": "swiglu_ffn", "prompt": "P"})
    html = CODE.markup(q, lambda text: text)
    assert '<textarea class="livelab-blank"' in html and "data-line " not in html
    assert 'rows="4" data-lines aria-describedby="c3-blank-note"' in html
    assert 'id="c3-blank-note">Several lines. Enter keeps the indent' in html
    # A one-line blank is a text area of one line that wraps (code.js keeps line breaks out).
    one_line = CODE.markup(CODE.question({"id": "c2", "question": "rotate", "prompt": "P"}), str)
    assert '<textarea class="livelab-blank"' in one_line
    assert 'rows="1" data-line aria-multiline="false"' in one_line and "data-lines" not in one_line


def test_a_reference_of_several_lines_needs_a_blank_alone_on_its_line():
    rotate = code_question("rotate")
    assert not rotate.blank_is_whole_line
    with pytest.raises(ValueError, match="needs a ____ that stands alone on its line"):
        dataclasses.replace(rotate, reference_blank="c, s = 1, 0\nnp.array([c, s])")


# ---- choice with several right options (multiple: true) ---------------------------------

SEVERAL = {
    "id": "m1",
    "prompt": "Which parts of LayerNorm does RMSNorm leave out?",
    "multiple": True,
    "options": [
        {"text": "the mean", "why": "no mean is taken", "correct": True},
        {"text": "the shift", "why": "only the gain stays", "correct": True},
        {"text": "the gain", "why": "the gain stays"},
        {"text": "the division", "why": "both divide"},
    ],
}


def test_several_right_options_are_graded_as_a_whole():
    from livelab.builder.kinds.choice import KIND as CHOICE

    q = CHOICE.question(SEVERAL)
    assert q.correct_indices == [0, 1]
    assert CHOICE.grade(q, "0,1") == {"verdict": "correct", "message": ""}
    assert CHOICE.grade(q, "0") == {
        "verdict": "wrong",
        "message": "1 right option is not picked yet.",
    }
    assert CHOICE.grade(q, "2,3") == {
        "verdict": "wrong",
        "message": "the gain stays both divide 2 right options are not picked yet.",
    }
    assert CHOICE.grade(q, "0,1,3")["message"] == "both divide"
    problems = [p for r in CHOICE.replays(q) if (p := judge(r, CHOICE.grade(q, r.answer)))]
    assert problems == []
    assert len(list(CHOICE.replays(q))) == 5  # the right set, less each right one, plus each wrong


def test_several_right_options_are_checkboxes_and_the_sealed_answer_is_a_list():
    from livelab.builder.kinds.choice import KIND as CHOICE
    from livelab.builder.question_markup import unseal

    html = CHOICE.markup(CHOICE.question(SEVERAL), lambda text: text)
    assert html.count('type="checkbox"') == 4 and 'type="radio"' not in html
    assert '<div role="group" aria-labelledby="m1-note">' in html
    assert '<p class="livelab-choice-note" id="m1-note">Pick every right option.</p>' in html
    sealed = re.search(r'data-sealed="([^"]+)"', html).group(1)
    assert unseal(sealed)["correct"] == [0, 1]


def test_a_choice_without_multiple_names_the_option_when_two_are_marked_right():
    from livelab.builder.kinds.choice import KIND as CHOICE

    with pytest.raises(QuestionError, match=r"\(2 are\); write multiple: true"):
        CHOICE.question({**SEVERAL, "multiple": False})
    none_right = [{**o, "correct": False} for o in SEVERAL["options"]]
    with pytest.raises(QuestionError, match="at least one option must be marked correct"):
        CHOICE.question({**SEVERAL, "options": none_right})
    with pytest.raises(QuestionError, match="option 'multiple' must be"):
        CHOICE.question({**SEVERAL, "multiple": "yes"})

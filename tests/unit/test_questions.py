"""Replay every code question from its data file, the single source of its answers."""

import dataclasses
import json
import pkgutil

import numpy as np
import pytest

import labs.questions as level19_questions
import livelab.questions as questions
from livelab import grading
from livelab.builder.kinds import judge
from livelab.builder.kinds.code import blank_replays
from livelab.questions import BLANK, all_code_questions, code_question, load_blanks

CODE_QUESTIONS = all_code_questions()
NAMES = list(CODE_QUESTIONS)
REPLAYS = [(n, r) for n in NAMES for r in blank_replays(CODE_QUESTIONS[n])]


def test_each_question_module_registers_its_question_from_itself():
    modules = {info.name for info in pkgutil.iter_modules(level19_questions.__path__)}
    assert modules and len(CODE_QUESTIONS) == len(modules)
    assert {q.module for q in CODE_QUESTIONS.values()} == {
        f"labs.questions.{name}" for name in modules
    }
    with pytest.raises(ValueError, match="did you mean 'rotate'"):
        code_question("rotat")


COURSE_MODULE = """
import dataclasses
from livelab.questions import code_question, register_code_question

QUESTION = register_code_question(
    dataclasses.replace(code_question("rotate"), name="turn_pair", module=__name__)
)
"""


def test_a_course_registers_its_own_question_with_its_data_file_beside_its_module(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(questions.CODE_QUESTIONS, "items", dict(questions.CODE_QUESTIONS.items))
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "course_questions_for_test.py").write_text(COURSE_MODULE)
    data = {"correct": ["c * v + s * np.array([-v[1], v[0]])"], "wrong": []}
    data["wrong"].append({"blank": "v", "message": "hands its input back unchanged"})
    (tmp_path / "turn_pair.cases.json").write_text(json.dumps(data))
    __import__("course_questions_for_test")
    assert "turn_pair" in all_code_questions()
    assert load_blanks("turn_pair") == data
    replays = list(blank_replays(code_question("turn_pair")))
    assert [judge(r, grading.check("turn_pair", r.answer)) for r in replays] == [None] * 3


def test_a_second_question_of_the_same_name_from_another_module_is_refused(monkeypatch):
    monkeypatch.setattr(questions.CODE_QUESTIONS, "items", dict(questions.CODE_QUESTIONS.items))
    copy = dataclasses.replace(code_question("rotate"), module="elsewhere")
    with pytest.raises(ValueError, match="'rotate' is registered twice"):
        questions.register_code_question(copy)


def test_a_question_without_its_data_file_says_where_to_write_it(monkeypatch):
    monkeypatch.setattr(questions.CODE_QUESTIONS, "items", dict(questions.CODE_QUESTIONS.items))
    questions.register_code_question(
        dataclasses.replace(code_question("rotate"), name="lost", module="labs.kernels")
    )
    with pytest.raises(ValueError, match=r"write lost\.cases\.json beside labs\.kernels"):
        load_blanks("lost")


@pytest.mark.parametrize("name", NAMES)
def test_data_file_has_enough_correct_and_wrong_blanks(name):
    data = load_blanks(name)
    assert len(set(data["correct"])) >= 5
    assert len({entry["blank"] for entry in data["wrong"]}) >= 8
    assert all(set(entry) == {"blank", "message"} for entry in data["wrong"])
    assert CODE_QUESTIONS[name].reference_blank not in data["correct"]


@pytest.mark.parametrize("name", NAMES)
def test_template_has_one_blank_and_defines_the_function(name):
    q = CODE_QUESTIONS[name]
    assert q.template.count(BLANK) == 1
    assert f"def {q.function_name}(" in q.template


@pytest.mark.parametrize("name", NAMES)
def test_reference_blank_passes_its_own_grader(name):
    result = grading.check_reference(name)
    assert result["verdict"] == "correct", result["message"]


@pytest.mark.parametrize("name", NAMES)
def test_run_of_the_reference_blank_prints_what_the_reference_kernel_prints(name):
    q = CODE_QUESTIONS[name]
    result = grading.run(name, q.reference_blank)
    assert result["verdict"] == "ran"
    assert result["stdout"] == grading.example_output(name)  # printed with q.reference
    assert result["stdout"].strip()


@pytest.mark.parametrize(("name", "replay"), REPLAYS)
def test_each_listed_blank_gets_the_verdict_and_message_its_data_file_says(name, replay):
    assert judge(replay, grading.check(name, replay.answer)) is None


@pytest.mark.parametrize("name", NAMES)
def test_every_misconception_is_exercised_by_the_data_file(name):
    q = CODE_QUESTIONS[name]
    seen = {grading.check(name, e["blank"])["misconception"] for e in load_blanks(name)["wrong"]}
    assert {m.key for m in q.misconceptions} <= seen


@pytest.mark.parametrize("name", NAMES)
def test_misconception_messages_are_distinct(name):
    messages = [m.message for m in CODE_QUESTIONS[name].misconceptions]
    assert len(set(messages)) == len(messages)


@pytest.mark.parametrize("name", NAMES)
def test_every_variant_differs_from_the_reference_where_it_is_compared(name):
    q = CODE_QUESTIONS[name]
    cases = q.cases()
    for m in q.misconceptions:
        for variant in m.variants:
            compared = [c for c in cases if not (c.tags & m.skip_tags)]
            differs = False
            for case in compared:
                with np.errstate(all="ignore"):
                    try:
                        got = variant(*case.args, **case.kwargs)
                    except Exception:
                        differs = True
                        break
                want = q.reference(*case.args, **case.kwargs)
                if np.shape(got) != want.shape or not np.allclose(got, want, rtol=q.rtol):
                    differs = True
                    break
            assert differs, f"{name}: variant of {m.key} equals the reference"


@pytest.mark.parametrize("name", NAMES)
def test_hidden_cases_are_fixed_by_the_seed(name):
    q = CODE_QUESTIONS[name]
    first, second = q.cases(), q.cases()
    assert [c.label for c in first] == [c.label for c in second]
    for a, b in zip(first, second, strict=True):
        for x, y in zip(a.args, b.args, strict=True):
            if isinstance(x, dict):  # a dict of weights, as the capstone block takes
                assert x.keys() == y.keys()
                assert all(np.array_equal(x[key], y[key]) for key in x)
            else:
                assert np.array_equal(x, y)


@pytest.mark.parametrize("name", ["rmsnorm", "swiglu_ffn"])
def test_hidden_cases_cover_rows_matrices_and_batches(name):
    ndims = {np.ndim(case.args[0]) for case in CODE_QUESTIONS[name].cases() if case.hidden}
    assert {1, 2, 3} <= ndims


def test_rmsnorm_cases_include_zero_rows_tiny_values_negatives_and_a_custom_eps():
    cases = [c for c in CODE_QUESTIONS["rmsnorm"].cases() if c.hidden]
    xs = [np.asarray(c.args[0]) for c in cases]
    assert any(x.ndim == 2 and (np.abs(x).sum(axis=-1) == 0).any() for x in xs)
    assert any(0 < np.abs(x).max() < 0.01 for x in xs)
    assert any((x < 0).any() for x in xs)
    assert any(c.kwargs.get("eps", 1e-6) != 1e-6 for c in cases)


def test_rotate_cases_vary_theta_and_include_negative_entries_and_position_0():
    cases = [c for c in CODE_QUESTIONS["rotate"].cases() if c.hidden]
    assert {c.kwargs.get("theta", 0.5) for c in cases} - {0.5}
    assert any((np.asarray(c.args[0]) < 0).any() for c in cases)
    assert any(c.args[1] == 0 for c in cases)

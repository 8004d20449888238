"""Replay every code question from its data file, the single source of its answers."""

import numpy as np
import pytest

from livelab import grading
from livelab.questions import BLANK, CODE_QUESTIONS, load_blanks

NAMES = sorted(CODE_QUESTIONS)
CORRECT = [(n, b) for n in NAMES for b in load_blanks(n)["correct"]]
WRONG = [(n, e["blank"], e["message"]) for n in NAMES for e in load_blanks(n)["wrong"]]


def test_the_three_code_questions_are_registered_read_only():
    assert NAMES == ["rmsnorm", "rotate", "swiglu_ffn"]
    with pytest.raises(TypeError):
        CODE_QUESTIONS["extra"] = CODE_QUESTIONS["rmsnorm"]  # type: ignore[index]


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


@pytest.mark.parametrize(("name", "blank"), CORRECT)
def test_correct_blank_passes(name, blank):
    result = grading.check(name, blank)
    assert result["verdict"] == "correct", result["message"]


@pytest.mark.parametrize(("name", "blank", "message"), WRONG)
def test_wrong_blank_fails_with_its_message(name, blank, message):
    result = grading.check(name, blank)
    assert result["verdict"] in ("wrong", "error")
    assert message in result["message"]


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


@pytest.mark.parametrize("name", NAMES)
def test_replay_reports_no_problem(name):
    assert grading.replay(name) == []

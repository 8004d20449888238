"""How the grader behaves: error locations, output capture, strict comparison, isolation."""

import dataclasses
import json
import re
import subprocess
import sys

import numpy as np
import pytest

import labs.kernels
from livelab import grading
from livelab.grading_compare import compare, same_behaviour
from livelab.grading_program import fill_blank
from livelab.grading_run import OUTPUT_LIMIT
from livelab.grading_wire import describe, from_wire, to_wire
from livelab.questions import all_code_questions, load_blanks

CODE_QUESTIONS = all_code_questions()
RMS = CODE_QUESTIONS["rmsnorm"]
ROTATE = CODE_QUESTIONS["rotate"]
SWIGLU = CODE_QUESTIONS["swiglu_ffn"]
RESULT_KEYS = {
    "action", "question", "verdict", "message", "stdout", "cases", "error",
    "misconception", "seconds",
}  # fmt: skip


def assert_json_result(result: dict) -> None:
    assert set(result) >= RESULT_KEYS
    json.dumps(result, allow_nan=False)  # the browser receives exactly this
    assert "\n" not in result["message"]


# --- result shape -------------------------------------------------------------------


@pytest.mark.parametrize(
    "blank",
    [RMS.reference_blank, "np.sqrt(np.mean(x**2, axis=-1) + eps)", "np.sqrt(", "undefined"],
)
def test_run_and_check_results_are_plain_json(blank):
    for result in (grading.run("rmsnorm", blank), grading.check("rmsnorm", blank)):
        assert_json_result(result)


def test_a_correct_check_lists_every_case_and_has_no_error():
    result = grading.check("rmsnorm", RMS.reference_blank)
    assert result["verdict"] == "correct"
    assert result["error"] is None
    assert len(result["cases"]) == len(RMS.cases())
    assert all(case["passed"] for case in result["cases"])
    assert result["cases"][0]["hidden"] is False and result["cases"][-1]["hidden"] is True


def test_a_wrong_check_carries_case_details_and_no_hint():
    result = grading.check("rmsnorm", "np.sqrt(np.mean(x**2, axis=-1) + eps)")
    assert result["verdict"] == "wrong"
    assert "hint" not in result  # hints are the page's, sealed in its markup
    failed = [case for case in result["cases"] if not case["passed"]]
    assert failed and all(case["detail"] for case in failed)


def test_unknown_question_names_the_known_ones():
    with pytest.raises(
        ValueError, match=r"layernorm.*known code questions: capstone_block, rmsnorm"
    ):
        grading.check("layernorm", "x")


# --- locating errors in the student's own text -------------------------------------------


def test_syntax_error_names_the_column_in_the_blank():
    blank = "np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps"
    result = grading.check("rmsnorm", blank)
    assert result["verdict"] == "error"
    assert result["error"]["type"] == "SyntaxError"
    assert (result["error"]["line"], result["error"]["column"]) == (1, blank.index("(") + 1)
    assert f"column {blank.index('(') + 1}" in result["message"]


def test_syntax_error_on_the_second_line_of_a_whole_line_blank():
    blank = "h = silu(x @ W_gate) * (x @ W_up)\nreturn h @@ W_down"
    error = grading.check("swiglu_ffn", blank)["error"]
    assert error["line"] == 2
    assert error["column"] == blank.split("\n")[1].index("@@") + 2


def test_runtime_error_points_at_the_student_line_and_column_without_grader_frames():
    blank = "h = silu(x @ W_gate) * (x @ W_up)\nreturn h @ W_dwn"
    result = grading.check("swiglu_ffn", blank)
    error = result["error"]
    assert error["type"] == "NameError"
    assert (error["line"], error["column"]) == (2, blank.split("\n")[1].index("W_dwn") + 1)
    assert "<swiglu_ffn>" in error["traceback"]
    assert "grading" not in error["traceback"] and "livelab" not in error["traceback"]
    assert "line 2, column" in result["message"]


def test_columns_count_characters_not_bytes():
    blank = "np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps) + len('éé') * missing_name"
    error = grading.check("rmsnorm", blank)["error"]
    assert error["column"] == blank.index("missing_name") + 1


def test_a_whole_line_blank_may_be_indented_by_the_student():
    blank = "    " + SWIGLU.reference_blank
    assert grading.check("swiglu_ffn", blank)["verdict"] == "correct"
    error = grading.check("swiglu_ffn", "    return oops")["error"]
    assert error["column"] == len("    return ") + 1


def test_fill_blank_maps_columns_back_to_the_student_text():
    source, place = fill_blank("def f(x):\n    return x / ____\n", "abc", whole_line=False)
    assert source.splitlines()[1] == "    return x / abc"
    assert place.locate(2, source.splitlines()[1].index("abc")) == (1, 1)
    assert place.locate(1, 0) == (None, None)


def test_empty_and_multi_line_blanks_are_reported_not_run():
    assert "empty" in grading.check("rmsnorm", "  ")["message"]
    assert "empty" in grading.run("rmsnorm", "____")["message"]
    result = grading.check("rmsnorm", "np.sqrt(\nx)")
    assert result["verdict"] == "error" and "single line" in result["message"]


def test_a_function_returning_none_is_told_to_return():
    blank = "(silu(x @ W_gate) * (x @ W_up)) @ W_down"
    assert "start your line with return" in grading.run("swiglu_ffn", blank)["message"]
    assert "start your line with return" in grading.check("swiglu_ffn", blank)["message"]


def test_deleting_the_function_is_an_error():
    result = grading.check("swiglu_ffn", "global swiglu_ffn\ndel swiglu_ffn")
    assert result["verdict"] == "error"
    assert "no function named swiglu_ffn" in result["message"]


# --- Run and captured output ----------------------------------------------------------


def test_run_returns_what_the_example_prints_and_the_expected_output():
    result = grading.run("rmsnorm", RMS.reference_blank)
    assert result["verdict"] == "ran"
    assert result["stdout"] == result["expected_stdout"] == grading.example_output("rmsnorm")


def test_run_captures_prints_from_the_blank():
    result = grading.run("rotate", "(print('inside'), np.array([c * v[0], v[1]]))[1]")
    assert result["stdout"].count("inside\n") == 4


def test_output_is_cut_after_the_limit_and_says_so():
    result = grading.run("rmsnorm", f"(print('x' * {3 * OUTPUT_LIMIT}), 1)[1]")
    assert result["stdout"].endswith(f"... output cut after {OUTPUT_LIMIT} characters")
    assert len(result["stdout"]) < OUTPUT_LIMIT + 100


def test_numpy_warnings_become_output_not_exceptions():
    result = grading.check("rmsnorm", "np.sqrt(np.mean(x**2, axis=-1, keepdims=True))")
    assert result["misconception"] == "eps-missing"
    assert "RuntimeWarning" in result["stdout"]


def test_print_options_changed_by_the_student_are_put_back():
    before = np.get_printoptions()
    grading.run("rmsnorm", "(np.set_printoptions(precision=1), 1)[1]")
    assert np.get_printoptions() == before


@pytest.mark.parametrize(
    "blank", ["input()", "float(input('eps? ')) * x", "__import__('sys').stdin.read()"]
)
def test_input_says_it_is_not_available_on_this_page(blank):
    for result in (grading.check("rmsnorm", blank), grading.run("rmsnorm", blank)):
        assert result["verdict"] == "error"
        assert "input() is not available on this page" in result["message"]
    assert sys.stdin is sys.__stdin__ or "pytest" in type(sys.stdin).__module__


def test_a_raised_recursion_limit_is_reported_as_recursion_and_put_back():
    limit = sys.getrecursionlimit()
    result = grading.check(
        "rmsnorm", "(__import__('sys').setrecursionlimit(100_000), rmsnorm(x, eps))[1]"
    )
    assert result["verdict"] == "error"
    assert "RecursionError" in result["message"] and "keeps calling itself" in result["message"]
    assert sys.getrecursionlimit() == limit
    assert len(result["error"]["traceback"].splitlines()) < 100  # the last calls, not 100,000


def test_a_recursion_over_the_time_budget_is_reported_as_recursion_not_slowness():
    quick = dataclasses.replace(RMS, time_budget=0.001)
    result = grading.check(quick, "rmsnorm(x, eps)")
    assert result["verdict"] == "error"
    assert "RecursionError" in result["message"]


# --- strict comparison ---------------------------------------------------------------


class Subclass(np.ndarray):
    """An ndarray subclass, which may override comparisons, so the grader refuses it."""


@pytest.mark.parametrize(
    ("value", "kind", "words"),
    [
        (None, "none", "returned None"),
        ([1.0, 2.0], "sequence", "returned a list"),
        ((1.0, 2.0), "sequence", "returned a tuple"),
        (1.5, "scalar", "single number"),
        (np.float64(1.5), "scalar", "single number"),
        (np.array(1.5), "scalar", "single number"),
        ("1.5", "type", "returned a str"),
        (np.array([1, 2]), "dtype", "integers"),
        (np.array([True, False]), "dtype", "booleans"),
        (np.array([1 + 0j, 2]), "dtype", "complex"),
        (np.array([1.0, 2.0]).view(Subclass), "subclass", "returned a Subclass"),
        (np.array([[1.0, 2.0]]), "shape", "extra leading axis"),
        (np.array([[1.0], [2.0]]), "shape", "instead of (2,)"),
        (np.array([1.0, np.nan]), "nan", "nan at index 1"),
        (np.array([1.0, np.inf]), "nan", "inf at index 1"),
        (np.array([1.0, 2.1]), "values", "2.1 at index 1 where 2 is expected"),
    ],
)
def test_compare_names_what_is_wrong(value, kind, words):
    # As the grader sees it: described where the code ran, then sent through JSON.
    mismatch = compare(sent(value), np.array([1.0, 2.0]), rtol=1e-6, atol=1e-9)
    assert mismatch is not None
    assert mismatch.kind == kind
    assert words in mismatch.detail + " " + mismatch.fix


def test_compare_flags_broadcast_compatible_shapes():
    mismatch = compare(sent(np.ones((3, 1))), np.ones((3, 4)), rtol=1e-6, atol=1e-9)
    assert mismatch is not None and "broadcast" in mismatch.fix


def test_compare_accepts_floats_within_tolerance_and_float32():
    want = np.array([1.0, 2.0])
    assert compare(sent(np.array([1.0, 2.0 + 1e-9])), want, 1e-6, 1e-9) is None
    assert compare(sent(np.array([1.0, 2.0], dtype=np.float32)), want, 1e-6, 1e-9) is None


def test_same_behaviour_treats_nan_as_equal_and_errors_as_equal():
    a = sent(np.array([np.nan, 1.0]))
    assert same_behaviour(a, sent(np.array([np.nan, 1.0])), 1e-6, 1e-9)
    assert same_behaviour(None, None, 1e-6, 1e-9)  # both raised
    assert not same_behaviour(a, None, 1e-6, 1e-9)
    assert not same_behaviour(sent([1.0]), sent(np.array([1.0])), 1e-6, 1e-9)


def sent(value):
    """A returned value as the grader receives it from the runner."""
    return from_wire(json.loads(json.dumps(to_wire(describe(value)))))


# --- isolation and tampering ----------------------------------------------------------


def test_reassigning_np_allclose_changes_nothing():
    original = np.allclose
    blank = "(setattr(np, 'allclose', lambda *a, **k: True), np.sqrt(np.mean(x**2)))[1]"
    result = grading.check("rmsnorm", blank)
    assert result["verdict"] == "wrong"
    assert np.allclose is original


def test_overwriting_the_reference_kernel_changes_nothing():
    original = labs.kernels.rmsnorm
    blank = (
        "(setattr(__import__('labs.kernels').kernels, 'rmsnorm', lambda x, eps=1e-6: x),"
        " __import__('labs.questions.rmsnorm').questions.rmsnorm.__setattr__("
        "'reference', lambda x, eps=1e-6: x), 1)[-1]"
    )
    assert grading.check("rmsnorm", blank)["verdict"] == "wrong"
    assert labs.kernels.rmsnorm is original
    assert grading.check("rmsnorm", RMS.reference_blank)["verdict"] == "correct"


def test_defining_a_global_named_like_the_reference_changes_nothing():
    blank = "(globals().__setitem__('reference', lambda *a, **k: a[0]), 1)[1]"
    assert grading.check("rmsnorm", blank)["verdict"] == "wrong"


def test_printing_correct_or_the_expected_output_does_not_pass():
    expected = grading.example_output("rmsnorm").strip()
    for blank in ("(print('Correct'), 1)[1]", f"(print({expected!r}), 2)[1]"):
        result = grading.check("rmsnorm", blank)
        assert result["verdict"] == "wrong"


def test_mutating_the_inputs_does_not_change_the_references():
    example_before = RMS.example_cases[0].args[0].copy()
    blank = "(x.__setitem__(Ellipsis, 1.0), 1.0)[1]"
    result = grading.check("rmsnorm", blank)
    assert result["verdict"] == "wrong"
    assert np.array_equal(RMS.example_cases[0].args[0], example_before)


@pytest.mark.parametrize(
    ("question", "blank", "message"),
    [
        ("rmsnorm", "1", "unchanged"),
        ("rotate", "v", "unchanged"),
        ("swiglu_ffn", "return x", "unchanged"),
        ("rotate", "[c * v[0] - s * v[1], s * v[0] + c * v[1]]", "returned a list"),
        ("swiglu_ffn", "return ((silu(x @ W_gate) * (x @ W_up)) @ W_down).tolist()", "list"),
    ],
)
def test_returning_the_input_or_a_list_fails(question, blank, message):
    result = grading.check(question, blank)
    assert result["verdict"] == "wrong"
    assert message in result["message"]


SNEAKY_EXCEPTION = """\
class Boom(Exception):
    def __str__(self):
        np.allclose = None
        return "boom"
raise Boom()"""
SNEAKY_CLASS = """\
class Sneaky:
    @property
    def __class__(self):
        np.allclose = None
        return np.ndarray
return Sneaky()"""
SNEAKY_SCALAR = """\
class Number(np.float64):
    def __float__(self):
        np.allclose = None
        return 0.0
return Number(1.0)"""


@pytest.mark.parametrize(
    ("blank", "message"),
    [
        (SNEAKY_EXCEPTION, "boom"),
        (SNEAKY_CLASS, "returned a Sneaky"),
        (SNEAKY_SCALAR, "single number"),
        ("return np.array([None, None], dtype=object)", "Python objects"),
    ],
)
def test_student_objects_never_run_outside_the_guard(blank, message):
    original = np.allclose
    result = grading.check("swiglu_ffn", blank)
    assert result["verdict"] in ("wrong", "error")
    assert message in result["message"]
    assert np.allclose is original


def test_system_exit_in_student_code_is_an_error_not_an_exit():
    result = grading.check("rmsnorm", "(_ for _ in ()).throw(SystemExit)")
    assert result["verdict"] == "error"
    assert result["error"]["type"] == "SystemExit"


def test_keyboard_interrupt_from_the_stop_button_propagates_and_state_is_restored():
    original = np.allclose
    blank = "(setattr(np, 'allclose', None), (_ for _ in ()).throw(KeyboardInterrupt))[1]"
    for action in (grading.run, grading.check):
        with pytest.raises(KeyboardInterrupt):
            action("rmsnorm", blank)
        assert np.allclose is original
    assert sys.stdout is sys.__stdout__ or "pytest" in type(sys.stdout).__module__


# --- messages as the page shows them --------------------------------------------------
# The verdict line is "Correct. " + message, or "Not yet. " + message for wrong, error and
# too_slow, so every message must be a whole capitalised sentence of its own.

PREFIX = {
    "correct": "Correct. ",
    "wrong": "Not yet. ",
    "error": "Not yet. ",
    "too_slow": "Not yet. ",
}
SENTENCE = re.compile(r"^[A-Z].*[.?!]$")


def seen(question: str, blank: str) -> str:
    result = grading.check(question, blank)
    return PREFIX[result["verdict"]] + result["message"]


def test_a_correct_check_reads_right_after_the_pages_correct():
    count = len(RMS.cases())
    assert seen("rmsnorm", RMS.reference_blank) == (
        f"Correct. Your function matches the reference on all {count} cases: the example and "
        "the hidden ones."
    )


EXTRA_BLANKS = [
    ("rmsnorm", "(_ for _ in ()).throw(ValueError())"),
    ("rmsnorm", "np.sqrt(np.mean(x**2 axis=-1))"),
    ("rmsnorm", "x.nonexistent"),
    ("rotate", "np.array([c * v[0] - s * v[1]])"),
    ("swiglu_ffn", "return np.zeros((2, 2))"),
    ("swiglu_ffn", "return x @ W_gate"),
    ("rmsnorm", "input()"),
    ("rmsnorm", "rmsnorm(x, eps)"),
]
EVERY_BLANK = [(n, e["blank"]) for n in sorted(CODE_QUESTIONS) for e in load_blanks(n)["wrong"]]


@pytest.mark.parametrize(("question", "blank"), EVERY_BLANK + EXTRA_BLANKS)
def test_every_check_and_run_message_is_a_capitalised_sentence(question, blank):
    for result in (grading.check(question, blank), grading.run(question, blank)):
        message = result["message"]
        assert SENTENCE.match(message), message
        assert not message.startswith(("Correct", "Not yet", "I ")), message
        assert not message.endswith(("?.", "..", ":.")), message


def test_an_exception_without_text_is_named_without_an_empty_colon():
    line = seen("rmsnorm", "(_ for _ in ()).throw(ValueError())")
    example = RMS.example_cases[0].label
    assert line == f"Not yet. On {example}, your code raised ValueError at line 1 of your blank."


def test_a_huge_multi_line_exception_is_cut_to_one_short_line():
    result = grading.check("rmsnorm", "(_ for _ in ()).throw(ValueError('boom\\n' * 100_000))")
    assert result["verdict"] == "error"
    example = RMS.example_cases[0].label
    assert result["message"].startswith(
        f"On {example}, your code raised ValueError at line 1 of your blank: boom boom"
    )
    assert len(result["message"]) < 400 and "\n" not in result["message"]
    assert len(result["error"]["message"]) <= 300


def test_c1_eps_after_the_root_is_called_another_convention_not_a_misconception():
    result = grading.check("rmsnorm", "(np.sqrt(np.mean(x**2, axis=-1, keepdims=True)) + eps)")
    assert result["verdict"] == "wrong"  # the question asks for this course's convention
    assert result["misconception"] == "eps-outside-root"
    message = result["message"]
    assert message.startswith("You add eps after the square root, as the RMSNorm paper's ")
    assert "another convention, not a mistake in the math" in message
    assert "T5 and LLaMA" in message and "np.sqrt(mean of squares + eps)" in message
    eps_case = next(c.label for c in RMS.cases() if "eps" in c.tags and "tiny" in c.label)
    assert message.endswith(f"for example on {eps_case}.")


def test_c1_eps_added_to_the_whole_quotient_is_explained_as_operator_precedence():
    result = grading.check("rmsnorm", "np.sqrt(np.mean(x**2, axis=-1, keepdims=True)) + eps")
    assert result["misconception"] == "eps-added-to-output"
    assert result["message"].startswith(
        "Python reads x / np.sqrt(...) + eps as (x / np.sqrt(...)) + eps"
    )


# --- time budget ----------------------------------------------------------------------


def test_a_check_over_its_time_budget_is_too_slow_not_hung():
    quick = dataclasses.replace(RMS, time_budget=0.05)
    assert grading.check(quick, RMS.reference_blank)["verdict"] == "correct"
    slow_blank = "sum(i for i in range(300_000)) * 0 + " + RMS.reference_blank
    result = grading.check(quick, slow_blank)
    assert result["verdict"] == "too_slow"
    assert "took" in result["message"]
    assert len(result["cases"]) < len(RMS.cases())


# --- the reference and imports -------------------------------------------------------


def test_check_reference_passes_for_every_question():
    for name in CODE_QUESTIONS:
        assert grading.check_reference(name)["verdict"] == "correct"


def test_grading_and_kernels_import_only_stdlib_and_numpy():
    code = (
        "import sys; before = set(sys.modules)\n"
        "import livelab.grading, labs.kernels\n"
        "roots = {m.split('.')[0] for m in set(sys.modules) - before}\n"
        "extra = roots - set(sys.stdlib_module_names) - {'numpy', 'livelab', 'labs'}\n"
        "print(sorted(m for m in extra if not m.startswith('_')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"

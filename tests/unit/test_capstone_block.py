"""The capstone code question: the whole modern block, checked against the course's block."""

import time

import numpy as np
import pytest

from labs import kernels
from labs.questions import capstone_block as capstone
from livelab import grading
from livelab.questions import BLANK, PRELUDE, code_question

QUESTION = code_question("capstone_block")


def template_functions() -> dict:
    """The helpers the template gives the student, defined as the grader defines them."""
    head = QUESTION.template.split("def block(")[0]
    space: dict = {}
    exec(PRELUDE + head, space)
    return space


def test_the_blank_is_a_whole_body_of_several_lines():
    assert QUESTION.blank_is_whole_line
    assert QUESTION.reference_blank.count("\n") >= 5
    assert f"    {BLANK}\n" in QUESTION.template


def test_the_templates_helpers_are_the_course_kernels():
    given = template_functions()
    rng = np.random.default_rng(3)
    x, gain = rng.standard_normal((5, 6)), rng.standard_normal(6)
    np.testing.assert_allclose(given["rmsnorm"](x, gain), kernels.rmsnorm(x, gain, 1e-6))
    np.testing.assert_allclose(given["rope"](x), kernels.rope(x), atol=1e-12)
    np.testing.assert_allclose(given["silu"](x), kernels.silu(x))
    np.testing.assert_allclose(given["softmax"](x), kernels.softmax(x))


def test_the_question_block_with_nothing_changed_is_the_reference_block():
    for case in QUESTION.cases():
        np.testing.assert_allclose(capstone._block(*case.args), QUESTION.reference(*case.args))


def test_the_example_case_is_the_templates_example():
    example = QUESTION.example_cases[0]
    printed = grading.example_output(QUESTION)
    expected = np.array2string(QUESTION.reference(*example.args).round(4)) + "\n"
    assert printed == expected


def test_hidden_cases_vary_tokens_widths_and_gains():
    hidden = [c for c in QUESTION.cases() if c.hidden]
    assert len({c.args[0].shape[0] for c in hidden}) >= 4  # numbers of tokens, 1 among them
    assert len({c.args[0].shape[1] for c in hidden}) >= 3
    assert any(c.args[0].shape[0] == 1 for c in hidden)
    assert all(not np.allclose(c.args[1]["attn_norm"], 1) for c in hidden)


@pytest.mark.parametrize(
    "key",
    [
        "post-norm",
        "rope-on-v",
        "no-mask",
        "mask-after-softmax",
        "mask-with-zero",
        "relu-gate",
        "no-residual",
        "mask-reversed",
    ],
)
def test_each_named_misconception_is_recognised(key):
    assert key in {m.key for m in QUESTION.misconceptions}


def test_the_reference_is_quick_next_to_the_time_budget():
    cases = QUESTION.cases()
    start = time.perf_counter()
    for case in cases:
        QUESTION.reference(*case.args)
    assert time.perf_counter() - start < QUESTION.time_budget / 20


def test_a_check_of_the_reference_blank_passes_on_every_case():
    result = grading.check_reference(QUESTION)
    assert result["verdict"] == "correct"
    assert len(result["cases"]) == len(QUESTION.cases())

"""Every part of level 19's exercises, and the numbers the pages print, come from the kernels.

Each test reads a question's fence from the page, as the build reads it, and recomputes its
answer (or the fact its correct option states) with labs.kernels. Prose numbers that have
no question of their own are formatted from the kernels and looked up in the page text.
"""

import math
import re
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose

from labs import kernels as K
from livelab.builder.fences import parse_body
from livelab.builder.kinds.choice import KIND as CHOICE
from livelab.builder.kinds.choice import ChoiceQuestion
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.builder.kinds.numeric import NumericQuestion

DOCS = Path(__file__).resolve().parents[2] / "docs" / "level-19"
CHAPTER = (DOCS / "worked-examples.md").read_text(encoding="utf-8")
LESSON = (DOCS / "modern-blocks.md").read_text(encoding="utf-8")
QUARTER = np.pi / 2
START = np.array([1.0, 0.0])  # q = k = [1, 0] before turning, section 1 of the chapter
# Section 3 of the chapter: the gated FFN by hand.
X = np.array([[1.0, -1.0]])
W_GATE = np.eye(2)
W_UP = np.array([[2.0, 0.0], [0.0, -3.0]])


def fence(page: str, kind: str, qid: str) -> dict:
    """The parsed body of the `kind` fence with this id on the page."""
    for body in re.findall(rf"^```{kind}\n(.*?)^```", page, re.MULTILINE | re.DOTALL):
        data = parse_body(body)
        if data["id"] == qid:
            return data
    raise AssertionError(f"no {kind} fence with id {qid}")


def numeric(qid: str) -> NumericQuestion:
    return NUMERIC.question(fence(CHAPTER, "numeric", qid))


def choice(qid: str) -> ChoiceQuestion:
    return CHOICE.question(fence(CHAPTER, "choice", qid))


def answer(qid: str) -> np.ndarray:
    return np.atleast_1d(np.asarray(numeric(qid).spec.answer, dtype=float))


def correct_text(qid: str) -> str:
    question = choice(qid)
    return question.options[question.correct_index].text


def turned(position: int) -> np.ndarray:
    return K.rotate(START, position * QUARTER)


# --- E1: positions 2 and 3 under a quarter turn per position -------------------------------


def test_e1_arrows_are_the_query_and_key_turned_by_the_kernel():
    assert_allclose(answer("e1-arrows"), np.concatenate([turned(2), turned(3)]), atol=1e-12)


def test_e1_score_is_the_dot_product_of_the_turned_arrows():
    assert_allclose(answer("e1"), [turned(2) @ turned(3)], atol=1e-12)


def test_e1_mask_part_says_no_because_the_causal_mask_hides_later_keys():
    assert not K.causal_mask(4)[2, 3]  # query 2 (row) may not look at key 3 (column)
    assert correct_text("e1-mask").startswith("No.")
    assert "mask" in correct_text("e1-mask")


# --- E2: RMSNorm of [0, 2] and of [0, 0] --------------------------------------------------


def test_e2_is_rmsnorm_of_0_2_with_eps_0():
    assert_allclose(answer("e2"), K.rmsnorm(np.array([0.0, 2.0]), eps=0.0))


def test_e2_zero_is_rmsnorm_of_0_0_with_the_configs_eps_and_undefined_without():
    eps = K.MODERN_CONFIG["eps"]
    assert eps == 1e-6 and "0.000001" in fence(CHAPTER, "numeric", "e2-zero")["prompt"]
    assert_allclose(answer("e2-zero"), K.rmsnorm(np.zeros(2), eps=eps))
    with pytest.raises(ValueError, match="all-zero row"):
        K.rmsnorm(np.zeros(2), eps=0.0)


def test_the_shift_and_scale_table_of_section_2_is_what_the_kernels_give():
    for row in ([3.0, 4.0], [6.0, 8.0], [4.0, 5.0]):
        assert all(shown(v) in CHAPTER for v in K.rmsnorm(np.array(row), eps=0.0)), row
    for row in ([3.0, 4.0], [6.0, 8.0], [4.0, 5.0], [13.0, 14.0]):
        assert_allclose(K.layernorm(np.array(row), eps=0.0), [-1.0, 1.0], atol=1e-12)
    shifted = K.rmsnorm(np.array([13.0, 14.0]), eps=0.0)
    tiny = K.rmsnorm(np.array([0.003, 0.004]), eps=K.MODERN_CONFIG["eps"])
    assert all(f"{v:.3f}" in CHAPTER for v in (*shifted, *tiny))


# --- E4: the gated FFN with W_down = identity ---------------------------------------------


def test_e4_is_the_swiglu_kernel_with_the_identity_as_w_down():
    assert_allclose(answer("e4"), K.swiglu_ffn(X, W_GATE, W_UP, np.eye(2))[0], atol=1e-12)


def test_e4_why_part_says_every_step_stays_inside_one_tokens_row():
    rng = np.random.default_rng(19)
    rows = rng.standard_normal((5, 2))
    for w_down in (np.eye(2), np.array([[1.0, 0.0], [1.0, 1.0]])):
        together = K.swiglu_ffn(rows, W_GATE, W_UP, w_down)
        alone = np.concatenate([K.swiglu_ffn(row[None, :], W_GATE, W_UP, w_down) for row in rows])
        assert_allclose(together, alone, atol=1e-12)
    assert "one token's own row" in correct_text("e4-why")


# --- E5: both weight counts and the width between them -------------------------------------


def test_e5_parts_are_the_kernels_counts_and_width():
    assert answer("e5-relu")[0] == K.ffn_weight_count(24, 96, gated=False)
    width = K.gated_width_for_equal_weights(96)
    assert answer("e5")[0] == width
    assert answer("e5-gated")[0] == K.ffn_weight_count(24, int(width), gated=True)


def test_every_exercise_part_of_the_chapter_is_a_graded_question():
    ids = set(re.findall(r"^id: (e[\w-]+)$", CHAPTER, re.MULTILINE))
    assert ids == {"e1-arrows", "e1", "e1-mask", "e2", "e2-zero", "e3", "e4", "e4-why"} | {
        "e5-relu",
        "e5",
        "e5-gated",
        "e6",
    }


# --- numbers the lesson prints in prose ------------------------------------------------------


def shown(value: float, digits: int = 6) -> str:
    """A number as the pages print it: fixed digits, a true minus sign."""
    return f"{value:.{digits}f}".replace("-", "−")


def test_both_rope_layouts_of_the_seeded_demo_are_printed_as_the_kernels_compute_them():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(4), rng.standard_normal(4)
    for layout in ("adjacent", "halves"):
        score = K.rope_score(q, k, 7, 4, layout=layout)
        assert score == pytest.approx(K.rope_score(q, k, 107, 104, layout=layout), abs=1e-12)
        assert shown(score) in LESSON, layout


def test_the_slow_pairs_full_turn_is_628_positions_at_width_4_and_54000_at_width_128():
    assert round(2 * math.pi / K.rope_rates(4)[-1]) == 628
    slowest = K.rope_rates(128)[-1]
    assert f"{slowest:.6f}" in LESSON
    assert round(2 * math.pi / slowest, -3) == 54_000 and "54,000" in LESSON


def test_gated_widths_of_shazeer_and_llama_follow_from_two_thirds_of_four_times_d_model():
    assert K.gated_width_for_equal_weights(4 * 768) == 2048
    llama = K.gated_width_for_equal_weights(4 * 4096)
    assert round(llama) == 10923
    assert 256 * math.ceil(llama / 256) == 11008
    assert all(f" {n}" in LESSON for n in ("3072", "2048", "10923", "11008"))


# --- the lesson's own questions -------------------------------------------------------------


def lesson_numeric(qid: str) -> NumericQuestion:
    return NUMERIC.question(fence(LESSON, "numeric", qid))


def lesson_choice(qid: str) -> ChoiceQuestion:
    return CHOICE.question(fence(LESSON, "choice", qid))


def correct_option(qid: str) -> str:
    question = lesson_choice(qid)
    return question.options[question.correct_index].text


@pytest.mark.parametrize(
    ("qid", "base", "unit"), [("clock-slowest", 10_000, 1e3), ("clock-base", 500_000, 1e6)]
)
def test_the_clock_questions_ask_the_slowest_pairs_period_in_their_unit(qid, base, unit):
    slowest = K.rope_rates(128, base)[-1]  # pair i = 63 of a head of width 128
    assert slowest == pytest.approx(base ** (-126 / 128))
    question = lesson_numeric(qid)
    assert question.spec.answer == pytest.approx(2 * math.pi / slowest / unit)
    typed = f"{2 * math.pi / slowest / unit:.{question.spec.decimals}f}"
    assert question.grade(typed)["verdict"] == "correct"


def test_layernorm_is_rmsnorm_of_the_centred_row_so_they_agree_when_the_mean_is_zero():
    rows = np.random.default_rng(29).standard_normal((6, 5))  # [6, 5]
    centred = rows - rows.mean(axis=-1, keepdims=True)  # [6, 5]
    assert_allclose(K.layernorm(rows, eps=0.0), K.rmsnorm(centred, eps=0.0), atol=1e-12)
    assert_allclose(K.layernorm(centred, eps=0.0), K.rmsnorm(centred, eps=0.0), atol=1e-12)
    assert "mean is already 0" in correct_option("rms-agree")


def test_silu_leaves_the_interval_0_1_on_both_sides_as_the_gate_question_says():
    z = np.linspace(-6.0, 6.0, 12_001)  # [12001]
    values = K.silu(z)
    assert values.max() > 1 and values.min() == pytest.approx(-0.278, abs=1e-3)
    assert K.silu(3.0) == pytest.approx(2.86, abs=5e-3)
    right = correct_option("m-silu-gate")
    assert "−0.28" in right and "no upper limit" in right


@pytest.mark.parametrize("qid", ["m-rope-v", "m-rope-cache", "m-rope-theta", "m-silu-gate"])
def test_each_misconception_is_a_graded_choice_with_a_reason_per_option(qid):
    question = lesson_choice(qid)
    assert len(question.options) >= 3 and all(option.why for option in question.options)

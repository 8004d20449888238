"""The RoPE clock lab: per-pair rates, the seeded demo, and the score by distance."""

import numpy as np
import pytest

from livelab.kernels import rope_score
from livelab.labs import lab_view, rope, rope_clock


def test_the_seeded_demo_scores_one_point_zero_five_eight_five_at_seven_and_four():
    s = rope_clock.LAB.compute(q_pos=7, k_pos=4)
    assert s["score"] == pytest.approx(1.058526, abs=5e-7)
    assert rope_clock.view(s)["text"]["score"] == "1.058526"


def test_the_same_score_a_hundred_positions_later():
    s = rope_clock.LAB.compute(q_pos=107, k_pos=104)
    assert rope_clock.view(s)["text"]["score"] == "1.058526"


def test_q_and_k_are_those_of_the_rope_lab_demo():
    s = rope_clock.LAB.compute()
    demo = rope.seeded_demo()
    np.testing.assert_allclose(s["q"], demo["q"])
    np.testing.assert_allclose(s["k"], demo["k"])


def test_a_head_of_width_four_turns_at_one_and_a_hundredth():
    s = rope_clock.LAB.compute(d_k=4)
    np.testing.assert_allclose(s["rates"], [1.0, 0.01])
    assert rope_clock.view(s)["text"]["rates"] == "1, 0.01"


@pytest.mark.parametrize("d_k", [2, 6, 16])
def test_there_is_one_clock_per_pair(d_k):
    shapes = rope_clock.clock_shapes(rope_clock.LAB.compute(d_k=d_k))
    assert sum(1 for s in shapes if s["tag"] == "circle") == d_k // 2
    assert sum(1 for s in shapes if s["tag"] == "line") == d_k


def test_the_pair_scores_add_up_to_the_score():
    s = rope_clock.LAB.compute(d_k=8, q_pos=30, k_pos=11, seed=5)
    assert sum(s["pair_scores"]) == pytest.approx(s["score"])


def test_the_score_by_distance_matches_the_kernel():
    s = rope_clock.LAB.compute(d_k=6, seed=2)
    q, k = np.array(s["q"]), np.array(s["k"])
    for d, value in zip(s["distances"], s["scores_by_distance"], strict=True):
        assert value == pytest.approx(rope_score(q, k, 500 + d, 500))


def test_a_distance_outside_the_plot_is_said_in_words():
    view = rope_clock.view(rope_clock.LAB.compute(q_pos=200, k_pos=4))
    assert "outside the plotted range" in view["text"]["plot_note"]
    assert not any(s["tag"] == "circle" for s in view["svg"]["scores"])


def test_an_odd_width_is_refused():
    with pytest.raises(ValueError, match="d_k must be 2 plus a multiple of 2, got 3"):
        lab_view("rope_clock", {"d_k": 3})

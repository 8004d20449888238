"""The RoPE lab's numbers: the spec's worked values, computed by the same code the browser runs."""

import numpy as np
import pytest

from livelab.labs import lab_view, rope


def test_q_at_two_k_at_zero_scores_sin_one():
    s = rope.LAB.compute(q_pos=2, k_pos=0, theta=0.5, q=(1.0, 0.0), k=(0.0, 1.0))
    assert s["q_angle"] == pytest.approx(1.0)
    assert s["score"] == pytest.approx(np.sin(1.0))
    assert rope.view(s)["text"]["score"] == "0.84"


@pytest.mark.parametrize("shift", [1, 2, 3, 10])
def test_moving_both_positions_keeps_the_score(shift):
    base = rope.LAB.compute(q_pos=2, k_pos=0)
    moved = rope.LAB.compute(q_pos=2 + shift, k_pos=shift)
    assert moved["score"] == pytest.approx(base["score"], abs=1e-12)
    assert rope.view(moved)["text"]["score"] == "0.84"


def test_moving_only_k_changes_the_score():
    assert rope.LAB.compute(q_pos=2, k_pos=1)["score"] != pytest.approx(
        rope.LAB.compute(q_pos=2)["score"]
    )


def test_unturned_perpendicular_pairs_score_zero():
    assert rope.view(rope.LAB.compute())["text"]["score"] == "0.00"


def test_seeded_multi_frequency_demo_gives_equal_scores_at_equal_distance():
    demo = rope.seeded_demo()
    assert demo["positions"] == [[7, 4], [107, 104]]
    assert demo["scores"][0] == pytest.approx(1.058526, abs=5e-7)
    assert demo["scores"][1] == pytest.approx(1.058526, abs=5e-7)


def test_seeded_demo_draws_q_before_k():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(4), rng.standard_normal(4)
    demo = rope.seeded_demo()
    np.testing.assert_allclose(demo["q"], q)
    np.testing.assert_allclose(demo["k"], k)


def test_arrow_tips_sit_on_the_drawn_circle():
    view = rope.view(rope.LAB.compute(q_pos=3, k_pos=1, theta=0.7))
    for arrow in ("q_arrow", "k_arrow"):
        x = float(view["attrs"][arrow]["x2"]) - rope.CENTER
        y = float(view["attrs"][arrow]["y2"]) - rope.CENTER
        assert np.hypot(x, y) == pytest.approx(rope.SCALE, abs=0.01)


def test_lab_view_rejects_positions_outside_the_slider_range():
    with pytest.raises(ValueError, match="q_pos must lie in"):
        lab_view("rope", {"q_pos": 21})


def test_lab_view_rejects_unknown_settings_and_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown option 'speed'.*q_pos"):
        lab_view("rope", {"speed": 3})


def test_lab_view_rejects_a_fractional_position():
    with pytest.raises(ValueError, match="whole number"):
        lab_view("rope", {"k_pos": 1.5})

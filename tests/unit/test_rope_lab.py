"""The RoPE lab's numbers: the spec's worked values, computed by the same code the browser runs."""

import re

import numpy as np
import pytest

from labs import rope
from labs.kernels import rotate
from livelab.labs import lab_view


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


def _points(d):
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", d)]
    return np.array(numbers).reshape(-1, 2) - rope.CENTER


@pytest.mark.parametrize(("q_pos", "k_pos", "theta"), [(3, 1, 0.7), (0, 0, 0.5), (20, 3, 3.14)])
def test_arrowheads_touch_the_circle_and_point_along_their_pair(q_pos, k_pos, theta):
    s = rope.LAB.compute(q_pos=q_pos, k_pos=k_pos, theta=theta)
    view = rope.view(s)
    for name in ("q", "k"):
        tip, left, right = _points(view["attrs"][f"{name}_head"]["d"])
        assert np.hypot(*tip) == pytest.approx(rope.SCALE, abs=0.01)
        direction = np.array(s[f"{name}_rot"]) * [1, -1]  # math y up, SVG y down
        np.testing.assert_allclose(tip / rope.SCALE, direction / np.hypot(*direction), atol=1e-3)
        shaft = np.array([float(view["attrs"][f"{name}_arrow"][k]) for k in ("x2", "y2")])
        base = (left + right) / 2
        assert np.hypot(*(shaft - rope.CENTER - base)) < 1.5  # the shaft runs into the head
        label = np.array([float(view["attrs"][f"{name}_label"][k]) for k in ("x", "y")])
        assert np.hypot(*(label - rope.CENTER)) > rope.SCALE  # the letter sits beyond the tip


@pytest.mark.parametrize(("q_pos", "k_pos"), [(2, 0), (0, 2), (7, 3), (20, 0)])
def test_the_angle_between_q_and_k_is_drawn_from_k_to_q(q_pos, k_pos):
    s = rope.LAB.compute(q_pos=q_pos, k_pos=k_pos, theta=0.5)
    q, k = np.array(s["q_rot"]), np.array(s["k_rot"])
    assert abs(s["between"]) == pytest.approx(np.arccos(np.clip(q @ k, -1, 1)), abs=1e-9)
    assert rotate(k, s["between"]) == pytest.approx(q)  # turning k by it gives q
    view = rope.view(s)
    assert view["text"]["between_label"] == f"{abs(s['between']):.2f} rad"
    numbers = [float(v) for v in re.findall(r"-?\d+(?:\.\d+)?", view["attrs"]["arc"]["d"])]
    start = np.array(numbers[:2]) - rope.CENTER
    end = np.array(numbers[-2:]) - rope.CENTER
    for point, pair in ((start, k), (end, q)):
        np.testing.assert_allclose(point / rope.ARC, pair * [1, -1], atol=1e-3)


def test_lab_view_rejects_positions_outside_the_slider_range():
    with pytest.raises(ValueError, match="q_pos must lie in"):
        lab_view("rope", {"q_pos": 21})


def test_lab_view_rejects_unknown_settings_and_names_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown option 'speed'.*q_pos"):
        lab_view("rope", {"speed": 3})


def test_lab_view_rejects_a_fractional_position():
    with pytest.raises(ValueError, match="whole number"):
        lab_view("rope", {"k_pos": 1.5})

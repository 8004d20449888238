"""The RMS lab: RMSNorm's steps, LayerNorm beside it, the shift, eps and the all-zero row."""

import math

import numpy as np
import pytest

from labs import rms
from livelab.labs import lab_view

PAD = (0.0, 0.0, 0.0, 0.0)


def run(x, shift=0.0, eps=1e-6):
    x = tuple(float(v) for v in x)
    return rms.state(size=len(x), x=x + (0.0,) * (rms.MAX_ENTRIES - len(x)), shift=shift, eps=eps)


def test_three_four_by_hand():
    s = run([3, 4], eps=0.0)
    assert s["squares"] == [9, 16]
    assert s["mean_square"] == 12.5
    assert s["rms"] == pytest.approx(3.535534, abs=5e-7)
    np.testing.assert_allclose(s["rms_out"], [0.848528, 1.131371], atol=5e-7)
    assert s["rms_out_mean_square"] == pytest.approx(1.0)
    np.testing.assert_allclose(s["ln_out"], [-1, 1])


def test_one_one_three_five_has_rms_three():
    s = run([1, 1, 3, 5], eps=0.0)
    assert s["rms"] == pytest.approx(3.0)
    assert rms.view(s)["text"]["rms"] == "3.0000"
    assert s["rms_out"][-1] == pytest.approx(5 / 3)


def test_shifting_by_one_changes_rmsnorm_but_not_layernorm():
    s = run([3, 4], shift=1.0, eps=0.0)
    assert s["row"] == [4, 5]
    assert s["rms"] == pytest.approx(math.sqrt(20.5))
    np.testing.assert_allclose(s["rms_out"], [0.883452, 1.104315], atol=5e-7)
    np.testing.assert_allclose(s["ln_out"], [-1, 1])
    text = rms.view(s)["text"]
    assert "changed by the shift" in text["rms_shift"]
    assert "the same as without the shift" in text["ln_shift"]


def test_default_eps_barely_moves_the_hand_numbers():
    text = rms.view(run([3, 4]))["text"]
    assert text["rms_out"] == "[0.8485, 1.1314]"
    assert text["ln_out"] == "[-1.0000, 1.0000]"
    assert text["rms_out_mean_square"] == "1.0000"


def test_an_all_zero_row_with_eps_zero_shows_the_kernels_error_not_nan():
    s = run([0, 0, 0, 0], eps=0.0)
    assert s["rms_out"] is None
    assert "RMSNorm with eps=0 is undefined for an all-zero row" in s["rms_error"]
    text = rms.view(s)["text"]
    assert text["rms_out"] == "—"
    assert "nan" not in " ".join(text.values()).lower()
    assert text["rms_error"] == s["rms_error"]


def test_a_positive_eps_makes_the_all_zero_row_defined():
    s = run([0, 0], eps=1e-6)
    assert s["rms_out"] == [0.0, 0.0]
    assert s["rms_error"] == ""


def test_entries_beyond_the_size_are_hidden():
    hidden = rms.view(run([1, 2, 3]))["hidden"]
    assert [hidden[f"entry-{i}"] for i in range(rms.MAX_ENTRIES)] == [False] * 3 + [True] * 3


def test_an_empty_entry_field_is_reported_by_position():
    with pytest.raises(ValueError, match=r"x\[1\] needs a number"):
        lab_view("rms", {"x": [1, None, 0, 0, 0, 0]})


def test_entries_outside_the_slider_range_are_refused():
    with pytest.raises(ValueError, match=r"x\[0\] must lie in \[-10, 10\]"):
        lab_view("rms", {"x": [11, 0, 0, 0, 0, 0]})


def picture(s):
    """The picture's bars as signed drawn heights (up is positive), per series in entry order."""
    shapes = rms.view(s)["svg"]["bars"]
    zero = next(
        float(i["attrs"]["y1"])
        for i in shapes
        if i["attrs"].get("class") == "livelab-axis" and i["attrs"]["y1"] == i["attrs"]["y2"]
    )
    out = {"x": [], "normalized": []}
    for item in shapes:
        a = item["attrs"]
        if item["tag"] == "rect" and a["class"] in (
            "livelab-bar livelab-bar--x",
            "livelab-bar livelab-bar--normalized",
        ):
            top, height = float(a["y"]), float(a["height"])  # not the legend's swatches
            out[a["class"].split("--")[-1]].append(height if top < zero else -height)
    return out


def test_the_picture_has_a_bar_of_x_and_of_x_over_rms_per_entry_on_one_scale():
    s = run([3, 4, -2], eps=0.0)
    drawn = picture(s)
    assert len(drawn["x"]) == len(drawn["normalized"]) == 3
    x, normalized = np.array(drawn["x"]), np.array(drawn["normalized"])
    np.testing.assert_allclose(x / x[1], np.array(s["row"]) / 4, atol=0.01)  # in proportion
    np.testing.assert_allclose(x / s["rms"], normalized, atol=0.02)  # one scale for both


def test_a_bar_follows_its_entry_and_the_shift():
    assert picture(run([3, 5]))["x"][1] > picture(run([3, 4]))["x"][1]  # same scale, to 5
    shifted = picture(run([3, 4], shift=-5.0))["x"]  # x + c = [-2, -1]: below the zero line
    assert shifted[0] < shifted[1] < 0
    assert shifted[0] == pytest.approx(2 * shifted[1], abs=0.02)


def test_the_row_without_rmsnorm_draws_only_its_x_bars_and_says_so():
    s = run([0, 0, 0, 0], eps=0.0)
    drawn = picture(s)
    assert len(drawn["x"]) == 4 and drawn["normalized"] == []
    assert "no x / RMS (not defined)" in rms.view(s)["text"]["bars_title"]


def test_the_picture_is_named_with_both_rows():
    title = rms.view(run([3, 4]))["text"]["bars_title"]
    assert title == (
        "Bars of x + c, [3.0000, 4.0000], and of x / RMS, [0.8485, 1.1314], entry by entry"
    )

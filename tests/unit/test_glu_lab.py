"""The GLU lab: SiLU of the gate, the gated product, the curves and the weight counts."""

import numpy as np
import pytest

from livelab.kernels import relu, silu
from livelab.labs import glu, lab_view


def test_silu_of_one_is_point_seven_three():
    s = glu.state(gate=1.0, value=1.0)
    assert s["silu_gate"] == pytest.approx(0.731059, abs=5e-7)
    assert glu.view(s)["text"]["silu_gate"] == "0.7311"


def test_the_chapter_example_hidden_units():
    assert glu.state(gate=1.0, value=2.0)["product"] == pytest.approx(1.462117, abs=5e-7)
    assert glu.state(gate=-1.0, value=3.0)["product"] == pytest.approx(-0.806824, abs=5e-7)


def test_silu_keeps_a_small_negative_part_where_relu_is_zero():
    s = glu.state(gate=-1.0)
    assert s["silu_gate"] == pytest.approx(-0.268941, abs=5e-7)
    assert s["relu_gate"] == 0.0


def test_the_curves_span_minus_four_to_four_from_the_kernels():
    s = glu.state()
    z = np.array(s["curve_z"])
    assert (z[0], z[-1]) == (-4.0, 4.0)
    np.testing.assert_allclose(s["curve_silu"], silu(z))
    np.testing.assert_allclose(s["curve_relu"], relu(z))


@pytest.mark.parametrize(
    ("d_model", "d_ff", "relu_count", "same_width", "equal_width", "equal_count"),
    [(12, 48, 1152, 1728, 32, 1152), (24, 96, 4608, 6912, 64, 4608)],
)
def test_weight_counts_match_the_parameter_table(
    d_model, d_ff, relu_count, same_width, equal_width, equal_count
):
    s = glu.state(d_model=d_model, d_ff=d_ff)
    assert s["relu_weights"] == relu_count
    assert s["swiglu_same_width_weights"] == same_width
    assert s["equal_width"] == equal_width
    assert s["swiglu_equal_weights"] == equal_count
    assert s["width_ratio"] == pytest.approx(2 / 3)
    text = glu.view(s)["text"]
    assert text["equal_width"] == str(equal_width)
    assert text["width_ratio"] == "0.6667"


def test_a_width_not_divisible_by_three_says_it_was_rounded():
    text = glu.view(glu.state(d_ff=50))["text"]
    assert text["equal_width"] == "33.33, rounded to 33"


def test_the_marked_points_sit_on_their_curves():
    view = glu.view(glu.state(gate=2.0))
    dots = {s["attrs"]["class"]: s for s in view["svg"]["curves"] if s["tag"] == "circle"}
    silu_dot = dots["livelab-dot livelab-dot--silu"]["attrs"]
    relu_dot = dots["livelab-dot livelab-dot--relu"]["attrs"]
    assert silu_dot["cx"] == relu_dot["cx"]
    assert float(silu_dot["cy"]) > float(relu_dot["cy"])  # SiLU(2) < ReLU(2): lower on screen


def test_a_zero_width_is_refused():
    with pytest.raises(ValueError, match="d_ff must lie in"):
        lab_view("glu", {"d_ff": 0})

"""The GLU lab: SiLU of the gate, the gated product, the curves and the weight counts."""

import numpy as np
import pytest

from labs import glu
from labs.kernels import gated_width_for_equal_weights, relu, silu
from livelab.labs import lab_view


def test_silu_of_one_is_point_seven_three():
    s = glu.LAB.compute(gate=1.0, value=1.0)
    assert s["silu_gate"] == pytest.approx(0.731059, abs=5e-7)
    assert glu.view(s)["text"]["silu_gate"] == "0.7311"


def test_the_chapter_example_hidden_units():
    assert glu.LAB.compute(gate=1.0, value=2.0)["product"] == pytest.approx(1.462117, abs=5e-7)
    assert glu.LAB.compute(gate=-1.0, value=3.0)["product"] == pytest.approx(-0.806824, abs=5e-7)


def test_silu_keeps_a_small_negative_part_where_relu_is_zero():
    s = glu.LAB.compute(gate=-1.0)
    assert s["silu_gate"] == pytest.approx(-0.268941, abs=5e-7)
    assert s["relu_gate"] == 0.0


def test_the_curves_span_minus_four_to_four_from_the_kernels():
    s = glu.LAB.compute()
    z = np.array(s["curve_z"])
    assert (z[0], z[-1]) == (-4.0, 4.0)
    np.testing.assert_allclose(s["curve_silu"], silu(z))
    np.testing.assert_allclose(s["curve_relu"], relu(z))


@pytest.mark.parametrize(
    ("d_model", "d_ff", "d_gated", "relu_count", "swiglu_count", "balance"),
    [
        (12, 48, 48, 1152, 1728, "The SwiGLU FFN holds 576 more weights than the ReLU FFN."),
        (12, 48, 32, 1152, 1152, "Both FFNs hold the same number of weights."),
        (12, 48, 30, 1152, 1080, "The SwiGLU FFN holds 72 fewer weights than the ReLU FFN."),
        (24, 96, 64, 4608, 4608, "Both FFNs hold the same number of weights."),
    ],
)
def test_weight_counts_match_the_parameter_table(
    d_model, d_ff, d_gated, relu_count, swiglu_count, balance
):
    s = glu.LAB.compute(d_model=d_model, d_ff=d_ff, d_gated=d_gated)
    assert (s["relu_weights"], s["swiglu_weights"]) == (relu_count, swiglu_count)
    text = glu.view(s)["text"]
    assert text["relu_weights"] == f"{relu_count:,}"
    assert text["balance"] == balance


def test_the_calculator_leaves_the_equal_width_for_the_student_to_find():
    # The lesson asks for d_ff' / d_ff right below this lab, so the lab starts at equal widths
    # (unequal counts) and shows no width of its own, only the counts of the widths typed in.
    start = glu.PARAMS.coerce({})
    assert start["d_gated"] == start["d_ff"]
    text = glu.view(glu.LAB.compute(**start))["text"]
    assert text["balance"] != "Both FFNs hold the same number of weights."
    shown = " ".join(text.values())
    width = gated_width_for_equal_weights(start["d_ff"])
    assert f"{width:g}" not in shown.split()
    for places in (2, 4):
        assert f"{width / start['d_ff']:.{places}f}" not in shown


def test_the_lab_does_not_open_on_silu_of_one():
    # The lesson asks for SiLU(1) right below this lab; the student moves the gate there.
    text = glu.view(glu.LAB.compute())["text"]
    silu_one = float(silu(1.0))
    for places in (2, 4):
        assert f"{silu_one:.{places}f}" not in " ".join(text.values())


def marker_centre(shapes, name):
    """Centre of a series' marker on the plot (the first one; the legend's comes after)."""
    attrs = next(
        s["attrs"] for s in shapes if s["attrs"].get("class") == f"livelab-dot livelab-dot--{name}"
    )
    if "cx" in attrs:
        return float(attrs["cx"]), float(attrs["cy"])
    return float(attrs["x"]) + float(attrs["width"]) / 2, float(attrs["y"]) + float(
        attrs["height"]
    ) / 2


def test_the_marked_points_sit_on_their_curves():
    shapes = glu.view(glu.LAB.compute(gate=2.0))["svg"]["curves"]
    silu_x, silu_y = marker_centre(shapes, "silu")
    relu_x, relu_y = marker_centre(shapes, "relu")
    assert silu_x == relu_x
    assert silu_y > relu_y  # SiLU(2) < ReLU(2): lower on screen


@pytest.mark.parametrize("name", ["d_ff", "d_gated"])
def test_a_zero_width_is_refused(name):
    with pytest.raises(ValueError, match=f"{name} must lie in"):
        lab_view("glu", {name: 0})


def unit_bars(**params):
    """The gated unit's bars by key: {key: (label text, rect attrs)}."""
    shapes = glu.view(glu.LAB.compute(**params))["svg"]["unit"]
    rects = {s["attrs"]["class"].split("--")[-1]: s["attrs"] for s in shapes if s["tag"] == "rect"}
    labels = {
        s["attrs"]["class"].split("--")[-1]: s["text"]
        for s in shapes
        if "livelab-bar-label" in s["attrs"].get("class", "")
    }
    return {key: (labels[key], rects[key]) for key in rects}


def test_the_unit_draws_the_value_the_gate_and_their_product_each_labelled():
    bars = unit_bars(gate=-1.0, value=3.0)
    assert bars["value"][0] == "value = 3.0"
    assert bars["gate"][0] == "SiLU(gate) = -0.2689"
    assert bars["product"][0] == "SiLU(gate) × value = -0.8068"


def test_the_bars_share_one_scale_so_the_product_is_gate_times_value_in_length():
    bars = unit_bars(gate=2.0, value=-3.0)
    width = {key: float(rect["width"]) for key, (_, rect) in bars.items()}
    assert width["product"] == pytest.approx(width["gate"] * 3.0, abs=0.02)
    # A negative product grows left from the zero line, a positive value right from it.
    zero = float(bars["gate"][1]["x"])
    assert float(bars["product"][1]["x"]) + width["product"] == pytest.approx(zero)


def test_the_scale_grows_with_the_product_so_no_bar_leaves_the_picture():
    bars = unit_bars(gate=4.0, value=4.0)  # product 15.7, the largest the sliders reach
    for _, rect in bars.values():
        assert float(rect["x"]) >= 0 and float(rect["x"]) + float(rect["width"]) <= glu.UNIT_WIDTH


def test_relu_and_silu_differ_in_line_and_marker_shape_not_only_colour():
    shapes = glu.view(glu.LAB.compute())["svg"]["curves"]
    curves = {s["attrs"]["class"]: s["attrs"] for s in shapes if s["tag"] == "polyline"}
    assert "stroke-dasharray" in curves["livelab-series livelab-series--relu"]
    assert "stroke-dasharray" not in curves["livelab-series livelab-series--silu"]
    markers = {(s["tag"], s["attrs"]["class"]) for s in shapes if "livelab-dot" in str(s)}
    assert markers == {
        ("rect", "livelab-dot livelab-dot--relu"),
        ("circle", "livelab-dot livelab-dot--silu"),
    }

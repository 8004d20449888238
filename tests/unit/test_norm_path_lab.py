"""The norm path lab: norm counts, the lesson's worked numbers and weight gradients per layer."""

import functools
import html
import math

import numpy as np
import pytest

from labs import norm_path, norm_path_drawing
from labs.kernels import weight_gradient_sizes
from livelab.labs import lab_view
from livelab.labs.markup import Marks

SEEDS = range(norm_path.CLAIM_SEEDS)


def test_a_twelve_layer_post_norm_stack_has_twelve_norms_on_the_path():
    s = norm_path.LAB.compute(placement="post", layers=12)
    assert (s["path_norms"], s["branch_norms"], s["final_norms"]) == (12, 0, 0)
    assert norm_path.view(s)["text"]["count"].startswith("12,")


def test_pre_norm_keeps_the_path_clear_but_for_one_final_norm():
    s = norm_path.LAB.compute(placement="pre", layers=12)
    assert (s["path_norms"], s["branch_norms"], s["final_norms"]) == (0, 12, 1)
    assert "1 final norm" in norm_path.view(s)["text"]["count"]


@pytest.mark.parametrize("placement", ["post", "pre"])
def test_worked_numbers_are_the_same_for_both_placements(placement):
    s = norm_path.LAB.compute(placement=placement)
    np.testing.assert_allclose(s["post_out"], [1.29, 0.64, -0.81, -1.13], atol=0.005)
    np.testing.assert_allclose(s["pre_out"], [4, 2, -2.5, -3.5])
    text = norm_path.view(s)["text"]
    assert text["post_out"] == "[1.29, 0.64, -0.81, -1.13]"
    assert text["pre_out"] == "[4.00, 2.00, -2.50, -3.50]"


def test_the_chosen_placement_row_is_highlighted():
    view = norm_path.view(norm_path.LAB.compute(placement="pre"))
    assert view["attrs"]["pre_row"]["class"] == "livelab-chosen"
    assert view["attrs"]["post_row"]["class"] == ""


@pytest.mark.parametrize("layers", [1, 5, 24])
def test_each_point_is_the_median_of_the_kernel_over_the_stacks(layers):
    s = norm_path.LAB.compute(layers=layers, seed=3)
    sizes = weight_gradient_sizes(layers, seed=3, stacks=norm_path.STACKS)
    for placement in ("pre", "post"):
        np.testing.assert_allclose(s["gradients"][placement], np.median(sizes[placement], axis=0))


@functools.cache
def _chart(layers, seed):
    g = norm_path.LAB.compute(layers=layers, seed=seed)["gradients"]
    return np.array(g["post"]), np.array(g["pre"])


def _holds_for_all_but_one_seed(layers, claim):
    failing = [seed for seed in SEEDS if not claim(*_chart(layers, seed))]
    assert len(failing) <= 1, (layers, failing)


@pytest.mark.parametrize("layers", [norm_path.RISE_FROM, 36, norm_path.MAX_LAYERS])
def test_post_norms_gradients_grow_toward_the_output(layers):
    """Xiong et al.'s Fig. 3 shape: post-norm's last layer gets more than its first."""
    _holds_for_all_but_one_seed(layers, lambda post, pre: post[-1] / post[0] > norm_path.POST_RISE)


@pytest.mark.parametrize("layers", [norm_path.FALL_FROM, 24, norm_path.MAX_LAYERS])
def test_pre_norms_gradients_drift_down_toward_the_output_within_the_band(layers):
    """Not level as in the paper's plot: the caption and the page say so, with this band."""
    low, high = norm_path.PRE_BAND
    _holds_for_all_but_one_seed(layers, lambda post, pre: low < pre[-1] / pre[0] < high)


@pytest.mark.parametrize("layers", [norm_path.GAP_FROM, 12, 24, norm_path.MAX_LAYERS])
def test_post_norms_last_layer_gets_more_than_pre_norms(layers):
    """Xiong et al.'s Theorem 1: near the output post-norm's gradient is the larger one."""
    _holds_for_all_but_one_seed(layers, lambda post, pre: post[-1] / pre[-1] > norm_path.OUTPUT_GAP)


def test_post_norms_lead_at_the_output_grows_with_depth():
    depths = (norm_path.GAP_FROM, 12, 24, norm_path.MAX_LAYERS)
    gaps = np.array(
        [[post[-1] / pre[-1] for post, pre in (_chart(n, seed) for n in depths)] for seed in SEEDS]
    )
    assert (np.diff(np.median(gaps, axis=0)) > 0).all(), gaps
    assert sum((np.diff(row) > 0).all() for row in gaps) >= len(SEEDS) - 1, gaps


def test_the_caption_prints_the_numbers_the_tests_check():
    sentence = norm_path.claim_sentence()
    numbers = (
        norm_path.RISE_FROM,
        norm_path.POST_RISE,
        norm_path.FALL_FROM,
        *norm_path.PRE_BAND,
        norm_path.GAP_FROM,
        norm_path.OUTPUT_GAP,
        norm_path.CLAIM_SEEDS - 1,
    )
    for number in numbers:
        assert f" {number:g} " in sentence, number
    first = lab_view("norm_path", {})
    body = norm_path.body(first["params"], Marks("norm-path", first["view"]))
    assert html.escape(sentence) in body
    assert f"median over {norm_path.STACKS} random toy transformers" in body
    for words in ("W_O in an attention layer and W2 in an FFN layer", "softmax cross-entropy"):
        assert words in body


def test_the_readouts_give_both_ends_of_each_line_and_the_gap_at_the_output():
    s = norm_path.LAB.compute(layers=12, seed=0)
    text = norm_path.view(s)["text"]
    post, pre = s["gradients"]["post"], s["gradients"]["pre"]
    assert text["grad_pre"] == (
        f"{pre[0]:.1f} at layer 1 and {pre[-1]:.1f} at layer 12: "
        f"the last gets {pre[-1] / pre[0]:.2f} times the first."
    )
    assert text["grad_post"].startswith(f"{post[0]:.1f} at layer 1 and {post[-1]:.1f} at layer 12")
    assert text["grad_gap"] == (
        f"At layer 12, post-norm's gradient is {post[-1] / pre[-1]:.2f} times pre-norm's."
    )
    one = norm_path.view(norm_path.LAB.compute(layers=1))["text"]["grad_post"]
    assert one.endswith("at layer 1, the only layer.")


@pytest.mark.parametrize("placement", ["post", "pre"])
@pytest.mark.parametrize("layers", [1, 7, 24, 48])
def test_the_path_drawing_has_one_norm_box_per_norm(placement, layers):
    shapes = norm_path_drawing.path_shapes(placement, layers)
    norms = [
        s for s in shapes if s["tag"] == "rect" and "livelab-node--norm" in s["attrs"]["class"]
    ]
    s = norm_path.LAB.compute(placement=placement, layers=layers)
    assert len(norms) == s["path_norms"] + s["branch_norms"] + s["final_norms"]


def _markers(shapes, placement):
    return [s for s in shapes if f"livelab-marker--{placement}" in s["attrs"].get("class", "")]


def test_the_chart_has_a_marker_per_layer_and_one_in_the_legend_for_each_placement():
    shapes = norm_path.view(norm_path.LAB.compute(layers=9))["svg"]["gradients"]
    post, pre = _markers(shapes, "post"), _markers(shapes, "pre")
    assert len(post) == len(pre) == 9 + 1
    assert {m["tag"] for m in post} == {"rect"} and {m["tag"] for m in pre} == {"circle"}
    assert all("livelab-series--post" in m["attrs"]["class"] for m in post)
    assert all("livelab-series--pre" in m["attrs"]["class"] for m in pre)
    labels = [s.get("text", "") for s in shapes if s["tag"] == "text"]
    assert "post-norm (squares)" in labels and "pre-norm (circles)" in labels
    assert "layer 1 … 9 (1 is nearest the input)" in labels
    assert any(
        "log scale" in label and f"median of {norm_path.STACKS} random stacks" in label
        for label in labels
    )
    assert norm_path_drawing.Y_TITLE in labels


def test_the_log_axis_ticks_cover_every_point_and_sit_at_their_logarithm():
    s = norm_path.LAB.compute(layers=24)
    values = s["gradients"]["post"] + s["gradients"]["pre"]
    ticks = norm_path_drawing.log_ticks(min(values), max(values))
    assert ticks[0] <= min(values) and ticks[-1] >= max(values)
    assert all(round(t / 10 ** math.floor(math.log10(t)), 9) in (1, 2, 5) for t in ticks)
    shapes = norm_path.view(s)["svg"]["gradients"]
    pre = _markers(shapes, "pre")[:24]  # the legend's marker comes last
    ys = [float(m["attrs"]["cy"]) for m in pre]
    top, bottom = (
        norm_path_drawing.PLOT_BOX[1],
        norm_path_drawing.PLOT_BOX[1] + norm_path_drawing.PLOT_BOX[3],
    )
    assert all(top <= y <= bottom for y in ys)
    # equal ratios are equal distances on a log axis
    first, last = s["gradients"]["pre"][0], s["gradients"]["pre"][-1]
    span = math.log10(ticks[-1]) - math.log10(ticks[0])
    drop = ys[-1] - ys[0]
    assert drop == pytest.approx(
        norm_path_drawing.PLOT_BOX[3] * math.log10(first / last) / span, abs=0.02
    )


def test_layers_outside_one_to_forty_eight_are_refused():
    assert norm_path.PARAMS["layers"].maximum == norm_path.MAX_LAYERS == 48
    with pytest.raises(ValueError, match="layers must lie in"):
        lab_view("norm_path", {"layers": 49})
    with pytest.raises(ValueError, match="placement must be one of"):
        lab_view("norm_path", {"placement": "middle"})


@pytest.mark.parametrize("placement", ["post", "pre"])
def test_no_add_node_is_covered_by_a_box_and_every_one_is_drawn_last(placement):
    """Each ⊕ lies clear of every LN and f box at any depth, and on top of the path."""
    for layers in range(1, 49):
        shapes = norm_path_drawing.path_shapes(placement, layers)
        adds = [s for s in shapes if s["tag"] == "circle" and "livelab-plus" in s["attrs"]["class"]]
        boxes = [s["attrs"] for s in shapes if s["tag"] == "rect"]
        assert len(adds) == layers
        for add in adds:
            cx, cy, r = (float(add["attrs"][k]) for k in ("cx", "cy", "r"))
            for box in boxes:
                x, y, w, h = (float(box[k]) for k in ("x", "y", "width", "height"))
                apart = cx + r <= x or cx - r >= x + w or cy + r <= y or cy - r >= y + h
                assert apart, (placement, layers, add["attrs"], box)
        last_box = max(i for i, s in enumerate(shapes) if s["tag"] == "rect")
        assert all(shapes.index(add) > last_box for add in adds)

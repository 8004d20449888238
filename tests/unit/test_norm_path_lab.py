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

# Seeds of the lab (each one draws its own norm_path.STACKS stacks) over which the lesson's
# reading of the chart must hold.
CLAIM_SEEDS = range(25)


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
def test_each_point_is_the_geometric_mean_of_the_kernel_over_the_stacks(layers):
    s = norm_path.LAB.compute(layers=layers, seed=3)
    sizes = weight_gradient_sizes(layers, seed=3, stacks=norm_path.STACKS)
    for placement in ("pre", "post"):
        expected = np.exp(np.log(sizes[placement]).mean(axis=0))
        np.testing.assert_allclose(s["gradients"][placement], expected)


@functools.cache
def _chart(layers, seed):
    g = norm_path.LAB.compute(layers=layers, seed=seed)["gradients"]
    return np.array(g["post"]), np.array(g["pre"])


@pytest.mark.parametrize("layers", [norm_path.CLAIM_FROM_LAYERS, 12, 24])
def test_the_chart_shows_what_the_caption_claims_for_every_seed(layers):
    for seed in CLAIM_SEEDS:
        post, pre = _chart(layers, seed)
        assert post[-1] / pre[-1] > norm_path.OUTPUT_GAP, seed
        assert pre[0] / pre[-1] > norm_path.PRE_SLOPE, seed
        assert post.max() / post.min() < norm_path.POST_SPREAD, seed


def test_post_norms_lead_at_the_output_grows_with_depth_for_every_seed():
    depths = (norm_path.CLAIM_FROM_LAYERS, 12, 24)
    for seed in CLAIM_SEEDS:
        gaps = [post[-1] / pre[-1] for post, pre in (_chart(n, seed) for n in depths)]
        assert gaps == sorted(gaps), (seed, gaps)


def test_the_caption_prints_the_numbers_the_tests_check():
    sentence = norm_path.claim_sentence()
    for number in (
        norm_path.CLAIM_FROM_LAYERS,
        norm_path.OUTPUT_GAP,
        norm_path.PRE_SLOPE,
        norm_path.POST_SPREAD,
    ):
        assert f" {number:g} " in sentence, number
    first = lab_view("norm_path", {})
    body = norm_path.body(first["params"], Marks("norm-path", first["view"]))
    assert html.escape(sentence) in body
    assert f"{norm_path.STACKS} random stacks" in body


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
@pytest.mark.parametrize("layers", [1, 7, 24])
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
        "log scale" in label and f"{norm_path.STACKS} random stacks" in label for label in labels
    )


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


def test_layers_outside_one_to_twenty_four_are_refused():
    with pytest.raises(ValueError, match="layers must lie in"):
        lab_view("norm_path", {"layers": 25})
    with pytest.raises(ValueError, match="placement must be one of"):
        lab_view("norm_path", {"placement": "middle"})


@pytest.mark.parametrize("placement", ["post", "pre"])
def test_no_add_node_is_covered_by_a_box_and_every_one_is_drawn_last(placement):
    """Each ⊕ lies clear of every LN and f box at any depth, and on top of the path."""
    for layers in range(1, 25):
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

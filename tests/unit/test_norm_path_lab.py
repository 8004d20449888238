"""The norm path lab: norm counts, the lesson's worked numbers and gradients per layer."""

import numpy as np
import pytest

from livelab.kernels import residual_gradient_norms
from livelab.labs import lab_view, norm_path


def test_a_twelve_layer_post_norm_stack_has_twelve_norms_on_the_path():
    s = norm_path.state(placement="post", layers=12)
    assert (s["path_norms"], s["branch_norms"], s["final_norms"]) == (12, 0, 0)
    assert norm_path.view(s)["text"]["count"].startswith("12,")


def test_pre_norm_keeps_the_path_clear_but_for_one_final_norm():
    s = norm_path.state(placement="pre", layers=12)
    assert (s["path_norms"], s["branch_norms"], s["final_norms"]) == (0, 12, 1)
    assert "1 final norm" in norm_path.view(s)["text"]["count"]


@pytest.mark.parametrize("placement", ["post", "pre"])
def test_worked_numbers_are_the_same_for_both_placements(placement):
    s = norm_path.state(placement=placement)
    np.testing.assert_allclose(s["post_out"], [1.29, 0.64, -0.81, -1.13], atol=0.005)
    np.testing.assert_allclose(s["pre_out"], [4, 2, -2.5, -3.5])
    text = norm_path.view(s)["text"]
    assert text["post_out"] == "[1.29, 0.64, -0.81, -1.13]"
    assert text["pre_out"] == "[4.00, 2.00, -2.50, -3.50]"


def test_the_chosen_placement_row_is_highlighted():
    view = norm_path.view(norm_path.state(placement="pre"))
    assert view["attrs"]["pre_row"]["class"] == "livelab-chosen"
    assert view["attrs"]["post_row"]["class"] == ""


@pytest.mark.parametrize("layers", [1, 5, 24])
def test_gradients_come_from_the_kernel_for_both_placements(layers):
    s = norm_path.state(layers=layers, seed=3)
    for placement in ("pre", "post"):
        expected = residual_gradient_norms(layers, placement, seed=3)
        np.testing.assert_allclose(s["gradients"][placement], expected)


@pytest.mark.parametrize("placement", ["post", "pre"])
@pytest.mark.parametrize("layers", [1, 7, 24])
def test_the_path_drawing_has_one_norm_box_per_norm(placement, layers):
    shapes = norm_path.path_shapes(placement, layers)
    norms = [
        s for s in shapes if s["tag"] == "rect" and "livelab-node--norm" in s["attrs"]["class"]
    ]
    s = norm_path.state(placement=placement, layers=layers)
    assert len(norms) == s["path_norms"] + s["branch_norms"] + s["final_norms"]


def test_the_gradient_plot_has_a_point_per_layer_and_placement():
    view = norm_path.view(norm_path.state(layers=9))
    dots = [s for s in view["svg"]["gradients"] if s["tag"] == "circle"]
    assert len(dots) == 2 * 9


def test_layers_outside_one_to_twenty_four_are_refused():
    with pytest.raises(ValueError, match="layers must lie in"):
        lab_view("norm_path", {"layers": 25})
    with pytest.raises(ValueError, match="placement must be one of"):
        lab_view("norm_path", {"placement": "middle"})

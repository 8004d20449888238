"""The RMS geometry lab: RMSNorm on the circle of radius √2, LayerNorm at ±(1, −1), the plane."""

import itertools
import re

import numpy as np
import pytest

from labs import rms_geometry
from labs import rms_geometry_drawing as drawing
from livelab.labs import lab, lab_view
from livelab.labs.markup import Marks, lab_html

GRID = np.round(np.arange(-4.0, 4.01, 0.25), 2)  # 33 values per entry, both ends included


def compute(x1, x2):
    return rms_geometry.LAB.compute(x1=float(x1), x2=float(x2))


def rendered(**params):
    chosen = lab("rms_geometry")
    first = chosen.first_view(params)
    body = chosen.body(first["params"], Marks("rms-geometry", first["view"]))
    return first["view"], lab_html("rms_geometry", "rms-geometry", chosen.title, {}, body)


@pytest.mark.parametrize(("x1", "x2"), [(3, 1), (-4, 4), (0.5, 0.3), (-2.7, 0.1), (0, -3)])
def test_rmsnorm_keeps_the_direction_and_lands_on_the_circle_of_radius_root_two(x1, x2):
    s = compute(x1, x2)
    x = np.array([x1, x2], dtype=float)
    rms = np.sqrt(np.mean(x**2))
    np.testing.assert_allclose(s["rms_out"], x / rms)
    assert np.linalg.norm(s["rms_out"]) == pytest.approx(np.sqrt(2))
    out = s["rms_out"]
    assert x[0] * out[1] - x[1] * out[0] == pytest.approx(0, abs=1e-12)  # the same line...
    assert np.dot(x, s["rms_out"]) > 0  # ...and the same side of 0
    assert s["radius"] == pytest.approx(np.sqrt(2))
    text = rms_geometry.view(s)["text"]
    assert text["rms"] == f"{rms:.3f}"
    assert text["rms_length"] == "1.414"


@pytest.mark.parametrize(("x1", "x2"), [(3, 1), (-4, 4), (0.5, 0.3), (-2.7, 0.1), (1, -1.5)])
def test_layernorm_centres_onto_the_line_then_lands_on_one_of_two_points(x1, x2):
    s = compute(x1, x2)
    x = np.array([x1, x2], dtype=float)
    centred = x - x.mean()
    np.testing.assert_allclose(s["centred"], centred)
    assert sum(s["centred"]) == pytest.approx(0, abs=1e-12)  # on x1 + x2 = 0
    np.testing.assert_allclose(s["ln_out"], centred / centred.std())
    np.testing.assert_allclose(s["ln_out"], np.sign(x1 - x2) * np.array([1.0, -1.0]))
    text = rms_geometry.view(s)["text"]
    assert text["ln_out"] in ("[1.000, -1.000]", "[-1.000, 1.000]")
    assert text["mean"] == f"{x.mean():.3f}"


def test_the_lab_opens_on_a_row_whose_two_norms_differ():
    s = rms_geometry.LAB.compute()
    assert (s["x"], s["ln_out"]) == ([3.0, 1.0], [1.0, -1.0])
    assert s["apart"] > 1
    assert "different points" in rms_geometry.view(s)["text"]["agreement"]


@pytest.mark.parametrize(("x1", "x2"), [(1, -1), (-2.5, 2.5), (0.1, -0.1)])
def test_a_row_of_mean_zero_gets_the_same_point_from_both(x1, x2):
    s = compute(x1, x2)
    np.testing.assert_allclose(s["rms_out"], s["ln_out"])
    assert rms_geometry.view(s)["text"]["agreement"] == (
        "RMSNorm(x) and LayerNorm(x) are the same point."
    )


def test_the_zero_row_gets_a_message_for_each_norm_and_no_nan():
    first = lab_view("rms_geometry", {"x1": 0, "x2": 0})
    text = first["view"]["text"]
    assert text["rms_out"] == text["ln_out"] == "not defined"
    assert "no direction" in text["rms_error"] and "0 / 0" in text["rms_error"]
    assert "x1 = x2" in text["ln_error"]
    assert "nan" not in str(first).lower()
    assert not any(s["tag"] in ("rect", "path") for s in first["view"]["svg"]["plane"])


@pytest.mark.parametrize("value", [2.0, -3.5, 0.1])
def test_equal_entries_have_rmsnorm_but_no_layernorm(value):
    first = lab_view("rms_geometry", {"x1": value, "x2": value})
    text = first["view"]["text"]
    assert text["rms_error"] == "" and text["rms_out"] != "not defined"
    assert text["ln_out"] == "not defined"
    assert "x1 = x2" in text["ln_error"] and "[0, 0]" in text["ln_error"]
    assert "nan" not in str(first).lower()
    diamonds = [s for s in first["view"]["svg"]["plane"] if "livelab-geo-point--ln" in str(s)]
    assert diamonds == []


def test_the_entries_are_labelled_number_fields_each_with_a_slider():
    _, page = rendered()
    for name in ("x1", "x2"):
        assert f'<label for="rms-geometry-{name}">{name}</label>' in page
        field = re.search(rf'<input type="number" id="rms-geometry-{name}"[^>]*>', page).group(0)
        assert 'min="-4" max="4" step="0.1"' in field
        assert f'aria-label="{name}, slider"' in page
    with pytest.raises(ValueError, match=r"x1 must lie in \[-4, 4\]"):
        lab_view("rms_geometry", {"x1": 5})


def test_the_figure_is_an_image_named_by_its_numbers_and_the_outputs_are_labelled():
    view, page = rendered()
    svg = re.search(r"<svg [^>]*>", page).group(0)
    assert 'role="img"' in svg and 'aria-labelledby="rms-geometry-plane-title"' in svg
    title = view["text"]["plane_title"]
    assert "[3.000, 1.000]" in title and "[1.342, 0.447]" in title and "[1.000, -1.000]" in title
    for name, label in (("rms-out", "RMSNorm(x)"), ("ln-out", "LayerNorm(x)")):
        assert f'<label for="rms-geometry-{name}">{label}</label>' in page
        assert re.search(rf'<output [^>]*id="rms-geometry-{name}" aria-live="polite"', page)


def test_the_general_fact_waits_in_a_closed_box():
    _, page = rendered()
    fact = page.index("exactly when")
    opened = page.rfind("<details", 0, fact)
    assert opened != -1 and page.find("</details>", opened) > fact
    assert "<details open" not in page
    assert "radius √d" in page and "subspace" in page


def _circle(shapes, cls):
    return next(s["attrs"] for s in shapes if s["tag"] == "circle" and cls in s["attrs"]["class"])


def _centre(shape):
    a = shape["attrs"]
    if shape["tag"] == "circle":
        return float(a["cx"]), float(a["cy"])
    if shape["tag"] == "rect":
        return float(a["x"]) + float(a["width"]) / 2, float(a["y"]) + float(a["height"]) / 2
    xs = [float(v) for v in re.findall(r"[ML]([-\d.]+),", a["d"])]
    ys = [float(v) for v in re.findall(r"[ML][-\d.]+,([-\d.]+)", a["d"])]
    return (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2


def test_the_points_are_drawn_where_the_numbers_say():
    s = compute(3, 1)
    shapes = drawing.plane_shapes(s)
    circle = _circle(shapes, "livelab-geo-circle")
    cx, cy, r = float(circle["cx"]), float(circle["cy"]), float(circle["r"])
    unit = drawing.BOX[2] / (2 * drawing.LIMIT)
    assert r == pytest.approx(np.sqrt(2) * unit, abs=0.01)
    points = {
        kind: _centre(x)
        for x in shapes
        for kind in ("x", "rms", "ln", "centred")
        if f"livelab-geo-point--{kind}" in x["attrs"].get("class", "")
    }
    for kind, key in (("x", "x"), ("rms", "rms_out"), ("ln", "ln_out"), ("centred", "centred")):
        px, py = points[kind]
        assert (px - cx) / unit == pytest.approx(s[key][0], abs=0.01), kind
        assert (cy - py) / unit == pytest.approx(s[key][1], abs=0.01), kind
    assert np.hypot(points["rms"][0] - cx, points["rms"][1] - cy) == pytest.approx(r, abs=0.02)


def _labels(shapes):
    return [x for x in shapes if x["tag"] == "text" and "livelab-geo-label" in x["attrs"]["class"]]


def _box(label):
    a = label["attrs"]
    return drawing.text_box(float(a["x"]), float(a["y"]), label["text"], a["text-anchor"])


def _markers(shapes):
    return [_centre(x) for x in shapes if "livelab-geo-point" in x["attrs"].get("class", "")]


@pytest.mark.parametrize("x1", GRID)
def test_labels_stay_in_the_plane_clear_of_each_other_and_of_every_point(x1):
    """At the largest text (a phone, where figure text is biggest in viewBox units)."""
    for x2 in GRID:
        shapes = drawing.plane_shapes(compute(x1, x2))
        labels = _labels(shapes)
        expected = 1 + (x1 != 0 or x2 != 0) + (x1 != x2)
        assert len(labels) == expected, (x1, x2)
        boxes = [_box(label) for label in labels]
        for box in boxes:
            assert box.inside(drawing.PLANE), (x1, x2, box)
            for mx, my in _markers(shapes):
                assert not box.meets(drawing.marker_box(mx, my)), (x1, x2, box, mx, my)
        for a, b in itertools.combinations(boxes, 2):
            assert not a.meets(b), (x1, x2, a, b)


def test_the_legend_and_axis_titles_fit_the_view_box_at_the_largest_text():
    texts = [x for x in drawing.legend() if x["tag"] == "text"]
    assert [t["text"] for t in texts] == [
        "x, the row",
        "RMSNorm(x)",
        "x − mean",
        "LayerNorm(x)",
        "radius √2",
        "x1 + x2 = 0",
    ]
    boxes = [_box({**t, "attrs": {**t["attrs"], "text-anchor": "start"}}) for t in texts]
    frame = drawing.Box(0, 0, drawing.WIDTH, drawing.HEIGHT)
    for box in boxes:
        assert box.inside(frame), box
        assert box.top > drawing.PLANE.bottom + 2.45 * drawing.EM  # below the x title's row
    for a, b in itertools.combinations(boxes, 2):
        assert not a.meets(b), (a, b)


def test_the_scratchpad_code_gives_the_rmsnorm_the_lab_shows():
    code = rms_geometry.scratch(compute(3, 1)).code
    assert "rmsnorm(x, eps=0.0)" in code.splitlines()[-1]
    equal = rms_geometry.scratch(compute(2, 2)).code
    assert "# layernorm(x, eps=0.0) raises here" in equal

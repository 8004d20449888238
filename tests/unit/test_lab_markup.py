"""What every lab shares: params, views the widget can apply, and build-time markup."""

import importlib
import json
import re

import pytest

from livelab.labs import LABS, lab_view
from livelab.labs.params import Param, Params
from livelab.labs.view import SVG_TAGS, Frame, shape
from livelab.markup import Marks, lab_html, shapes_svg

VIEW_PARTS = {"text", "attrs", "svg", "rows", "hidden", "error"}


def rendered(kind, params=None):
    first = lab_view(kind, params or {})
    markup = importlib.import_module(f"livelab.markup.{kind}")
    body = markup.body(first["params"], Marks(kind, first["view"]))
    return first, lab_html(kind, kind, markup.TITLE, first["params"], body)


@pytest.mark.parametrize("kind", sorted(LABS))
def test_every_first_view_is_plain_json_without_nan(kind):
    first = lab_view(kind, {})
    assert set(first["view"]) <= VIEW_PARTS
    json.dumps(first, allow_nan=False)


@pytest.mark.parametrize("kind", sorted(LABS))
def test_every_marked_element_has_its_part_in_the_first_view(kind):
    first, page = rendered(kind)
    view = first["view"]
    for mark, part in (
        ("data-text", "text"),
        ("data-attrs", "attrs"),
        ("data-shapes", "svg"),
        ("data-rows", "rows"),
        ("data-hide", "hidden"),
    ):
        names = set(re.findall(rf'{mark}="([^"]+)"', page))
        assert names <= set(view.get(part, {})), (mark, names - set(view.get(part, {})))


@pytest.mark.parametrize("kind", sorted(LABS))
def test_every_control_is_labelled_and_disabled_until_python_runs(kind):
    _, page = rendered(kind)
    for control in re.findall(r"<input [^>]*>", page):
        assert " disabled" in control
        match = re.search(r'id="([^"]+)"', control)
        assert match or "aria-label=" in control, control
        if match:
            assert f'for="{match.group(1)}"' in page, control
    for button in re.findall(r"<button [^>]*>", page):
        assert " disabled" in button


@pytest.mark.parametrize("kind", sorted(LABS))
def test_every_lab_has_one_key_result_in_a_labelled_output(kind):
    _, page = rendered(kind)
    outputs = re.findall(r'<output [^>]*id="([^"]+)"', page)
    assert outputs
    for dom_id in outputs:
        assert f'<label for="{dom_id}">' in page


def test_the_build_draws_the_same_shapes_the_widget_would():
    shapes = [shape("line", {"x1": 0.0, "y1": 1.5}, class_="a"), shape("text", {"x": 1}, "<b>")]
    assert shapes_svg(shapes) == (
        '<line x1="0" y1="1.5" class="a"></line><text x="1">&lt;b&gt;</text>'
    )


def test_only_listed_svg_tags_can_be_drawn():
    assert "script" not in SVG_TAGS and "foreignObject" not in SVG_TAGS
    with pytest.raises(ValueError, match="cannot draw <script>"):
        shape("script", {})
    with pytest.raises(ValueError, match="non-finite"):
        shape("circle", {"cx": float("nan")})


def test_a_frame_puts_data_y_up_in_svg_space():
    frame = Frame((0, 10), (0, 1), (10, 20, 100, 50))
    assert (frame.x(0), frame.x(10)) == (10, 110)
    assert (frame.y(1), frame.y(0)) == (20, 70)


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [
        (Param(True), 1, "true or false"),
        (Param("a", choices=(("a", "A"), ("b", "B"))), "c", "one of a, b"),
        (Param(1, 0, 5, 1), None, "needs a number"),
        (Param(1, 0, 5, 1), 2.5, "whole number"),
        (Param((0.0, 0.0), -1, 1), [0, 2], r"p\[1\] must lie in \[-1, 1\]"),
    ],
)
def test_params_refuse_values_of_the_wrong_kind(spec, value, message):
    with pytest.raises(ValueError, match=message):
        Params(p=spec).coerce({"p": value})


def test_a_bool_param_is_not_an_int_param():
    assert Params(p=Param(False)).coerce({"p": True}) == {"p": True}
    assert not Param(False).is_int


def test_an_unknown_control_kind_is_an_error():
    with pytest.raises(ValueError, match="control must be one of"):
        Param(1, label="x", control="knob")

"""What every lab shares: params, views the widget can apply, and build-time markup."""

import dataclasses
import inspect
import json
import re
import sys
import types

import pytest

from livelab import i18n
from livelab.labs import (
    LAB_FENCE,
    LABS,
    Lab,
    all_labs,
    lab,
    lab_of_module,
    lab_view,
    register_lab,
)
from livelab.labs.markup import Marks, lab_html, label_html, number_control, shapes_svg
from livelab.labs.view import BELOW_AXES, SVG_TAGS, X_TICK_ROW, Frame, shape
from livelab.options import Option, Options

VIEW_PARTS = {"text", "attrs", "svg", "rows", "hidden", "error"}


def rendered(kind, params=None):
    chosen = lab(kind)
    first = chosen.first_view(params or {})
    body = chosen.body(first["params"], Marks(kind, first["view"]))
    return first, lab_html(kind, kind, chosen.title, first["params"], body)


@pytest.mark.parametrize("kind", all_labs())
def test_every_first_view_is_plain_json_without_nan(kind):
    first = lab_view(kind, {})
    assert set(first["view"]) <= VIEW_PARTS
    json.dumps(first, allow_nan=False)


@pytest.mark.parametrize("kind", all_labs())
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


@pytest.mark.parametrize("kind", all_labs())
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


@pytest.mark.parametrize("kind", all_labs())
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


def test_edge_tick_labels_stay_inside_the_box_clear_of_the_y_labels():
    frame = Frame((-4, 4), (-1, 4), (40, 10, 200, 100))
    ticks = frame.axes([-4, 0, 4], [-1, 4], "x", "y")
    texts = [t for t in ticks if t["tag"] == "text"]
    x_labels = {t["text"]: t["attrs"] for t in texts if t["attrs"]["dy"] == f"{X_TICK_ROW}em"}
    assert set(x_labels) == {"-4", "0", "4"}
    assert {a["y"] for a in x_labels.values()} == {"110"}  # one row, under the box
    assert x_labels["-4"]["text-anchor"] == "start"  # the lowest y label ends left of the box
    assert x_labels["0"]["text-anchor"] == "middle"
    assert x_labels["4"]["text-anchor"] == "end"


def test_rows_of_axis_text_are_a_line_apart_at_any_text_size():
    """Placed in em, the x ticks and the x title cannot reach each other however large the
    text is drawn; the viewBox only has to leave BELOW_AXES em under the box."""
    texts = Frame((0, 1), (0, 1), (40, 10, 200, 100)).axes([0, 1], [], "x title", "y")
    rows = {t["text"]: float(t["attrs"]["dy"].removesuffix("em")) for t in texts if "text" in t}
    line = 1.154  # a line of Roboto, ascent and descent, in em
    assert rows["x title"] - rows["1"] >= line
    assert rows["x title"] + 0.25 <= BELOW_AXES
    assert rows["y"] + 0.25 <= 0  # the y title ends above the box


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [
        (Option(True), 1, "true or false"),
        (Option("a", choices=(("a", "A"), ("b", "B"))), "c", "one of a, b"),
        (Option(1, 0, 5, 1), None, "needs a number"),
        (Option(1, 0, 5, 1), 2.5, "whole number"),
        (Option((0.0, 0.0), -1, 1), [0, 2], r"p\[1\] must lie in \[-1, 1\]"),
    ],
)
def test_params_refuse_values_of_the_wrong_kind(spec, value, message):
    with pytest.raises(ValueError, match=message):
        Options(p=spec).coerce({"p": value})


NBSP = "\u00a0"


@pytest.mark.parametrize(
    ("spec", "value", "message"),
    [
        (Option(1, 0, 5, 1), None, f"p attend un nombre{NBSP}: le champ est vide"),
        (Option(1, 0, 5, 1), 2.5, f"p doit être un nombre entier{NBSP}; reçu 2.5"),
        (Option(2, 0, 8, 2), 3, f"p doit valoir 0 plus un multiple de 2{NBSP}; reçu 3"),
        (Option((0.0, 0.0), -1, 1), [0, 2], f"p[1] doit être compris dans [-1, 1]{NBSP}; reçu 2"),
        (Option((0.0, 0.0), -1, 1), [None, 0], "p[0] attend un nombre"),
    ],
)
def test_a_french_site_refuses_a_lab_value_in_french(spec, value, message):
    # What a French student reads under a lab whose field they emptied or pushed out of range
    # (the worker's livelab.i18n speaks the site's table); English stays as it was.
    i18n.use("fr")
    with pytest.raises(ValueError) as refused:
        Options(p=spec).coerce({"p": value})
    assert str(refused.value).startswith(message)
    i18n.use("en")
    with pytest.raises(ValueError, match=r"^p(\[\d\])? (needs|must)"):
        Options(p=spec).coerce({"p": value})


def test_a_bool_param_is_not_an_int_param():
    assert Options(p=Option(False)).coerce({"p": True}) == {"p": True}
    assert not Option(False).is_int


def test_an_unknown_control_kind_is_an_error():
    with pytest.raises(ValueError, match="control must be one of"):
        Option(1, label="x", control="knob")


@pytest.mark.parametrize("kind", all_labs())
def test_a_labs_defaults_live_only_in_its_params(kind):
    chosen = lab(kind)
    signature = inspect.signature(chosen.state).parameters
    assert list(signature) == list(chosen.params)
    for param in signature.values():
        assert param.kind is inspect.Parameter.KEYWORD_ONLY, param
        assert param.default is inspect.Parameter.empty, param
    assert all(spec.what for spec in chosen.params.values())
    assert chosen.title and chosen.module == f"labs.{kind}"  # level 19's, one module a lab


@pytest.mark.parametrize("kind", all_labs())
def test_each_slider_shows_its_value_as_the_engine_writes_it(kind):
    chosen = lab(kind)
    sliders = {n: s for n, s in chosen.params.controls().items() if s.control == "range"}
    own = chosen.view(chosen.compute())["text"]
    assert not set(sliders) & set(own)  # the view no longer copies slider values
    first = chosen.first_view({})
    for name, spec in sliders.items():
        assert first["view"]["text"][name] == spec.show(first["params"][name])


def test_an_unknown_lab_names_a_close_one_and_all_known_ones():
    with pytest.raises(ValueError, match=r"unknown lab 'rop' \(did you mean 'rope'\?\).*glu"):
        lab_view("rop", {})


def test_a_slider_float_shows_the_decimals_its_option_asks_for():
    assert Option(0.0, -1.0, 1.0, 0.1, "c", digits=1).show(-0.04) == "0.0"
    assert Option(0.0, -1.0, 1.0, 0.1, "c").show(0.5) == "0.50"
    assert Option(3, 0, 9, 1, "n").show(3) == "3"


def _halve_body(values, marks):
    return f"<p>{marks.text('half')}</p>"


def test_a_course_registers_its_own_lab_and_the_engine_serves_it(monkeypatch):
    monkeypatch.setattr(LABS, "items", dict(all_labs()))
    halve = register_lab(
        Lab(
            name="halve",
            title="Halve a number",
            params=Options(n=Option(3.0, 0.0, 9.0, 0.5, "n", what="the number", digits=1)),
            state=lambda *, n: {"half": n / 2},
            view=lambda s: {"text": {"half": f"{s['half']:g}"}},
            body=_halve_body,
            module="course.labs",
        )
    )
    assert "halve" in all_labs()
    assert lab_view("halve", {"n": 5}) == {
        "params": {"n": 5.0},
        "view": {"text": {"n": "5.0", "half": "2.5"}},
    }
    with pytest.raises(ValueError, match="registered twice"):
        register_lab(dataclasses.replace(halve, module="another.course"))


def test_a_lab_fence_takes_its_own_options_besides_the_params():
    assert set(LAB_FENCE) == {"lab", "id", "title"}
    assert all(spec.what for spec in LAB_FENCE.values())
    assert not set(LAB_FENCE) & {p for k in all_labs() for p in lab(k).params}


def test_a_label_may_wrap_after_each_underscore_and_stays_escaped():
    assert label_html("max_sequence_slots") == "max_<wbr>sequence_<wbr>slots"
    assert label_html("a<b_c") == "a&lt;b_<wbr>c"
    spec = Option(2, 1, 9, 1, "max_sequence_slots", control="number")
    markup = number_control("max_sequence_slots", spec, 2, Marks("lab", {}))
    assert ">max_<wbr>sequence_<wbr>slots</label>" in markup


def test_a_lab_is_made_from_its_modules_usual_names_and_a_missing_one_is_named(monkeypatch):
    module = types.ModuleType("course_lab_for_test")
    module.PARAMS = Options(n=Option(1, 0, 9, 1, "n", what="a number"))
    module.state = lambda *, n: {"n": n}
    module.view = lambda s: {"text": {"n": str(s["n"])}}
    monkeypatch.setitem(sys.modules, module.__name__, module)
    with pytest.raises(ValueError, match="defines no body"):
        lab_of_module(module.__name__, name="counter", title="Counter")
    module.body = lambda values, marks: "<p></p>"
    made = lab_of_module(module.__name__, name="counter", title="Counter")
    assert (made.name, made.scratch, made.module) == ("counter", None, module.__name__)
    assert made.first_view({"n": 3})["view"]["text"]["n"] == "3"

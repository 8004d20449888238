"""The labs' pictures are in the built HTML: a reader sees them before Python starts, or without it.

Each expected drawing is the lab's own first view for the params the page carries, rendered by
the same markup helper the build uses, so the test reads the registry and copies no shapes.
"""

import html
import json
import re

import pytest

from livelab.labs import lab_view
from livelab.labs.markup import shapes_svg
from tests.sitebuild.test_build import build

PAGE = "level-19/modern-blocks/index.html"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    result = build(out)
    assert result.returncode == 0, result.stderr
    return (out / PAGE).read_text(encoding="utf-8")


def built_lab(page: str, lab_id: str) -> tuple[str, dict]:
    """The built markup of one lab (up to its status line) and the params it was built with."""
    start = page.index(f'data-lab="{lab_id}"')
    start = page.rindex("<article", 0, start)
    markup = page[start : page.index("data-status", start)]
    params = json.loads(html.unescape(re.search(r'data-params="([^"]*)"', markup).group(1)))
    return markup, params


def pictures(markup: str) -> list[str]:
    """Every <svg role="img"> of the markup, whole."""
    return re.findall(r'<svg [^>]*role="img".*?</svg>', markup, flags=re.S)


@pytest.mark.parametrize(
    ("lab_id", "kind", "groups"),
    [
        ("glu", "glu", ["curves", "unit"]),
        ("rms", "rms", ["bars"]),
        ("rms-geometry", "rms_geometry", ["plane"]),
    ],
)
def test_the_glu_and_rms_pictures_are_drawn_at_build_time(page, lab_id, kind, groups):
    markup, params = built_lab(page, lab_id)
    view = lab_view(kind, params)["view"]
    for name in groups:
        drawn = f'<g data-shapes="{name}">{shapes_svg(view["svg"][name])}</g>'
        assert drawn in markup, name
        assert view["svg"][name], name  # a drawing, not an empty group
    for svg in pictures(markup):
        assert re.search(r"<title [^>]*>[^<]+</title>", svg)  # each picture is named


def test_the_glu_picture_shows_the_product_and_the_rms_picture_both_rows(page):
    glu_markup, glu_params = built_lab(page, "glu")
    product = lab_view("glu", glu_params)["view"]["text"]["product"]
    assert re.search(
        rf"<text [^>]*livelab-bar-label--product[^>]*>[^<]*= {product}</text>", glu_markup
    )
    rms_markup, rms_params = built_lab(page, "rms")
    bars = re.findall(r'<rect [^>]*class="livelab-bar livelab-bar--(\w+)"[^>]*>', rms_markup)
    size = rms_params["size"]
    assert bars.count("x") == size and bars.count("normalized") == size


def test_the_rope_picture_is_drawn_at_build_time(page):
    markup, _ = built_lab(page, "rope")
    svgs = pictures(markup)
    assert svgs, "no picture in the built rope lab"
    drawn = [tag for svg in svgs for tag in re.findall(r"<(line|path|polyline|circle)\b", svg)]
    assert len(drawn) >= 2  # the two arrows at least, in the page before any script runs

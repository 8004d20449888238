"""Figures a student can read at any width: text size, overlap, series colours, contrast.

Every registered lab is found on the lesson page (all_labs() is the list), measured at a
phone, a tablet, a laptop and a wide screen, live and as built (JavaScript off) (issue 13).
"""

import re

import pytest
from playwright.sync_api import expect

from livelab.labs import all_labs

LESSON = "level-19/modern-blocks/"
WIDTHS = (360, 768, 1200, 1600)
LOW, HIGH = 12 - 0.05, 16 + 0.05  # px, with room for the scale's rounding (4 decimals)
PALETTES = {"light": "default", "dark": "slate"}

# For every lab on the page: the on-screen size of each SVG label (computed font size times
# the SVG's user-unit-to-pixel scale), the labels drawn outside their figure, and the pairs of
# labels of one figure whose boxes (the font's full line height) overlap.
MEASURE_TEXT = """() => [...document.querySelectorAll('[data-lab]')].map((lab) => {
  const sizes = [], outside = [], overlaps = [];
  for (const svg of lab.querySelectorAll('svg')) {
    const box = svg.getBoundingClientRect();
    const seen = [];
    for (const text of svg.querySelectorAll('text')) {
      if (!text.textContent.trim()) continue;
      sizes.push(parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a);
      const r = text.getBoundingClientRect();
      if (r.left < box.left - 1 || r.right > box.right + 1 ||
          r.top < box.top - 1 || r.bottom > box.bottom + 1) outside.push(text.textContent);
      for (const [other, o] of seen) {
        if (r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom) {
          overlaps.push(`"${other}" and "${text.textContent}"`);
        }
      }
      seen.push([text.textContent, r]);
    }
  }
  return {kind: lab.dataset.labKind, sizes, outside, overlaps};
})"""

ALL_LIVE = """() => [...document.querySelectorAll('[data-lab] [data-status]')]
  .every((line) => line.textContent.startsWith('Live:'))"""


def open_lesson(browser, site, width, javascript=True, scheme="light"):
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        java_script_enabled=javascript,
        color_scheme=scheme,
    )
    page = context.new_page()
    page.goto(site.url(LESSON))
    if javascript:
        page.wait_for_function(ALL_LIVE, timeout=60_000)
        # Folded labs (inside a collapsed admonition) are measured too, once opened.
        page.evaluate("document.querySelectorAll('details').forEach((d) => (d.open = true))")
        page.wait_for_timeout(200)  # one ResizeObserver round
    return context, page


def measured(page):
    labs = page.evaluate(MEASURE_TEXT)
    assert {lab["kind"] for lab in labs} == set(all_labs())
    return labs


@pytest.mark.parametrize("javascript", [True, False], ids=["live", "built"])
@pytest.mark.parametrize("width", WIDTHS)
def test_figure_text_is_12_to_16_px_and_clear_of_other_text(browser, site, width, javascript):
    context, page = open_lesson(browser, site, width, javascript)
    labs = [lab for lab in measured(page) if lab["sizes"]]  # a lab may draw no SVG text
    assert len(labs) >= 4
    for lab in labs:
        where = f"{lab['kind']} at {width} px ({'live' if javascript else 'built'})"
        assert min(lab["sizes"]) >= LOW and max(lab["sizes"]) <= HIGH, (
            f"{where}: labels from {min(lab['sizes']):.1f} to {max(lab['sizes']):.1f} px"
        )
        assert lab["outside"] == [], f"{where}: labels cut off at the figure's edge"
        assert lab["overlaps"] == [], f"{where}: labels on top of each other"
    context.close()


def test_figure_text_keeps_its_size_when_the_window_is_resized(browser, site):
    context, page = open_lesson(browser, site, 1200)
    for width in (360, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        page.wait_for_timeout(200)
        for lab in measured(page):
            assert all(LOW <= size <= HIGH for size in lab["sizes"]), (lab["kind"], width)
            assert lab["overlaps"] == [], (lab["kind"], width)
    context.close()


# Each marker of a series has the series' own colour: the polyline's stroke is the truth.
SERIES_COLOURS = """() => {
  const out = [];
  const lines = '[data-lab] svg polyline[class*="livelab-series--"]';
  for (const line of document.querySelectorAll(lines)) {
    const name = line.getAttribute('class').match(/livelab-series--([a-z]+)/)[1];
    const svg = line.ownerSVGElement;
    const markers = svg.querySelectorAll(`.livelab-dot--${name}, .livelab-marker--${name}`);
    out.push({
      name, stroke: getComputedStyle(line).stroke,
      markers: [...markers].map((m) => getComputedStyle(m).fill),
    });
  }
  return out;
}"""


def luminance(rgb: str) -> float:
    """Relative luminance (WCAG 2) of a computed rgb()/rgba() colour."""
    channels = [int(v) / 255 for v in re.findall(r"\d+", rgb)[:3]]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two opaque colours."""
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("scheme", PALETTES)
def test_every_marker_has_its_own_series_colour(browser, site, scheme):
    context, page = open_lesson(browser, site, 1200, scheme=scheme)
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", PALETTES[scheme])
    series = page.evaluate(SERIES_COLOURS)
    names = {s["name"] for s in series}
    assert {"post", "pre", "relu", "silu", "score"} <= names
    background = page.evaluate(
        "getComputedStyle(document.querySelector('.livelab-lab')).backgroundColor"
    )
    by_name: dict[str, str] = {}
    for s in series:
        assert all(fill == s["stroke"] for fill in s["markers"]), s
        assert by_name.setdefault(s["name"], s["stroke"]) == s["stroke"]
        # WCAG 1.4.11: a line that carries meaning needs 3:1 against what is behind it.
        assert contrast(s["stroke"], background) >= 3, (s["name"], s["stroke"], background)
    assert any(s["markers"] for s in series if s["name"] in ("relu", "post"))
    # Series drawn side by side are told apart by colour too.
    assert by_name["post"] != by_name["pre"] and by_name["relu"] != by_name["silu"]
    context.close()


@pytest.mark.parametrize("scheme", PALETTES)
def test_the_predict_tag_reaches_4_5_to_1(browser, site, scheme):
    context, page = open_lesson(browser, site, 1200, scheme=scheme)
    tag = page.locator(".livelab-tag", has_text="Predict").first
    expect(tag).to_be_visible()
    colours = tag.evaluate("e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor]")
    assert contrast(*colours) >= 4.5, colours
    context.close()

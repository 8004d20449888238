"""Controls a finger can hit: measured in Chromium with the labs live and every fold open.

Every control in the page's content is at least 24 x 24 CSS px at 360, 768 and 1200 px
(sliders included); on a touch screen (pointer: coarse) every button is 44 px tall; the one
button that erases saved work looks different from Cancel and stands apart from it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import READY

STUDENT_PAGES = ("", "level-19/modern-blocks/", "level-19/worked-examples/")
WIDTHS = (360, 768, 1200)

# Every control in the content, with its box; Material's copy buttons are 32 px squares.
MEASURE = """() => {
  for (const fold of document.querySelectorAll('.md-content details')) fold.open = true;
  const controls = 'button, input, select, textarea, summary, '
    + '[role=slider], [role=button], [role=tab], [role=radio], [role=checkbox]';
  return [...document.querySelector('.md-content').querySelectorAll(controls)]
    .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
    .map(el => {
      const box = el.getBoundingClientRect();
      const name = el.getAttribute('aria-label') || el.labels?.[0]?.textContent
        || el.textContent || el.id;
      return {
        control: `${el.tagName.toLowerCase()}${el.type ? '[' + el.type + ']' : ''}`,
        name: name.trim().replace(/\\s+/g, ' ').slice(0, 40),
        width: box.width, height: box.height,
      };
    });
}"""


def measure(page, site, url):
    page.goto(site.url(url))
    page.wait_for_function(READY, timeout=60_000)
    return page.evaluate(MEASURE)


def describe(controls):
    return "\n".join(
        f"{c['control']} {c['name']!r}: {c['width']:.1f} x {c['height']:.1f}" for c in controls
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_every_control_is_at_least_24_px_square(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    try:
        measured = {url: measure(page, site, url) for url in STUDENT_PAGES}
    finally:
        context.close()
    kinds = {c["control"] for controls in measured.values() for c in controls}
    assert {"input[range]", "input[radio]", "button[button]"} <= kinds
    small = [c for cs in measured.values() for c in cs if c["width"] < 24 or c["height"] < 24]
    assert not small, f"Smaller than 24 x 24 at {width} px:\n{describe(small)}"


def test_buttons_are_44_px_tall_on_a_touch_screen(browser, site):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(site.url(""))
        assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        buttons = [
            c
            for url in STUDENT_PAGES
            for c in measure(page, site, url)
            if c["control"] == "button[button]"
        ]
    finally:
        context.close()
    assert len(buttons) > 10
    short = [c for c in buttons if c["height"] < 44]
    assert not short, f"Shorter than 44 px on a touch screen:\n{describe(short)}"


def test_erasing_progress_looks_different_from_cancel_and_stands_apart(browser, site):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(site.url(""))
        page.get_by_role("button", name="Reset progress").click()
        erase = page.get_by_role("button", name="Erase my progress")
        cancel = page.get_by_role("button", name="Cancel")
        expect(erase).to_be_visible()
        expect(cancel).to_be_visible()

        def looks(button):
            return button.evaluate(
                "el => { const s = getComputedStyle(el);"
                " return [s.color, s.backgroundColor, s.borderColor]; }"
            )

        assert looks(erase)[1] != looks(cancel)[1], "same background as Cancel"
        assert looks(erase)[0] != looks(cancel)[0], "same text colour as Cancel"
        a, b = erase.bounding_box(), cancel.bounding_box()
        assert a and b
        gap = max(b["x"] - (a["x"] + a["width"]), a["x"] - (b["x"] + b["width"]))
        gap = max(gap, b["y"] - (a["y"] + a["height"]), a["y"] - (b["y"] + b["height"]))
        assert gap >= 24, f"Erase my progress is only {gap:.1f} px from Cancel"
        cancel.click()
        expect(erase).to_be_hidden()
    finally:
        context.close()

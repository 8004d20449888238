"""A reader going down a page: formulas are typeset, and labs mount, as they near the window
(py/livelab/web/widgets/near-view.js), so a test that wants them all scrolls through first."""

from __future__ import annotations

from playwright.sync_api import Page

# No formula the reader can see is left in its TeX source: asked of an IntersectionObserver,
# as near-view.js asks, so one clipped by a scrolled box (the sidebar's table of contents) or
# inside a closed fold counts as unseen until it is scrolled or opened into view.
MATHS_IN_VIEW_TYPESET = """async () => {
  const waiting = [...document.querySelectorAll('.arithmatex:not([data-typeset])')];
  if (waiting.length === 0) return true;
  const seen = await new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      observer.disconnect();
      resolve(entries.filter((entry) => entry.isIntersecting).length);
    });
    for (const el of waiting) observer.observe(el);
  });
  return seen === 0;
}"""

NEXT_WINDOW = """() => {
  const before = scrollY;
  scrollBy(0, innerHeight);
  return scrollY !== before;
}"""

# Shown formulas of the page's text still in their TeX source.
UNTYPESET_SHOWN = ".md-content .arithmatex:not([data-typeset]) >> visible=true"


def maths_in_view_typeset(page: Page) -> None:
    page.wait_for_function(MATHS_IN_VIEW_TYPESET, timeout=30_000)


def read_through(page: Page) -> None:
    """Scroll from the top to the bottom a window at a time, each window's maths typeset, then
    back to the top."""
    page.evaluate("scrollTo(0, 0)")
    maths_in_view_typeset(page)
    while page.evaluate(NEXT_WINDOW):
        maths_in_view_typeset(page)
    page.evaluate("scrollTo(0, 0)")

"""axe-core on every page, in both palettes, once the labs are live and the questions ready.

axe-core comes from the npm registry, pinned in tests/tools.lock.json and verified like the
runtime's packages. Our own markup must pass every rule axe runs by default. A violation is
let through only on an element of Material's own chrome (or KaTeX's output) listed below with
the reason, never by switching a rule off: the same rule still holds on everything else.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests import tools
from tests.browser.reading import read_through

# rule id -> (CSS selector of the element outside our markup, why it is let through)
OUTSIDE_OUR_MARKUP = {
    "region": (".md-progress", "Material puts that progress bar outside every landmark."),
    "landmark-unique": (
        ".md-code__nav",
        "Material wraps every code block's copy button in its own unnamed <nav>.",
    ),
    "empty-table-header": (
        "th:has(.katex)",
        "A header cell holding only maths: KaTeX shows it aria-hidden and gives screen readers "
        "MathML, which axe does not count as visible text; a screen reader reads the symbol.",
    ),
}
# Material's chrome that Lighthouse failed (issue 32) is fixed, not let through: its search
# dialog and progress bar are named (livelab.builder.chrome_names) and its footer credit has
# AA contrast (livelab.css), so aria-dialog-name, aria-progressbar-name and color-contrast
# hold on every element, in both palettes.

PALETTES = {"light": "default", "dark": "slate"}

READY = """() => {
  const labs = [...document.querySelectorAll('[data-lab]')];
  const checks = [...document.querySelectorAll('[data-question] [data-action="check"]')];
  return labs.every(el => /^Live:/.test(el.querySelector('.livelab-status')?.textContent || ''))
    && checks.every(button => !button.disabled);
}"""

RUN_AXE = """async (allowed) => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  const ours = [];
  for (const violation of result.violations) {
    for (const node of violation.nodes) {
      const el = document.querySelector(node.target[0]);
      const outside = allowed[violation.id];
      if (outside && el && el.closest(outside)) continue;
      ours.push(`${violation.id}: ${node.target.join(' ')}: ${node.failureSummary}`);
    }
  }
  return ours;
}"""


@pytest.fixture(scope="module")
def axe() -> str:
    return tools.axe_source()


@pytest.mark.parametrize("palette", PALETTES)
def test_axe_finds_no_violation_in_our_markup_on_any_page(browser, site, axe, palette):
    context = browser.new_context(color_scheme=palette)
    page = context.new_page()
    allowed = {rule: selector for rule, (selector, _) in OUTSIDE_OUR_MARKUP.items()}
    found: list[str] = []
    try:
        for url in site.pages:
            page.goto(site.url(url))
            assert page.evaluate("document.body.dataset.mdColorScheme") == PALETTES[palette]
            read_through(page)  # labs mount and maths is typeset as the reader nears them
            page.wait_for_function(READY, timeout=60_000)
            page.add_script_tag(content=axe)
            found += [
                f"{url or '/'} ({palette}) {line}" for line in page.evaluate(RUN_AXE, allowed)
            ]
    finally:
        context.close()
    assert len(site.pages) >= 4
    assert not found, "\n".join(found)


def test_materials_search_dialog_and_progress_bar_have_names_on_every_page(browser, site):
    context = browser.new_context()
    page = context.new_page()
    try:
        for url in site.pages:
            page.goto(site.url(url))
            expect(page.get_by_role("dialog", name="Search")).to_have_count(1)
            # Shown only while instant navigation fetches a page: found hidden, by its name.
            bar = page.get_by_role("progressbar", name="Loading the next page", include_hidden=True)
            expect(bar).to_have_count(1)
    finally:
        context.close()

"""Formulas are typeset as the reader nears them (widgets/near-view.js), on a phone: the
lesson's first screen does not wait for the maths of the whole page (issue 32: KaTeX's
output was 5,984 of the lesson's 9,634 elements), and a reader never meets raw TeX."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.reading import maths_in_view_typeset

pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
SHOWN_FORMULAS = ".md-content .arithmatex >> visible=true"


def test_a_formula_far_down_is_typeset_as_the_reader_reaches_it(phone, site):
    phone.goto(site.url(LESSON))
    maths_in_view_typeset(phone)
    last = phone.locator(SHOWN_FORMULAS).last
    # Far below the first screen, the formula is still its TeX source...
    assert last.evaluate("el => el.getBoundingClientRect().top > 3 * innerHeight")
    expect(last).not_to_have_attribute("data-typeset", "")
    last.scroll_into_view_if_needed()
    # ...and typeset once the reader gets there: KaTeX's drawing, and MathML for screen readers.
    expect(last).to_have_attribute("data-typeset", "")
    expect(last.locator(".katex-html")).to_have_attribute("aria-hidden", "true")
    expect(last.locator(".katex-mathml math")).to_have_count(1)


def test_a_link_far_down_the_page_shows_typeset_maths_at_its_target(phone, site):
    phone.goto(site.url(LESSON + "#e-swiglu"))
    heading = phone.get_by_role("heading", name=re.compile("SwiGLU"), level=2)
    expect(heading).to_be_in_viewport()
    maths_in_view_typeset(phone)
    # The heading stays where the link put it (near the top) after the maths above it is set.
    phone.wait_for_timeout(500)
    top = heading.evaluate("el => el.getBoundingClientRect().top")
    assert -1 <= top < 150, top
    formulas_in_view = phone.evaluate(
        """() => [...document.querySelectorAll('.md-content .arithmatex')].filter((el) => {
          const box = el.getBoundingClientRect();
          return box.height > 0 && box.bottom > 0 && box.top < innerHeight;
        }).length"""
    )
    assert formulas_in_view > 0


def test_maths_in_a_closed_fold_is_typeset_when_the_fold_opens(phone, site):
    phone.goto(site.url(LESSON))
    fold = phone.locator("details.note").filter(has=phone.locator("summary", has_text="Notation"))
    formulas = fold.locator(".arithmatex")
    assert formulas.count() > 10
    expect(fold.locator(".arithmatex[data-typeset]")).to_have_count(0)
    fold.locator("summary").click()
    expect(formulas.first).to_have_attribute("data-typeset", "")
    expect(formulas.first.locator(".katex-mathml math")).to_have_count(1)

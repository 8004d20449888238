"""A choice question with several right options (`multiple: true`, issue 34), answered as a
student would: tick boxes, Check, read the verdict. The picks are graded as a whole: a wrong
set shows the reason of each wrong pick and how many right options are missing, never which;
the right set explains every option; the picks survive a reload."""

import re

import pytest
from playwright.sync_api import expect

from tests.harness import serve_page

pytestmark = pytest.mark.warm

PAGE = """# Norms

```choice
id: m1
prompt: Which parts of LayerNorm does RMSNorm leave out?
multiple: true
options:
  - text: subtracting the row's mean
    correct: true
    why: "RMSNorm measures the row from zero, so there is no mean to take away."
  - text: the learned shift added after the scaling
    correct: true
    why: "The shift goes with the centring: RMSNorm keeps only the gain."
  - text: the learned gain, one per feature
    why: >-
      The gain stays: it is the only parameter RMSNorm has,
      $\\gamma$ in $y = \\gamma x / \\mathrm{rms}(x)$.
  - text: dividing by a measure of the row's size
    why: "That division is the heart of both norms; RMSNorm divides by the root mean square."
```
"""
NOTE = "Pick every right option."


@pytest.fixture(scope="module")
def norms(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("multiple"), PAGE)
    yield site
    site.close()


def question(page, norms):
    page.goto(norms.url(""))
    box = page.locator('[data-question="m1"]')
    expect(box.get_by_role("checkbox").first).to_be_enabled()
    return box


def check(box, *names):
    for name in names:
        box.get_by_role("checkbox", name=name).check()
    box.get_by_role("button", name="Check").click()
    return box.get_by_role("status")


def test_the_options_are_checkboxes_in_a_group_named_by_the_line_that_asks_for_all(page, norms):
    box = question(page, norms)
    expect(box).to_have_accessible_name(re.compile("Which parts of LayerNorm"))
    group = box.get_by_role("group", name=NOTE)
    expect(group).to_be_visible()
    expect(group.get_by_role("checkbox")).to_have_count(4)
    expect(box.get_by_role("radio")).to_have_count(0)


def test_one_right_pick_alone_is_not_yet_and_says_one_more_is_missing(page, norms):
    verdict = check(question(page, norms), "subtracting the row's mean")
    expect(verdict).to_have_text("Not yet. 1 right option is not picked yet.")


def test_a_wrong_pick_says_its_reason_with_its_math_and_what_is_missing(page, norms):
    verdict = check(question(page, norms), "the learned gain, one per feature")
    expect(verdict).to_contain_text("Not yet. The gain stays: it is the only parameter")
    expect(verdict).to_contain_text("2 right options are not picked yet.")
    expect(verdict.locator(".katex").first).to_be_visible()  # the reason's maths, typeset
    # Nothing says which options are the right ones.
    expect(verdict).not_to_contain_text("RMSNorm measures the row from zero")


def test_no_pick_asks_for_one(page, norms):
    box = question(page, norms)
    box.get_by_role("button", name="Check").click()
    expect(box.get_by_role("status")).to_have_text("Pick at least one of the options first.")


def test_the_right_set_is_correct_explains_every_option_and_survives_a_reload(page, norms):
    box = question(page, norms)
    verdict = check(box, "subtracting the row's mean", "the learned shift added after the scaling")
    expect(verdict).to_have_text(re.compile("^Correct"))
    expect(box.get_by_text("RMSNorm measures the row from zero")).to_be_visible()
    expect(box.get_by_text("That division is the heart of both norms")).to_be_visible()
    page.reload()
    box = page.locator('[data-question="m1"]')
    expect(box.get_by_role("checkbox", name="subtracting the row's mean")).to_be_checked()
    expect(
        box.get_by_role("checkbox", name="the learned gain, one per feature")
    ).not_to_be_checked()
    expect(box.get_by_role("status")).to_have_text(re.compile("^Correct"))

"""A lab on a page reached by link (Material's instant navigation: the tab's Python worker keeps
running) takes input as soon as its controls show, also before the lab has mounted or heard from
Python, and right after a first visit while that visit's background work still runs: every
input is kept, and what the lab shows is Python's answer to it, not a view remembered from the
page before (issue 32)."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.browser.test_runtime import boot_report

# Each test is a first visit in a fresh profile.
pytestmark = pytest.mark.cold

LESSON = "level-19/modern-blocks/"
LINK = "Worked examples and exercises"
LAB = "The modern block, drawn from its config and run in your browser"
LIVE = re.compile("^Live:")


def lab_on_new_page(page):
    """The worked examples' lab, once the link has led there."""
    expect(page).to_have_url(re.compile(r"/level-19/worked-examples/$"))
    return page.get_by_role("region", name=LAB)


def seeded(lab, text: str = ""):
    """The heading of the lab's fold of the seeded input, which says what it holds
    ("Seeded input: B = 2, T = 4, seed 0")."""
    return lab.get_by_text(re.compile(f"^Seeded input: {re.escape(text)}"))


def change(lab, seed: str, tokens: str) -> None:
    """As a student: open the seeded input's fold, then change the seed, then T (tokens per
    sequence), as soon as they take input."""
    field = lab.get_by_role("spinbutton", name="seed (input and weights)")
    # Once in a full-suite run the fold was found closed after the click (cause not found:
    # nothing of ours re-renders it), so a student's second click is allowed for.
    for _ in range(3):
        seeded(lab).click()
        try:
            expect(field).to_be_visible(timeout=5_000)
            break
        except AssertionError:
            continue
    field.fill(seed)
    lab.get_by_role("spinbutton", name="T (tokens per sequence)").fill(tokens)


def test_input_made_before_the_lab_mounted_is_answered(browser, site):
    # The lab's widget is held back on its way, so the student's input certainly comes before
    # the lab has mounted (the controls take it from the page's first lines, early_labs.js).
    # No service worker: its copy of the widget would not be held back.
    context = browser.new_context(service_workers="block")
    held, lifted = [], []
    hold = lambda route: route.continue_() if lifted else held.append(route)  # noqa: E731
    context.route(re.compile(r"/assets/livelab/widgets/lab\.js$"), hold)
    page = context.new_page()
    try:
        page.goto(site.url(""))  # a first visit, on a page without labs: Python starts here
        page.get_by_role("main").get_by_role("link", name=LINK).first.click()
        lab = lab_on_new_page(page)
        change(lab, "4321", "3")
        expect(lab.get_by_text(LIVE)).to_have_count(0)  # not mounted: it has not said it is live
        assert held, "the lab's widget was asked for"
        lifted.append(True)
        for route in held:
            route.continue_()
        # Both moves are kept: Python's view for seed 4321 with T = 3, not the build's (seed 0,
        # T = 4).
        expect(seeded(lab, "B = 2, T = 3, seed 4321")).to_be_visible(timeout=60_000)
        expect(lab.get_by_text(LIVE)).to_be_visible()
        expect(lab.get_by_role("spinbutton", name="seed (input and weights)")).to_have_value("4321")
    finally:
        context.close()


def test_right_after_a_first_visit_a_linked_lab_answers_a_new_input(page, site):
    page.goto(site.url(LESSON))
    rope = page.get_by_role("region", name=re.compile("^RoPE: turn q and k"))
    expect(rope.get_by_text(LIVE)).to_be_visible(timeout=60_000)
    # At once, while the first visit's background work (the .pyc files, the snapshot helper)
    # runs: the worked examples' lab is of a kind the lesson showed, so its first view can
    # come from the tab's memory; the input must still get Python's answer.
    page.get_by_role("link", name=LINK).first.click()
    lab = lab_on_new_page(page)
    change(lab, "1234", "3")
    expect(seeded(lab, "B = 2, T = 3, seed 1234")).to_be_visible(timeout=60_000)
    expect(lab.get_by_text(LIVE)).to_be_visible()
    # And the next input too: nothing is left behind once the lab has mounted.
    lab.get_by_role("spinbutton", name="B (sequences in the batch)").fill("1")
    expect(seeded(lab, "B = 1, T = 3, seed 1234")).to_be_visible()


# In the page: every click's time, and when a service worker registration first exists (a
# 50 ms poll), both in the page's own clock (performance.now()).
WATCH = """() => {
  window.__clicks = [];
  addEventListener("click", () => window.__clicks.push(performance.now()), true);
  const poll = setInterval(async () => {
    if (await navigator.serviceWorker.getRegistration()) {
      window.__registeredAt = performance.now();
      clearInterval(poll);
    }
  }, 50);
}"""
QUIET_MS = 1_500  # runtime/page/quiet.js


def test_a_first_visits_background_work_waits_while_the_student_clicks(page, site):
    # The service worker's install and the snapshot helper's interpreter start only once the
    # student has not clicked for 1.5 s (runtime/page/quiet.js), so they never slow the
    # clicks of a student who goes on at once. The student clicks every 0.5 s from the page's
    # load until 4 s after its first lab went live.
    page.goto(site.url(LESSON))
    page.evaluate(WATCH)
    live = page.get_by_role("region", name=re.compile("^RoPE: turn q and k")).get_by_text(LIVE)
    heading = page.get_by_role("heading", level=1)
    deadline = time.monotonic() + 60
    after_live = 0
    while after_live < 8 and time.monotonic() < deadline:
        heading.click()
        page.wait_for_timeout(500)
        after_live += live.is_visible()
    assert after_live == 8, "the first lab never went live"
    # Once the page is quiet, both start: a first visit still gets its offline copy and its
    # snapshot.
    helper: list = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (helper and page.evaluate("window.__registeredAt")):
        helper = [i["at"] for i in boot_report(page)["interpreters"] if i["role"] == "snapshot"]
        page.wait_for_timeout(200)
    registered = page.evaluate("window.__registeredAt")
    assert registered, "no service worker registered once the page was quiet"
    assert helper, "no snapshot helper started once the page was quiet"
    # Neither started within 1.5 s of a click. (On a busy machine a gap between two clicks may
    # pass 1.5 s; then the work may start in that gap, but never right after a click.)
    clicks = page.evaluate("window.__clicks")
    for started in (registered, helper[0]):
        before = [c for c in clicks if c <= started]
        assert before, (started, clicks)  # it was asked for while the student clicked
        assert started - before[-1] >= QUIET_MS, (started, clicks)

"""A first visit says the right thing, and the student knows where they are (issue 31).

While JavaScript runs no lab says it needs JavaScript, and its controls take input before its
widget or Python has arrived; home leads back to what the student last worked on; a question
has one title wherever it is named; each "Try it" box leads to its lab.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from labs import rms
from tests.browser.test_questions import WASM, question, verdict

pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
CHAPTER = "level-19/worked-examples/"
LAB_WIDGET = "**/livelab/widgets/lab.js"
LOADING = "Python is loading"
NEEDS_JS = "need JavaScript"
LIVE = re.compile("^Live:")
TITLE = ".livelab-question__title"
CONTINUE = re.compile("^Continue where you left off")

# Every text any lab's status line had on screen, from the page's first parsed lab on: what
# the student could have read (innerText: a <noscript> line is not rendered while JS runs).
WATCH_STATUS = """
(() => {
  const seen = (self.__statusSeen = new Set());
  const look = () => {
    for (const el of document.querySelectorAll("[data-lab] [data-status]")) seen.add(el.innerText);
  };
  const all = { subtree: true, childList: true, characterData: true };
  new MutationObserver(look).observe(document, all);
  const frame = () => { look(); requestAnimationFrame(frame); };
  requestAnimationFrame(frame);
})();
"""


SAVED_LAB_MOVE = f"""() => JSON.parse(localStorage.getItem("livelab-progress:/") ?? "{{}}")
  .pages?.["{LESSON}"]?.labs?.rope?.touchedAt > 0"""


def hold(context, pattern: str) -> tuple[list, Callable[[], None]]:
    """Keep the requests matching pattern unanswered until the returned release() is called."""
    held: list = []
    released: list[bool] = []

    def route(request_route) -> None:
        if released:
            request_route.fallback()
        else:
            held.append(request_route)

    def release() -> None:
        released.append(True)
        for request_route in held:
            request_route.fallback()

    context.route(pattern, route)
    return held, release


@pytest.mark.cold  # a first visit, with the lab widget's module held back
def test_while_the_lab_widget_is_on_its_way_labs_say_python_is_loading(page, site):
    page.add_init_script(WATCH_STATUS)
    held, release = hold(page.context, LAB_WIDGET)
    page.goto(site.url(LESSON), wait_until="domcontentloaded")
    status = page.locator('[data-lab="rope"] [data-status]')
    expect(status).to_have_text(re.compile(f"^{LOADING}"), use_inner_text=True)
    for _ in range(150):  # until the page asks for the widget's module
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the lab widget's module was asked for"
    page.wait_for_timeout(2_000)  # the widget's module held for 2 s, as a slow first visit
    expect(status).to_have_text(re.compile(f"^{LOADING}"), use_inner_text=True)
    release()
    expect(status).to_have_text(LIVE, timeout=30_000)
    seen = page.evaluate("[...self.__statusSeen]")
    assert any(text.startswith(LOADING) for text in seen)
    assert not [text for text in seen if NEEDS_JS in text], seen
    # Every lab on the page said the same while it waited.
    for el in page.locator("[data-lab] [data-status]").all():
        expect(el).not_to_contain_text(NEEDS_JS, use_inner_text=True)


@pytest.mark.cold  # routes the lab widget and the Python runtime
def test_a_lab_takes_input_before_its_widget_and_python_and_shows_the_latest_value(page, site):
    _, release_widget = hold(page.context, LAB_WIDGET)
    _, release_python = hold(page.context, WASM)
    page.goto(site.url(LESSON), wait_until="domcontentloaded")
    lab = page.locator('[data-lab="rms"]')
    first = lab.get_by_label("entry 1", exact=True)
    expect(first).to_be_enabled()  # before the widget's module has arrived
    first.fill("2")
    lab.get_by_label("entry 1, slider").fill("5")  # the latest move wins
    release_widget()
    expect(lab.get_by_role("button", name="Try [3, 4]")).to_be_enabled()  # the widget mounted
    expect(first).to_have_value("5")
    lab.get_by_label("entry 2", exact=True).fill("1")  # now to the widget, Python still away
    expect(lab.locator("[data-status]")).to_have_text(re.compile(f"^{LOADING}"))
    release_python()
    expect(lab.locator("[data-status]")).to_have_text(LIVE, timeout=30_000)
    params = json.loads(lab.get_attribute("data-params"))
    params["x"] = [5.0, 1.0, *params["x"][2:]]
    expected = rms.view(rms.LAB.compute(**params))["text"]
    expect(lab.locator('[data-text="row"]')).to_have_text("[5.0000, 1.0000]")
    expect(lab.locator('[data-text="rms_out"]')).to_have_text(expected["rms_out"])


def follow(page, link) -> None:
    """Click a link as a reader does: scrolled to, then a moment later clicked. (Clicked in the
    same instant as the scroll, Material's instant navigation once stored home's scroll offset
    in the new page's history entry and restored it, instead of going to the link's #id.)"""
    link.scroll_into_view_if_needed()
    page.wait_for_timeout(500)
    link.click()


def answer_choice(page, site, qid: str) -> None:
    _, q = site.question(qid)
    box = question(page, qid)
    box.get_by_role("radio").and_(box.locator(f'input[value="{q.correct_index}"]')).check()
    box.get_by_role("button", name="Check").click()
    expect(verdict(page, qid)).to_have_text(re.compile("^Correct"))


def test_home_offers_to_continue_with_the_question_last_answered(page, site):
    page.goto(site.url(""))
    progress = page.locator('[data-livelab="progress"]')
    expect(progress.get_by_role("link", name="Modern blocks")).to_be_visible()
    expect(page.get_by_role("link", name=CONTINUE)).to_have_count(0)  # nothing saved yet

    page.goto(site.url(CHAPTER))
    answer_choice(page, site, "e3")
    page.goto(site.url(""))
    link = page.get_by_role("link", name=CONTINUE)
    expect(link).to_have_text("Continue where you left off: E3 (Worked examples and exercises)")
    follow(page, link)
    expect(page).to_have_url(re.compile(f"{CHAPTER}#e3$"))
    expect(question(page, "e3")).to_be_in_viewport()


def test_home_continues_with_a_lab_moved_after_the_last_answer(page, site):
    page.goto(site.url(CHAPTER))
    answer_choice(page, site, "e3")
    page.goto(site.url(LESSON))
    lab = page.locator('[data-lab="rope"]')
    expect(lab.locator("[data-status]")).to_have_text(LIVE, timeout=30_000)
    lab.get_by_role("button", name="Both +1").click()
    expect(lab.get_by_role("slider", name="q position")).to_have_value("1")
    page.wait_for_function(SAVED_LAB_MOVE)  # the view after the click is saved
    page.goto(site.url(""))
    link = page.get_by_role("link", name=CONTINUE)
    expect(link).to_contain_text("RoPE")
    follow(page, link)
    expect(page.locator('[data-lab="rope"]')).to_be_in_viewport()


def test_a_question_has_one_title_at_the_question_in_the_summary_and_on_home(page, site):
    for url in (LESSON, CHAPTER):
        page.goto(site.url(url))
        summary = page.get_by_role("region", name="Before you move on")
        ids = [q.id for q in site.questions[url]]
        titles = [question(page, qid).locator(TITLE).inner_text() for qid in ids]
        for qid, title in zip(ids, titles, strict=True):
            link = summary.get_by_role("link", name=title, exact=True)
            expect(link).to_have_attribute("href", re.compile(f"#{qid}$"))
        assert len(set(titles)) == len(titles), titles
    assert titles[:3] == ["E1, part 1", "E1, part 2", "E1, part 3"]
    # The prompt no longer repeats it.
    expect(question(page, "e3").locator(".livelab-question__prompt")).not_to_contain_text("E3.")
    answer_choice(page, site, "e3")
    page.goto(site.url(""))
    expect(page.get_by_role("link", name=CONTINUE)).to_contain_text(": E3 (")
    page.goto(site.url(LESSON))
    # An untitled question is named by its place among the page's questions.
    place = [q.id for q in site.questions[LESSON]].index("q4") + 1
    expect(question(page, "q4").locator(TITLE)).to_have_text(f"Question {place}")


def test_each_try_it_box_leads_to_its_lab(page, site):
    page.goto(site.url(LESSON))
    boxes = page.locator(".admonition.example").filter(has_text="Try it").all()
    assert len(boxes) == 2
    for box in boxes:
        link = box.get_by_role("link", name=re.compile(" lab$"))
        target = "#" + link.get_attribute("href").split("#")[-1]  # Material makes it absolute
        assert target in ("#rope", "#glu")
        page.evaluate("window.scrollTo(0, 0)")
        link.scroll_into_view_if_needed()
        before = page.evaluate("scrollY")
        page.evaluate("document.querySelector('article').dataset.shownOnce = ''")
        link.click()
        lab = page.locator(f'[data-lab="{target[1:]}"]')
        expect(page).to_have_url(re.compile(f"{target}$"))
        expect(lab).to_be_in_viewport()
        # The lab's top comes to the top of the window, below the site's header at most, and
        # stays there: the page is not shown again (builder/same_page_links.js), and maths typeset
        # after the scroll keeps the target in place (livelab.js).
        at_top = "el => { const t = el.getBoundingClientRect().top; return t >= -1 && t < 150; }"
        page.wait_for_function(
            f"() => ({at_top})(document.querySelector('[data-lab={target[1:]}]'))"
        )
        page.wait_for_timeout(1_000)
        top = lab.evaluate("el => el.getBoundingClientRect().top")
        assert -1 <= top < 150, top
        # The same page, not shown a second time (its labs and questions were not mounted again),
        # and Back returns the reader to the box they came from.
        assert page.evaluate("'shownOnce' in document.querySelector('article').dataset")
        page.go_back()
        expect(page).not_to_have_url(re.compile("#"))
        page.wait_for_function(f"() => Math.abs(scrollY - {before}) < 2")
        assert page.evaluate("'shownOnce' in document.querySelector('article').dataset")

"""Nothing is lost: two tabs, odd saved data, full storage, huge pastes, two addresses; only a
check that ran to a verdict is an attempt (Enter spam, Stop, no Python)."""

import json
import re

import pytest
from playwright.sync_api import expect

from livelab.questions import load_blanks
from tests.browser.test_questions import (
    STORAGE_KEY,
    WASM,
    answer_numeric,
    blank,
    question,
    verdict,
)
from tests.harness import block_until_lifted

CORRECT = re.compile(r"^Correct\.")
HOSTS = ["site", "plain_site"]  # served cross-origin isolated, and by a plain static host


def saved(page) -> dict:
    return json.loads(page.evaluate("(k) => localStorage.getItem(k)", STORAGE_KEY) or "{}")


def saved_question(page, url, qid) -> dict:
    return saved(page).get("pages", {}).get(url, {}).get("questions", {}).get(qid, {})


def plant(page, text) -> None:
    """Saved progress as the tab's first page finds it, before any widget has saved (a lab
    saves its first view) and without waiting for another page to see a write."""
    page.add_init_script(
        'if (!sessionStorage.getItem("planted")) {'
        f"  localStorage.setItem({json.dumps(STORAGE_KEY)}, {json.dumps(text)});"
        '  sessionStorage.setItem("planted", "yes");'
        "}"
    )


def test_two_tabs_never_erase_each_others_answers(page, site):
    url, q3 = site.question("q3")
    _, q5 = site.question("q5")
    other = page.context.new_page()  # tab B, opened first
    other.goto(site.url(url))
    expect(question(other, "q5").get_by_role("button", name="Check")).to_be_enabled()
    page.goto(site.url(url))  # tab A
    answer_numeric(page, "q3", q3.reveal)
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    # Tab B follows what tab A saved, without a reload.
    expect(verdict(other, "q3")).to_have_text(CORRECT)
    expect(question(other, "q3").get_by_label("Your answer")).to_have_value(q3.reveal)
    answer_numeric(other, "q5", q5.reveal)
    expect(verdict(other, "q5")).to_have_text(CORRECT)
    page.reload()
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    expect(verdict(page, "q5")).to_have_text(CORRECT)
    top = page.get_by_role("region", name="Your progress on this page")
    expect(top).to_contain_text(f"2 of {len(site.questions[url])} solved")


def test_a_save_in_another_tab_keeps_what_is_picked_and_typed_here_but_not_checked(page, site):
    """CI found it: tab A's radio pick was unticked when another tab saved a different
    question, because every widget showed its saved state again on any save."""
    url, q3 = site.question("q3")
    _, theta = site.question("m-rope-theta")
    other = page.context.new_page()
    other.goto(site.url(url))
    expect(question(other, "q3").get_by_role("button", name="Check")).to_be_enabled()
    page.goto(site.url(url))
    answer_numeric(page, "q5", "7")  # a wrong answer, saved
    expect(verdict(page, "q5")).to_have_text(re.compile("^Not yet"))
    question(page, "q5").get_by_label("Your answer").fill("8")  # typed, not checked
    box = question(page, "m-rope-theta")
    pick = box.get_by_role("radio").and_(box.locator(f'input[value="{theta.correct_index}"]'))
    pick.check()  # picked, not checked; the field has lost the focus
    answer_numeric(other, "q3", q3.reveal)
    expect(verdict(page, "q3")).to_have_text(CORRECT)  # tab A has read tab B's save
    expect(pick).to_be_checked()
    expect(question(page, "q5").get_by_label("Your answer")).to_have_value("8")


@pytest.mark.parametrize(
    "page_entry",
    [
        '"x"',
        '{"questions": 5}',
        '{"questions": {"q4": "odd"}, "labs": {"rms": 7}}',
        '{"__proto__": {"x": 1}}',
        '{"toString": {"x": 1}, "constructor": {"q4": {"attempts": 1}}}',
        '{"questions": {"__proto__": {"attempts": 1}, "q4": {"constructor": {"x": 1}}}}',
        '{"labs": {"rms": {"params": {"x": 1}, "__proto__": {"y": 2}}}}',
    ],
    ids=[
        "page-is-a-string",
        "questions-is-a-number",
        "entries-of-wrong-types",
        "proto-section",
        "tostring-and-constructor-sections",
        "proto-question-and-constructor-field",
        "proto-lab-field",
    ],
)
def test_malformed_saved_data_is_set_aside_and_what_fits_is_kept(page, site, page_entry):
    url, q3 = site.question("q3")
    kept = {"q3": {"kind": "numeric", "answer": q3.reveal, "verdict": "correct", "attempts": 1}}
    planted = (
        f'{{"version": 2, "pages": {{"{url}": {page_entry}, '
        f'"elsewhere/": {{"questions": {json.dumps(kept)}}}}}}}'
    )
    plant(page, planted)
    page.goto(site.url(url))
    expect(page.get_by_role("note")).to_contain_text("set aside")
    # Labs still work and answers still save.
    lab = page.locator('[data-lab="rms"]')
    expect(lab.locator("[data-status]")).to_contain_text("Live")
    lab.get_by_role("slider").first.press("ArrowRight")
    answer_numeric(page, "q3", q3.reveal)  # the worker answers in order: the lab went first
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    expect(lab.locator("[data-status]")).to_contain_text("Live")
    page.reload()
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    assert saved(page)["pages"]["elsewhere/"]["questions"]["q3"]["answer"] == q3.reveal
    assert page.evaluate("(k) => localStorage.getItem(k + ':set-aside')", STORAGE_KEY) == planted
    assert page.log.errors == []


def test_a_huge_paste_is_cut_with_a_note_and_later_answers_still_save(page, site):
    url, c2 = site.question("c2")
    page.goto(site.url(url))
    field = blank(page, "c2")
    expect(field).to_be_enabled()
    field.evaluate(
        "(f) => { f.value = 'x'.repeat(6_000_000); f.dispatchEvent(new Event('input')); }"
    )
    expect(question(page, "c2")).to_contain_text("Only the first 10,000 characters")
    expect(page.get_by_role("note")).to_have_count(0)  # saving was not switched off
    field.fill(c2.reference_blank)
    question(page, "c2").get_by_role("button", name="Check").click()
    expect(verdict(page, "c2")).to_have_text(CORRECT, timeout=15_000)
    page.reload()
    expect(blank(page, "c2")).to_have_value(c2.reference_blank)
    expect(verdict(page, "c2")).to_have_text(CORRECT)


def test_a_page_and_its_index_html_share_progress(page, site):
    url, q3 = site.question("q3")
    page.goto(site.url(url + "index.html"))
    answer_numeric(page, "q3", q3.reveal)
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    page.goto(site.url(url))
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    assert saved_question(page, url, "q3")["solvedAt"] == 1


@pytest.mark.parametrize("served", HOSTS)
def test_a_proto_key_in_saved_progress_is_set_aside_and_every_widget_works(page, request, served):
    """The saved text that made progress/schema.js throw (cleanItem is not a function), so
    store.js never loaded and every widget, Reset included, stayed disabled."""
    site = request.getfixturevalue(served)
    planted = '{"version":2,"pages":{"level-19/modern-blocks/":{"__proto__":{"x":1}}}}'
    plant(page, planted)
    page.goto(site.url(""))
    expect(page.get_by_text("could not be read, so it was set aside")).to_be_visible()
    expect(page.get_by_role("button", name="Reset progress")).to_be_enabled()
    url, q3 = site.question("q3")
    assert url == "level-19/modern-blocks/"
    page.goto(site.url(url))
    answer_numeric(page, "q3", q3.reveal)
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    expect(page.locator('[data-lab="rms"] [data-status]')).to_contain_text("Live")
    assert page.evaluate("(k) => localStorage.getItem(k + ':set-aside')", STORAGE_KEY) == planted
    assert page.log.errors == []


# localStorage that is full until the page sets window.livelabStorageFull to false.
FULL_STORAGE = """
window.livelabStorageFull = true;
const setItem = Storage.prototype.setItem;
Storage.prototype.setItem = function (key, value) {
  if (window.livelabStorageFull) {
    throw new DOMException("The quota has been exceeded.", "QuotaExceededError");
  }
  return setItem.call(this, key, value);
};
"""


@pytest.mark.parametrize("then", ["wait", "change"])
def test_answers_given_while_storage_is_full_are_all_saved_once_there_is_room(page, site, then):
    url, q3 = site.question("q3")
    _, q5 = site.question("q5")
    page.add_init_script(FULL_STORAGE)
    page.goto(site.url(url))
    answer_numeric(page, "q3", q3.reveal)
    expect(verdict(page, "q3")).to_have_text(CORRECT)
    answer_numeric(page, "q5", q5.reveal)
    expect(verdict(page, "q5")).to_have_text(CORRECT)
    note = page.get_by_role("note")
    expect(note).to_contain_text("is full, so 2 answers")
    expect(note).to_contain_text("closing or reloading this tab before then loses them")
    page.evaluate("window.livelabStorageFull = false")
    if then == "change":  # the next change writes all of them
        answer_numeric(page, "q3", "1")
        expect(note).to_have_count(0, timeout=1_000)
    else:  # or the retry, a few seconds later
        expect(note).to_have_count(0, timeout=10_000)
    other = page.context.new_page()  # a tab whose storage was never full
    other.goto(site.url(url))
    expect(verdict(other, "q5")).to_have_text(CORRECT)
    assert saved_question(other, url, "q5")["solvedAt"] == 1
    assert saved_question(other, url, "q3")["solvedAt"] == 1
    if then == "change":
        expect(verdict(other, "q3")).to_contain_text("Not yet")
        assert saved_question(other, url, "q3")["attempts"] == 2
    else:
        expect(verdict(other, "q3")).to_have_text(CORRECT)
    assert page.log.errors == []


@pytest.mark.parametrize("served", HOSTS)
def test_a_stop_before_python_starts_is_not_an_attempt(page, request, served):
    site = request.getfixturevalue(served)
    lift = block_until_lifted(page.context, WASM, handler=lambda route: None)  # never answered
    url, c2 = site.question("c2")
    page.goto(site.url(url))
    box = question(page, "c2")
    blank(page, "c2").fill(c2.reference_blank)
    box.get_by_role("button", name="Check").click()
    expect(verdict(page, "c2")).to_contain_text("as soon as Python has started")
    box.get_by_role("button", name="Stop").click()
    stopped = "you stopped the run. It does not count as an attempt"
    expect(verdict(page, "c2")).to_contain_text(stopped)
    assert saved_question(page, url, "c2").get("attempts", 0) == 0
    lift()
    page.reload()  # Python starts this time; the first check, stopped at once, does not count
    wrong = load_blanks(c2.question)["wrong"][0]["blank"]
    blank(page, "c2").fill(wrong)
    box.get_by_role("button", name="Check").click()
    box.get_by_role("button", name="Stop").click()
    expect(verdict(page, "c2")).to_contain_text("you stopped the run")
    assert saved_question(page, url, "c2").get("attempts", 0) == 0
    box.get_by_role("button", name="Check").click()
    expect(verdict(page, "c2")).to_have_text(re.compile(r"^Not yet\. (?!Stopped)"), timeout=30_000)
    assert saved_question(page, url, "c2")["attempts"] == 1


@pytest.mark.parametrize("served", HOSTS)
def test_thirty_quick_check_stop_pairs_are_no_attempt(page, request, served):
    site = request.getfixturevalue(served)
    url, _ = site.question("c2")
    page.goto(site.url(url))
    box = question(page, "c2")
    blank(page, "c2").fill("next(n for n in iter(int, 1) if n)")  # runs until stopped
    for _ in range(30):
        box.get_by_role("button", name="Check").click()
        box.get_by_role("button", name="Stop").click()
    expect(box.get_by_role("button", name="Check")).to_be_enabled()
    expect(verdict(page, "c2")).to_contain_text("you stopped the run", timeout=20_000)
    assert saved_question(page, url, "c2").get("attempts", 0) == 0
    expect(box.get_by_role("button", name="Hint")).to_be_hidden()


@pytest.mark.parametrize("served", HOSTS)
def test_enter_pressed_fifty_times_on_a_quick_wrong_answer_is_one_attempt(page, request, served):
    site = request.getfixturevalue(served)
    url, c2 = site.question("c2")
    page.goto(site.url(url))
    field = blank(page, "c2")
    field.fill(load_blanks(c2.question)["wrong"][0]["blank"])  # graded in a few milliseconds
    field.press("Enter")
    expect(verdict(page, "c2")).to_contain_text("Not yet", timeout=30_000)  # Python is up
    for _ in range(50):
        field.press("Enter")
    expect(question(page, "c2").get_by_role("button", name="Check")).to_be_enabled()
    page.wait_for_timeout(500)  # the last check's verdict is in
    assert saved_question(page, url, "c2")["attempts"] == 1
    # One honest try: the first hint is earned, the answer (three tries, or every hint) is not.
    expect(question(page, "c2").get_by_role("button", name="Hint 1 of")).to_be_visible()
    expect(question(page, "c2").get_by_role("button", name="Show answer")).to_be_hidden()


def test_enter_pressed_fifty_times_during_a_check_is_one_attempt(page, site):
    url, _ = site.question("c2")
    page.goto(site.url(url))
    field = blank(page, "c2")
    field.fill("next(n for n in iter(int, 1) if n)")  # runs until the time limit stops it
    for _ in range(50):
        field.press("Enter")
    expect(verdict(page, "c2")).to_contain_text("Not yet", timeout=20_000)
    assert saved_question(page, url, "c2")["attempts"] == 1
    # One honest try: the first hint is earned, the answer (three tries, or every hint) is not.
    expect(question(page, "c2").get_by_role("button", name="Hint 1 of")).to_be_visible()
    expect(question(page, "c2").get_by_role("button", name="Show answer")).to_be_hidden()


def test_without_javascript_labs_say_their_numbers_are_from_the_build(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    url, _ = site.question("q3")
    page.goto(site.url(url))
    status = page.locator('[data-lab="rms"] [data-status]')
    # What is rendered: the <noscript> line (Playwright's own text of an element skips it).
    expect(status).to_contain_text("computed when the page was built", use_inner_text=True)
    expect(status).to_contain_text("need JavaScript", use_inner_text=True)
    expect(status).not_to_contain_text("starting")
    expect(status.get_by_text("Python is loading")).to_be_hidden()  # only with JavaScript
    expect(page.locator('[data-lab="rms"] [data-param]').first).to_be_disabled()
    context.close()


def test_a_question_offers_retry_when_python_cannot_start_and_does_not_count_it(page, site):
    lift = block_until_lifted(page.context, "**/pyodide.asm.wasm")
    url, c2 = site.question("c2")
    page.goto(site.url(url))
    blank(page, "c2").fill(c2.reference_blank)
    question(page, "c2").get_by_role("button", name="Check").click()
    retry = verdict(page, "c2").get_by_role("button", name="Retry")
    expect(retry).to_be_visible(timeout=30_000)
    expect(verdict(page, "c2")).to_contain_text("Python could not start")
    assert saved_question(page, url, "c2").get("attempts", 0) == 0
    lift()
    retry.click()
    question(page, "c2").get_by_role("button", name="Check").click()
    expect(verdict(page, "c2")).to_have_text(CORRECT, timeout=30_000)
    assert saved_question(page, url, "c2")["solvedAt"] == 1

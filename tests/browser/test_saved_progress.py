"""Nothing is lost: two tabs, odd saved data, huge pastes, two addresses, Enter spam, no Python."""

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_questions import (
    STORAGE_KEY,
    answer_numeric,
    blank,
    question,
    verdict,
)
from tests.harness import block_until_lifted

CORRECT = re.compile(r"^Correct\.")


def saved(page) -> dict:
    return json.loads(page.evaluate("(k) => localStorage.getItem(k)", STORAGE_KEY) or "{}")


def saved_question(page, url, qid) -> dict:
    return saved(page).get("pages", {}).get(url, {}).get("questions", {}).get(qid, {})


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


@pytest.mark.parametrize(
    "page_entry",
    ['"x"', '{"questions": 5}', '{"questions": {"q4": "odd"}, "labs": {"rms": 7}}'],
    ids=["page-is-a-string", "questions-is-a-number", "entries-of-wrong-types"],
)
def test_malformed_saved_data_is_set_aside_and_what_fits_is_kept(page, site, page_entry):
    url, q3 = site.question("q3")
    page.goto(site.url(url))
    kept = {"q3": {"kind": "numeric", "answer": q3.reveal, "verdict": "correct", "attempts": 1}}
    planted = (
        f'{{"version": 2, "pages": {{"{url}": {page_entry}, '
        f'"elsewhere/": {{"questions": {json.dumps(kept)}}}}}}}'
    )
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORAGE_KEY, planted])
    page.reload()
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


def test_enter_pressed_fifty_times_during_a_check_is_one_attempt(page, site):
    url, _ = site.question("c2")
    page.goto(site.url(url))
    field = blank(page, "c2")
    field.fill("[0 for _ in iter(int, 1)]")  # runs until the time limit stops it
    for _ in range(50):
        field.press("Enter")
    expect(verdict(page, "c2")).to_contain_text("Not yet", timeout=20_000)
    assert saved_question(page, url, "c2")["attempts"] == 1
    expect(question(page, "c2").get_by_role("button", name="Hint")).to_be_hidden()


def test_without_javascript_labs_say_their_numbers_are_from_the_build(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    url, _ = site.question("q3")
    page.goto(site.url(url))
    status = page.locator('[data-lab="rms"] [data-status]')
    expect(status).to_contain_text("computed when the page was built")
    expect(status).to_contain_text("need JavaScript")
    expect(status).not_to_contain_text("starting")
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

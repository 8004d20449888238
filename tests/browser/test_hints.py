"""Help before the answer, on a phone (360 x 740, touch): every kind of question gives its
hints one at a time after an honest try, and only then, or after three tries, "Show answer";
a shown answer replaces the old verdict; hints survive a reload and reach another tab, and
never count as shown."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from livelab.questions import load_blanks
from tests.browser.test_questions import (
    NEXT_HINT,
    hint_start,
    question,
    shown_hints,
    verdict,
)

HONEST_TRIES = 3  # widgets/hints.js


def open_on(page, site, qid):
    url, q = site.question(qid)
    page.goto(site.url(url))
    box = question(page, qid)
    expect(box.get_by_role("button", name="Check")).to_be_enabled()  # the widget is mounted
    return box, q


def no_help_yet(box):
    expect(box.get_by_role("button", name=re.compile("^Hint"))).to_have_count(0)
    expect(box.get_by_role("button", name="No more hints")).to_have_count(0)
    expect(box.get_by_role("button", name="Show answer")).to_have_count(0)


def hints_in_order(box, hints, shown=None):
    """The first `shown` hints (all by default) are on screen, in order, each labelled."""
    shown = len(hints) if shown is None else shown
    expect(shown_hints(box)).to_have_count(shown)
    for number, hint in enumerate(hints[:shown], start=1):
        item = shown_hints(box).nth(number - 1)
        expect(item).to_have_text(re.compile(f"^Hint {number} of {len(hints)}\\. "))
        expect(item).to_contain_text(hint_start(hint))


def tap_each_hint_in_turn(box, hints):
    """Tap "Hint k of n" for each k, checking the button's name and the hint it adds."""
    for number in range(1, len(hints) + 1):
        expect(box.get_by_role("button", name="Show answer")).to_have_count(0)
        box.get_by_role("button", name=f"Hint {number} of {len(hints)}").tap()
        hints_in_order(box, hints, shown=number)
    expect(box.get_by_role("button", name="No more hints")).to_be_disabled()
    expect(box.get_by_role("button", name=NEXT_HINT)).to_have_count(0)
    expect(box.get_by_role("button", name="Show answer")).to_be_visible()


def test_a_numeric_slip_is_named_then_hints_in_order_then_the_answer(phone, site):
    box, q = open_on(phone, site, "q2")
    assert len(q.hints) >= 2
    no_help_yet(box)
    box.get_by_label("Your answer").fill("6")  # half of the norms
    box.get_by_role("button", name="Check").tap()
    slip = dict(q.spec.wrong)[6.0]
    expect(verdict(phone, "q2")).to_have_text(f"Not yet. {slip}")
    first = box.get_by_role("button", name=f"Hint 1 of {len(q.hints)}")
    expect(first).to_be_visible()
    assert first.bounding_box()["height"] >= 44  # a finger's button, as test_touch.py asks
    expect(box.get_by_role("button", name="Show answer")).to_have_count(0)
    tap_each_hint_in_turn(box, q.hints)
    phone.reload()
    hints_in_order(box, q.hints)  # kept in saved progress
    expect(box.get_by_role("button", name="Show answer")).to_be_visible()
    box.get_by_role("button", name="Show answer").tap()
    expect(verdict(phone, "q2")).to_have_text("The answer is shown.")
    expect(box.get_by_text(f"Answer: {q.reveal}")).to_be_visible()
    expect(box.get_by_role("button", name="No more hints")).to_have_count(0)
    phone.reload()
    expect(verdict(phone, "q2")).to_have_text("The answer is shown.")
    hints_in_order(box, q.hints)


def test_a_choice_gives_its_hints_before_the_answer(phone, site):
    box, q = open_on(phone, site, "q1")
    no_help_yet(box)
    wrong = next(option for option in q.options if not option.correct)
    box.get_by_role("radio", name=wrong.text).tap()
    box.get_by_role("button", name="Check").tap()
    expect(verdict(phone, "q1")).to_contain_text("Not yet.")
    expect(box.get_by_role("button", name="Show answer")).to_have_count(0)
    tap_each_hint_in_turn(box, q.hints)
    phone.reload()
    hints_in_order(box, q.hints)
    box.get_by_role("button", name="Show answer").tap()
    expect(verdict(phone, "q1")).to_have_text(re.compile(r"^The answer is shown\. "))
    expect(verdict(phone, "q1")).not_to_contain_text("Not yet")


def test_a_code_question_gives_its_hints_before_the_reference(phone, site):
    box, q = open_on(phone, site, "c1")
    no_help_yet(box)
    box.get_by_role("textbox", name=re.compile("blank")).fill(
        load_blanks(q.question)["wrong"][0]["blank"]
    )
    box.get_by_role("button", name="Check").tap()
    expect(verdict(phone, "c1")).to_contain_text("Not yet", timeout=60_000)
    expect(box.get_by_role("button", name="Show answer")).to_have_count(0)
    tap_each_hint_in_turn(box, q.hints)
    phone.reload()
    hints_in_order(box, q.hints)
    box.get_by_role("button", name="Show answer").tap()
    box.get_by_role("button", name="Yes, show it").tap()
    expect(box.get_by_text(q.reference_blank, exact=True)).to_be_visible()
    expect(verdict(phone, "c1")).to_have_text("The answer is shown.")
    phone.reload()
    expect(verdict(phone, "c1")).to_have_text("The answer is shown.")
    hints_in_order(box, q.hints)


def test_three_honest_tries_offer_the_answer_with_hints_left(phone, site):
    box, q = open_on(phone, site, "q5")
    assert len(q.hints) >= 1
    field = box.get_by_label("Your answer")
    # "one radian" cannot be read, so it is no try: the third wrong check is the fourth entry.
    entries = [
        ("0.5", "Not yet."),
        ("one radian", "Could not read"),
        ("2", "Not yet."),
        ("3", "Not yet."),
    ]
    for text, said in entries:
        expect(box.get_by_role("button", name="Show answer")).to_have_count(0)
        field.fill(text)
        box.get_by_role("button", name="Check").tap()
        expect(verdict(phone, "q5")).to_contain_text(said)
    assert sum(said != "Could not read" for _, said in entries) == HONEST_TRIES
    expect(box.get_by_role("button", name="Show answer")).to_be_visible()
    expect(box.get_by_role("button", name=f"Hint 1 of {len(q.hints)}")).to_be_visible()


def test_hints_reach_another_tab_and_a_question_solved_with_them_is_solved_with_hints(phone, site):
    box, q = open_on(phone, site, "q3")
    other = phone.context.new_page()
    other.goto(phone.url)
    other_box = question(other, "q3")
    expect(other_box.get_by_role("button", name="Check")).to_be_enabled()
    box.get_by_label("Your answer").fill("9")
    box.get_by_role("button", name="Check").tap()
    box.get_by_role("button", name=f"Hint 1 of {len(q.hints)}").tap()
    hints_in_order(other_box, q.hints, shown=1)
    expect(other_box.get_by_role("button", name=f"Hint 2 of {len(q.hints)}")).to_be_visible()
    box.get_by_label("Your answer").fill(q.reveal)
    box.get_by_role("button", name="Check").tap()
    expect(verdict(phone, "q3")).to_have_text("Correct.")  # no "counts as shown"
    total = len(site.questions[site.question("q3")[0]])
    top = phone.get_by_role("region", name="Your progress on this page")
    # Solved, and counted apart as solved with hints, on the page and on the home table.
    expect(top).to_contain_text(f"1 of {total} solved (1 with hints).")
    expect(top).not_to_contain_text("answer shown")
    other.close()
    phone.goto(site.url(""))
    table = phone.get_by_role("table")
    expect(table.get_by_role("cell", name=f"1 of {total} (1 with hints)")).to_be_visible()

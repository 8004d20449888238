"""Answers typed on a phone (issue 31): 360 x 740, touch, as a student's phone shows the course.

Each numeric answer field asks for the keyboard its answer needs: the decimal keypad and a
"Change sign" button for a plain number (iOS's decimal keypad has no minus sign), a text
keyboard for a list or an expression. A list typed with blanks is graded; the parser's advice
fits a list; a negative entry reaches a lab through the sign button.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from livelab.builder.kinds.numeric import invited_expression
from tests.browser.test_accessibility import READY

# Questions whose answer is a list, and those whose prompt offers to take a calculation.
LISTS = {"e1-arrows", "e2", "e2-zero", "e4"}
EXPRESSIONS = {"q7", "clock-slowest", "capstone-params"}


def open_page(phone: Page, site, qid: str):
    url, question = site.question(qid)
    phone.goto(site.url(url))
    phone.wait_for_function(READY, timeout=60_000)
    return phone.locator(f'[data-question="{qid}"]'), question


def numeric_questions(site) -> dict[str, list]:
    found = {url: [q for q in qs if q.kind == "numeric"] for url, qs in site.questions.items()}
    return {url: qs for url, qs in found.items() if qs}


def test_every_numeric_field_asks_for_the_keyboard_its_answer_needs(phone, site):
    seen: dict[str, str] = {}
    for url, questions in numeric_questions(site).items():
        phone.goto(site.url(url))
        phone.wait_for_function(READY, timeout=60_000)
        for q in questions:
            box = phone.locator(f'[data-question="{q.id}"]')
            field = box.get_by_label("Your answer")
            sign = box.get_by_role("button", name="Change sign")
            mode = field.get_attribute("inputmode")
            seen[q.id] = mode or ""
            if q.spec.is_vector or invited_expression(q.prompt):
                assert mode == "text", f"{url} {q.id}: a list or expression gets {mode!r}"
                for name, value in (("autocapitalize", "off"), ("autocorrect", "off")):
                    assert field.get_attribute(name) == value, f"{q.id}: {name}"
                assert field.get_attribute("spellcheck") == "false"
                expect(sign).to_have_count(0)
            else:
                assert mode == "decimal", f"{url} {q.id}: a plain number gets {mode!r}"
                expect(sign).to_be_enabled()
                box_of = sign.bounding_box()
                assert box_of and box_of["height"] >= 44 and box_of["width"] >= 24, box_of
            assert field.get_attribute("enterkeyhint") == "done"
    assert {seen[qid] for qid in LISTS | EXPRESSIONS} == {"text"}
    assert sum(mode == "decimal" for mode in seen.values()) >= 10


@pytest.mark.parametrize(
    ("qid", "typed"),
    [("e2", "0 1.414"), ("e2", "[0 1.414]"), ("e2", "0, 1.414"), ("e1-arrows", "-1 0 0 -1")],
)
def test_a_list_typed_with_blanks_on_a_phone_is_graded(phone, site, qid, typed):
    box, question = open_page(phone, site, qid)
    field = box.get_by_label("Your answer")
    field.tap()
    phone.keyboard.type(typed)
    expect(field).to_have_value(typed)
    box.get_by_role("button", name="Check").tap()
    expect(box.get_by_role("status")).to_have_text("Correct.")
    expect(box.get_by_text(f"Answer: {question.reveal}")).to_be_visible()


def test_a_wrong_shaped_list_is_told_how_to_separate_the_numbers(phone, site):
    box, _ = open_page(phone, site, "e2")
    box.get_by_label("Your answer").fill("0 1.414, 2")
    box.get_by_role("button", name="Check").tap()
    status = box.get_by_role("status")
    expect(status).to_have_text(
        "Could not read “1.414” in entry 1 (character 3): a number ends just before this; "
        "put “,” between every two numbers."
    )
    expect(status).not_to_contain_text("operator")
    box.get_by_label("Your answer").fill("0 1.414")
    box.get_by_role("button", name="Check").tap()
    expect(status).to_have_text("Correct.")


def test_the_sign_button_types_a_minus_keeps_the_rest_and_marks_the_verdict_stale(phone, site):
    box, question = open_page(phone, site, "e1")
    field = box.get_by_label("Your answer")
    sign = box.get_by_role("button", name="Change sign")
    status = box.get_by_role("status")
    field.tap()
    phone.keyboard.type("1")
    box.get_by_role("button", name="Check").tap()
    expect(status).to_contain_text(dict(question.spec.wrong)[1.0])
    field.tap()
    sign.tap()
    expect(field).to_have_value("-1")
    expect(field).to_be_focused()  # the phone's keyboard stays up
    expect(status).to_have_text(re.compile("^About your previous answer: Not yet."))
    box.get_by_role("button", name="Check").tap()
    expect(status).to_contain_text(dict(question.spec.wrong)[-1.0])
    sign.tap()
    expect(field).to_have_value("1")
    field.fill(" 0.5")
    sign.tap()
    expect(field).to_have_value(" -0.5")


def test_a_negative_entry_typed_with_the_sign_button_changes_the_rms_lab(phone, site):
    phone.goto(site.url("level-19/modern-blocks/"))
    phone.wait_for_function(READY, timeout=60_000)
    lab = phone.locator('[data-lab="rms"]')
    entry = lab.get_by_role("spinbutton", name="entry 1")
    slider = lab.get_by_role("slider", name="entry 1, slider")
    row = lab.locator(".livelab-row [data-text='row']")
    mean = lab.get_by_role("region", name="LayerNorm").locator("[data-text='mean']")
    expect(entry).to_have_value("3")
    before_row, before_mean = row.inner_text(), mean.inner_text()
    assert re.match(r"\[3\b", before_row), before_row
    sign = lab.get_by_role("button", name="Change sign of entry 1")
    box_of = sign.bounding_box()
    assert box_of and box_of["height"] >= 44 and box_of["width"] >= 24, box_of
    sign.tap()
    expect(entry).to_have_value("-3")
    expect(slider).to_have_value("-3")
    expect(row).to_have_text(re.compile(r"^\[[-−]3\b"))
    expect(mean).not_to_have_text(before_mean)
    sign.tap()
    expect(entry).to_have_value("3")
    expect(row).to_have_text(before_row)

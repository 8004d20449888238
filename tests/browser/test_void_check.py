"""Code that rewrites how answers are compared (found by trying the scratchpad as an
attacker), from the blank itself or left behind by the scratchpad to strike during a later
check, never earns "Correct": a blank runs in a runner of its own, the scratchpad in its
own worker, and the comparison in the page's main worker, which runs neither."""

import re

import pytest
from playwright.sync_api import expect

from livelab.questions import load_blanks
from tests.browser.test_questions import open_question, submit_code, verdict
from tests.browser.test_scratchpad import editor, open_scratchpad, panel, status

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

ANY_VERDICT = re.compile("^(Correct|Not yet)")
# compare() made to find every answer equal, as the reviewer's blank did for C2.
PATCH = (
    "setattr(__import__('livelab.grading_compare', fromlist=['x']).compare, '__code__', "
    "(lambda value, expected, rtol, atol: None).__code__)"
)
# Left in the scratchpad: an object in a reference cycle whose finalizer makes a new one each
# time the garbage collector runs, until it runs inside a check; then it patches compare().
LURKER = """import sys
class Lurker:
    def __del__(self):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_name == "check" and "grading" in frame.f_globals.get("__name__", ""):
                import livelab.grading_compare as target
                target.compare.__code__ = (lambda value, expected, rtol, atol: None).__code__
                return
            frame = frame.f_back
        again = Lurker()
        again.me = again
first = Lurker()
first.me = first
del first
"""


def paste_code(page, text):
    """Paste a program into the scratchpad's editor, as a student pastes copied code."""
    editor(page).click()
    page.keyboard.insert_text(text)  # as test_scratchpad's paste: one insertion, no auto-indent
    expect(editor(page)).to_contain_text("first.me = first")


def wrong_c2(page, site):
    """Go to C2's page; C2's first listed wrong answer."""
    q2 = open_question(page, site, "c2")
    return load_blanks(q2.question)["wrong"][0]["blank"]


def test_a_blank_that_rewrites_the_comparison_is_still_wrong(page, site):
    wrong = wrong_c2(page, site)
    submit_code(page, "c2", f"({PATCH}, {wrong})[1]")
    expect(verdict(page, "c2")).to_have_text(re.compile("^Not yet"), timeout=60_000)
    expect(verdict(page, "c2")).not_to_contain_text("does not count")
    submit_code(page, "c2", wrong + " ")
    expect(verdict(page, "c2")).to_have_text(re.compile("^Not yet"), timeout=60_000)


def test_code_left_in_the_scratchpad_cannot_make_a_later_check_correct(page, site):
    wrong = wrong_c2(page, site)
    open_scratchpad(page)
    paste_code(page, LURKER)
    panel(page).get_by_role("button", name="Run").click()
    expect(panel(page).get_by_role("button", name="Run")).to_be_enabled(timeout=30_000)
    expect(status(page)).to_have_text("Done.")
    editor(page).press("Escape")
    page.keyboard.press("Alt+p")  # close the panel
    seen = []
    for tries in range(4):
        # A space more each time: an edit marks the last verdict as about the previous answer,
        # so the wait below is for this check's verdict, not the one already on screen.
        submit_code(page, "c2", wrong + " " * tries)
        expect(verdict(page, "c2")).to_have_text(ANY_VERDICT, timeout=60_000)
        seen.append(verdict(page, "c2").inner_text())
    assert not any(text.startswith("Correct") for text in seen), seen

"""An exercise written in its fence (issue 34), answered as a student would: the whole body of
a function typed into the blank, Check, the verdict read. The page's Python defines the
question from the data the page sends, grades it as it grades every code question, and says
each known wrong answer's own feedback."""

import re

import pytest
from playwright.sync_api import expect

from livelab.builder import fence_yaml
from livelab.builder.check import replay_in_browser, replay_in_python
from livelab.builder.kinds import question_kind
from tests.harness import serve_page
from tests.sitebuild.test_exercise_fence import PAGE, TWO_BLANKS

pytestmark = pytest.mark.warm

RIGHT = PAGE[: PAGE.index("  - blank: return x / np.sqrt")] + "```\n"
BODY = "ms = np.mean(x ** 2, axis=-1, keepdims=True)\nreturn x / np.sqrt(ms + eps)"


@pytest.fixture(scope="module")
def norms(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("exercise"), RIGHT)
    yield site
    site.close()


def check(page, text):
    box = page.locator('[data-question="e1"]')
    box.get_by_role("textbox", name="blank: the body of rms_norm").fill(text)
    box.get_by_role("button", name="Check").click()
    return box.get_by_role("status")


def test_a_known_wrong_body_gets_its_own_feedback_with_its_math(page, norms):
    page.goto(norms.url(""))
    verdict = check(page, "return x / np.mean(x ** 2, axis=-1, keepdims=True)")
    expect(verdict).to_contain_text("That divides by the mean square", timeout=60_000)
    expect(verdict).to_have_text(re.compile("^Not yet. That divides"))
    expect(verdict.locator(".katex")).to_have_count(1)  # the feedback's math, typeset
    page.reload()  # the saved verdict comes back as the author wrote it
    expect(
        page.locator('[data-question="e1"]').get_by_role("status").locator(".katex")
    ).to_have_count(1)


def test_a_body_of_two_lines_is_graded_right_and_kept_over_a_reload(page, norms):
    page.goto(norms.url(""))
    expect(check(page, BODY)).to_have_text(re.compile("^Correct"), timeout=60_000)
    page.reload()
    box = page.locator('[data-question="e1"]')
    expect(box.get_by_role("textbox", name="blank: the body of rms_norm")).to_have_value(BODY)
    expect(box.get_by_role("status")).to_have_text(re.compile("^Correct"))


def test_a_body_that_breaks_on_a_hidden_case_is_not_yet(page, norms):
    page.goto(norms.url(""))
    # Right for the example's one row; a batch of rows needs the mean taken per row.
    verdict = check(page, "return x / np.sqrt(np.mean(x ** 2) + eps)")
    expect(verdict).to_have_text(re.compile("^Not yet"), timeout=60_000)


@pytest.fixture(scope="module")
def two_blanks(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("two-blanks"), TWO_BLANKS)
    yield site
    site.close()


MEAN = "np.mean(x ** 2, axis=-1, keepdims=True)"


def test_a_student_fills_two_blanks_is_told_why_then_solves_it_and_finds_both_after_a_reload(
    page, two_blanks
):
    page.goto(two_blanks.url(""))
    box = page.locator('[data-question="e2"]')
    first = box.get_by_role("textbox", name="blank 1 of 2: rms_norm")
    second = box.get_by_role("textbox", name="blank 2 of 2: rms_norm")
    first.fill(MEAN)
    second.fill("ms")
    box.get_by_role("button", name="Check").click()
    verdict = box.get_by_role("status")
    expect(verdict).to_have_text(
        "Not yet. That divides by the mean square; take its square root.", timeout=60_000
    )
    second.fill("np.sqrt(ms + eps")  # the syntax error is in blank 2
    box.get_by_role("button", name="Check").click()
    expect(verdict).to_contain_text("of blank 2", timeout=60_000)
    second.fill("np.sqrt(ms + eps)")
    second.press("Enter")  # Enter checks, as in a blank of one line
    expect(verdict).to_have_text(re.compile("^Correct"), timeout=60_000)
    page.reload()
    box = page.locator('[data-question="e2"]')
    expect(box.get_by_role("textbox", name="blank 1 of 2: rms_norm")).to_have_value(MEAN)
    expect(box.get_by_role("textbox", name="blank 2 of 2: rms_norm")).to_have_value(
        "np.sqrt(ms + eps)"
    )
    expect(box.get_by_role("status")).to_have_text(re.compile("^Correct"))
    box.get_by_role("button", name="Show answer").click()
    box.get_by_role("button", name="Yes, show it").click()
    for text in (MEAN, "np.sqrt(ms + eps)"):
        expect(box.get_by_text(text, exact=True)).to_be_visible()


def test_livelab_check_replays_a_two_blank_exercise_in_cpython_and_in_the_page(page, two_blanks):
    body = TWO_BLANKS.split("```exercise\n")[1].split("```")[0]
    q = question_kind("exercise").question(fence_yaml.load(body))
    assert next(r.answer for r in question_kind("exercise").replays(q)) == [
        MEAN,
        "np.sqrt(ms + eps)",
    ]
    assert replay_in_python(q) == []
    page.goto(two_blanks.url(""))
    assert replay_in_browser(page, two_blanks.url("assets/livelab/"), q) == []

"""Fault cases, done as an attacker or a careless student would: one check cannot change the
next, input(), a runaway recursion, output of a stopped run, memory, and Python failing to boot.

Every tamper goes into C1's blank together with the right answer, and again with a wrong
one; then a wrong and a right answer to C2 (another question) must be graded as if nothing
had happened. A blank runs in a runner of its own and the verdict is made elsewhere
(tests/browser/test_sandbox.py has the attacks of issue 30).
"""

import re

import pytest
from playwright.sync_api import expect

from labs import modern_block
from livelab import worker_api
from livelab.grading import example_output
from livelab.grading_messages import borrowed_message
from livelab.grading_run import input_message
from livelab.questions import load_blanks
from tests.browser.test_questions import blank, open_question, question, submit_code, verdict
from tests.harness import block_until_lifted

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

CHAPTER = "level-19/worked-examples/"
PACKAGE_FILE = "/opt/livelab/livelab/grading_compare.py"
ENDLESS = "next(n for n in iter(int, 1) if n)"
TAMPERS = {
    "np.allclose": "setattr(np, 'allclose', lambda *a, **k: True)",
    "numpy internals": "setattr(np._core.numeric, 'less_equal', lambda a, _: a == a)",
    "np.testing": "setattr(np.testing, 'assert_allclose', lambda *a, **k: None)",
    "livelab module popped": "__import__('sys').modules.pop('livelab.grading_compare', 0)",
    "package file written": f"(__import__('os').chmod({PACKAGE_FILE!r}, 0o644), "
    f"open({PACKAGE_FILE!r}, 'w').write('compare = None'))",
}


def run_status(page, qid):
    return question(page, qid).locator("[data-run-status]")


def output(page, qid):
    return question(page, qid).locator("[data-output]")


def check_and_wait(page, site, qid):
    """A first, ordinary check: Python is up and warm, so a Stop later lands in the blank."""
    submit_code(page, qid, site.question(qid)[1].reference_blank)
    expect(verdict(page, qid)).to_have_text(re.compile("^Correct"), timeout=30_000)


def answer_c2_wrong_then_right(page, site):
    _, q2 = site.question("c2")
    submit_code(page, "c2", load_blanks(q2.question)["wrong"][0]["blank"])
    expect(verdict(page, "c2")).to_have_text(re.compile("^Not yet"), timeout=30_000)
    submit_code(page, "c2", q2.reference_blank)
    expect(verdict(page, "c2")).to_have_text(re.compile("^Correct"), timeout=30_000)


# ---- one check cannot change the next -------------------------------------------------


@pytest.mark.parametrize("name", TAMPERS)
def test_a_tamper_line_leaves_nothing_behind_for_the_next_question(page, site, name):
    q1 = open_question(page, site, "c1")
    wrong = load_blanks(q1.question)["wrong"][0]["blank"]
    submit_code(page, "c1", f"({TAMPERS[name]}, {wrong})[1]")
    # The comparison is not where the code ran: a tamper cannot pass a wrong answer.
    expect(verdict(page, "c1")).to_have_text(re.compile("^Not yet"), timeout=60_000)
    submit_code(page, "c1", f"({TAMPERS[name]}, {q1.reference_blank})[1]")
    expect(verdict(page, "c1")).to_have_text(re.compile("^Correct"), timeout=60_000)
    expect(run_status(page, "c1")).to_have_text("")
    answer_c2_wrong_then_right(page, site)
    expect(run_status(page, "c2")).to_have_text("")  # the next checks ran on a clean Python


def test_the_package_files_are_read_only(page, site):
    q1 = open_question(page, site, "c1")
    submit_code(page, "c1", f"(open({PACKAGE_FILE!r}, 'w'), {q1.reference_blank})[1]")
    expect(verdict(page, "c1")).to_contain_text("PermissionError", timeout=30_000)
    answer_c2_wrong_then_right(page, site)


@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_tamper_stopped_mid_run_leaves_nothing_behind(page, request, served):
    site = request.getfixturevalue(served)
    open_question(page, site, "c1")
    check_and_wait(page, site, "c1")
    submit_code(page, "c1", f"({TAMPERS['numpy internals']}, {ENDLESS})[1]")
    page.wait_for_timeout(1_000)  # the tamper has run; the endless part is running
    question(page, "c1").get_by_role("button", name="Stop").click()
    expect(verdict(page, "c1")).to_contain_text("you stopped the run", timeout=30_000)
    answer_c2_wrong_then_right(page, site)


def test_a_tamper_does_not_follow_the_student_to_another_page(page, site):
    """Instant navigation keeps the worker: the block lab on the next page computes clean.
    (The course's kernels are not even in the runner: the tamper fails and says why.)"""
    q1 = open_question(page, site, "c1")
    norm = "__import__('labs.kernels.norms').kernels.norms.rmsnorm"
    tamper = f"setattr({norm}, '__code__', (lambda x, gain=None, eps=1e-6: x).__code__)"
    submit_code(page, "c1", f"({tamper}, {q1.reference_blank})[1]")
    said = borrowed_message("labs")
    expect(verdict(page, "c1")).to_have_text(f"Not yet. {said}", timeout=60_000)
    page.get_by_role("link", name=site.pages[CHAPTER]).first.click()
    expect(page).to_have_url(site.url(CHAPTER))
    lab = page.locator('[data-lab="modern-block"]')
    lab.get_by_role("button", name="Run the block", exact=True).click()
    clean = modern_block.view(modern_block.state(**modern_block.PARAMS.coerce({"run": True})))
    status = lab.get_by_role("status", name="Forward pass")
    expect(status).to_have_text(clean["text"]["summary"], timeout=30_000)


# ---- input, recursion, stopped output ----------------------------------------------------


def test_input_says_it_is_not_available(page, site):
    open_question(page, site, "c1")
    submit_code(page, "c1", "input()")
    expect(verdict(page, "c1")).to_contain_text(input_message(), timeout=30_000)
    submit_code(page, "c1", "float(input('eps? '))", button="Run")
    expect(run_status(page, "c1")).to_contain_text(input_message())
    expect(verdict(page, "c1")).not_to_contain_text("Errno")


def test_a_raised_recursion_limit_is_reported_as_recursion_not_as_an_endless_loop(page, site):
    q1 = open_question(page, site, "c1")
    submit_code(page, "c1", "(__import__('sys').setrecursionlimit(10**6), rmsnorm(x, eps))[1]")
    expect(verdict(page, "c1")).to_have_text(
        re.compile("^Not yet.*recursion", re.I), timeout=30_000
    )
    expect(verdict(page, "c1")).not_to_contain_text("never ends")
    submit_code(page, "c1", q1.reference_blank)
    expect(verdict(page, "c1")).to_have_text(re.compile("^Correct"), timeout=30_000)


@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_output_of_a_stopped_run_never_shows_up(page, request, served):
    site = request.getfixturevalue(served)
    q2 = open_question(page, site, "c2")
    check_and_wait(page, site, "c2")
    submit_code(page, "c2", f"(print('partial output'), {ENDLESS})[1]", button="Run")
    page.wait_for_timeout(1_000)  # printed, and now in the endless part
    question(page, "c2").get_by_role("button", name="Stop").click()
    expect(run_status(page, "c2")).to_contain_text("you stopped the run", timeout=30_000)
    expect(output(page, "c2")).to_be_hidden()
    submit_code(page, "c2", q2.reference_blank, button="Run")
    expected = example_output(q2.question).rstrip("\n")
    expect(output(page, "c2")).to_have_text(expected, timeout=30_000)


# ---- memory ---------------------------------------------------------------------------


def test_a_huge_array_in_a_blank_leaves_the_next_check_working(page, site):
    """A runner is ended after its check, memory and all; the page's Python is not touched."""
    q1 = open_question(page, site, "c1")
    side = int((worker_api.MEMORY_KEPT * 1.25 / 8) ** 0.5)  # float64 entries: 1.25 x the mark
    submit_code(page, "c1", f"(np.empty(({side}, {side})), {q1.reference_blank})[1]")
    expect(verdict(page, "c1")).to_have_text(re.compile("^Correct"), timeout=60_000)
    blank(page, "c1").fill(q1.reference_blank)
    blank(page, "c1").press("Enter")
    expect(run_status(page, "c1")).to_have_text("", timeout=30_000)
    expect(verdict(page, "c1")).to_have_text(re.compile("^Correct"))
    assert len(page.log.python_workers()) == 1
    assert len(page.log.python_workers("runner")) >= 2


# Memory reached 4 GB in 4 s, inside the 5 s limit: a phone ends the tab before that. The
# memory now stops growing at the limit, and Python says so at once.
LARGE = "np.ones(250_000_000)"  # 1.9 GiB of float64: one NumPy array holds 2 GiB at most


@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_an_allocation_of_2_gb_stops_at_the_limit_with_a_memory_error(page, request, served):
    site = request.getfixturevalue(served)
    q1 = open_question(page, site, "c1")
    check_and_wait(page, site, "c1")
    submit_code(page, "c1", f"({LARGE}, {q1.reference_blank})[1]")
    # refused at 512 MB, not stopped at the time limit (nor the tab ended by the system)
    expect(verdict(page, "c1")).to_contain_text("raised MemoryError at column", timeout=30_000)
    expect(verdict(page, "c1")).to_contain_text(
        "(Python ran out of memory: code here may use at most 512 MB, and this needed more, "
        "so make the arrays or lists smaller)."
    )
    check_and_wait(page, site, "c1")
    assert page.log.errors == []


def test_a_long_sleep_in_a_blank_is_refused_at_once_and_says_why(page, site):
    q1 = open_question(page, site, "c1")
    submit_code(page, "c1", f"(__import__('time').sleep(100), {q1.reference_blank})[1]")
    expect(verdict(page, "c1")).to_contain_text(
        "raised TimeoutError at column 2 of your blank: time.sleep(100) would wait 100 s, but "
        "a run may take at most 5 s: sleep less, or not at all (nothing here needs a pause)",
        timeout=30_000,
    )


# ---- Python failing to boot ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("blocked", "sentence"),
    [
        (
            "**/numpy-*.whl",
            "NumPy could not be downloaded. Check your connection, then press Retry.",
        ),
        ("**/python_stdlib.zip", "its runtime files could not be downloaded."),
        # asked for by the worker's first lines (head-start.js), and again by Pyodide
        ("**/pyodide/pyodide.asm.js", "its runtime files could not be downloaded."),
        # one of the modules the worker loads after its first lines
        ("**/runtime/worker/boot.js", "its worker script did not load."),
        ("**/livelab-*.zip", "the course's Python code could not be downloaded."),
    ],
)
@pytest.mark.cold  # blocks downloads in its context
def test_a_failed_download_says_what_failed_and_retry_recovers(page, site, blocked, sentence):
    lift = block_until_lifted(page.context, blocked)
    url, _ = site.question("c1")
    page.goto(site.url(url))
    status = page.locator('[data-lab="rope"] [data-status]')
    expect(status).to_contain_text("Python could not start because", timeout=60_000)
    expect(status).to_contain_text(sentence)
    expect(status).not_to_contain_text(re.compile("exit\\(1\\)|Failed to fetch|loading numpy"))
    lift()
    status.get_by_role("button", name="Retry").click()
    expect(status).to_contain_text("Live", timeout=60_000)

"""Nothing a student runs can change the site, the grader or another answer (issue 30, §1-3).

Each test does what an attacker did: rewrite the site's cached JavaScript from the scratchpad
or a blank, patch NumPy's comparison or json so later wrong answers pass, borrow the
reference from a blank by import, frames or the garbage collector. The student code runs in
workers without the origin's storage (runtime/worker/sandbox.js); a blank runs in a fresh runner
without the course, and the verdict is made in the main worker (livelab.grading).
"""

import re

import pytest
from playwright.sync_api import expect

from livelab.grading_messages import borrowed_message
from tests.browser.test_questions import open_question, question, submit_code, verdict
from tests.browser.test_scratchpad import editor, open_scratchpad, panel, status

NOT_YET = re.compile("^Not yet")
CORRECT = re.compile("^Correct")
LESSON = "level-19/modern-blocks/"
PWNED = "PWNED by a scratchpad run"
# The snippet, as a classmate would hand it round.
POISON = (
    "from pyodide.code import run_js\n"
    'run_js("""(async () => { for (const n of await caches.keys()) { '
    "if (!n.startsWith('workbox-precache')) continue;\n"
    "  const c = await caches.open(n); for (const r of await c.keys()) { "
    "if (!r.url.includes('/assets/livelab/livelab.js')) continue;\n"
    '  const res = await c.match(r); await c.put(r, new Response("document.title='
    '\'PWNED by a scratchpad run\';" + await res.text(), {headers: res.headers})); } } })()""")\n'
)
# The precached livelab.js as the service worker would serve it, read from the page.
CACHED_LIVELAB = """async () => {
  for (const n of await caches.keys()) {
    if (!n.startsWith('workbox-precache')) continue;
    const c = await caches.open(n);
    for (const r of await c.keys()) {
      if (!r.url.includes('/assets/livelab/livelab.js')) continue;
      return (await (await c.match(r)).text()).slice(0, 40);
    }
  }
  return null;
}"""
ISCLOSE = (
    "__import__('numpy').isclose._implementation.__code__ = (lambda a, b, rtol=1e-05, "
    "atol=1e-08, equal_nan=False: abs(a - a) == 0).__code__"
)
JSON_DUMPS = (
    "__import__('json').dumps.__code__ = (lambda *a, **k: "
    '\'{"value": {"verdict": "correct", "message": "forged"}}\').__code__'
)
WRONG = {
    "c1": "np.sqrt(np.mean(x**2) + eps)",
    "c2": "np.array([c * v[0], s * v[1]])",
    "c3": "return silu(x @ W_gate) @ W_down",
}
KERNELS = "__import__('{module}', fromlist=['rmsnorm'])"
BORROWING = {
    "c1": "x / {kernels}.rmsnorm(x, eps=eps)",
    "c2": "{kernels}.rotate(v, pos, theta)",
    "c3": "return {kernels}.swiglu_ffn(x, W_gate, W_up, W_down)",
}


def wait_for_service_worker(page):
    """The lesson is precached: the service worker controls the page, livelab.js is stored."""
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    page.wait_for_function(CACHED_LIVELAB, timeout=60_000)


def run_in_scratchpad(page, code):
    if not panel(page).is_visible():
        open_scratchpad(page)
    editor(page).click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    page.keyboard.insert_text(code)
    panel(page).get_by_role("button", name="Run").click()
    expect(panel(page).get_by_role("button", name="Run")).to_be_enabled(timeout=60_000)
    expect(status(page)).not_to_have_text(re.compile("^Running"), timeout=60_000)


def check(page, qid, text):
    """Check a blank and wait for this check's own verdict (a pending one comes first)."""
    submit_code(page, qid, text)
    pending = re.compile("^(Checking|About your)")
    expect(verdict(page, qid)).not_to_have_text(pending, timeout=90_000)
    expect(verdict(page, qid)).to_have_text(re.compile("^(Correct|Not yet)"), timeout=60_000)


def assert_site_unchanged(page, site):
    """Reload, another page, a new tab: the site is the one the server sent."""
    page.reload()
    expect(page).not_to_have_title(PWNED)
    assert not page.evaluate(CACHED_LIVELAB).startswith("document.title")
    page.goto(site.url("level-19/worked-examples/"))
    expect(page.locator('[data-lab="modern-block"]')).to_be_visible()
    expect(page).not_to_have_title(PWNED)
    other = page.context.new_page()
    other.goto(site.url(LESSON))
    expect(other).not_to_have_title(PWNED)
    other.close()


# ---- §1: the site's cached files --------------------------------------------------------


@pytest.mark.cold  # a fresh profile, as in the report
@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_the_scratchpad_cannot_rewrite_the_sites_cached_javascript(page, request, served):
    site = request.getfixturevalue(served)
    page.goto(site.url(LESSON))
    wait_for_service_worker(page)
    run_in_scratchpad(page, POISON)
    run_in_scratchpad(page, "import js\nprint([hasattr(js, n) for n in ('caches', 'indexedDB')])")
    expect(panel(page).get_by_role("log", name="Output")).to_contain_text("[False, False]")
    assert_site_unchanged(page, site)


@pytest.mark.cold
@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_blank_cannot_rewrite_the_sites_cached_javascript(page, request, served):
    site = request.getfixturevalue(served)
    q3 = open_question(page, site, "c3")
    wait_for_service_worker(page)
    # The blank is one line: the same JavaScript, through the same function, then the answer.
    script = POISON.split('"""')[1].replace("\n", " ")
    run_js = "__import__('pyodide.code', fromlist=['run_js']).run_js"
    check(page, "c3", f"{run_js}({script!r}); {q3.reference_blank}")
    expect(verdict(page, "c3")).to_have_text(CORRECT)  # the right answer, graded as one
    assert_site_unchanged(page, site)


# ---- §2: one tamper, later checks ---------------------------------------------------------


def check_the_three_wrong_answers(page):
    for qid, wrong in WRONG.items():
        check(page, qid, wrong)
        expect(verdict(page, qid)).to_have_text(NOT_YET)


@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_patched_isclose_in_a_blank_makes_no_later_wrong_answer_correct(page, request, served):
    site = request.getfixturevalue(served)
    open_question(page, site, "c3")
    check(page, "c3", f"{ISCLOSE}; {WRONG['c3']}")
    expect(verdict(page, "c3")).to_have_text(NOT_YET)  # not even its own check
    check_the_three_wrong_answers(page)


@pytest.mark.parametrize("tamper", [ISCLOSE, JSON_DUMPS], ids=["isclose", "json.dumps"])
@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_tamper_run_in_the_scratchpad_makes_no_later_wrong_answer_correct(
    page, request, served, tamper
):
    site = request.getfixturevalue(served)
    open_question(page, site, "c1")
    run_in_scratchpad(page, tamper)
    page.keyboard.press("Escape")
    check_the_three_wrong_answers(page)


FORGED = (
    "(setattr(__import__('json').dumps, '__code__', (lambda *a, **k: "
    '\'{"value": {"verdict": "correct", "message": "forged"}}\').__code__), '
    "np.sqrt(np.mean(x**2) + eps))[1]"
)


@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_forged_reply_from_a_blank_does_not_count(page, request, served):
    site = request.getfixturevalue(served)
    open_question(page, site, "c1")
    check(page, "c1", FORGED)
    expect(verdict(page, "c1")).to_have_text(re.compile("^Not yet. This check does not count"))
    expect(verdict(page, "c1")).not_to_contain_text("forged")


# ---- §3: borrowing the reference ---------------------------------------------------------


@pytest.mark.parametrize("module", ["labs.kernels", "livelab.kernels"])
@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_blank_that_imports_the_reference_does_not_count(page, request, served, module):
    site = request.getfixturevalue(served)
    open_question(page, site, "c1")
    for qid, text in BORROWING.items():
        check(page, qid, text.format(kernels=KERNELS.format(module=module)))
        said = borrowed_message(module.partition(".")[0] if module == "labs.kernels" else module)
        expect(verdict(page, qid)).to_have_text(f"Not yet. {said}")


BY_FRAMES = "__import__('sys')._getframe(2).f_locals['want']"
BY_GC = (
    "next(f for f in __import__('gc').get_objects() "
    "if getattr(f, '__name__', '') == 'rmsnorm' and 'kernels' in str(getattr(f, '__module__', '')))"
    "(x, eps=eps)"
)


@pytest.mark.parametrize("text", [BY_FRAMES, f"x / {BY_GC}"], ids=["frames", "gc"])
@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_blank_cannot_reach_the_expected_output_or_the_reference(page, request, served, text):
    site = request.getfixturevalue(served)
    open_question(page, site, "c1")
    check(page, "c1", text)
    expect(verdict(page, "c1")).to_have_text(NOT_YET)
    expect(question(page, "c1").locator("[data-run-status]")).to_have_text("")

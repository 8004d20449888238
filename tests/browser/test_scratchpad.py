"""The Python scratchpad, driven as a student would: by role and accessible name."""

import json
import re
from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from livelab.labs import lab
from livelab.labs.view import fmt_number
from tests import tools
from tests.browser.test_accessibility import OUTSIDE_OUR_MARKUP, PALETTES, READY, RUN_AXE
from tests.browser.test_questions import open_question, submit_code, verdict
from tests.browser.test_rope_lab import LESSON, open_live_lab, score

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

OTHER = "level-19/worked-examples/"
RUN_LIMIT = 30_000  # a first run waits for Python's warm-up
ON_PANEL = "axe.run(document.querySelector('.livelab-scratchpad-region')"


def panel(page):
    return page.get_by_role("dialog", name="Python scratchpad")


def editor(page):
    return panel(page).get_by_role("textbox", name="Python code")


def output(page):
    return panel(page).get_by_role("log", name="Output")


def status(page):
    return panel(page).get_by_role("status")


def open_scratchpad(page):
    page.get_by_role("button", name="Python scratchpad").click()
    expect(editor(page)).to_be_focused(timeout=RUN_LIMIT)


def type_code(page, text):
    """Type line by line as a student would (the lines typed here need no indentation)."""
    editor(page).click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.press("Delete")
    page.keyboard.type(text)


def run_with_keys(page):
    editor(page).focus()
    page.keyboard.press("Control+Enter")


def type_and_run(page, code):
    """Type the code, then run it with Ctrl+Enter."""
    type_code(page, code)
    run_with_keys(page)


def run_and_stop(page, code):
    """Run code that does not end, and press Stop once it runs; returns the Stop button."""
    type_and_run(page, code)
    stop = panel(page).get_by_role("button", name="Stop")
    expect(stop).to_be_enabled()
    stop.click()
    return stop


def test_open_type_a_program_run_it_with_ctrl_enter_and_read_its_output(page, site):
    page.goto(site.url(LESSON))
    toggle = page.get_by_role("button", name="Python scratchpad")
    expect(toggle).to_have_attribute("title", re.compile(r"Alt\+P"))
    expect(toggle).to_have_attribute("aria-expanded", "false")
    open_scratchpad(page)
    type_and_run(page, "x = np.array([3.0, 4.0])\nprint('norm', np.linalg.norm(x))\nx / 5")
    expect(output(page)).to_have_text("norm 5.0\narray([0.6, 0.8])", timeout=RUN_LIMIT)
    # Names stay for the next run, as in a notebook; a kernel's help shows its shapes.
    type_code(page, "help(rmsnorm)\nx.sum()")
    panel(page).get_by_role("button", name="Run").click()
    expect(output(page)).to_contain_text("Shapes: x [..., d]")
    expect(output(page)).to_contain_text("np.float64(7.0)")
    panel(page).get_by_role("button", name="Clear").click()
    expect(output(page)).to_be_hidden()
    expect(status(page)).to_contain_text("Cleared")
    run_with_keys(page)
    expect(output(page)).to_contain_text("NameError: name 'x' is not defined")


def test_the_button_is_a_few_tabs_from_the_top_and_covers_no_footer_link_at_360px(browser, site):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    page = context.new_page()
    try:
        page.goto(site.url(LESSON))
        toggle = page.get_by_role("button", name="Python scratchpad")
        for _ in range(15):  # the reviewer counted about 150 with the button after the footer
            page.keyboard.press("Tab")
            if toggle.evaluate("(node) => node === document.activeElement"):
                break
        expect(toggle).to_be_focused(timeout=1)
        # Scrolled again on each try: the page may still grow while it loads (fonts, labs).
        page.wait_for_function(
            "scrollTo(0, document.documentElement.scrollHeight),"
            " innerHeight + scrollY >= document.documentElement.scrollHeight - 1"
        )
        box = toggle.bounding_box()
        assert box is not None
        links = page.locator(".md-footer a").all()
        assert links
        for link in links:
            other = link.bounding_box()
            if other is None:
                continue
            apart = (
                other["x"] + other["width"] <= box["x"]
                or box["x"] + box["width"] <= other["x"]
                or other["y"] + other["height"] <= box["y"]
                or box["y"] + box["height"] <= other["y"]
            )
            assert apart, link
    finally:
        context.close()


def test_alt_p_opens_and_closes_it_and_escape_outside_the_editor_closes_it(page, site):
    page.goto(site.url(LESSON))
    page.keyboard.press("Alt+p")
    expect(editor(page)).to_be_focused(timeout=RUN_LIMIT)
    expect(page).to_have_url(site.url(LESSON))  # Material's own "p" (previous page) stayed out
    page.keyboard.press("Alt+p")
    expect(panel(page)).to_be_hidden()
    page.keyboard.press("Alt+p")
    expect(editor(page)).to_be_focused()
    page.keyboard.press("Escape")  # in the editor, Escape is CodeMirror's (it frees Tab)
    expect(panel(page)).to_be_visible()
    panel(page).get_by_role("button", name="Run").focus()
    page.keyboard.press("Escape")
    expect(panel(page)).to_be_hidden()
    expect(page.get_by_role("button", name="Python scratchpad")).to_be_focused()


def test_an_error_names_the_line_in_the_students_text(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "a = 1\nb = 2\nc = a / (b - 2)\nprint(c)")
    expect(status(page)).to_have_text(re.compile("^ZeroDivisionError on line 3"), timeout=RUN_LIMIT)
    expect(output(page)).to_contain_text("line 3, in <module>\n    c = a / (b - 2)")
    expect(output(page)).not_to_contain_text(".py")


def test_stop_ends_an_endless_loop_and_the_next_run_works(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "print('warm')")
    expect(output(page)).to_have_text("warm", timeout=RUN_LIMIT)
    stop = run_and_stop(page, "while True: pass")
    expect(status(page)).to_have_text(re.compile(r"^Stopped: you stopped the run\."))
    expect(stop).to_be_disabled()
    type_and_run(page, "print('after the stop')")
    expect(output(page)).to_have_text("after the stop", timeout=RUN_LIMIT)


def test_a_stopped_run_clears_the_earlier_output_and_says_it_was_stopped(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "print('old output')")
    expect(output(page)).to_have_text("old output", timeout=RUN_LIMIT)
    run_and_stop(page, "for i in range(3): print('step', i)\nwhile True: pass")
    expect(status(page)).to_have_text(re.compile("^Stopped: you stopped the run. What it printed"))
    expect(panel(page)).not_to_contain_text("old output")


def test_an_endless_loop_is_stopped_at_the_time_limit_and_the_page_goes_on(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "while True: pass")
    expect(status(page)).to_have_text(
        re.compile(r"^Stopped: the code ran longer than 5 s\."), timeout=RUN_LIMIT
    )
    type_and_run(page, "print('still here')")
    expect(output(page)).to_have_text("still here", timeout=RUN_LIMIT)


def test_without_isolation_a_stop_restarts_python_and_says_names_are_gone(page, plain_site):
    page.goto(plain_site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "kept = 1\nkept")
    expect(output(page)).to_have_text("1", timeout=RUN_LIMIT)
    run_and_stop(page, "while True: pass")
    expect(status(page)).to_have_text(re.compile(r"^Stopped: you stopped the run\."))
    type_and_run(page, "kept")
    expect(status(page)).to_contain_text("names defined before are gone", timeout=RUN_LIMIT)
    expect(output(page)).to_contain_text("NameError: name 'kept' is not defined")


def test_a_list_of_a_billion_entries_is_a_memory_error_that_names_the_limit(page, site):
    # It needs 4 GB: before the memory limit held as memory grew, the worker died and the
    # page said Python's worker script did not load.
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "x = [0] * 10**9")
    expect(status(page)).to_have_text(
        re.compile(r"^MemoryError on line 1; see the output\."), timeout=RUN_LIMIT
    )
    expect(output(page)).to_contain_text(
        "Python ran out of memory: code here may use at most 512 MB, and this needed more, "
        "so make the arrays or lists smaller."
    )
    type_and_run(page, "print('still here')")
    expect(output(page)).to_have_text("still here", timeout=RUN_LIMIT)


def test_an_array_doubling_towards_4_gb_stops_at_the_limit_and_python_is_replaced(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "a = np.ones(1)\nwhile True: a = np.concatenate([a, a])")
    expect(status(page)).to_have_text(
        re.compile(r"^MemoryError on line 2; see the output\. Python's memory grew past 256 MB"),
        timeout=RUN_LIMIT,
    )
    expect(output(page)).to_contain_text("Python ran out of memory: code here may use at most")
    type_and_run(page, "print('still here')")
    expect(output(page)).to_have_text("still here", timeout=RUN_LIMIT)


@pytest.mark.parametrize("code", ["[0] * 10**20", "np.zeros(10**20)"])
def test_a_size_too_large_for_a_list_or_array_is_said_in_plain_words(page, site, code):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, code)
    expect(output(page)).to_contain_text(
        "The number is too large to be the size of a list or an array: a size here must be "
        "less than 2,147,483,648, and memory holds far fewer numbers than that.",
        timeout=RUN_LIMIT,
    )


@pytest.mark.parametrize("served", ["site", "plain_site"])
def test_a_sleep_longer_than_the_time_limit_is_refused_at_once_and_says_why(page, request, served):
    site = request.getfixturevalue(served)
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "import time\ntime.sleep(100)")
    expect(output(page)).to_contain_text(
        "TimeoutError: time.sleep(100) would wait 100 s, but a run may take at most 5 s: "
        "sleep less, or not at all (nothing here needs a pause)",
        timeout=RUN_LIMIT,
    )
    expect(status(page)).not_to_contain_text("loop")


def test_sleeping_past_the_time_limit_is_blamed_on_sleeping_not_on_a_loop(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "print('warm')")
    expect(output(page)).to_have_text("warm", timeout=RUN_LIMIT)
    type_and_run(page, "import time\nfor step in range(10): time.sleep(1)")
    expect(status(page)).to_have_text(
        re.compile(
            r"^Stopped: the code ran longer than 5 s and was sleeping \(time\.sleep\) when "
            r"it was stopped\. Sleep less, or not at all: nothing here needs a pause\."
        ),
        timeout=RUN_LIMIT,
    )


def test_open_in_scratchpad_reproduces_the_rope_labs_score_exactly(page, site):
    open_live_lab(page, site)
    rope_lab = page.locator('[data-lab="rope"]')
    rope_lab.get_by_label("q position").fill("7")
    rope_lab.get_by_label("θ (radians per position)").fill("0.37")
    settings = {"q_pos": 7, "theta": 0.37}
    expect(score(page)).to_have_text(
        lab("rope").view(lab("rope").compute(**settings))["text"]["score"]
    )
    rope_lab.get_by_role("button", name="Open in scratchpad").click()
    expect(editor(page)).to_contain_text("theta = 0.37")
    expect(score(page)).to_be_in_viewport()  # the lab stays in sight beside the docked panel
    expect(status(page)).to_contain_text("RoPE lab")
    panel(page).get_by_role("button", name="Run").click()
    expect(output(page)).to_have_text(re.compile(r"^-?\d+\.\d+$"), timeout=RUN_LIMIT)
    value = float(output(page).inner_text())
    assert value == lab("rope").compute(**settings)["score"]  # the very float the lab shows
    assert fmt_number(value) == score(page).inner_text()


def test_the_text_is_kept_per_page_across_instant_navigation_and_a_reload(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_code(page, "kept_here = 1")
    page.get_by_role("link", name=re.compile("Worked examples")).first.click()
    page.wait_for_url(re.compile(OTHER))
    expect(panel(page)).to_be_visible()  # still open after the instant navigation
    expect(editor(page)).to_have_text("")
    type_code(page, "other_page = 2")
    page.go_back()
    page.wait_for_url(re.compile(LESSON))
    expect(editor(page)).to_have_text("kept_here = 1")
    page.reload()
    open_scratchpad(page)
    expect(editor(page)).to_have_text("kept_here = 1")


def test_a_second_tab_on_the_same_page_sees_the_other_tabs_text(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_code(page, "from_a = 1")
    second = page.context.new_page()
    try:
        second.goto(site.url(LESSON))
        open_scratchpad(second)
        expect(editor(second)).to_have_text("from_a = 1")
        type_code(second, "from_b = 2")
        expect(editor(page)).to_have_text("from_b = 2")  # the first tab had no edits of its own
        type_code(page, "from_a_again = 3")
        expect(editor(second)).to_have_text("from_a_again = 3")
    finally:
        second.close()


def test_a_run_left_running_by_a_page_change_reports_to_its_own_page(page, site):
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    type_and_run(page, "1")
    expect(output(page)).to_have_text("1", timeout=RUN_LIMIT)  # Python is warm
    type_code(
        page,
        "import time\nt = time.time()\nwhile time.time() - t < 3: pass\nprint('from the lesson')",
    )
    run_with_keys(page)
    page.get_by_role("link", name=re.compile("Worked examples")).first.click()
    page.wait_for_url(re.compile(OTHER))
    expect(status(page)).to_contain_text("ran on another page is still running")
    expect(status(page)).to_contain_text("has finished", timeout=RUN_LIMIT)
    expect(panel(page)).not_to_contain_text("from the lesson")
    page.go_back()
    page.wait_for_url(re.compile(LESSON))
    expect(output(page)).to_have_text("from the lesson")
    expect(status(page)).to_have_text("Done.")


@pytest.mark.parametrize(
    "size", [112_000]
)  # the reviewer's first paste (1.16 MB types too slowly here)
def test_a_pasted_text_over_the_limit_says_what_a_reload_keeps_and_loses_nothing_now(
    page, site, size
):
    line = "value = 12345  # a line of the pasted program\n"
    pasted = line * (size // len(line)) + "last_line = 'end'"
    key = f"livelab-scratchpad:{urlparse(site.url()).path}"
    page.goto(site.url(LESSON))
    open_scratchpad(page)
    page.keyboard.insert_text(pasted)
    expect(status(page)).to_have_text(
        re.compile(r"only the first 100,000 are kept when you reload the page"), timeout=RUN_LIMIT
    )
    stored = page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).pages", key)[LESSON]
    assert stored == pasted[:100_000]
    # The open editor still has all of it, here and after an instant navigation and back.
    page.get_by_role("link", name=re.compile("Worked examples")).first.click()
    page.wait_for_url(re.compile(OTHER))
    page.go_back()
    page.wait_for_url(re.compile(LESSON))
    editor(page).click()
    page.keyboard.press("Control+End")
    expect(editor(page)).to_contain_text("last_line = 'end'")


@pytest.mark.parametrize("saved", [json.dumps({"version": 1, "pages": {LESSON: 42}}), "{not json"])
def test_odd_saved_text_leaves_an_empty_scratchpad_and_a_working_page(page, site, saved):
    key = f"livelab-scratchpad:{urlparse(site.url()).path}"
    page.goto(site.url(LESSON))
    page.evaluate("([key, saved]) => localStorage.setItem(key, saved)", [key, saved])
    page.reload()
    open_scratchpad(page)
    expect(editor(page)).to_have_text("")
    type_and_run(page, "1 + 1")
    expect(output(page)).to_have_text("2", timeout=RUN_LIMIT)
    assert page.evaluate("(key) => JSON.parse(localStorage.getItem(key)).pages", key) == {
        LESSON: "1 + 1"
    }


def test_a_name_defined_in_the_scratchpad_is_unknown_to_the_next_check(page, site):
    q1 = open_question(page, site, "c1")
    open_scratchpad(page)
    type_and_run(page, "scratch_secret = 3\nscratch_secret")
    expect(output(page)).to_have_text("3", timeout=RUN_LIMIT)
    page.get_by_role("button", name="Close the scratchpad").click()
    submit_code(page, "c1", f"({q1.reference_blank}) * scratch_secret")
    expect(verdict(page, "c1")).to_contain_text("NameError", timeout=RUN_LIMIT)
    open_scratchpad(page)
    type_and_run(page, "scratch_secret * 2")
    expect(output(page)).to_have_text("6", timeout=RUN_LIMIT)  # still there for the scratchpad


@pytest.mark.parametrize("width", [360, 1200])
def test_a_full_screen_sheet_on_a_phone_and_a_docked_panel_on_a_wide_screen(browser, site, width):
    context = browser.new_context(viewport={"width": width, "height": 740})
    page = context.new_page()
    try:
        page.goto(site.url(LESSON))
        open_scratchpad(page)
        box = panel(page).bounding_box()
        assert box is not None
        modal = panel(page).get_attribute("aria-modal")
        page_inert = page.evaluate("document.querySelector('.md-container').inert")
        if width == 360:  # modal: the page behind the sheet is out of reach until it closes
            assert (box["x"], box["y"], box["width"], box["height"]) == (0, 0, 360, 740)
            assert (modal, page_inert) == ("true", True)
        else:  # at the right, below the header; the lesson's text stays beside it, uncovered
            assert box["x"] + box["width"] == 1200 and box["x"] >= 600 and box["y"] > 0
            text = page.locator(".md-content").bounding_box()
            assert text is not None and text["x"] + text["width"] <= box["x"]
            assert (modal, page_inert) == ("false", False)
        controls = [*panel(page).get_by_role("button").all(), editor(page)]
        for control in controls:
            size = control.bounding_box()
            assert size is not None and min(size["width"], size["height"]) >= 24, control
        panel(page).get_by_role("button", name="Close the scratchpad").click()
        expect(page.get_by_role("button", name="Python scratchpad")).to_be_focused()
        assert page.evaluate("document.querySelector('.md-container').inert") is False
    finally:
        context.close()


@pytest.mark.parametrize("palette", PALETTES)
def test_axe_finds_nothing_in_the_open_scratchpad_in_either_palette(browser, site, palette):
    context = browser.new_context(color_scheme=palette)
    page = context.new_page()
    allowed = {rule: selector for rule, (selector, _) in OUTSIDE_OUR_MARKUP.items()}
    try:
        page.goto(site.url(LESSON))
        page.wait_for_function(READY, timeout=60_000)
        page.add_script_tag(content=tools.axe_source())
        closed = page.evaluate(RUN_AXE, allowed)
        open_scratchpad(page)
        type_and_run(page, "print('checked')\n1 / 0")
        expect(output(page)).to_contain_text("ZeroDivisionError", timeout=RUN_LIMIT)
        # Open, the panel alone: the page beside it is narrower, which is the labs' business.
        assert closed + page.evaluate(RUN_AXE.replace("axe.run(document", ON_PANEL), allowed) == []
    finally:
        context.close()

"""Questions answered as a student would: type or pick, Check, read the verdict; reload; storage."""

import json
import re

import pytest
from playwright.sync_api import expect

from livelab import grading
from livelab.builder.answers import NumericSpec
from livelab.questions import load_blanks
from tests.answer_vectors import close_readings, expand, load
from tests.browser.conftest import forget_the_student

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

STORAGE_KEY = "livelab-progress:/"
CLIENT = "assets/livelab/runtime/page/client.js"
NUMERIC_GRADER = "assets/livelab/grading/numeric.js"
WASM = "**/pyodide.asm.wasm"


def question(page, qid):
    return page.locator(f'[data-question="{qid}"]')


def verdict(page, qid):
    return question(page, qid).get_by_role("status")


def open_question(page, site, qid):
    url, q = site.question(qid)
    page.goto(site.url(url))
    return q


def answer_numeric(page, qid, text):
    box = question(page, qid)
    box.get_by_label("Your answer").fill(text)
    box.get_by_role("button", name="Check").click()


NEXT_HINT = re.compile(r"^Hint \d+ of \d+$")


def shown_hints(box):
    return box.locator("[data-hints]").get_by_role("listitem")


def hint_start(hint: str) -> str:
    """The first words of a hint's Markdown as the page shows them (before any math)."""
    return " ".join(hint.replace("`", "").replace("*", "").split("$")[0].split()[:6])


def press_every_hint(box, tap=False):
    """Ask for each hint in turn, as a student earns "Show answer"; returns how many there were."""
    hint = box.get_by_role("button", name=NEXT_HINT)
    done = box.get_by_role("button", name="No more hints")
    expect(hint.or_(done)).to_be_visible()
    pressed = 0
    while not done.is_visible():
        hint.tap() if tap else hint.click()
        pressed += 1
        expect(shown_hints(box)).to_have_count(pressed)
    return pressed


# ---- numeric ---------------------------------------------------------------------------


def test_numeric_right_answer_is_correct(page, site):
    q = open_question(page, site, "q7")
    answer_numeric(page, "q7", q.reveal)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))
    expect(question(page, "q7").get_by_text(f"Answer: {q.reveal}")).to_be_visible()


@pytest.mark.parametrize("text", [".84", "0,84", "sin(1)", "０．８４", "٠٫٨٤", "۰٫۸۴"])
def test_numeric_accepts_other_spellings(page, site, text):
    open_question(page, site, "q7")
    answer_numeric(page, "q7", text)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))


def test_numeric_listed_wrong_answer_gets_its_message(page, site):
    q = open_question(page, site, "q5")
    wrong_value, message = q.spec.wrong[0]
    answer_numeric(page, "q5", str(wrong_value))
    expect(verdict(page, "q5")).to_contain_text("Not yet")
    expect(verdict(page, "q5")).to_contain_text(message)
    expect(question(page, "q5").get_by_role("button", name=NEXT_HINT)).to_be_visible()
    expect(question(page, "q5").get_by_role("button", name="Show answer")).to_be_hidden()


@pytest.mark.parametrize("text", ["[0; 1,414]", "0 1,414", "［０，１．４１４］", "[٠؛ ١٫٤١٤]"])
def test_a_vector_with_decimal_commas_or_other_digits_is_read(page, site, text):
    open_question(page, site, "e2")
    answer_numeric(page, "e2", text)
    expect(verdict(page, "e2")).to_have_text(re.compile("^Correct"))


def test_a_decimal_comma_among_list_commas_says_how_to_write_it_and_is_not_counted(page, site):
    open_question(page, site, "e2")
    answer_numeric(page, "e2", "[0, 1,414]")
    expect(verdict(page, "e2")).to_contain_text(
        "commas separate the numbers here, so the comma in 1,414 is unclear; write 1.414 for "
        "a decimal, or put “;” between the numbers, as in 0,5; 1,41."
    )
    expect(question(page, "e2").get_by_role("button", name="Show answer")).to_be_hidden()


def test_numeric_unreadable_entry_is_explained_and_not_counted(page, site):
    open_question(page, site, "q5")
    answer_numeric(page, "q5", "one radian")
    expect(verdict(page, "q5")).to_contain_text("Could not read “one radian”")
    expect(question(page, "q5").get_by_role("button", name="Show answer")).to_be_hidden()


def test_enter_in_the_numeric_field_checks(page, site):
    q = open_question(page, site, "q5")
    field = question(page, "q5").get_by_label("Your answer")
    field.fill(q.reveal)
    field.press("Enter")
    expect(verdict(page, "q5")).to_have_text(re.compile("^Correct"))


def test_numeric_answer_and_verdict_survive_a_reload(page, site):
    q = open_question(page, site, "q7")
    answer_numeric(page, "q7", q.reveal)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))
    page.reload()
    expect(question(page, "q7").get_by_label("Your answer")).to_have_value(q.reveal)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))


def test_the_next_test_in_a_warm_profile_starts_with_no_answers(page, site):
    """What conftest.py does between two tests of a `warm` file: the answer is gone, the
    service worker that serves the page is not."""
    q = open_question(page, site, "q7")
    answer_numeric(page, "q7", q.reveal)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))
    k_position = page.get_by_label("k position")
    default = k_position.input_value()
    k_position.fill(str(int(default) + 1))  # a lab's setting is saved with the answers
    page.evaluate("navigator.serviceWorker.ready")  # registered once Python is live
    context = page.context
    forget_the_student(context)
    later = context.new_page()
    open_question(later, site, "q7")
    assert later.evaluate("navigator.serviceWorker.getRegistration().then((r) => !!r?.active)")
    expect(question(later, "q7").get_by_label("Your answer")).to_have_value("")
    expect(verdict(later, "q7")).to_have_text("")
    later_k = later.get_by_label("k position")
    expect(later_k).to_have_value(default)
    assert later.evaluate("(k) => localStorage.getItem(k)", STORAGE_KEY) is None


def python_state(page, site, settled=False):
    """The page's runtime state: "starting", "ready" or "failed"; with settled, once it has
    left "starting" (or after 30 s)."""
    return page.evaluate(
        """async ([client, settled]) => {
            const { runtime } = await import(client);
            const left = new Promise((resolve) => {
                const moved = () => runtime.state !== "starting" && resolve();
                runtime.addEventListener("status", moved);
                moved();
            });
            if (settled) await Promise.race([left, new Promise((r) => setTimeout(r, 30000))]);
            return runtime.state;
        }""",
        [site.url(CLIENT), settled],
    )


@pytest.mark.cold  # routes the wasm download
def test_numeric_questions_are_graded_when_python_cannot_start(page, site):
    page.context.route(WASM, lambda route: route.abort())
    q5 = open_question(page, site, "q5")
    assert site.question("q7")[0] == site.question("q5")[0]
    wrong_value, message = q5.spec.wrong[0]
    answer_numeric(page, "q5", str(wrong_value))
    expect(verdict(page, "q5")).to_have_text(f"Not yet. {message}")
    press_every_hint(question(page, "q5"))
    question(page, "q5").get_by_role("button", name="Show answer").click()
    expect(question(page, "q5").get_by_text(f"Answer: {q5.reveal}")).to_be_visible()
    _, q7 = site.question("q7")
    answer_numeric(page, "q7", q7.reveal)
    expect(verdict(page, "q7")).to_have_text("Correct.")
    expect(question(page, "q7").get_by_text(f"Answer: {q7.reveal}")).to_be_visible()
    assert python_state(page, site, settled=True) == "failed"
    expect(question(page, "q7").get_by_role("button", name="Retry")).to_have_count(0)


@pytest.mark.cold  # routes the wasm download
def test_a_numeric_question_is_graded_before_python_is_ready(page, site):
    held = []  # the wasm request, kept unanswered: Python stays "starting"
    page.context.route(WASM, lambda route: held.append(route))
    q = open_question(page, site, "q7")
    answer_numeric(page, "q7", "one radian")
    expect(verdict(page, "q7")).to_contain_text("Could not read “one radian” (character 1)")
    answer_numeric(page, "q7", q.reveal)
    expect(verdict(page, "q7")).to_have_text("Correct.")
    assert python_state(page, site) == "starting"
    for route in held:
        route.abort()


def test_the_page_grader_in_chromium_gives_every_answer_vector(page, site):
    page.goto(site.url(""))
    vectors = load()
    cases = vectors["cases"]
    typed = [[vectors["specs"][case["spec"]], expand(case["text"])] for case in cases]
    graded = page.evaluate(
        """async ([grader, typed]) => {
            const { gradeNumeric, readAnswer } = await import(grader);
            return typed.map(([spec, text]) => {
                const result = gradeNumeric(spec, text);
                return [result, result.verdict === "unreadable" ? null : readAnswer(spec, text)];
            });
        }""",
        [site.url(NUMERIC_GRADER), typed],
    )
    specs = {name: NumericSpec.from_json(spec) for name, spec in vectors["specs"].items()}

    def agrees(case, result, reading):
        tolerance = specs[case["spec"]].tolerance
        same_reading = "reading" not in case or close_readings(reading, case["reading"], tolerance)
        return result == case["result"] and same_reading

    assert len(graded) == len(cases)
    differ = [
        (case, got) for case, got in zip(cases, graded, strict=True) if not agrees(case, *got)
    ]
    assert differ == []


# ---- choice ----------------------------------------------------------------------------


def test_choice_right_option_is_correct_and_every_option_explains_itself(page, site):
    q = open_question(page, site, "q6")
    box = question(page, "q6")
    box.get_by_role("radio", name=q.options[q.correct_index].text).check()
    box.get_by_role("button", name="Check").click()
    expect(verdict(page, "q6")).to_have_text(re.compile("^Correct"))
    for option in q.options:
        expect(box.get_by_role("radiogroup").get_by_text(option.why)).to_be_visible()


def test_choice_wrong_option_says_why(page, site):
    q = open_question(page, site, "q6")
    wrong = next(o for o in q.options if not o.correct)
    box = question(page, "q6")
    box.get_by_role("radio", name=wrong.text).check()
    box.get_by_role("button", name="Check").click()
    expect(verdict(page, "q6")).to_contain_text("Not yet")
    expect(verdict(page, "q6")).to_contain_text(wrong.why)


def test_choice_selection_survives_a_reload(page, site):
    q = open_question(page, site, "q6")
    right = q.options[q.correct_index].text
    question(page, "q6").get_by_role("radio", name=right).check()
    question(page, "q6").get_by_role("button", name="Check").click()
    page.reload()
    expect(question(page, "q6").get_by_role("radio", name=right)).to_be_checked()
    expect(verdict(page, "q6")).to_have_text(re.compile("^Correct"))


def option_order(page, qid):
    """The author's indices of a choice question's options, in the order the page shows them."""
    radios = question(page, qid).get_by_role("radio")
    expect(radios.first).to_be_enabled()
    return [int(radios.nth(i).get_attribute("value")) for i in range(radios.count())]


def choice_orders(page, site, seed):
    """The order each choice question of the course shows a student whose seed is `seed`."""
    orders = {}
    for url, qs in site.questions.items():
        ids = [q.id for q in qs if q.kind == "choice"]
        if not ids:
            continue
        page.goto(site.url(url))
        page.evaluate(f"localStorage.setItem('livelab-order:/', '{seed}')")
        page.reload()
        orders.update({qid: option_order(page, qid) for qid in ids})
    return orders


def test_choice_options_keep_one_order_per_student_and_differ_between_students(page, site):
    first = choice_orders(page, site, 11)
    # The same student on a later visit: the same order everywhere.
    assert choice_orders(page, site, 11) == first
    # Another student: the same options, and across the course some question in another order.
    second = choice_orders(page, site, 29)
    assert {qid: sorted(order) for qid, order in second.items()} == {
        qid: sorted(order) for qid, order in first.items()
    }
    assert any(first[qid] != second[qid] for qid in first)
    # Neither student sees every question in the author's order.
    for orders in (first, second):
        assert any(order != sorted(order) for order in orders.values())


def test_a_saved_choice_marks_its_option_in_the_students_order(page, site):
    q = open_question(page, site, "q6")
    page.evaluate("localStorage.setItem('livelab-order:/', '5')")
    page.reload()
    right = q.options[q.correct_index].text
    question(page, "q6").get_by_role("radio", name=right).check()
    question(page, "q6").get_by_role("button", name="Check").click()
    expect(verdict(page, "q6")).to_have_text(re.compile("^Correct"))
    before = option_order(page, "q6")
    page.reload()
    expect(question(page, "q6").get_by_role("radio", name=right)).to_be_checked()
    assert option_order(page, "q6") == before
    expect(verdict(page, "q6")).to_have_text(re.compile("^Correct"))


# ---- code ------------------------------------------------------------------------------


def blank(page, qid):
    return question(page, qid).get_by_role("textbox", name=re.compile("blank"))


def submit_code(page, qid, text, button="Check"):
    blank(page, qid).fill(text)
    question(page, qid).get_by_role("button", name=button).click()


def test_code_reference_blank_is_correct(page, site):
    q = open_question(page, site, "c2")
    submit_code(page, "c2", q.reference_blank)
    expect(verdict(page, "c2")).to_have_text(re.compile("^Correct"), timeout=15_000)


def test_code_run_shows_what_the_example_prints(page, site):
    q = open_question(page, site, "c2")
    submit_code(page, "c2", q.reference_blank, button="Run")
    output = question(page, "c2").locator("[data-output]")
    expect(output).to_have_text(grading.example_output(q.question).rstrip("\n"), timeout=15_000)


def test_code_wrong_blanks_get_their_messages(page, site):
    q = open_question(page, site, "c2")
    for wrong in load_blanks(q.question)["wrong"][:3]:
        submit_code(page, "c2", wrong["blank"])
        expect(verdict(page, "c2")).to_contain_text("Not yet", timeout=15_000)
        expect(verdict(page, "c2")).to_contain_text(wrong["message"])


def test_enter_in_the_blank_checks_and_the_text_stays(page, site):
    q = open_question(page, site, "c2")
    blank(page, "c2").fill(q.reference_blank)
    blank(page, "c2").press("Enter")
    expect(verdict(page, "c2")).to_have_text(re.compile("^Correct"), timeout=15_000)
    expect(blank(page, "c2")).to_have_value(q.reference_blank)


def test_a_blank_of_several_lines_is_typed_with_indents_and_graded(page, site):
    """The capstone's blank is the body of a function: a text area that keeps the indent on
    Enter, indents on Tab, lets the keyboard leave after Escape, and is graded whole."""
    open_question(page, site, "capstone-block")
    area = blank(page, "capstone-block")
    expect(area).to_be_enabled(timeout=30_000)
    assert area.evaluate("el => el.tagName") == "TEXTAREA"
    area.click()
    page.keyboard.press("Tab")
    page.keyboard.type("if True:")
    page.keyboard.press("Enter")
    page.keyboard.type("pass")
    expect(area).to_have_value("    if True:\n    pass")
    page.keyboard.press("Escape")
    page.keyboard.press("Tab")
    expect(area).not_to_be_focused()
    # Enter in the text area is a new line, not a check: nothing was graded yet.
    expect(verdict(page, "capstone-block")).to_have_text("")
    area.fill(load_blanks("capstone_block")["correct"][0])
    question(page, "capstone-block").get_by_role("button", name="Check").click()
    expect(verdict(page, "capstone-block")).to_have_text(re.compile("^Correct"), timeout=30_000)


def test_a_post_norm_capstone_block_is_named_as_such(page, site):
    open_question(page, site, "capstone-block")
    [post_norm] = [w for w in load_blanks("capstone_block")["wrong"] if "post-norm" in w["message"]]
    blank(page, "capstone-block").fill(post_norm["blank"])
    area = blank(page, "capstone-block")
    area.press("Control+Enter")
    expect(verdict(page, "capstone-block")).to_contain_text(post_norm["message"], timeout=30_000)
    expect(area).to_have_value(post_norm["blank"])


def test_code_syntax_error_names_the_column(page, site):
    open_question(page, site, "c2")
    submit_code(page, "c2", "np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]]")
    expect(verdict(page, "c2")).to_contain_text("Not yet", timeout=15_000)
    expect(verdict(page, "c2")).to_contain_text("column 9")


def test_student_output_is_shown_as_text(page, site):
    q = open_question(page, site, "c2")
    tag = "<img src=x onerror=alert(1)>"
    dialogs = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    submit_code(
        page, "c2", f"print({tag!r}) or print(np.array([[1, 2]])) or {q.reference_blank}", "Run"
    )
    output = question(page, "c2").locator("[data-output]")
    expect(output).to_contain_text(tag, timeout=15_000)
    expect(output).to_contain_text("[[1 2]]")
    assert output.locator("img").count() == 0
    assert dialogs == []


def test_an_endless_blank_is_stopped_and_the_next_check_works(page, site):
    q = open_question(page, site, "c2")
    submit_code(page, "c2", "next(n for n in iter(int, 1) if n)")  # endless, and no memory
    # The first check also waits for its runner to boot; the next for a fresh one.
    expect(verdict(page, "c2")).to_contain_text("Stopped", timeout=60_000)
    submit_code(page, "c2", q.reference_blank)
    expect(verdict(page, "c2")).to_have_text(re.compile("^Correct"), timeout=60_000)


def test_while_true_in_a_line_blank_is_stopped_and_the_next_check_works(page, site):
    q = open_question(page, site, "c3")
    submit_code(page, "c3", "while True: pass")
    expect(verdict(page, "c3")).to_contain_text("Not yet", timeout=60_000)
    expect(verdict(page, "c3")).to_contain_text("ran longer than")
    submit_code(page, "c3", q.reference_blank)
    expect(verdict(page, "c3")).to_have_text(re.compile("^Correct"), timeout=60_000)


def test_stop_button_ends_a_running_check(page, site):
    q = open_question(page, site, "c2")
    submit_code(page, "c2", "next(n for n in iter(int, 1) if n)")
    question(page, "c2").get_by_role("button", name="Stop").click()
    expect(verdict(page, "c2")).to_contain_text("you stopped the run")
    submit_code(page, "c2", q.reference_blank)
    expect(verdict(page, "c2")).to_have_text(re.compile("^Correct"), timeout=15_000)


def test_a_hint_after_one_failed_check_and_the_answer_after_three_with_confirmation(page, site):
    q = open_question(page, site, "c2")
    box = question(page, "c2")
    expect(box.get_by_role("button", name="Run")).to_be_enabled()
    expect(box.get_by_role("button", name=NEXT_HINT)).to_be_hidden()
    # Three different wrong answers: the same one checked again is not another attempt.
    wrongs = [case["blank"] for case in load_blanks(q.question)["wrong"][:3]]
    for wrong in wrongs:
        expect(box.get_by_role("button", name="Show answer")).to_be_hidden()
        submit_code(page, "c2", wrong)
        expect(verdict(page, "c2")).to_contain_text("Not yet", timeout=15_000)
        expect(box.get_by_role("button", name="Check")).to_be_enabled()
        expect(box.get_by_role("button", name=f"Hint 1 of {len(q.hints)}")).to_be_visible()
    # Three honest tries earn the answer with hints still unread.
    box.get_by_role("button", name="Show answer").click()
    box.get_by_role("button", name="Yes, show it").click()
    expect(box.get_by_text(q.reference_blank, exact=True)).to_be_visible()
    expect(blank(page, "c2")).to_have_value(wrong)
    expect(verdict(page, "c2")).to_have_text("The answer is shown.")


def test_code_blank_survives_a_reload(page, site):
    open_question(page, site, "c2")
    blank(page, "c2").fill("np.array([1.0, 2.0])")
    page.reload()
    expect(blank(page, "c2")).to_have_value("np.array([1.0, 2.0])")


# ---- storage ---------------------------------------------------------------------------


@pytest.mark.parametrize("planted", ["{not json", json.dumps({"version": 0, "pages": []}), "[]"])
def test_corrupt_saved_progress_never_breaks_the_page(page, site, planted):
    url, q = site.question("q7")
    page.goto(site.url(url))
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [STORAGE_KEY, planted])
    page.reload()
    answer_numeric(page, "q7", q.reveal)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))
    expect(page.get_by_role("note")).to_contain_text("set aside")
    assert page.evaluate("(k) => localStorage.getItem(k + ':set-aside')", STORAGE_KEY) == planted
    assert page.log.errors == []


def test_without_storage_the_page_works_and_says_progress_is_not_saved(browser, site):
    context = browser.new_context()
    context.add_init_script(
        "for (const name of ['getItem', 'setItem', 'removeItem']) {"
        "  Storage.prototype[name] = () => { throw new DOMException('denied', 'SecurityError'); };"
        "}"
    )
    page = context.new_page()
    url, q = site.question("q7")
    page.goto(site.url(url))
    expect(page.get_by_role("note")).to_contain_text("not being saved")
    answer_numeric(page, "q7", q.reveal)
    expect(verdict(page, "q7")).to_have_text(re.compile("^Correct"))
    context.close()


def test_home_page_counts_answered_questions_and_resets(page, site):
    url, q = site.question("q5")
    page.goto(site.url(url))
    answer_numeric(page, "q5", q.reveal)
    expect(verdict(page, "q5")).to_have_text(re.compile("^Correct"))
    total = len(site.questions[url])
    page.goto(site.url(""))
    row = page.locator(f'tr[data-page="{url}"]')
    expect(row).to_contain_text(f"1 of {total}")
    expect(row).to_contain_text("in progress")
    page.get_by_role("button", name="Reset progress").click()
    page.get_by_role("button", name="Erase my progress").click()
    expect(row).to_contain_text(f"0 of {total}")

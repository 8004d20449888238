"""Nothing is given away: hidden texts stay out of search and page text; shown is not solved."""

import json
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest
from playwright.sync_api import expect

from livelab.builder.kinds.choice import ChoiceQuestion
from livelab.builder.kinds.code import CodeQuestionRef
from livelab.builder.kinds.numeric import NumericQuestion
from livelab.questions import PRELUDE, load_blanks
from tests.browser.test_questions import (
    answer_numeric,
    hint_start,
    open_question,
    press_every_hint,
    question,
    shown_hints,
    verdict,
)

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

WINDOW = 8  # words: a run this long from a hidden text must not stand anywhere unhidden
SHORTEST = 6  # words: a shorter hidden text ("Take the square root.", "12") is common prose
MATH = re.compile(r"\$[^$]*\$")  # formulas are shared by prose and reasons; words are not
CHROME = (
    "Your answer",
    "Show answer",
    "Yes, show it",
    "Both +1",
    "Run the block",
    "Reset progress",
)


def words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9]+", text.lower())


def hidden_texts(q) -> list[tuple[str, bool]]:
    """What a question keeps back, each with whether it is code (matched whole)."""
    hints = [(hint, False) for hint in q.hints]
    if isinstance(q, NumericQuestion):
        wrong = [(m, False) for _, m in q.spec.wrong]
        return [(q.reveal, False), (q.explanation, False), *wrong, *hints]
    if isinstance(q, ChoiceQuestion):
        return [(option.why, False) for option in q.options] + hints
    assert isinstance(q, CodeQuestionRef)
    wrong = [(w["message"], False) for w in load_blanks(q.question)["wrong"]]
    return [(q.reference_blank, True), *wrong, *hints]


def leaks(q, text: str) -> list[str]:
    """Hidden texts of q that stand in text (as a run of WINDOW words, or whole for code)."""
    haystack = " " + " ".join(words(text)) + " "
    found = []
    for hidden, whole in hidden_texts(q):
        w = words(hidden if whole else MATH.sub(" ", hidden))
        if len(w) < SHORTEST:
            continue
        runs = [w] if whole or len(w) <= WINDOW else [w[i : i + WINDOW] for i in range(len(w))]
        if any(f" {' '.join(run)} " in haystack for run in runs if len(run) == min(WINDOW, len(w))):
            found.append(hidden[:60])
    return found


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


class PageText(HTMLParser):
    """The text a reader sees in a page's HTML without acting: every text node, no attribute.

    With prose_only, the parts marked data-search-exclude (the widgets) are left out too.
    """

    def __init__(self, prose_only: bool = False) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.prose_only = prose_only
        self.open: list[tuple[str, bool]] = []  # open tags, each with whether it hides its text

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        hides = tag in ("script", "style") or (
            self.prose_only and any(name == "data-search-exclude" for name, _ in attrs)
        )
        self.open.append((tag, hides))

    def handle_endtag(self, tag):
        while self.open and self.open.pop()[0] != tag:
            pass

    def handle_data(self, data):
        if not any(hides for _, hides in self.open):
            self.parts.append(data)


def prose(site) -> str:
    """Every page's text without its widgets: what the search index may rightly hold."""
    texts = []
    for page in site.site_dir.rglob("index.html"):
        parser = PageText(prose_only=True)
        parser.feed(page.read_text("utf-8"))
        texts.append(" ".join(parser.parts))
    return " ".join(texts)


def all_questions(site):
    return [q for qs in site.questions.values() for q in qs]


def test_the_search_index_holds_no_hidden_text_and_no_widget_chrome(site):
    index = json.loads((site.site_dir / "search" / "search_index.json").read_text("utf-8"))
    text = " ".join(doc["title"] + " " + doc["text"] for doc in index["docs"])
    assert all_questions(site)
    found = {q.id: leaks(q, text) for q in all_questions(site)}
    assert {qid: hits for qid, hits in found.items() if hits} == {}
    # Widget chrome is not indexed: a label is in the index only as often as prose uses it.
    outside_widgets = prose(site)
    for chrome in CHROME:
        assert text.count(chrome) <= outside_widgets.count(chrome), chrome
    # Prompts stay searchable.
    q = next(q for q in all_questions(site) if isinstance(q, NumericQuestion))
    assert " ".join(words(q.prompt)[:WINDOW]) in " ".join(words(text))


def test_no_page_shows_a_hidden_text_before_the_student_acts(site):
    for url, questions in site.questions.items():
        parser = PageText()
        parser.feed((site.site_dir / url / "index.html").read_text("utf-8"))
        text = " ".join(parser.parts)
        assert {q.id: leaks(q, text) for q in questions if leaks(q, text)} == {}, url


def test_nothing_hidden_is_in_the_page_text_after_the_widgets_mount(page, site):
    url, _ = site.question("q1")
    page.goto(site.url(url))
    expect(question(page, "q1").get_by_role("button", name="Check")).to_be_enabled()
    text = page.get_by_role("main").text_content()
    assert {q.id: leaks(q, text) for q in site.questions[url] if leaks(q, text)} == {}


# ---- choice: one reason for a wrong pick, every reason once after a right one -------------


def pick(page, qid, text):
    box = question(page, qid)
    box.get_by_role("radio", name=text).check()
    box.get_by_role("button", name="Check").click()


def test_a_wrong_pick_shows_the_reason_of_that_option_only(page, site):
    q = open_question(page, site, "q1")
    wrong = next(o for o in q.options if not o.correct)
    pick(page, "q1", wrong.text)
    expect(verdict(page, "q1")).to_contain_text("Not yet.")
    expect(verdict(page, "q1")).to_contain_text(wrong.why)
    text = question(page, "q1").text_content()
    for option in q.options:
        assert (option.why in text) == (option is wrong)
    assert text.count(wrong.why) == 1


def test_a_right_pick_shows_every_reason_once(page, site):
    q = open_question(page, site, "q1")
    pick(page, "q1", q.options[q.correct_index].text)
    expect(verdict(page, "q1")).to_have_text(re.compile(r"^Correct\. "))
    text = question(page, "q1").inner_text()
    for option in q.options:
        expect(question(page, "q1").get_by_text(option.why)).to_be_visible()
        assert text.count(option.why.split(".")[0]) == 1


def test_show_answer_on_a_choice_explains_all_and_does_not_count_as_solved(page, site):
    q = open_question(page, site, "q1")
    box = question(page, "q1")
    expect(box.get_by_role("button", name="Show answer")).to_be_hidden()
    pick(page, "q1", next(o for o in q.options if not o.correct).text)
    expect(box.get_by_role("button", name="Show answer")).to_be_hidden()  # hints come first
    press_every_hint(box)
    box.get_by_role("button", name="Show answer").click()
    expect(verdict(page, "q1")).to_have_text(re.compile(r"^The answer is shown\. "))
    for option in q.options:
        expect(box.get_by_text(option.why)).to_be_visible()
    pick(page, "q1", q.options[q.correct_index].text)
    expect(verdict(page, "q1")).to_contain_text("counts as shown, not solved")


# ---- progress that means what it says ----------------------------------------------------


def test_an_answer_shown_then_typed_in_is_not_solved_anywhere(page, site):
    url, q = site.question("q5")
    page.goto(site.url(url))
    total = len(site.questions[url])
    wrong_value, _ = q.spec.wrong[0]
    answer_numeric(page, "q5", str(wrong_value))
    expect(verdict(page, "q5")).to_contain_text("Not yet.")
    press_every_hint(question(page, "q5"))
    question(page, "q5").get_by_role("button", name="Show answer").click()
    expect(question(page, "q5").get_by_text(f"Answer: {q.reveal}")).to_be_visible()
    answer_numeric(page, "q5", q.reveal)
    expect(verdict(page, "q5")).to_contain_text("counts as shown, not solved")
    top = page.get_by_role("region", name="Your progress on this page")
    expect(top).to_contain_text(f"0 of {total} solved, 1 answer shown")
    summary = page.get_by_role("region", name="Before you move on")
    expect(summary.get_by_role("listitem").filter(has_text="answer shown")).to_have_count(1)
    page.reload()
    expect(verdict(page, "q5")).to_contain_text("counts as shown, not solved")
    page.goto(site.url(""))
    row = page.locator(f'tr[data-page="{url}"]')
    expect(row.get_by_role("cell").nth(1)).to_have_text(f"0 of {total}")
    expect(row.get_by_role("cell").nth(2)).to_have_text("1")


def test_the_page_says_how_much_is_solved_and_links_what_is_open(page, site):
    url, q = site.question("q3")
    page.goto(site.url(url))
    questions = site.questions[url]
    top = page.get_by_role("region", name="Your progress on this page")
    expect(top).to_contain_text(f"0 of {len(questions)} solved")
    answer_numeric(page, "q3", q.reveal)
    expect(verdict(page, "q3")).to_have_text(re.compile(r"^Correct\."))
    expect(top).to_contain_text(f"1 of {len(questions)} solved")
    top.locator("summary").click()
    links = top.get_by_role("link")
    expect(links).to_have_count(len(questions) - 1)
    hrefs = [links.nth(i).get_attribute("href") for i in range(links.count())]
    assert hrefs == [f"#{other.id}" for other in questions if other.id != "q3"]
    summary = page.get_by_role("region", name="Before you move on")
    helped = [other for other in questions if other.lab]
    assert helped, "at least one question names the lab that helps answer it"
    item = summary.get_by_role("listitem").filter(has=page.locator(f'a[href="#{helped[0].id}"]'))
    expect(item.get_by_role("link", name="the lab that helps")).to_have_attribute(
        "href", f"#{helped[0].lab}"
    )
    assert page.locator(f"#{helped[0].lab}[data-livelab=lab]").count() == 1


# ---- feedback that reads right -----------------------------------------------------------


def test_an_empty_or_unreadable_answer_reads_as_a_sentence(page, site):
    open_question(page, site, "q7")
    answer_numeric(page, "q7", "")
    expect(verdict(page, "q7")).to_have_text(re.compile(r"^[A-Z].*\.$"))
    expect(verdict(page, "q7")).not_to_contain_text("I the")
    answer_numeric(page, "q7", "0.8x4")
    field = question(page, "q7").get_by_label("Your answer")
    expect(verdict(page, "q7")).to_contain_text("character 4")
    assert field.evaluate("f => [f.selectionStart, f.selectionEnd]") == [3, 4]


@pytest.mark.parametrize("text", ["8.4e-1", "8.415E-1"])
def test_numeric_answers_accept_scientific_notation(page, site, text):
    open_question(page, site, "q7")
    answer_numeric(page, "q7", text)
    expect(verdict(page, "q7")).to_have_text(re.compile(r"^Correct\."))


def test_run_after_a_correct_check_keeps_the_verdict_and_an_edit_marks_it_old(page, site):
    q = open_question(page, site, "c2")
    box = question(page, "c2")
    field = box.get_by_role("textbox", name=re.compile("blank"))
    field.fill(q.reference_blank)
    box.get_by_role("button", name="Check").click()
    expect(verdict(page, "c2")).to_have_text(re.compile(r"^Correct\. [A-Z]"), timeout=15_000)
    box.get_by_role("button", name="Run").click()
    expect(box.locator("[data-output]")).to_contain_text("-6.9117277")
    expect(verdict(page, "c2")).to_have_text(re.compile(r"^Correct\. "))
    field.press("End")
    field.type(" ")
    expect(verdict(page, "c2")).to_have_text(re.compile(r"^About your previous answer: Correct\."))


def test_the_hints_are_labelled_and_a_syntax_error_is_marked_in_the_blank(page, site):
    q = open_question(page, site, "c2")
    box = question(page, "c2")
    # Three different answers, each with its bracket left open: the same answer checked
    # again is not a new attempt, and each failed one is an honest try.
    for sign in "-+*":
        broken = f"np.array([c * v[0] {sign} s * v[1], s * v[0] + c * v[1]]"
        box.get_by_role("textbox", name=re.compile("blank")).fill(broken)
        box.get_by_role("button", name="Check").click()
        own = re.compile("^Not yet.*column 9")  # not the old verdict, now "About your previous"
        expect(verdict(page, "c2")).to_have_text(own, timeout=30_000)
    field = box.get_by_role("textbox", name=re.compile("blank"))
    assert field.evaluate("f => [f.selectionStart, f.selectionEnd]") == [8, 9]
    assert press_every_hint(box) == len(q.hints)
    for number, hint in enumerate(q.hints, start=1):
        item = shown_hints(box).nth(number - 1)
        expect(item).to_contain_text(f"Hint {number} of {len(q.hints)}.")
        expect(item).to_contain_text(hint_start(hint))


@pytest.mark.parametrize("show_answer", [False, True])
def test_the_copy_button_copies_a_program_that_runs(browser, site, show_answer):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    q = open_question(page, site, "c1")
    box = question(page, "c1")
    if show_answer:  # earned by a wrong check and the hints
        box.get_by_role("textbox", name=re.compile("blank")).fill(
            load_blanks(q.question)["wrong"][0]["blank"]
        )
        box.get_by_role("button", name="Check").click()
        expect(verdict(page, "c1")).to_contain_text("Not yet", timeout=60_000)
        press_every_hint(box)
        box.get_by_role("button", name="Show answer").click()
        box.get_by_role("button", name="Yes, show it").click()
    else:
        box.get_by_role("textbox", name=re.compile("blank")).fill(q.reference_blank)
    box.get_by_role("button", name="Copy to clipboard").click()
    program = page.evaluate("navigator.clipboard.readText()")
    context.close()
    assert program.startswith(PRELUDE)
    ran = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    from livelab import grading

    assert ran.stdout == grading.example_output(q.question)

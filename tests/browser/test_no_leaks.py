"""Nothing is answered before it is asked: no number a student reads above a question is its answer.

For every numeric question of the built course, the page is loaded, its labs are left to go
live, and all text from the top of the article to the end of the question's prompt (prose,
tables, "Try it" boxes, earlier questions, anything in the page text that CSS hides, and every
number the labs print) is searched for the answer printed at the precision asked or finer.
Small whole numbers are left out: a count such as 12 or 3 turns up in prose for other reasons
and gives nothing away; larger whole numbers are looked for in the question's own section.
"""

from __future__ import annotations

import math
import re

from playwright.sync_api import Page, expect

from labs import modern_block
from livelab.builder.kinds.numeric import NumericQuestion
from tests.browser.reading import UNTYPESET_SHOWN, read_through

LIVE = re.compile("^Live:")
SMALL_WHOLE = 20  # |answer| up to this, if whole, is not checked
FINEST = 6  # exact answers are looked for with at most this many decimals

# Questions whose answer is on the page above them by design, with the reason. Each entry must
# still be needed: the test fails when such a question no longer shows its answer above it.
# (E4 used to be one; the worked page now asks E4 before its gated-FFN example prints the
# hidden row that E4's output equals.)
SHOWN_ON_PURPOSE: dict[str, str] = {
    "config-mistral-ffn": "3.5 is also the mean of the RMS lab's default row [3, 4] (section C), "
    "which LayerNorm's column prints; Mistral's ratio 14336 / 4096 is given nowhere above it",
}

# One number as printed: an optional sign ('-' or the typographic '−'), thousands commas, a
# decimal part. The sign is a sign only where no word or bracket stands before it ("m − 2").
NUMBER = re.compile(r"(?<![\d.])(?P<sign>[-−]?)(?P<digits>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?")

# The text nodes from the top of the article to the end of the question's prompt, in order.
TEXT_BEFORE = """([qid, sectionOnly]) => {
  const box = document.querySelector(`[data-question="${qid}"]`);
  const prompt = document.getElementById(box.getAttribute("aria-labelledby"));
  const article = box.closest("article");
  const range = document.createRange();
  const headings = [...article.querySelectorAll("h2")].filter(
    (h) => h.compareDocumentPosition(box) & Node.DOCUMENT_POSITION_FOLLOWING,
  );
  if (sectionOnly && headings.length) range.setStartBefore(headings.at(-1));
  else range.setStart(article, 0);
  range.setEndAfter(prompt);
  const parts = [];
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // A question's title ("Question 24") numbers it by its place: it is no answer.
    if (node.parentElement.closest(".livelab-question__title")) continue;
    if (range.intersectsNode(node)) parts.push(node.data);
  }
  return parts;
}"""


def checked_values(question: NumericQuestion) -> list[float]:
    """The answer's entries that would give something away if printed above the question."""
    answer = question.spec.answer
    entries = answer if isinstance(answer, tuple) else (answer,)
    return [v for v in entries if not (float(v).is_integer() and abs(v) <= SMALL_WHOLE)]


def coarsest_decimals(value: float, decimals: int | None) -> int:
    """Decimals asked for, or for an exact answer the fewest that print it exactly."""
    if decimals is not None:
        return decimals
    return next((n for n in range(FINEST) if math.isclose(round(value, n), value)), FINEST)


def printed_answers(text: str, value: float, decimals: int) -> list[str]:
    """The numbers in text that print value rounded to their own count of decimals (>= decimals)."""
    found = []
    for match in NUMBER.finditer(text):
        before = text[match.start() - 1 : match.start()]
        negative = bool(match["sign"]) and not re.match(r"[\w)\]}]", before)
        places = len(match["frac"] or ".") - 1
        if places < decimals or negative != (value < 0):
            continue
        shown = match["digits"].replace(",", "") + (match["frac"] or "")
        if shown == f"{abs(value):.{places}f}":
            start = max(0, match.start() - 50)
            found.append(repr(text[start : match.end() + 20]))
    return found


def wait_until_live(page: Page) -> None:
    """Every lab on the page shows Python's numbers and every shown formula is typeset (the
    page read to its end: formulas are typeset as the reader nears them)."""
    read_through(page)
    labs = page.locator("[data-lab]")
    for i in range(labs.count()):
        expect(labs.nth(i).get_by_text(LIVE)).to_be_attached(timeout=30_000)
    expect(page.locator(UNTYPESET_SHOWN)).to_have_count(0)


def leaks_on(page: Page, url: str, questions: list[NumericQuestion]) -> dict[str, list[str]]:
    """For each question, where the page prints an entry of its answer above it."""
    leaks: dict[str, list[str]] = {}
    for question in questions:
        # A whole number is looked for in the question's own section: elsewhere on a long
        # page the same integer turns up for other reasons (a depth of 24, 2048 slots).
        whole = all(float(v).is_integer() for v in checked_values(question))
        parts = page.evaluate(TEXT_BEFORE, [question.id, whole])
        # Joined as they stand (a sign in one node, its digits in the next) and with a space
        # between nodes (two table cells must not read as one number).
        texts = ("".join(parts), " ".join(parts))
        for value in checked_values(question):
            decimals = coarsest_decimals(value, question.spec.decimals)
            shown = sorted(
                {hit for text in texts for hit in printed_answers(text, value, decimals)}
            )
            if shown:
                where = f"{url} {question.id}: {value:g} is printed above it"
                leaks.setdefault(question.id, []).append(
                    f"{where} ({len(shown)}x), e.g. {shown[0]}"
                )
    return leaks


def test_no_page_prints_an_answer_before_its_question(page, site):
    leaks: dict[str, list[str]] = {}
    checked = []
    for url, questions in sorted(site.questions.items()):
        numeric = [q for q in questions if isinstance(q, NumericQuestion) and checked_values(q)]
        if not numeric:
            continue
        page.goto(site.url(url))
        wait_until_live(page)
        leaks |= leaks_on(page, url, numeric)
        checked += [q.id for q in numeric]
    assert len(checked) >= 5, f"too few answers were checked to trust the search: {checked}"
    stale = [qid for qid in SHOWN_ON_PURPOSE if qid in checked and qid not in leaks]
    assert stale == [], f"no longer shown above their question, drop them: {stale}"
    unexpected = [
        line for qid, lines in leaks.items() if qid not in SHOWN_ON_PURPOSE for line in lines
    ]
    assert unexpected == [], "\n".join(unexpected)


def test_the_block_labs_rope_row_shows_a_token_that_rope_turns(page, site):
    page.goto(site.url("level-19/modern-blocks/"))
    lab = page.locator('[data-lab="modern-block"]')
    expect(lab.get_by_text(LIVE)).to_be_visible(timeout=30_000)
    lab.get_by_role("button", name="Run the block", exact=True).click()
    expect(lab.get_by_role("status", name="Forward pass")).to_contain_text("Ran one block")
    q_row = lab.get_by_role("row", name=re.compile(r"^Q, K, V"))
    rope_row = lab.get_by_role("row", name=re.compile(r"^RoPE on Q and K"))
    q_numbers = q_row.get_by_role("cell").last.inner_text()
    rope_numbers = rope_row.get_by_role("cell").last.inner_text()
    assert q_numbers.startswith("[") and rope_numbers.startswith("[")
    assert rope_numbers != q_numbers
    # The lab says which token the numbers belong to: the last one, where RoPE has turned Q.
    last = modern_block.PARAMS["tokens"].default - 1
    assert last > 0
    expect(lab.get_by_text(f"first entries of token {last}, the last")).to_be_visible()

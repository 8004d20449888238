"""Ask before telling: no numeric answer stands above its question or right under it.

Read from the pages' Markdown in the order a student scrolls: the prose, tables, boxes, lab
captions and other questions' prompts of a question's section above it, and the block right
under it (the next paragraph or fence), must not print the answer at the precision asked.
Single-digit answers are left to a reader: the digit turns up in any vector.
"""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path

import pytest
import yaml

from livelab.builder.kinds.numeric import KIND as NUMERIC

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted((ROOT / "docs").rglob("*.md"))
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```[ \t]*$", re.S | re.M)
HEADING = re.compile(r"^#{1,2} ", re.M)


def blocks(text: str) -> list[tuple[str, str, dict | None]]:
    """(kind, text, fence data) of each paragraph and fence, in page order."""
    out, at = [], 0
    for fence in FENCE.finditer(text):
        out += [("prose", p, None) for p in re.split(r"\n\s*\n", text[at : fence.start()])]
        data = yaml.safe_load(fence[2]) if fence[1] in {"numeric", "choice", "code"} else None
        out.append((fence[1], fence[2], data))
        at = fence.end()
    out += [("prose", p, None) for p in re.split(r"\n\s*\n", text[at:])]
    return [b for b in out if b[1].strip()]


def shown(block: tuple[str, str, dict | None]) -> str:
    """What a student sees of a block before answering anything in it."""
    _kind, text, data = block
    if data is None:
        return text
    return " ".join([data.get("prompt", "")] + [o.get("text", "") for o in data.get("options", [])])


def answers(data: dict) -> list[str]:
    """The answer at the precision asked, each part of a vector apart; single digits left out."""
    text = NUMERIC.question(data).answer_text
    parts = [p.strip() for p in text.strip("[]").split(",")]
    return [p for p in parts if len(p.lstrip("-")) > 1 and float(p) != 0]


def printed(answer: str, text: str) -> bool:
    return re.search(rf"(?<![\d.]){re.escape(answer)}(?!\d)", text.replace(",", "")) is not None


BLOCKS = {page: blocks(page.read_text(encoding="utf-8")) for page in PAGES}
CASES = [
    (page, index)
    for page in PAGES
    for index, block in enumerate(BLOCKS[page])
    if block[0] == "numeric"
]


@pytest.mark.parametrize(("page", "index"), CASES, ids=[f"{p.stem}-{i}" for p, i in CASES])
def test_no_numeric_answer_above_its_question_or_right_under_it(page, index):
    all_blocks = BLOCKS[page]
    data = all_blocks[index][2]
    start = max((i for i in range(index) if HEADING.match(all_blocks[i][1].lstrip())), default=0)
    above = " ".join(shown(b) for b in all_blocks[start:index])
    under = shown(all_blocks[index + 1]) if index + 1 < len(all_blocks) else ""
    for answer in answers(data):
        assert not printed(answer, above), f"{data['id']}: {answer} is printed above it"
        assert not printed(answer, under), f"{data['id']}: {answer} is printed right under it"


def test_the_check_finds_an_answer_printed_above_its_question():
    page = (
        "## D\n\nThe score comes out at 0.84, as the lab shows.\n\n"
        "```numeric\nid: q7\nprompt: What is q·k?\nanswer: 0.8415\ndecimals: 2\n```\n"
    )
    all_blocks = blocks(page)
    [index] = [i for i, b in enumerate(all_blocks) if b[0] == "numeric"]
    [answer] = answers(all_blocks[index][2])
    assert printed(answer, " ".join(shown(b) for b in all_blocks[:index]))
    assert not printed(answer, "a score of 10.84 or 0.845")


def test_the_right_option_is_not_the_longest_by_habit():
    """Over the course, the right option is the longest in at most a third of the choice
    questions, and never by more than half again the length of the longest other option."""
    choices = [block[2] for page in PAGES for block in BLOCKS[page] if block[0] == "choice"]
    assert len(choices) >= 6
    longest = []
    for data in choices:
        right = next(len(o["text"]) for o in data["options"] if o.get("correct"))
        others = max(len(o["text"]) for o in data["options"] if not o.get("correct"))
        assert right <= 1.5 * others, f"{data['id']}: the right option is {right} characters"
        longest.append(right > others)
    assert sum(longest) <= len(choices) / 3, f"right option longest in {sum(longest)}"


def test_every_table_column_has_a_header():
    """An empty header cell names no column for a screen reader (axe: empty-table-header)."""
    for page in PAGES:
        lines = page.read_text(encoding="utf-8").splitlines()
        for number, (line, below) in enumerate(pairwise(lines), 1):
            if line.startswith("|") and re.match(r"^\|\s*:?-{3,}", below):
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                assert all(cells), f"{page.name}:{number}: a table header cell is empty"

"""Build-time HTML of progress: the home page's table and each lesson page's own progress.

A page with questions gets a compact progress line near its top and a summary at its end;
both list the questions (id, title, section, the lab that helps) and are filled in by
livelab/web/widgets/page-progress.js from saved progress (the home table by widgets/progress.js).
Without JavaScript they say what the page holds. None of it belongs in the search index.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from livelab import i18n
from livelab.builder.question_markup import EXCLUDE, button_html, confirm_html
from livelab.labs.markup import attr

if TYPE_CHECKING:
    from livelab.builder.course_pages import ProgressRow

_HEADING = re.compile(r"<h[23][^>]*>(.*?)</h[23]>", re.S)
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class PageQuestion:
    """A question as progress lists name it: id, title, section and the lab that helps."""

    id: str
    title: str
    lab: str = ""
    section: str = ""


def page_questions(page_html: str, questions: list[tuple[str, str, str]]) -> list[PageQuestion]:
    """Each (id, title, lab) of a page with the heading of the section it stands in.

    The title is the one the question shows (kinds.question_title); titles never quote a
    prompt: the list stands above every question, and one prompt may hold the answer to an
    earlier question.
    """
    headings = [
        (m.start(), " ".join(html.unescape(_TAGS.sub("", m.group(1))).replace("¶", "").split()))
        for m in _HEADING.finditer(page_html)
    ]
    found = []
    for qid, title, lab in questions:
        at = page_html.find(f'data-question="{attr(qid)}"')
        section = [text for start, text in headings if start < at]
        found.append(PageQuestion(qid, title, lab, section[-1] if section and at >= 0 else ""))
    return found


def _items(questions: list[PageQuestion]) -> str:
    data = [{"id": q.id, "title": q.title, "lab": q.lab, "section": q.section} for q in questions]
    return attr(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def page_progress_html(questions: list[PageQuestion]) -> str:
    """The line near the top of a lesson page: how many of its questions are solved."""
    name = attr(i18n.text("markup.page_progress_name"))
    count = html.escape(i18n.text("markup.page_question_count", count=len(questions)))
    return (
        f'<div class="livelab livelab-page-progress" data-livelab="page-progress" '
        f'data-items="{_items(questions)}" role="region" aria-label="{name}"'
        f"{EXCLUDE}>"
        f"<details><summary data-count>{count}</summary>"
        '<ul class="livelab-page-progress__open" data-open></ul></details></div>'
    )


def page_summary_html(questions: list[PageQuestion]) -> str:
    """The summary at the end of a lesson page: what is still open or was shown."""
    title = html.escape(i18n.text("markup.summary_title"))
    intro = html.escape(i18n.text("markup.summary_intro"))
    return (
        f'<div class="livelab livelab-page-summary" data-livelab="page-summary" '
        f'data-items="{_items(questions)}" role="region" aria-labelledby="livelab-summary-title"'
        f"{EXCLUDE}>"
        '<p class="livelab-page-summary__title" id="livelab-summary-title">'
        f"<strong>{title}</strong></p>"
        f"<p data-count>{intro}</p>"
        "<ul data-open hidden></ul></div>"
    )


def _titles(row: ProgressRow) -> str:
    data = {"questions": row.questions, "labs": row.labs}
    return attr(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def progress_placeholder() -> str:
    """Marks where the plugin puts the progress table of the whole site."""
    return '<div class="livelab livelab-progress" data-livelab="progress"></div>'


def progress_table(pages: list[ProgressRow]) -> str:
    """A row per page with questions: link, solved / total and answers shown, by the browser.

    Each row carries the titles of its questions and labs (data-titles), so the line above the
    table can name what the student last worked on: "Continue where you left off".
    """
    not_started = html.escape(i18n.text("home.not_started"))
    rows = "".join(
        f'<tr data-page="{attr(row.url)}" data-ids="{attr(" ".join(row.questions))}" '
        f'data-titles="{_titles(row)}">'
        f'<td><a href="{attr(row.href)}">{html.escape(row.title)}</a></td>'
        "<td data-count>"
        + html.escape(i18n.text("home.solved_count", solved=0, total=len(row.questions)))
        + f"</td><td data-shown>0</td><td data-state>{not_started}</td></tr>"
        for row in pages
    )
    heads = [
        i18n.text("home.col_page"),
        i18n.text("home.col_solved"),
        i18n.text("home.col_shown"),
        i18n.text("home.col_state"),
    ]
    return (
        # An <article> around divs: see markup.lab_html on Material's search exclusion.
        f'<article class="livelab livelab-progress" data-livelab="progress"{EXCLUDE}>'
        '<p class="livelab-continue" data-continue hidden></p>'
        "<table><thead><tr>"
        + "".join(f'<th scope="col">{html.escape(head)}</th>' for head in heads)
        + f"</tr></thead><tbody>{rows}</tbody></table>"
        '<p class="livelab-status" data-storage-note hidden></p>'
        '<div class="livelab-actions">'
        + button_html("reset", i18n.text("home.reset"))
        + "</div>"
        + confirm_html(
            i18n.text("home.reset_confirm"),
            ("confirm-reset", i18n.text("home.reset_yes")),
            ("cancel-reset", i18n.text("home.reset_no")),
        )
        + "</article>"
    )

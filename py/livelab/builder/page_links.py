"""Links within a page must land: every `#id` a page links to is an id on that page.

A "Try it" box links to the lab it uses, a question's explanation may link to a lab or a
section; a mistyped id would leave the student where they are, so it fails the build naming
the page and the line of the Markdown that holds the link. Links inside what a question keeps
back (data-sealed) are checked too, since the student follows them once they are shown.
Runs on the page's finished HTML, before the progress lists are added (their links are made
from the page's own questions).
"""

from __future__ import annotations

import html
import re

from livelab.builder.question_markup import unseal

_ID = re.compile(r'\bid="([^"]*)"')
_LINK = re.compile(r'\bhref="#([^"]+)"')
_SEALED = re.compile(r'\bdata-sealed="([^"]*)"')


def _strings(value: object) -> list[str]:
    """Every string inside sealed data (its HTML: reasons, explanations, reveals)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def _links(page_html: str) -> list[str]:
    found = _LINK.findall(page_html)
    for value in _SEALED.findall(page_html):
        for text in _strings(unseal(value)):
            found += _LINK.findall(text)
    return [html.unescape(target) for target in found]


def missing_targets(page_html: str) -> list[str]:
    """The link targets of the page that no element's id names, in page order, once each."""
    ids = {html.unescape(value) for value in _ID.findall(page_html)}
    missing: list[str] = []
    for target in _links(page_html):
        if target not in ids and target not in missing:
            missing.append(target)
    return missing


def source_line(lines: list[str], target: str) -> int:
    """1-based line of the Markdown that links to #target, or 0 if none says it plainly."""
    for number, line in enumerate(lines, start=1):
        if f"#{target})" in line or f'#{target}"' in line:
            return number
    return 0


def link_errors(page: str, page_html: str, lines: list[str]) -> list[tuple[str, int]]:
    """(message, Markdown line) for each link of the page that leads nowhere."""
    return [
        (
            f"{page}: a link to #{target} leads nowhere: no element on this page has that id "
            "(a lab's id is its fence's id)",
            source_line(lines, target),
        )
        for target in missing_targets(page_html)
    ]

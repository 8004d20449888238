"""What every question's build-time HTML shares: inert markup with data-* attributes.

Nothing a question keeps back until the student acts (reasons, reveals, explanations,
hints, reference answers, listed wrong answers) is written into the page as text: it is
sealed into one `data-sealed` attribute (base64 of JSON), which search, reader mode, print
and a find in the page never see, and the widget opens only when the student earns it.
Widget chrome (labels, buttons, verdicts) carries `data-search-exclude`, so the search
index holds each question's prompt and options and nothing else.

Each kind's own markup is in its module of livelab.builder.kinds; the browser widgets
(livelab/web/widgets/numeric.js, choice.js, code.js) enable the controls and find everything
through the data-* marks set there and here.
"""

from __future__ import annotations

import base64
import html
import json

from livelab import i18n
from livelab.labs.markup import attr

EXCLUDE = " data-search-exclude"


def needs_js() -> str:
    """The line a reader without JavaScript sees in every question."""
    line = html.escape(i18n.text("markup.needs_js"))
    return f'<noscript{EXCLUDE}><p class="livelab-status">{line}</p></noscript>'


SLOT = "\x00"
"""Given to i18n.text for a value that is HTML: see with_html."""


def with_html(sentence: str, value_html: str) -> str:
    """A sentence asked for with SLOT as a value, escaped, with value_html in SLOT's place."""
    return html.escape(sentence).replace(SLOT, value_html)


def seal(data: dict) -> str:
    """What a question keeps back, as an attribute value no reader or indexer reads as text."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def unseal(value: str) -> dict:
    """Inverse of seal, for tests and the author check."""
    return json.loads(base64.b64decode(value).decode("utf-8"))


def container(kind: str, qid: str, body: str, sealed: dict, extra: str = "") -> str:
    return (
        f'<div class="livelab livelab-question livelab-question--{kind}" data-livelab="{kind}" '
        f'id="{attr(qid)}" data-question="{attr(qid)}" role="group" '
        f'aria-labelledby="{attr(qid)}-prompt" data-sealed="{seal(sealed)}"{extra}>'
        f"{body}{needs_js()}</div>"
    )


def prompt_html(qid: str, prompt_html: str, label: str = "") -> str:
    tag = f'<span class="livelab-tag"{EXCLUDE}>{html.escape(label)}</span> ' if label else ""
    return f'<div class="livelab-question__prompt" id="{attr(qid)}-prompt">{tag}{prompt_html}</div>'


def with_title(markup: str, qid: str, title: str) -> str:
    """A question's markup with its title first in its prompt, before any tag ("Predict").

    The same title names the question in the page's progress lists and on the home page.
    """
    opening = f'id="{attr(qid)}-prompt">'
    shown = f'<strong class="livelab-question__title">{html.escape(title)}</strong> '
    return markup.replace(opening, opening + shown, 1)


def verdict_html() -> str:
    live = 'role="status" aria-live="polite"'
    return f'<div class="livelab-verdict" data-verdict {live}{EXCLUDE}></div>'


def button_html(action: str, text: str, hidden: bool = False) -> str:
    return (
        f'<button type="button" class="livelab-button" data-action="{action}" disabled'
        f"{' hidden' if hidden else ''}>{html.escape(text)}</button>"
    )


def actions_html(*buttons: str, extra: str = "") -> str:
    return f'<div class="livelab-actions"{extra}{EXCLUDE}>{"".join(buttons)}</div>'


def confirm_html(question: str, yes: tuple[str, str], no: tuple[str, str]) -> str:
    """A yes/no box that asks before something that cannot be taken back."""
    return (
        f'<div class="livelab-confirm" data-confirm hidden{EXCLUDE}><p>{html.escape(question)}</p>'
        + button_html(yes[0], yes[1])
        + button_html(no[0], no[1])
        + "</div>"
    )


def hints_html() -> str:
    """Where the sealed hints go, one by one as the student asks for them; empty in the page."""
    return f'<ol class="livelab-hints" data-hints hidden{EXCLUDE}></ol>'


def reveal_box() -> str:
    """Where the sealed answer goes once it is earned or asked for; empty in the page."""
    return f'<div class="livelab-reveal" data-reveal hidden{EXCLUDE}></div>'

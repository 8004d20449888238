"""Build-time HTML of the questions: inert markup with data-* attributes, controls disabled.

Nothing a question keeps back until the student acts (reasons, reveals, explanations,
hints, reference answers, listed wrong answers) is written into the page as text: it is
sealed into one `data-sealed` attribute (base64 of JSON), which search, reader mode, print
and a find in the page never see, and the widget opens only when the student earns it.
Widget chrome (labels, buttons, verdicts) carries `data-search-exclude`, so the search
index holds each question's prompt and options and nothing else.

The browser widgets (livelab/web/widgets/numeric.js, choice.js, code.js) enable the controls and
find everything through the data-* marks set here.
"""

from __future__ import annotations

import base64
import html
import json
from collections.abc import Callable
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from livelab.build.quiz import ChoiceQuestion, CodeQuestionRef, NumericQuestion
from livelab.labs.markup import attr
from livelab.questions import BLANK, PRELUDE

Render = Callable[[str], str]
EXCLUDE = " data-search-exclude"
NEEDS_JS = (
    f'<noscript{EXCLUDE}><p class="livelab-status">Checking answers needs JavaScript.</p>'
    "</noscript>"
)


def seal(data: dict) -> str:
    """What a question keeps back, as an attribute value no reader or indexer reads as text."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def unseal(value: str) -> dict:
    """Inverse of seal, for tests and the author check."""
    return json.loads(base64.b64decode(value).decode("utf-8"))


def _container(kind: str, qid: str, body: str, sealed: dict, extra: str = "") -> str:
    return (
        f'<div class="livelab livelab-question livelab-question--{kind}" data-livelab="{kind}" '
        f'id="{attr(qid)}" data-question="{attr(qid)}" role="group" '
        f'aria-labelledby="{attr(qid)}-prompt" data-sealed="{seal(sealed)}"{extra}>'
        f"{body}{NEEDS_JS}</div>"
    )


def _prompt(qid: str, prompt_html: str, label: str = "") -> str:
    tag = f'<span class="livelab-tag"{EXCLUDE}>{html.escape(label)}</span> ' if label else ""
    return f'<div class="livelab-question__prompt" id="{attr(qid)}-prompt">{tag}{prompt_html}</div>'


def _verdict() -> str:
    live = 'role="status" aria-live="polite"'
    return f'<div class="livelab-verdict" data-verdict {live}{EXCLUDE}></div>'


def button_html(action: str, text: str, hidden: bool = False) -> str:
    return (
        f'<button type="button" class="livelab-button" data-action="{action}" disabled'
        f"{' hidden' if hidden else ''}>{html.escape(text)}</button>"
    )


def _actions(*buttons: str, extra: str = "") -> str:
    return f'<div class="livelab-actions"{extra}{EXCLUDE}>{"".join(buttons)}</div>'


def confirm_html(question: str, yes: tuple[str, str], no: tuple[str, str]) -> str:
    """A yes/no box that asks before something that cannot be taken back."""
    return (
        f'<div class="livelab-confirm" data-confirm hidden{EXCLUDE}><p>{html.escape(question)}</p>'
        + button_html(yes[0], yes[1])
        + button_html(no[0], no[1])
        + "</div>"
    )


def _reveal_box() -> str:
    """Where the sealed answer goes once it is earned or asked for; empty in the page."""
    return f'<div class="livelab-reveal" data-reveal hidden{EXCLUDE}></div>'


def numeric_html(q: NumericQuestion, render: Render) -> str:
    """Prompt, a text field, Check, a verdict line, and the answer revealed on request."""
    field_id = f"{q.id}-answer"
    explanation = render(q.explanation) if q.explanation else ""
    reveal = f"<p>Answer: <strong>{html.escape(q.reveal)}</strong></p>{explanation}"
    body = (
        _prompt(q.id, render(q.prompt)) + f'<div class="livelab-answer-row"{EXCLUDE}>'
        f'<label for="{attr(field_id)}">Your answer</label>'
        f'<input type="text" id="{attr(field_id)}" class="livelab-field" inputmode="decimal" '
        'autocomplete="off" spellcheck="false" disabled>'
        + button_html("check", "Check")
        + button_html("reveal", "Show answer", hidden=True)
        + "</div>"
        + _verdict()
        + _reveal_box()
    )
    return _container("numeric", q.id, body, {"spec": q.spec.to_json(), "reveal": reveal})


def choice_html(q: ChoiceQuestion, render: Render) -> str:
    """Prompt, a radio group with an empty slot per option for its reason, Check, verdict."""
    options = []
    for index, option in enumerate(q.options):
        option_id = f"{q.id}-option-{index}"
        options.append(
            '<div class="livelab-option">'
            f'<input type="radio" name="{attr(q.id)}" id="{attr(option_id)}" value="{index}" '
            "disabled>"
            f'<label for="{attr(option_id)}">{render(option.text)}</label>'
            f'<div class="livelab-why" data-why="{index}" hidden{EXCLUDE}></div>'
            "</div>"
        )
    body = (
        _prompt(q.id, render(q.prompt), q.label)
        + f'<div role="radiogroup" aria-labelledby="{attr(q.id)}-prompt">{"".join(options)}</div>'
        + _actions(button_html("check", "Check"), button_html("reveal", "Show answer", hidden=True))
        + _verdict()
    )
    sealed = {"correct": q.correct_index, "why": [render(o.why) for o in q.options]}
    return _container("choice", q.id, body, sealed)


def _template_html(template: str, blank_label: str) -> str:
    """The template highlighted as the site's code blocks are, with a text field as the blank."""
    code = highlight(template, PythonLexer(), HtmlFormatter(nowrap=True))
    token = f'<span class="n">{BLANK}</span>'
    if code.count(token) != 1:
        raise ValueError(f"the highlighted template must show {BLANK} once as a name")
    field = (
        f'<input type="text" class="livelab-blank" data-blank aria-label="{attr(blank_label)}" '
        'autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="____" disabled>'
    )
    code = code.replace(token, field)
    return f'<div class="highlight livelab-template"><pre><code>{code}</code></pre></div>'


def code_html(q: CodeQuestionRef, render: Render) -> str:
    """Prompt, the read-only template with its blank, Run/Check/Stop, output, hint and answer."""
    from livelab.questions import CODE_QUESTIONS

    question = CODE_QUESTIONS[q.question]
    body = (
        _prompt(q.id, render(q.prompt))
        + _template_html(q.template, q.blank_label)
        + _actions(
            button_html("run", "Run"),
            button_html("check", "Check"),
            button_html("stop", "Stop", hidden=True),
            button_html("hint", "Hint", hidden=True),
            button_html("reveal", "Show answer"),
        )
        + '<p class="livelab-status livelab-run-status" data-run-status aria-live="polite"'
        + f"{EXCLUDE}></p>"
        + f'<pre class="livelab-output" data-output hidden{EXCLUDE}></pre>'
        + _verdict()
        + f'<div class="livelab-hint" data-hint hidden{EXCLUDE}></div>'
        + confirm_html(
            "Show the reference answer? Your own text stays in the field, and this question "
            "will count as shown, not solved.",
            ("confirm-reveal", "Yes, show it"),
            ("cancel-reveal", "Cancel"),
        )
        + _reveal_box()
    )
    sealed = {"hint": question.hint, "reference": q.reference_blank}
    program = attr(PRELUDE + q.template)
    extra = f' data-code-question="{attr(q.question)}" data-program="{program}"'
    return _container("code", q.id, body, sealed, extra)


QUESTION_HTML: dict[str, Callable[[Any, Render], str]] = {
    "numeric": numeric_html,
    "choice": choice_html,
    "code": code_html,
}

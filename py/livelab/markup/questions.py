"""Build-time HTML of the questions: inert markup with data-* attributes, controls disabled.

The browser widgets (labs/widgets/numeric.js, choice.js, code.js) enable the controls and
find everything through the data-* marks set here.
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from livelab.markup import attr
from livelab.questions import BLANK
from livelab.quiz import ChoiceQuestion, CodeQuestionRef, NumericQuestion

Render = Callable[[str], str]
NEEDS_JS = '<noscript><p class="livelab-status">Checking answers needs JavaScript.</p></noscript>'


def _container(kind: str, qid: str, body: str, extra: str = "") -> str:
    return (
        f'<div class="livelab livelab-question livelab-question--{kind}" data-livelab="{kind}" '
        f'data-question="{attr(qid)}" role="group" aria-labelledby="{attr(qid)}-prompt"{extra}>'
        f"{body}{NEEDS_JS}</div>"
    )


def _prompt(qid: str, prompt_html: str, label: str = "") -> str:
    tag = f'<span class="livelab-tag">{html.escape(label)}</span> ' if label else ""
    return f'<div class="livelab-question__prompt" id="{attr(qid)}-prompt">{tag}{prompt_html}</div>'


def _verdict() -> str:
    return '<p class="livelab-verdict" data-verdict role="status" aria-live="polite"></p>'


def _button(action: str, text: str, hidden: bool = False) -> str:
    return (
        f'<button type="button" class="livelab-button" data-action="{action}" disabled'
        f"{' hidden' if hidden else ''}>{html.escape(text)}</button>"
    )


def numeric_html(q: NumericQuestion, render: Render) -> str:
    """Prompt, a text field, Check, a verdict line, and the answer revealed on request."""
    spec = q.spec.to_json()
    field_id = f"{q.id}-answer"
    explanation = render(q.explanation) if q.explanation else ""
    body = (
        _prompt(q.id, render(q.prompt)) + '<div class="livelab-answer-row">'
        f'<label for="{attr(field_id)}">Your answer</label>'
        f'<input type="text" id="{attr(field_id)}" class="livelab-field" inputmode="decimal" '
        'autocomplete="off" spellcheck="false" disabled>'
        + _button("check", "Check")
        + _button("reveal", "Show answer", hidden=True)
        + "</div>"
        + _verdict()
        + '<div class="livelab-reveal" data-reveal hidden>'
        f"<p>Answer: <strong>{html.escape(q.reveal)}</strong></p>{explanation}</div>"
    )
    return _container("numeric", q.id, body, f' data-spec="{attr(json.dumps(spec))}"')


def choice_html(q: ChoiceQuestion, render: Render) -> str:
    """Prompt, a radio group with each option's reason hidden until checked, Check, verdict."""
    options = []
    for index, option in enumerate(q.options):
        option_id = f"{q.id}-option-{index}"
        mark = "Right." if option.correct else "Not this one."
        options.append(
            '<div class="livelab-option">'
            f'<input type="radio" name="{attr(q.id)}" id="{attr(option_id)}" value="{index}" '
            "disabled>"
            f'<label for="{attr(option_id)}">{render(option.text)}</label>'
            f'<div class="livelab-why livelab-why--{"right" if option.correct else "wrong"}" '
            f'data-why="{index}" hidden><strong>{mark}</strong> {render(option.why)}</div>'
            "</div>"
        )
    body = (
        _prompt(q.id, render(q.prompt), q.label)
        + f'<div role="radiogroup" aria-labelledby="{attr(q.id)}-prompt">{"".join(options)}</div>'
        + _button("check", "Check")
        + _verdict()
    )
    return _container("choice", q.id, body, f' data-correct="{q.correct_index}"')


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
        + '<div class="livelab-actions">'
        + _button("run", "Run")
        + _button("check", "Check")
        + _button("stop", "Stop", hidden=True)
        + _button("hint", "Hint", hidden=True)
        + _button("reveal", "Show answer")
        + "</div>"
        + _verdict()
        + '<pre class="livelab-output" data-output hidden></pre>'
        + f'<div class="livelab-hint" data-hint hidden><p>{html.escape(question.hint)}</p></div>'
        + '<div class="livelab-confirm" data-confirm hidden><p>Show the reference answer? '
        "Your own text stays in the field.</p>"
        + _button("confirm-reveal", "Yes, show it")
        + _button("cancel-reveal", "Cancel")
        + "</div>"
        + '<div class="livelab-reveal" data-reveal hidden><p>Reference answer:</p>'
        f"<pre><code>{html.escape(q.reference_blank)}</code></pre></div>"
    )
    return _container("code", q.id, body, f' data-code-question="{attr(q.question)}"')


QUESTION_HTML: dict[str, Callable[[Any, Render], str]] = {
    "numeric": numeric_html,
    "choice": choice_html,
    "code": code_html,
}


def progress_placeholder() -> str:
    """Marks where the plugin puts the progress table of the whole site."""
    return '<div class="livelab livelab-progress" data-livelab="progress"></div>'


def progress_table(pages: list[tuple[str, str, str, list[str]]]) -> str:
    """A row per page with questions: link, and answered / total filled in by the browser."""
    rows = "".join(
        f'<tr data-page="{attr(url)}" data-ids="{attr(" ".join(ids))}">'
        f'<td><a href="{attr(href)}">{html.escape(title)}</a></td>'
        f"<td data-count>0 of {len(ids)}</td><td data-state>not started</td></tr>"
        for url, href, title, ids in pages
    )
    return (
        '<div class="livelab livelab-progress" data-livelab="progress">'
        '<table><thead><tr><th scope="col">Page</th><th scope="col">Answered correctly</th>'
        f'<th scope="col">State</th></tr></thead><tbody>{rows}</tbody></table>'
        '<p class="livelab-status" data-storage-note hidden></p>'
        '<div class="livelab-actions">' + _button("reset", "Reset progress") + "</div>"
        '<div class="livelab-confirm" data-confirm hidden>'
        "<p>Erase every saved answer and lab position on this site?</p>"
        + _button("confirm-reset", "Erase my progress")
        + _button("cancel-reset", "Cancel")
        + "</div></div>"
    )

"""The code question: fill in the blank of a registered CodeQuestion (livelab.questions).

The fence names the code question, words the task and gives its hints (a fence without
`hints` falls back to the CodeQuestion's single `hint`, if it has one); the template,
reference and cases come from the CodeQuestion. The page grades a blank through
runtime/page/checks.js: the blank runs in a runner (livelab.grading_execute), the main worker
grades it (livelab.grading.grade); CPython runs both halves in one process
(livelab.grading.check). What the author check tries is the question's replay data
(<name>.cases.json beside its module).
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from dataclasses import dataclass

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from livelab import grading
from livelab.builder.kinds import (
    HINTS_OPTION,
    LAB_OPTION,
    BrowserReplay,
    QuestionError,
    QuestionKind,
    Render,
    Replay,
    hint_texts,
    register_kind,
)
from livelab.builder.question_markup import (
    EXCLUDE,
    actions_html,
    button_html,
    confirm_html,
    container,
    hints_html,
    prompt_html,
    reveal_box,
    verdict_html,
)
from livelab.labs.markup import attr
from livelab.options import REQUIRED, Option, Options
from livelab.questions import BLANK, PRELUDE, CodeQuestion, code_question, load_blanks

OPTIONS = Options(
    id=Option(REQUIRED, types=(str,), what="the stable id, e.g. c1"),
    question=Option(REQUIRED, types=(str,), what="the name of a registered code question"),
    prompt=Option(REQUIRED, types=(str,), what="the task, Markdown"),
    blank_label=Option(
        "blank: your code", types=(str,), what="accessible name of the blank's text field"
    ),
    lab=LAB_OPTION,
    hints=HINTS_OPTION,
)
CHECK_TIMEOUT_MS = 20_000
"""How long the author check lets the page's worker grade one blank (first calls warm up)."""


@dataclass(frozen=True)
class CodeQuestionRef:
    """A code fence: which code question, and how this page words it."""

    id: str
    question: str
    prompt: str
    blank_label: str
    lab: str = ""
    hints: tuple[str, ...] = ()
    kind: str = "code"

    @property
    def code(self) -> CodeQuestion:
        return code_question(self.question)

    @property
    def template(self) -> str:
        return self.code.template

    @property
    def reference_blank(self) -> str:
        return self.code.reference_blank


def parse(data: dict) -> CodeQuestionRef:
    """Checked options -> a reference to a registered question whose reference blank passes."""
    name = data["question"]
    question = code_question(name)  # its ValueError names the known questions
    result = grading.check_reference(question)
    if result["verdict"] != "correct":
        raise QuestionError(
            f"the reference blank of {name!r} fails its grader: {result['message']}"
        )
    label = data["blank_label"]
    if "blank" not in label.lower():
        raise QuestionError("blank_label must contain the word blank")
    hints = hint_texts(data["hints"])
    return CodeQuestionRef(data["id"], name, data["prompt"], label, data["lab"], hints)


LINES_NOTE = (
    "Several lines. Enter keeps the indent, Tab indents; to leave the field with Tab, "
    "press Escape first. Ctrl+Enter checks."
)
"""What a several-line blank's field tells a keyboard user (its aria-describedby)."""


def _field_html(q: CodeQuestionRef) -> str:
    """The blank's text field: one line, or a text area when the reference spans lines."""
    # data-blank carries the blank's token, so the widget fills the program without a copy.
    common = (
        f'class="livelab-blank" data-blank="{BLANK}" aria-label="{attr(q.blank_label)}" '
        f'autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="{BLANK}" '
        "disabled"
    )
    lines = q.reference_blank.count("\n") + 1
    if lines == 1:
        # A text area too, but of one line (code.js): it wraps and grows, so a phone shows
        # all the student typed; Enter checks, and a pasted line break becomes a space.
        return f'<textarea {common} rows="1" data-line aria-multiline="false"></textarea>'
    note = f"{q.id}-blank-note"
    return (
        f'<textarea {common} rows="{lines + 2}" data-lines aria-describedby="{attr(note)}">'
        f'</textarea><span class="livelab-blank-note" id="{attr(note)}">{LINES_NOTE}</span>'
    )


def _template_html(q: CodeQuestionRef) -> str:
    """The template highlighted as the site's code blocks are, with a text field as the blank."""
    code = highlight(q.template, PythonLexer(), HtmlFormatter(nowrap=True))
    token = f'<span class="n">{BLANK}</span>'
    if code.count(token) != 1:
        raise ValueError(f"the highlighted template must show {BLANK} once as a name")
    code = code.replace(token, _field_html(q))
    return f'<div class="highlight livelab-template"><pre><code>{code}</code></pre></div>'


def _hints_markup(q: CodeQuestionRef, render: Render) -> list[str]:
    """The fence's hints as Markdown, else the code question's own hint (plain text), if any."""
    if q.hints:
        return [render(hint) for hint in q.hints]
    return [f"<p>{html.escape(q.code.hint)}</p>"] if q.code.hint else []


def markup(q: CodeQuestionRef, render: Render, exercise: dict | None = None) -> str:
    """Prompt, the read-only template with its blank, Run/Check/Stop, output, hint and answer.

    An exercise (kinds/exercise.py) adds the data its question is made from to the sealed part.
    """
    body = (
        prompt_html(q.id, render(q.prompt))
        + _template_html(q)
        + actions_html(
            button_html("run", "Run"),
            button_html("check", "Check"),
            button_html("stop", "Stop", hidden=True),
            button_html("hint", "Hint", hidden=True),
            button_html("reveal", "Show answer", hidden=True),
        )
        + '<p class="livelab-status livelab-run-status" data-run-status aria-live="polite"'
        + f"{EXCLUDE}></p>"
        + f'<pre class="livelab-output" data-output hidden{EXCLUDE}></pre>'
        + verdict_html()
        + hints_html()
        + confirm_html(
            "Show the reference answer? Your own text stays in the field, and this question "
            "will count as shown, not solved.",
            ("confirm-reveal", "Yes, show it"),
            ("cancel-reveal", "Cancel"),
        )
        + reveal_box()
    )
    sealed: dict[str, object] = {"hints": _hints_markup(q, render), "reference": q.reference_blank}
    if exercise is not None:
        sealed["exercise"] = exercise
        # Each known wrong answer's feedback: its text as the grader says it, and as Markdown.
        sealed["feedback"] = [[w["feedback"], render(w["feedback"])] for w in exercise["wrong"]]
    program = attr(PRELUDE + q.template)
    # data-needs-python: the page shows Python's loading state for it, as it does for a lab.
    extra = f' data-code-question="{attr(q.question)}" data-program="{program}" data-needs-python'
    return container("code", q.id, body, sealed, extra)


def blank_replays(question: CodeQuestion) -> Iterator[Replay]:
    """The reference and listed right blanks must pass; each wrong one fails with its message."""
    data = load_blanks(question.name)
    for blank in [question.reference_blank, *data["correct"]]:
        yield Replay(blank, "correct")
    for entry in data["wrong"]:
        yield Replay(entry["blank"], "wrong", entry["message"])


KIND = register_kind(
    QuestionKind(
        name="code",
        options=OPTIONS,
        parse=parse,
        markup=markup,
        replays=lambda q: blank_replays(q.code),
        grade=lambda q, blank: grading.check(q.question, blank),
        browser=BrowserReplay(
            where="Pyodide",
            module="runtime/page/checks.js",  # the blank in a runner, graded in the main worker
            call="codeRequest",
            args=lambda q, blank: ["check", q.question, blank, {"timeoutMs": CHECK_TIMEOUT_MS}],
        ),
        module=__name__,
    )
)

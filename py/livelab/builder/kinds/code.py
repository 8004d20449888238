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
import re
from collections.abc import Iterator
from dataclasses import dataclass

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

from livelab import grading, i18n
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
        "blank: your code",
        types=(str, list),
        what="accessible name of the blank's text field; for several blanks, one name each "
        '("blank 1 of 2: ..." is made from a single one)',
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
    blank_label: str | tuple[str, ...]
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
    def reference_blank(self) -> str | tuple[str, ...]:
        return self.code.reference_blank

    @property
    def reference_blanks(self) -> tuple[str, ...]:
        return self.code.reference_blanks

    @property
    def blank_count(self) -> int:
        return self.code.blank_count


DEFAULT_LABEL = OPTIONS["blank_label"].default
"""The blank_label a fence that gives none has: in the site's language (code.your_code)."""


def checked_label(label: str | list, count: int) -> str | tuple[str, ...]:
    """A fence's blank_label, checked: one text, or a list of one per blank; each names the
    blank (QuestionError otherwise)."""
    labels = [label] if isinstance(label, str) else label
    if isinstance(label, list) and len(label) != count:
        raise QuestionError(
            f"blank_label: the template has {count} blank(s); give one label, or a list of "
            f"{count}, not {len(label)}"
        )
    word = i18n.text("code.blank_word")  # what the site's language calls a blank
    named = [
        one == DEFAULT_LABEL or (isinstance(one, str) and word in one.lower()) for one in labels
    ]
    if not all(named):
        raise QuestionError(f"blank_label must contain the word {word}")
    return label if isinstance(label, str) else tuple(label)


def field_names(label: str | tuple[str, ...], count: int) -> list[str]:
    """The accessible name of each blank's field: the author's, or, from one label for several
    blanks, numbered ("blank 1 of 2: the mean"); the default label is the site's language's."""
    if not isinstance(label, str):
        return list(label)
    default = label == DEFAULT_LABEL
    word = re.escape(i18n.text("code.blank_word"))
    what = i18n.text("code.your_code") if default else re.sub(rf"(?i)^\s*{word}\s*:?\s*", "", label)
    if count == 1:
        return [i18n.text("code.blank_label", what=what) if default else label]
    return [
        i18n.text("code.blank_label_of", number=number, total=count, what=what or label)
        for number in range(1, count + 1)
    ]


def parse(data: dict) -> CodeQuestionRef:
    """Checked options -> a reference to a registered question whose reference blank passes."""
    name = data["question"]
    question = code_question(name)  # its ValueError names the known questions
    result = grading.check_reference(question)
    if result["verdict"] != "correct":
        raise QuestionError(
            f"the reference blank of {name!r} fails its grader: {result['message']}"
        )
    label = checked_label(data["blank_label"], question.blank_count)
    hints = hint_texts(data["hints"])
    return CodeQuestionRef(data["id"], name, data["prompt"], label, data["lab"], hints)


def _field_html(q: CodeQuestionRef, number: int, name: str) -> str:
    """Blank `number`'s text field: one line, or a text area when its reference spans lines."""
    # data-blank carries the blank's token, so the widget fills the program without a copy.
    common = (
        f'class="livelab-blank" data-blank="{BLANK}" aria-label="{attr(name)}" '
        f'autocomplete="off" autocapitalize="off" spellcheck="false" placeholder="{BLANK}" '
        "disabled"
    )
    lines = q.reference_blanks[number - 1].count("\n") + 1
    if lines == 1:
        # A text area too, but of one line (code.js): it wraps and grows, so a phone shows
        # all the student typed; Enter checks, and a pasted line break becomes a space.
        return f'<textarea {common} rows="1" data-line aria-multiline="false"></textarea>'
    note = f"{q.id}-blank-note" if q.blank_count == 1 else f"{q.id}-blank-{number}-note"
    # What a several-line blank's field tells a keyboard user (its aria-describedby).
    said = html.escape(i18n.text("code.lines_note"))
    return (
        f'<textarea {common} rows="{lines + 2}" data-lines aria-describedby="{attr(note)}">'
        f'</textarea><span class="livelab-blank-note" id="{attr(note)}">{said}</span>'
    )


def _template_html(q: CodeQuestionRef) -> str:
    """The template highlighted as the site's code blocks are, with a text field per blank."""
    code = highlight(q.template, PythonLexer(), HtmlFormatter(nowrap=True))
    token = f'<span class="n">{BLANK}</span>'
    if code.count(token) != q.blank_count:
        raise ValueError(f"the highlighted template must show each {BLANK} as a name")
    names = field_names(q.blank_label, q.blank_count)
    pieces = code.split(token)
    code = pieces[0] + "".join(
        _field_html(q, number, names[number - 1]) + piece
        for number, piece in enumerate(pieces[1:], 1)
    )
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
            button_html("run", i18n.text("code.run")),
            button_html("check", i18n.text("code.check")),
            button_html("stop", i18n.text("code.stop"), hidden=True),
            button_html("hint", i18n.text("code.hint"), hidden=True),
            button_html("reveal", i18n.text("code.show_answer"), hidden=True),
        )
        + '<p class="livelab-status livelab-run-status" data-run-status aria-live="polite"'
        + f"{EXCLUDE}></p>"
        + f'<pre class="livelab-output" data-output hidden{EXCLUDE}></pre>'
        + verdict_html()
        + hints_html()
        + confirm_html(
            i18n.text("code.confirm_reveal"),
            ("confirm-reveal", i18n.text("code.confirm_yes")),
            ("cancel-reveal", i18n.text("code.confirm_cancel")),
        )
        + reveal_box()
    )
    # The reference: its one text, or a list of each blank's for several.
    references = q.reference_blanks
    reference = references[0] if len(references) == 1 else list(references)
    sealed: dict[str, object] = {"hints": _hints_markup(q, render), "reference": reference}
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
    references = question.reference_blanks
    yield Replay(references[0] if len(references) == 1 else list(references), "correct")
    for blank in data["correct"]:
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

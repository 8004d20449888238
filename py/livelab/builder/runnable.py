"""Runnable code blocks: a Python fence marked `run="on"` becomes code the student edits and
runs in the page's scratch Python (livelab.scratch, one namespace per page).

    ```python run="on"
    x = np.arange(4)
    x * 2
    ```

The shape is markdown-exec's `exec="on"`, which runs at build time; this one runs in the
student's browser. A plain ```python fence stays a highlighted code block: the validator
takes the fence only when it says `run`. The block is inert HTML until its widget
(widgets/runnable.js) mounts: the code as text, Run, Stop and Reset, a status line and the
output, which is text, never HTML.
"""

from __future__ import annotations

import html

from livelab import i18n
from livelab.builder.question_markup import EXCLUDE, actions_html, button_html
from livelab.labs.markup import attr

NAME = "python"
OPTION = "run"


class RunnableError(ValueError):
    """A runnable fence's header is wrong; the message says what to write."""


def run_validator(language, inputs, options, attrs, md) -> bool:
    """Superfences: take a python fence whose header names `run`; leave any other to Pygments."""
    if OPTION not in inputs:
        return False
    options.update(inputs)
    return True


def check_options(options: dict) -> None:
    unknown = sorted(set(options) - {OPTION})
    if unknown:
        raise RunnableError(f'a runnable python fence takes only run="on", not {unknown}')
    if options[OPTION] != "on":
        raise RunnableError(f'run must be "on" to make the block runnable, got {options[OPTION]!r}')


def runnable_html(source: str, block_id: str, number: int) -> str:
    """The block: its code (the editor replaces it), the buttons, the status and the output."""
    code = html.escape(source.rstrip("\n"))
    name = attr(i18n.text("markup.runnable_name", number=number))
    output = attr(i18n.text("markup.runnable_output", number=number))
    return (
        f'<div class="livelab livelab-runnable" data-livelab="runnable" id="{block_id}" '
        f'role="region" aria-label="{name}">'
        f'<pre class="livelab-runnable__code" data-code><code>{code}</code></pre>'
        + actions_html(
            button_html("run", i18n.text("markup.run")),
            button_html("stop", i18n.text("markup.stop")),
            button_html("reset", i18n.text("markup.reset")),
        )
        + f'<p class="livelab-status" role="status" data-status{EXCLUDE}></p>'
        + '<pre class="livelab-runnable__output" role="log" tabindex="0" '
        + f'aria-label="{output}" data-output hidden{EXCLUDE}></pre>'
        + f'<div class="livelab-figures" data-figures hidden{EXCLUDE}></div>'
        "</div>"
    )

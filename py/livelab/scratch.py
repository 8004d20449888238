"""The scratchpad's Python side: free-form code in a namespace of its own, kept between runs.
A page's runnable code blocks (livelab.builder.runnable) run here too, each page's blocks in a
namespace of their own ("blocks:<page>"), apart from the scratchpad's and every grader's.

Like a notebook, what one run defines is there for the next, and a value left on the last
line is shown as its repr. The namespace starts with `np`, the names the course offers
(livelab.scratch_names) and a `help` that prints a docstring. It is never a grader's
namespace: a check runs in a fresh one of
its own (livelab.grading_run), and the scratch namespace sits in an Unwatched holder, so
the worker's state check (livelab.worker_state) leaves its names alone while still
comparing everything else a run could change. Each run gets the guard a code question's
run gets: output captured and capped, no input, NumPy's settings, builtins, NumPy and
livelab put back afterwards. Errors are located in the run's own text.
"""

from __future__ import annotations

import ast
import builtins
import pydoc
import sys
from types import CodeType
from typing import Any

import numpy as np

from livelab import figures, i18n
from livelab.explain import plain
from livelab.grading_run import FRAMES_SHOWN, OUTPUT_LIMIT, CappedOutput, guarded
from livelab.scratch_names import PRELOADED
from livelab.worker_state import Unwatched

RUN_FILE = "<scratchpad run {}>"
"""Each run compiles under its own name, so an error's line is read from the right text."""
SOURCES_KEPT = 50
"""Texts of earlier runs kept for tracebacks through functions they defined."""


def _help(thing: object = None) -> None:
    """Print what a function, class or module is for, and its shapes (its docstring)."""
    if thing is None:
        example = next(iter(PRELOADED), "np.mean")
        print(i18n.text("scratch.help", example=example))
        return
    space = _space()
    if isinstance(thing, str) and thing in space.names:
        thing = space.names[thing]
    print(pydoc.plain(pydoc.render_doc(thing, "Help on %s:")))  # plain: no overstruck bold


def _fresh_namespace() -> dict[str, Any]:
    namespace: dict[str, Any] = {
        "__name__": "__scratchpad__",
        "__builtins__": builtins,
        "np": np,
        "help": _help,
    }
    namespace.update(PRELOADED)
    return namespace


class _Space:
    """The names, the number of runs since they were fresh, and recent run texts by file."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = _fresh_namespace()
        self.runs = 0
        self.sources: dict[str, str] = {}

    def clear(self) -> None:
        # Emptied in place: the holder keeps the same object, so no module attribute changes.
        self.names.clear()
        self.names.update(_fresh_namespace())
        self.runs = 0
        self.sources.clear()


SCRATCHPAD = "scratchpad"
SPACES_KEPT = 20
"""Namespaces kept at once (the scratchpad's and those of the pages whose blocks ran); the
one used longest ago goes first."""
_SPACES: Unwatched = Unwatched({SCRATCHPAD: _Space()})


def _space(name: str = SCRATCHPAD) -> _Space:
    spaces = _SPACES.value
    assert isinstance(spaces, dict)
    space = spaces.pop(name, None) or _Space()
    spaces[name] = space  # last used last
    while len(spaces) > SPACES_KEPT:
        spaces.pop(next(n for n in spaces if n != SCRATCHPAD))
    return space


def _compile(code: str, filename: str) -> tuple[CodeType, CodeType | None]:
    """The run's statements, and its last line apart when that is an expression to show."""
    tree = ast.parse(code, filename)
    last = None
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        tree.body.pop()
        last = compile(ast.Expression(final.value), filename, "eval")
    return compile(tree, filename, "exec"), last


def _source_line(space: _Space, filename: str, line: int | None) -> str:
    lines = space.sources.get(filename, "").split("\n")
    return lines[line - 1].strip() if line and 0 < line <= len(lines) else ""


def _describe(space: _Space, exc: BaseException, filename: str) -> tuple[dict, str]:
    """The error as data (line in this run's text) and as the traceback the student reads."""
    kind = type(exc).__name__
    if isinstance(exc, SyntaxError):
        line, column = exc.lineno, exc.offset
        where = "  " + i18n.text("scratch.syntax_line", line=line)
        text = [where, f"    {(exc.text or '').rstrip()}"] if line else []
        if column and exc.text:
            indent = len(exc.text) - len(exc.text.lstrip())
            text.append("    " + " " * max(column - 1 - indent, 0) + "^")
        message = exc.msg
        return _error(kind, message, line, column), "\n".join([*text, f"{kind}: {message}"])
    message = i18n.text("runtime.called_exit") if isinstance(exc, SystemExit) else str(exc)
    frames = []  # (file, line, function) of every scratch frame, outermost first
    tb = exc.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename in space.sources:
            frames.append((code.co_filename, tb.tb_lineno, code.co_name))
        tb = tb.tb_next
    lines = [i18n.text("runtime.traceback")] if frames else []
    if len(frames) > FRAMES_SHOWN:
        left_out = len(frames) - FRAMES_SHOWN
        lines.append("  " + i18n.text("runtime.calls_left_out", count=left_out))
    for file, number, function in frames[-FRAMES_SHOWN:]:
        frame = (
            i18n.text("scratch.frame", line=number, function=function)
            if file == filename
            else i18n.text("scratch.frame_earlier", line=number, function=function)
        )
        lines.append(f"  {frame}")
        source = _source_line(space, file, number)
        if source:
            lines.append(f"    {source}")
    mine = [number for file, number, _ in frames if file == filename]
    lines.append(f"{kind}: {message}" if message else kind)
    clause = plain(kind, message)
    if clause:
        lines.append(f"{clause[0].upper()}{clause[1:]}.")
    return _error(kind, message, mine[-1] if mine else None, None), "\n".join(lines)


def _error(kind: str, message: str, line: int | None, column: int | None) -> dict:
    return {"type": kind, "message": message, "line": line, "column": column}


def run(code: str, space: str = SCRATCHPAD) -> dict:
    """Run code in a scratch namespace (the scratchpad's, or a page's blocks'): {output, error,
    runs}.

    output is the text the student sees (what the code printed, the last line's value,
    the error's traceback), cut at OUTPUT_LIMIT; error is None or {type, message, line,
    column} with line in this run's text; runs counts the runs since the namespace was
    fresh (1 after a restart of Python, so the page can say that earlier names are gone).
    """
    held = _space(space)
    held.runs += 1
    filename = RUN_FILE.format(held.runs)
    held.sources[filename] = code
    while len(held.sources) > SOURCES_KEPT:
        held.sources.pop(next(iter(held.sources)))
    output = CappedOutput(OUTPUT_LIMIT)
    error = None
    with guarded(output):
        try:
            body, last = _compile(code, filename)
            exec(body, held.names)
            if last is not None:
                value = eval(last, held.names)
                if value is not None:
                    held.names["_"] = value
                    print(repr(value))
        except (Exception, SystemExit) as exc:  # KeyboardInterrupt is the worker's (a stop)
            error, text = _describe(held, exc, filename)
            print(text, file=sys.stderr)
        shown, note = _figures(held)
    reply = {"output": output.getvalue(), "error": error, "runs": held.runs, "figures": shown}
    if note:
        reply["figures_note"] = note
    return reply


def _figures(held: _Space) -> tuple[list[dict[str, str]], str]:
    """The figures this run drew (livelab.figures), or none and why in the output."""
    try:
        return figures.take(held.names)
    except Exception as exc:  # a figure the code left unable to draw
        said = i18n.text("plot.not_drawn", type=type(exc).__name__, message=exc)
        print(said, file=sys.stderr)
        return [], ""


def clear(space: str = SCRATCHPAD) -> dict:
    """Forget every name a namespace defined; back to np, help and the kernels."""
    _space(space).clear()
    return {"runs": 0}


def names(space: str = SCRATCHPAD) -> list[str]:
    """The names a scratch namespace holds now (for tests and the author's check)."""
    return sorted(_space(space).names)

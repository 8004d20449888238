"""Build runnable code from a template and a student's blank, and run it with output captured.

Everything the grader needs about the student's code lives here: where the blank sits in
the assembled source (so an error points at the student's own line and column), a fresh
namespace per attempt, captured stdout and stderr, and a guard that puts back anything the
student's code changed in NumPy, builtins or livelab.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import io
import sys
import time
import traceback
import warnings
from collections.abc import Iterator
from dataclasses import dataclass
from types import CodeType, ModuleType
from typing import Any

import numpy as np

BLANK = "____"
OUTPUT_LIMIT = 10_000
MESSAGE_LIMIT = 300
"""Characters of an exception's text kept for feedback; a student may raise a huge one."""
TRUNCATION_NOTE = "\n... output truncated"
_GUARDED_MODULES = ("builtins", "numpy", "numpy.linalg", "numpy.random")


class BlankProblem(ValueError):
    """The blank cannot be turned into code at all (empty, or several lines where one fits)."""


@dataclass(frozen=True)
class StudentError:
    """An exception raised by the student's code, located in the student's own text.

    line is 1 for the blank's first line; column is 1-based in the student's text. Both are
    None when the error happened outside the blank (in the template's own lines).
    """

    type: str
    message: str
    line: int | None
    column: int | None
    template_line: int | None
    traceback: str

    @property
    def in_blank(self) -> bool:
        return self.line is not None

    def where(self) -> str:
        """A short phrase locating the error, e.g. "line 1, column 12 of your blank"."""
        if self.line is None:
            if self.template_line is None:
                return "outside your code"
            return f"line {self.template_line} of the code around your blank"
        column = f", column {self.column}" if self.column is not None else ""
        return f"line {self.line}{column} of your blank"

    def as_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "message": self.message,
            "line": self.line,
            "column": self.column,
            "template_line": self.template_line,
            "traceback": self.traceback,
        }


@dataclass(frozen=True)
class BlankPlace:
    """Where the student's text sits in the assembled source.

    A character at 0-based column c of a student line is at column c + column_shift of
    source line first_line + (student line - 1).
    """

    first_line: int
    line_count: int
    column_shift: int

    def locate(
        self, source_line: int | None, source_column: int | None
    ) -> tuple[int | None, int | None]:
        """Map a 1-based source line and 0-based character column into the student's text.

        Returns (line, column), both 1-based, or (None, None) outside the blank.
        """
        if source_line is None:
            return None, None
        line = source_line - self.first_line + 1
        if not 1 <= line <= self.line_count:
            return None, None
        if source_column is None:
            return line, None
        return line, max(source_column - self.column_shift, 0) + 1


@dataclass(frozen=True)
class Program:
    """The template with the blank filled in, compiled in two parts under its own filename.

    definitions: the code up to the last top-level function definition; example: the rest
    (the lines that call the function and print).
    """

    source: str
    filename: str
    place: BlankPlace
    definitions: CodeType
    example: CodeType

    def source_line(self, line: int) -> str:
        lines = self.source.splitlines()
        return lines[line - 1] if 1 <= line <= len(lines) else ""


def one_line(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """An exception's text as one short line: whitespace runs become one space, long text is cut."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _normalize(blank: str) -> str:
    text = blank.replace("\r\n", "\n").replace("\r", "\n")
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def fill_blank(template: str, blank: str, whole_line: bool) -> tuple[str, BlankPlace]:
    """Put the student's text into the template; return the source and where the text sits.

    A whole-line blank may span several lines; they are re-indented to the blank's indent.
    Raises BlankProblem for an empty blank, or a multi-line text in a one-line blank.
    """
    text = _normalize(blank)
    if not text.strip() or text.strip() == BLANK:
        raise BlankProblem("The blank is still empty: type your code in place of ____.")
    lines = template.split("\n")
    row = next(i for i, line in enumerate(lines) if BLANK in line)
    column = lines[row].index(BLANK)
    student_lines = text.split("\n")
    if whole_line:
        indent = lines[row][:column]
        removed = min(len(s) - len(s.lstrip(" ")) for s in student_lines if s.strip())
        filled = [indent + s[removed:] if s.strip() else "" for s in student_lines]
        shift = len(indent) - removed
    else:
        if len(student_lines) > 1:
            raise BlankProblem("This blank takes a single line: write it without line breaks.")
        filled = [lines[row][:column] + text + lines[row][column + len(BLANK) :]]
        shift = column
    source = "\n".join(lines[:row] + filled + lines[row + 1 :])
    return source, BlankPlace(row + 1, len(filled), shift)


def compile_program(
    template: str, blank: str, whole_line: bool, filename: str
) -> Program | StudentError:
    """Assemble and compile; a syntax error comes back as a StudentError located in the blank.

    Raises BlankProblem when the blank cannot be placed at all.
    """
    source, place = fill_blank(template, blank, whole_line)
    try:
        tree = ast.parse(source, filename=filename, mode="exec")
    except SyntaxError as exc:  # IndentationError is a SyntaxError too
        column = None if exc.offset is None else exc.offset - 1  # offset is 1-based characters
        line, column = place.locate(exc.lineno, column)
        text = (exc.text or "").strip()
        return StudentError(
            type=type(exc).__name__,
            message=exc.msg,
            line=line,
            column=column,
            template_line=exc.lineno,
            traceback=f"{type(exc).__name__}: {exc.msg}" + (f"\n    {text}" if text else ""),
        )
    last_def = max(
        (i for i, node in enumerate(tree.body) if isinstance(node, ast.FunctionDef)), default=-1
    )
    definitions, example = (
        compile(ast.Module(body=part, type_ignores=[]), filename, "exec", dont_inherit=True)
        for part in (tree.body[: last_def + 1], tree.body[last_def + 1 :])
    )
    return Program(source, filename, place, definitions, example)


class CappedOutput(io.TextIOBase):
    """A text sink that keeps at most `limit` characters and notes that the rest was cut."""

    def __init__(self, limit: int = OUTPUT_LIMIT) -> None:
        self._parts: list[str] = []
        self._size = 0
        self._limit = limit
        self.truncated = False

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        room = self._limit - self._size
        if len(text) > room:
            self.truncated = True
            text = text[: max(room, 0)]
        if text:
            self._parts.append(text)
            self._size += len(text)
        return len(text)

    def getvalue(self) -> str:
        return "".join(self._parts) + (TRUNCATION_NOTE if self.truncated else "")


def _guarded_modules() -> list[ModuleType]:
    names = [*_GUARDED_MODULES, *(n for n in sys.modules if n.split(".")[0] == "livelab")]
    return [m for n in names if isinstance(m := sys.modules.get(n), ModuleType)]


@contextlib.contextmanager
def restoring_modules() -> Iterator[None]:
    """Put back every attribute of NumPy, builtins and livelab that existed before the block.

    Attributes the block adds are left alone; replaced or deleted ones are restored, so a
    student who reassigns np.allclose or a reference kernel changes nothing afterwards.
    """
    saved = [(module, dict(vars(module))) for module in _guarded_modules()]
    try:
        yield
    finally:
        for module, attributes in saved:
            current = vars(module)
            for name, value in attributes.items():
                if current.get(name, _MISSING) is not value:
                    current[name] = value


_MISSING = object()


def _show_warning(message: Any, category: type[Warning], *_args: Any, **_kwargs: Any) -> None:
    sys.stderr.write(f"{category.__name__}: {message}\n")


class StudentRun:
    """One attempt: a fresh namespace, one output buffer, the time spent in student code."""

    def __init__(self, program: Program, output_limit: int = OUTPUT_LIMIT) -> None:
        self.program = program
        self.output = CappedOutput(output_limit)
        self.namespace: dict[str, Any] = {
            "__name__": "__livelab_student__",
            "__builtins__": builtins,
            "np": np,
        }
        self.seconds = 0.0

    @contextlib.contextmanager
    def _environment(self) -> Iterator[None]:
        start = time.perf_counter()
        try:
            with (
                restoring_modules(),
                contextlib.redirect_stdout(self.output),
                contextlib.redirect_stderr(self.output),
                np.printoptions(),  # restores print options the student may change
                np.errstate(divide="warn", over="warn", invalid="warn", under="ignore"),
                warnings.catch_warnings(),
            ):
                warnings.simplefilter("always")
                warnings.showwarning = _show_warning
                yield
        finally:
            self.seconds += time.perf_counter() - start

    def execute(self, code: CodeType) -> StudentError | None:
        """Run a compiled part of the program in the namespace; return its error, if any."""
        with self._environment():
            try:
                exec(code, self.namespace)
            except (Exception, SystemExit) as exc:  # KeyboardInterrupt is left to the caller
                return self.describe(exc)  # inside the guard: str(exc) may be student code
        return None

    def call(
        self, function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, StudentError | None]:
        """Call the student's function; return (value, None) or (None, error)."""
        with self._environment():
            try:
                return function(*args, **kwargs), None
            except (Exception, SystemExit) as exc:
                return None, self.describe(exc)

    def describe(self, exc: BaseException) -> StudentError:
        """Locate an exception in the student's text; grader frames are left out."""
        filename = self.program.filename
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
        lines = ["Traceback (your code):"]
        for frame in frames:
            source = self.program.source_line(frame.lineno or 0)
            lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
            if source.strip():
                lines.append(f"    {source.strip()}")
                start, end = _char_columns(source, frame.colno, frame.end_colno)
                if start is not None and end is not None and frame.end_lineno == frame.lineno:
                    indent = len(source) - len(source.lstrip())
                    lines.append("    " + " " * (start - indent) + "^" * max(end - start, 1))
        message = (
            one_line(str(exc)) if not isinstance(exc, SystemExit) else "the code called exit()"
        )
        lines.append(f"{type(exc).__name__}: {message}")
        line = column = template_line = None
        if frames:
            last = frames[-1]
            template_line = last.lineno
            start, _ = _char_columns(self.program.source_line(last.lineno or 0), last.colno, None)
            line, column = self.program.place.locate(last.lineno, start)
        return StudentError(
            type=type(exc).__name__,
            message=message,
            line=line,
            column=column,
            template_line=template_line,
            traceback="\n".join(lines),
        )


def _char_columns(line: str, start: int | None, end: int | None) -> tuple[int | None, int | None]:
    """Turn UTF-8 byte offsets from a traceback into character offsets within line."""
    data = line.encode("utf-8")

    def convert(offset: int | None) -> int | None:
        if offset is None:
            return None
        return len(data[:offset].decode("utf-8", errors="replace"))

    return convert(start), convert(end)

"""Run a compiled program's student code: a fresh namespace, output captured, state guarded.

Each piece of student code runs with stdout and stderr captured (and capped), no standard
input, NumPy's print and error settings saved, and a guard that puts back anything it
changed in NumPy, builtins or livelab and the recursion limit. Changes the guard cannot
undo, deeper in the interpreter, are found by livelab.worker_state, and the browser then
restarts Python. Errors are located in the student's own text.
"""

from __future__ import annotations

import builtins
import contextlib
import io
import itertools
import sys
import time
import warnings
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from types import CodeType, ModuleType, TracebackType
from typing import Any

import numpy as np

from livelab import i18n
from livelab.grading_program import Program, StudentError, one_line
from livelab.registry import is_own

OUTPUT_LIMIT = 10_000
"""Characters of printed output a student sees from one run or check; the rest is cut."""
FRAMES_SHOWN = 20
"""Frames of the student's code kept in a traceback; a runaway recursion has thousands."""
_GUARDED_MODULES = ("builtins", "numpy", "numpy.linalg", "numpy.random")


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
        note = "\n" + i18n.text("runtime.output_cut", limit=self._limit) if self.truncated else ""
        return "".join(self._parts) + note


class NoInput(io.TextIOBase):
    """Standard input while student code runs: a web page has no keyboard to read from.

    input() falls back to sys.stdin.readline() when stdin is not a terminal, so it raises
    EOFError with a sentence that says so (instead of Pyodide's "[Errno 29] I/O error").
    """

    def readable(self) -> bool:
        return True

    def readline(self, size: int = -1, /) -> str:  # type: ignore[override]
        raise EOFError(input_message())

    def read(self, size: int | None = -1, /) -> str:
        raise EOFError(input_message())


def input_message() -> str:
    """What input() says in student code: a web page has no keyboard to read from."""
    return i18n.text("runtime.no_input")


@contextlib.contextmanager
def no_input() -> Iterator[None]:
    """Replace sys.stdin with NoInput for the duration of the block."""
    saved, sys.stdin = sys.stdin, NoInput()
    try:
        yield
    finally:
        sys.stdin = saved


def _guarded_modules() -> list[ModuleType]:
    names = [*_GUARDED_MODULES, *(n for n in sys.modules if is_own(n))]
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


@contextlib.contextmanager
def guarded(output: CappedOutput) -> Iterator[None]:
    """What student code runs inside, in a code question's run and in the scratchpad alike:
    module attributes put back, no input(), output captured into `output`, NumPy's print
    options and error states restored, warnings printed, and the recursion limit restored
    (a raised limit would let the next check overflow)."""
    limit = sys.getrecursionlimit()
    try:
        with (
            restoring_modules(),
            no_input(),
            contextlib.redirect_stdout(output),
            contextlib.redirect_stderr(output),
            np.printoptions(),  # restores print options the student may change
            np.errstate(divide="warn", over="warn", invalid="warn", under="ignore"),
            warnings.catch_warnings(),
        ):
            warnings.simplefilter("always")
            warnings.showwarning = _show_warning
            yield
    finally:
        sys.setrecursionlimit(limit)


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
            with guarded(self.output):
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
        frames, count = student_frames(exc.__traceback__, self.program.filename)
        lines = [i18n.text("runtime.traceback")]
        if count > len(frames):
            lines.append("  " + i18n.text("runtime.calls_left_out", count=count - len(frames)))
        for frame in frames:
            source = self.program.source_line(frame.lineno or 0)
            lines.append(f'  File "{frame.filename}", line {frame.lineno}, in {frame.name}')
            if source.strip():
                lines.append(f"    {source.strip()}")
                start, end = _char_columns(source, frame.colno, frame.end_colno)
                if start is not None and end is not None and frame.end_lineno == frame.lineno:
                    indent = len(source) - len(source.lstrip())
                    lines.append("    " + " " * (start - indent) + "^" * max(end - start, 1))
        exited = isinstance(exc, SystemExit)
        message = i18n.text("runtime.called_exit") if exited else one_line(str(exc))
        lines.append(f"{type(exc).__name__}: {message}")
        blank = line = column = template_line = None
        if frames:
            last = frames[-1]
            template_line = last.lineno
            start, _ = _char_columns(self.program.source_line(last.lineno or 0), last.colno, None)
            blank, line, column = self.program.locate(last.lineno, start)
        return StudentError(
            type=type(exc).__name__,
            message=message,
            line=line,
            column=column,
            template_line=template_line,
            traceback="\n".join(lines),
            blank=blank,
        )


@dataclass(frozen=True)
class Frame:
    """One call in a traceback: where it was (1-based line, UTF-8 byte columns)."""

    filename: str
    name: str
    lineno: int | None
    end_lineno: int | None
    colno: int | None
    end_colno: int | None


def student_frames(
    tb: TracebackType | None, filename: str, keep: int = FRAMES_SHOWN
) -> tuple[list[Frame], int]:
    """The last `keep` frames of a traceback that run code from filename, and how many ran.

    traceback.extract_tb would look up every frame; after a runaway recursion with a raised
    limit that takes seconds in the browser, which would turn a RecursionError into a timeout.
    """
    kept: deque[TracebackType] = deque(maxlen=keep)
    count = 0
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            kept.append(tb)
            count += 1
        tb = tb.tb_next
    frames = []
    for entry in kept:
        code = entry.tb_frame.f_code
        positions: tuple[int | None, ...] = (None, None, None, None)
        if entry.tb_lasti >= 0:  # co_positions has one entry per 2-byte code unit
            positions = next(itertools.islice(code.co_positions(), entry.tb_lasti // 2, None))
        _, end_lineno, colno, end_colno = positions
        frames.append(Frame(filename, code.co_name, entry.tb_lineno, end_lineno, colno, end_colno))
    return frames, count


def _char_columns(line: str, start: int | None, end: int | None) -> tuple[int | None, int | None]:
    """Turn UTF-8 byte offsets from a traceback into character offsets within line."""
    data = line.encode("utf-8")

    def convert(offset: int | None) -> int | None:
        if offset is None:
            return None
        return len(data[:offset].decode("utf-8", errors="replace"))

    return convert(start), convert(end)

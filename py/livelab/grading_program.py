"""Build runnable code from a template and a student's blank.

Where the blank sits in the assembled source is kept, so an error points at the student's
own line and column; livelab.grading_run runs the compiled program.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from types import CodeType
from typing import Any

from livelab import i18n
from livelab.questions.code_question import BLANK

MESSAGE_LIMIT = 300
"""Characters of an exception's text kept for feedback; a student may raise a huge one."""


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
        raise BlankProblem(i18n.text("grader.blank_empty", blank=BLANK))
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
            raise BlankProblem(i18n.text("grader.blank_one_line"))
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

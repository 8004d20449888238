"""Build runnable code from a template and a student's blanks (one, or several).

Where each blank sits in the assembled source is kept, so an error points at the blank it
comes from and the student's own line and column there; livelab.grading_run runs the compiled
program.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from types import CodeType
from typing import Any

from livelab import i18n
from livelab.questions.code_question import BLANK, blank_lines

MESSAGE_LIMIT = 300
"""Characters of an exception's text kept for feedback; a student may raise a huge one."""


class BlankProblem(ValueError):
    """The blanks cannot be turned into code at all (one empty, or several lines where one fits)."""


@dataclass(frozen=True)
class StudentError:
    """An exception raised by the student's code, located in the student's own text.

    blank is the number of the blank it comes from (1 for the first; None outside every
    blank); line is 1 for that blank's first line; column is 1-based in the student's text.
    line and column are None when the error happened outside the blanks (in the template's
    own lines).
    """

    type: str
    message: str
    line: int | None
    column: int | None
    template_line: int | None
    traceback: str
    blank: int | None = None

    @property
    def in_blank(self) -> bool:
        return self.line is not None

    def where(self, *, column_only: bool = False, several: bool = False) -> str:
        """A short phrase locating the error, e.g. "line 1, column 12 of your blank", or with
        several blanks "line 1, column 12 of blank 2"; column_only (with several): "column 12 of
        blank 2", a one-line blank inside a line of the template (livelab.grading_messages says
        "column 12 of your blank" for a single one)."""
        if self.line is None:
            if self.template_line is None:
                return i18n.text("code.where_outside")
            if several:
                return i18n.text("code.where_around_blanks", line=self.template_line)
            return i18n.text("code.where_around", line=self.template_line)
        if several:
            blank = self.blank or 1
            if self.column is None:
                return i18n.text("code.where_line_of_blank", line=self.line, blank=blank)
            if column_only:
                return i18n.text("code.where_column_of_blank", column=self.column, blank=blank)
            return i18n.text(
                "code.where_line_column_of_blank", line=self.line, column=self.column, blank=blank
            )
        if self.column is None:
            return i18n.text("code.where_line", line=self.line)
        return i18n.text("code.where_line_column", line=self.line, column=self.column)

    def as_dict(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "message": self.message,
            "blank": self.blank,
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
class BlankPlaces:
    """Where each blank's text sits in the assembled source, in the template's order."""

    places: tuple[BlankPlace, ...]

    def locate(
        self, source_line: int | None, source_column: int | None
    ) -> tuple[int | None, int | None, int | None]:
        """(blank number, line, column) of a source position, all None outside every blank.

        Two blanks may share a line: a column is the last blank's that starts at or before it.
        """
        found = [
            (number, place)
            for number, place in enumerate(self.places, 1)
            if place.locate(source_line, None)[0] is not None
        ]
        if not found:
            return None, None, None
        if source_column is not None:
            found = [f for f in found if f[1].column_shift <= source_column][-1:] or found[:1]
        number, place = found[0]
        return (number, *place.locate(source_line, source_column))


@dataclass(frozen=True)
class Program:
    """The template with the blanks filled in, compiled in two parts under its own filename.

    definitions: the code up to the last top-level function definition; example: the rest
    (the lines that call the function and print).
    """

    source: str
    filename: str
    blanks: BlankPlaces
    definitions: CodeType
    example: CodeType

    @property
    def place(self) -> BlankPlace:
        """Where the first (or only) blank sits."""
        return self.blanks.places[0]

    def locate(
        self, source_line: int | None, source_column: int | None
    ) -> tuple[int | None, int | None, int | None]:
        """(blank number, line, column) in the student's text; all None outside the blanks."""
        return self.blanks.locate(source_line, source_column)

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


def _texts(template: str, blanks: str | Sequence[str]) -> list[str]:
    """The student's text of every blank, checked: one per blank, none empty."""
    count = template.count(BLANK)
    texts = [blanks] if isinstance(blanks, str) else list(blanks)
    if len(texts) != count or not all(isinstance(t, str) for t in texts):
        raise BlankProblem(i18n.text("code.blank_count", count=count))
    normalized = [_normalize(text) for text in texts]
    for number, text in enumerate(normalized, 1):
        if not text.strip() or text.strip() == BLANK:
            if count == 1:
                raise BlankProblem(i18n.text("code.blank_empty", blank=BLANK))
            raise BlankProblem(i18n.text("code.blank_empty_of", blank=BLANK, number=number))
    return normalized


def fill_blanks(template: str, blanks: str | Sequence[str]) -> tuple[str, BlankPlaces]:
    """Put the student's text of each blank into the template; return the source and where each
    text sits. A blank alone on its line may span several lines; they are re-indented to the
    blank's indent. Raises BlankProblem for a missing or empty blank, or a text of several lines
    in a blank that shares its line.
    """
    texts = iter(_texts(template, blanks))
    count = template.count(BLANK)
    out: list[str] = []
    places: list[BlankPlace] = []
    for line in template.split("\n"):
        if line.strip() == BLANK:  # alone on its line: statements, of one line or several
            student_lines = next(texts).split("\n")
            indent = line[: line.index(BLANK)]
            removed = min(len(s) - len(s.lstrip(" ")) for s in student_lines if s.strip())
            places.append(BlankPlace(len(out) + 1, len(student_lines), len(indent) - removed))
            out += [indent + s[removed:] if s.strip() else "" for s in student_lines]
            continue
        parts = line.split(BLANK)
        filled = parts[0]
        for part in parts[1:]:
            text = next(texts)
            if "\n" in text:
                if count == 1:
                    raise BlankProblem(i18n.text("code.blank_one_line"))
                raise BlankProblem(i18n.text("code.blank_one_line_of", number=len(places) + 1))
            places.append(BlankPlace(len(out) + 1, 1, len(filled)))
            filled += text + part
        out.append(filled)
    return "\n".join(out), BlankPlaces(tuple(places))


def fill_blank(template: str, blank: str, whole_line: bool) -> tuple[str, BlankPlace]:
    """A template of one blank with the student's text in it: the source and where the text
    sits (whole_line: the blank stands alone on its line, as fill_blanks finds by itself)."""
    if whole_line != blank_lines(template)[0]:
        raise ValueError("whole_line says otherwise than the template")
    source, places = fill_blanks(template, blank)
    return source, places.places[0]


def compile_program(
    template: str, blanks: str | Sequence[str], filename: str
) -> Program | StudentError:
    """Assemble and compile; a syntax error comes back as a StudentError located in the blank
    it comes from. blanks: the text of the one blank, or a list with each blank's text.

    Raises BlankProblem when the blanks cannot be placed at all.
    """
    source, places = fill_blanks(template, blanks)
    try:
        tree = ast.parse(source, filename=filename, mode="exec")
    except SyntaxError as exc:  # IndentationError is a SyntaxError too
        column = None if exc.offset is None else exc.offset - 1  # offset is 1-based characters
        blank, line, column = places.locate(exc.lineno, column)
        text = (exc.text or "").strip()
        return StudentError(
            type=type(exc).__name__,
            message=exc.msg,
            line=line,
            column=column,
            template_line=exc.lineno,
            traceback=f"{type(exc).__name__}: {exc.msg}" + (f"\n    {text}" if text else ""),
            blank=blank,
        )
    last_def = max(
        (i for i, node in enumerate(tree.body) if isinstance(node, ast.FunctionDef)), default=-1
    )
    definitions, example = (
        compile(ast.Module(body=part, type_ignores=[]), filename, "exec", dont_inherit=True)
        for part in (tree.body[: last_def + 1], tree.body[last_def + 1 :])
    )
    return Program(source, filename, places, definitions, example)

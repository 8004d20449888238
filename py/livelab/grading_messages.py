"""The code grader's sentences: what a check or a run says about an error or a failed case,
in the site's language (livelab.i18n), each made when it is said. livelab.grading decides the
verdict; this module only words it.
"""

from __future__ import annotations

import numpy as np

from livelab import i18n
from livelab.explain import plain
from livelab.grading_compare import Mismatch
from livelab.grading_program import StudentError
from livelab.questions import CodeQuestion
from livelab.registry import is_own


def case_detail(error: StudentError | None, mismatch: Mismatch | None) -> str:
    """What the student's function did on one case, for the case's line."""
    if error is not None:
        return i18n.text("grader.case_raised", type=error.type, message=error.message)
    if mismatch is not None:
        return mismatch.detail
    return i18n.text("grader.case_matches")


def _where(error: StudentError, q: CodeQuestion) -> str:
    """Locate an error for the student; a one-line expression blank needs only the column."""
    whole = q.whole_lines[(error.blank or 1) - 1]
    several = q.blank_count > 1
    if not several and error.line is not None and error.column is not None and not whole:
        return i18n.text("grader.where_column", column=error.column)
    return error.where(column_only=not whole, several=several)


def _suggestion(error: StudentError, q: CodeQuestion) -> str:
    """A short addition to an error message: a likely fix for common slips."""
    clause = plain(error.type, error.message)
    if clause:
        return f" ({clause})"
    if error.type == "NameError" and "'" in error.message:
        name = error.message.split("'")[1]
        if name in q.name_hints:
            return f" ({q.name_hints[name]})"
        return f" ({i18n.text('grader.did_you_mean_np', name=name)})" if hasattr(np, name) else ""
    if error.type == "RecursionError":
        return f" ({i18n.text('grader.recursion_hint')})"
    if "matmul" in error.message and "mismatch" in error.message:
        return f" ({i18n.text('grader.matmul_hint')})"
    return ""


def _returns_none_fix(q: CodeQuestion) -> str:
    if any("\n" in blank.strip() for blank in q.reference_blanks):
        return i18n.text("grader.none_fix_return_line")
    if any(q.whole_lines):
        return i18n.text("grader.none_fix_start_return")
    return i18n.text("grader.none_fix_expression")


def _sentence(text: str) -> str:
    """End a message with a full stop unless Python's own text already ends a sentence."""
    text = text.rstrip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _own_text(error: StudentError) -> str:
    """The exception's own text, without a final full stop ("" when it has none)."""
    return error.message.rstrip(".")


def borrowed_message(name: str) -> str:
    """Why a blank cannot import the course's module `name`: checks run without it."""
    return i18n.text("grader.borrowed", name=name)


def _borrowed(error: StudentError) -> str | None:
    """The course module a blank tried to import (checks run without it), if that failed."""
    if error.type != "ModuleNotFoundError" or error.message.count("'") != 2:
        return None
    name = error.message.split("'")[1]
    return name if is_own(name) else None


def error_message(error: StudentError, q: CodeQuestion) -> str:
    """One sentence about an error raised while compiling or running the template."""
    if (borrowed := _borrowed(error)) is not None:
        return borrowed_message(borrowed)
    if error.type in ("SyntaxError", "IndentationError", "TabError"):
        if error.in_blank:
            where = _where(error, q)
            return _sentence(
                i18n.text("grader.syntax_error_in_blank", where=where, message=error.message)
            )
        return _sentence(
            i18n.text(
                "grader.syntax_error_near_blank",
                count=q.blank_count,
                line=error.template_line,
                message=error.message,
            )
        )
    if error.in_blank:
        where, text = _where(error, q), _own_text(error)
        said = (
            i18n.text("grader.code_raised", type=error.type, where=where, message=text)
            if text
            else i18n.text("grader.code_raised_bare", type=error.type, where=where)
        )
        return _sentence(said + _suggestion(error, q))
    if "NoneType" in error.message:
        return i18n.text("grader.example_none", fix=_returns_none_fix(q))
    line, text = error.template_line, _own_text(error)
    if text:
        return i18n.text("grader.example_raised", type=error.type, line=line, message=text)
    return i18n.text("grader.example_raised_bare", type=error.type, line=line)


def failure_message(
    label: str, error: StudentError | None, mismatch: Mismatch | None, q: CodeQuestion
) -> str:
    """One sentence about the first case that failed (label names it): what the function did
    there, and what to change."""
    if error is not None:
        e = error
        if (borrowed := _borrowed(e)) is not None:
            return borrowed_message(borrowed)
        at = _where(e, q) if e.in_blank else i18n.text("grader.template_line", line=e.template_line)
        text = _own_text(e)
        said = (
            i18n.text("grader.case_code_raised", label=label, type=e.type, where=at, message=text)
            if text
            else i18n.text("grader.case_code_raised_bare", label=label, type=e.type, where=at)
        )
        return _sentence(said + _suggestion(e, q))
    assert mismatch is not None
    fix = _returns_none_fix(q) if mismatch.kind == "none" else mismatch.fix
    return i18n.text("grader.case_failed", label=label, detail=mismatch.detail, fix=fix)

"""Code questions (fill in the blank): each one registered object, defined in one module.

Every module of this package is imported on first use, so adding a code question is adding
a module that calls `register_code_question(CodeQuestion(..., module=__name__))`, with its
replay data beside it in <name>.cases.json: blanks that must pass, and blanks that must fail
with a given message. A course registers its own questions the same way from its own module;
their data file lies beside that module. Those files are the single source of truth for
replaying questions, in the author check, in CPython tests and in the browser (where the
check sends them: the archive the browser downloads leaves them out, builder/assets.py).
"""

from __future__ import annotations

import importlib
import json
from importlib import resources
from pathlib import Path
from typing import Any

from livelab.questions.code_question import BLANK, PRELUDE, Case, CodeQuestion, Misconception
from livelab.registry import Registry

CODE_QUESTIONS: Registry[CodeQuestion] = Registry("code question", __name__)
register_code_question = CODE_QUESTIONS.register
all_code_questions = CODE_QUESTIONS.all
CASES_SUFFIX = ".cases.json"
"""The end of a replay data file's name: <question name>.cases.json."""


def code_question(name: str) -> CodeQuestion:
    """The code question of that name (a course's, or an exercise defined from its fence,
    livelab.questions.exercise); ValueError naming the known ones otherwise."""
    from livelab.questions.exercise import defined

    return defined(name) or CODE_QUESTIONS.get(name)


def _data_file(question: CodeQuestion) -> Any:
    """<name>.cases.json beside the module that defines the question."""
    if not question.module:
        raise ValueError(
            f"code question {question.name!r} does not say where it is defined: "
            "give it module=__name__ so its replay data can be found"
        )
    module = importlib.import_module(question.module)
    filename = f"{question.name}{CASES_SUFFIX}"
    anchor = question.module if hasattr(module, "__path__") else module.__package__
    if anchor:
        # Through importlib.resources, so a package installed in any form is read the same way.
        return resources.files(anchor).joinpath(filename)
    return Path(module.__file__ or "").with_name(filename)  # a course's top-level module


def load_blanks(name: str) -> dict[str, Any]:
    """The replay data of a question: {"correct": [blank, ...], "wrong": [{blank, message}]}."""
    question = code_question(name)
    source = _data_file(question)
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(
            f"code question {name!r} has no replay data: write {source.name} beside "
            f"{question.module} with the blanks that must pass and those that must fail"
        ) from None
    data = json.loads(text)
    return {"correct": list(data["correct"]), "wrong": list(data["wrong"])}


__all__ = [
    "BLANK",
    "CASES_SUFFIX",
    "PRELUDE",
    "Case",
    "CodeQuestion",
    "Misconception",
    "all_code_questions",
    "code_question",
    "load_blanks",
    "register_code_question",
]

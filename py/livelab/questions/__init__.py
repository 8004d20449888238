"""Code questions (fill in the blank), keyed by a short name, and their replay data.

Each question module defines one CodeQuestion; next to it, <name>.cases.json lists blanks
that must pass and blanks that must fail with a given message. Those files are the single
source of truth for replaying questions, in CPython tests and in the browser.
"""

from __future__ import annotations

import json
from importlib import resources
from types import MappingProxyType
from typing import Any

from livelab.questions.code_question import BLANK, PRELUDE, Case, CodeQuestion, Misconception
from livelab.questions.rmsnorm import QUESTION as _RMSNORM
from livelab.questions.rotate import QUESTION as _ROTATE
from livelab.questions.swiglu_ffn import QUESTION as _SWIGLU_FFN

CODE_QUESTIONS: MappingProxyType[str, CodeQuestion] = MappingProxyType(
    {q.name: q for q in (_RMSNORM, _ROTATE, _SWIGLU_FFN)}
)


def load_blanks(name: str) -> dict[str, Any]:
    """The replay data of a question: {"correct": [blank, ...], "wrong": [{blank, message}]}."""
    if name not in CODE_QUESTIONS:
        raise KeyError(f"no code question named {name!r}")
    text = resources.files(__name__).joinpath(f"{name}.cases.json").read_text(encoding="utf-8")
    data = json.loads(text)
    return {"correct": list(data["correct"]), "wrong": list(data["wrong"])}


__all__ = [
    "BLANK",
    "CODE_QUESTIONS",
    "PRELUDE",
    "Case",
    "CodeQuestion",
    "Misconception",
    "load_blanks",
]

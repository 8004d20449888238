"""What a typed numeric answer may hold: its signs, digits and names, its limits, and the
error that says what could not be read. livelab.builder.answer_text reads an answer with these.
On the page, web/grading/answer-lexicon.js holds the same, but for the token pattern and
the length check, which web/grading/answer-text.js keeps (see there why).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

MAX_LENGTH = 200
"""Characters a typed answer may have; the longest real answer is a few dozen."""
MAX_DEPTH = 20
"""Parentheses, signs, powers and functions that may sit inside each other."""
FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sqrt": math.sqrt,
    "√": math.sqrt,
    "sin": math.sin,
    "cos": math.cos,
    "exp": math.exp,
    "ln": math.log,
    "log": math.log,
}
CONSTANTS = {"pi": math.pi, "π": math.pi, "e": math.e}
NOT_FINITE = ("nan", "inf", "infinity", "∞")
# Typographic signs students paste from the page, one character for one, so that character
# positions in messages match what the student typed.
# Full-width forms (East Asian keyboards) and Arabic-Indic digits with their decimal point
# and list signs are read as the ASCII they stand for.
FULL_WIDTH = "０１２３４５６７８９．，；＋－（）［］＊／＾"
ARABIC = "٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫،؛"
SIGNS = str.maketrans(
    {
        "−": "-",
        "–": "-",
        "×": "*",
        "·": "*",
        "÷": "/",
        **dict(zip(FULL_WIDTH, "0123456789.,;+-()[]*/^", strict=True)),
        **dict(zip(ARABIC, "0123456789" * 2 + ".,;", strict=True)),
    }
)
NUMBER = r"(?:[0-9]+(?:[.,][0-9]*)?|[.,][0-9]+)(?:[eE][-+]?[0-9]+)?"
NAME = r"[A-Za-zπ∞]+|√"
TOKEN = re.compile(rf"\s*(?:{NUMBER}|{NAME}|\*\*|[-+*/^()])")
WORD = re.compile(NAME)
READABLE = "only digits, + - * / ^, parentheses and names such as sqrt or pi can be read"
OTHER_DIGITS = "write the digits as 0 to 9"


class Unreadable(ValueError):
    """The text is not a number or arithmetic the parser understands; says where and why.

    column is the 1-based character where reading stopped, when there is one, so the page
    can mark it in the student's field.
    """

    def __init__(self, message: str, column: int | None = None) -> None:
        super().__init__(message)
        self.column = column


def quote(text: str, limit: int = 12) -> str:
    """Text echoed back in a message, cut short so a pasted page is never repeated."""
    return f"“{text[:limit]}…”" if len(text) > limit else f"“{text}”"


def key(name: str) -> str:
    """How a typed name is looked up: case does not matter (E is e), π stays π."""
    return name.lower()


def unknown(name: str) -> str:
    """Why a typed name cannot be read, with the names that can."""
    known = "sqrt, sin, cos, exp, ln, pi and e"
    return f"the name {quote(name)} is unknown; the known names are {known}"


ONE_NUMBER = "a number such as 0.84 or a short expression such as sqrt(2)/3"


def check_length(text: str, example: str = ONE_NUMBER) -> None:
    """Refuse a text longer than MAX_LENGTH, with an example of what is asked."""
    if len(text) > MAX_LENGTH:
        raise Unreadable(
            f"The answer is {len(text)} characters long; type at most {MAX_LENGTH}, "
            f"for example {example}."
        )

"""Numeric answers: read what a student typed, safely, and judge it against the fence's answer.

Accepted: `0.84`, `.84`, `0,84` (decimal comma), `3`, `-2.5`, and arithmetic with `+ - * / ^`
(or `**`), parentheses, `sqrt`, `sin`, `cos`, `exp`, `ln`, `pi`, `e`. Vector answers are
numbers separated by commas or semicolons, with or without brackets: `[0, sqrt(2)]`.
Nothing is evaluated by Python's eval: a small recursive-descent parser reads the text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass

FUNCTIONS: dict[str, Callable[[float], float]] = {
    "sqrt": math.sqrt,
    "sin": math.sin,
    "cos": math.cos,
    "exp": math.exp,
    "ln": math.log,
    "log": math.log,
}
CONSTANTS = {"pi": math.pi, "π": math.pi, "e": math.e}
# Typographic signs students paste from the page, mapped to what the parser reads.
SIGNS = str.maketrans({"−": "-", "–": "-", "×": "*", "·": "*", "÷": "/", "√": "sqrt"})
TOKEN = re.compile(r"\s*(?:(\d+(?:[.,]\d*)?|[.,]\d+)|([A-Za-zπ]+)|(\*\*|[-+*/^()]))")


class Unreadable(ValueError):
    """The text is not a number or arithmetic the parser understands; says where and why."""


@dataclass
class _Parser:
    text: str
    decimal_comma: bool
    pos: int = 0

    def fail(self, why: str, at: int | None = None) -> Unreadable:
        start = self.pos if at is None else at
        start += len(self.text[start:]) - len(self.text[start:].lstrip())
        shown = self.text[start:][:12]
        where = f"“{shown}”" if shown else "the end"
        return Unreadable(f"could not read {where} (character {start + 1}): {why}")

    def peek(self) -> str | None:
        match = TOKEN.match(self.text, self.pos)
        return match.group(0).strip() if match else None

    def take(self) -> str:
        match = TOKEN.match(self.text, self.pos)
        if not match:
            raise self.fail("expected a number, a name such as sqrt or pi, or an operator")
        self.pos = match.end()
        return match.group(0).strip()

    def expression(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-"):
            value = value + self.term() if self.take() == "+" else value - self.term()
        return value

    def term(self) -> float:
        value = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            right = self.unary()
            if op == "/" and right == 0:
                raise self.fail("division by zero")
            value = value * right if op == "*" else value / right
        return value

    def unary(self) -> float:
        if self.peek() in ("+", "-"):
            sign = -1.0 if self.take() == "-" else 1.0
            return sign * self.unary()
        return self.power()

    def power(self) -> float:
        base = self.atom()
        if self.peek() in ("^", "**"):
            self.take()
            try:
                return float(base ** self.unary())
            except (OverflowError, ZeroDivisionError):
                raise self.fail("the power is too large or undefined") from None
        return base

    def atom(self) -> float:
        token = self.peek()
        if token is None:
            raise self.fail("expected a number")
        if token == "(":
            self.take()
            value = self.expression()
            if self.peek() != ")":
                raise self.fail("a “(” is not closed")
            self.take()
            return value
        if token[0].isdigit() or token[0] in ".,":
            return self.number(self.take())
        if token.isalpha():
            start = self.pos
            return self.name(self.take(), start)
        raise self.fail("expected a number")

    def number(self, token: str) -> float:
        if "," in token and not self.decimal_comma:
            raise self.fail("use a point for decimals inside a list of numbers")
        return float(token.replace(",", "."))

    def name(self, token: str, start: int) -> float:
        key = token.lower() if token != "π" else token
        if key in CONSTANTS:
            return CONSTANTS[key]
        if key not in FUNCTIONS:
            raise self.fail(f"unknown name “{token}”; known: sqrt, sin, cos, exp, ln, pi, e", start)
        argument = self.atom()  # sqrt(2), sqrt 2 and √2 all read the same
        try:
            return FUNCTIONS[key](argument)
        except ValueError:
            raise self.fail(f"{token} is not defined at {argument:g}") from None

    def done(self) -> None:
        if self.text[self.pos :].strip():
            raise self.fail("unexpected text after the number")


def read_number(text: str, decimal_comma: bool = True) -> float:
    """The value of one number or arithmetic expression; Unreadable if it is not one."""
    parser = _Parser(text.translate(SIGNS), decimal_comma)
    if not parser.text.strip():
        raise Unreadable("the answer is empty")
    value = parser.expression()
    parser.done()
    if not math.isfinite(value):
        raise Unreadable("the value is not a finite number")
    return value


def _split_top_level(text: str) -> list[str]:
    """Split on commas/semicolons that are not inside parentheses."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char in ",;" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def read_vector(text: str) -> list[float]:
    """Numbers separated by commas or semicolons, optionally in brackets."""
    inner = text.translate(SIGNS).strip()
    if inner[:1] in "[(" and inner[-1:] in "])" and inner[:1] + inner[-1:] in ("[]", "()"):
        inner = inner[1:-1]
    if not inner.strip():
        raise Unreadable("the answer is empty")
    values = []
    for index, part in enumerate(_split_top_level(inner), start=1):
        try:
            values.append(read_number(part, decimal_comma=False))
        except Unreadable as exc:
            raise Unreadable(f"entry {index}: {exc}") from None
    return values


@dataclass(frozen=True)
class NumericSpec:
    """A numeric question's answer (one number or a vector) and how close is close enough."""

    answer: float | tuple[float, ...]
    decimals: int | None = None  # None: the answer must be exact
    wrong: tuple[tuple[float | tuple[float, ...], str], ...] = ()

    def to_json(self) -> dict:
        """The spec as the page carries it (data-spec) and sends it back to the worker."""
        return {
            "answer": self.answer,
            "decimals": self.decimals,
            "wrong": [[value, message] for value, message in self.wrong],
        }

    @classmethod
    def from_json(cls, data: dict) -> NumericSpec:
        """Inverse of to_json; JSON lists come back as vector answers (tuples)."""

        def value(v: object) -> float | tuple[float, ...]:
            return tuple(v) if isinstance(v, list) else v  # type: ignore[return-value]

        wrong = tuple((value(v), str(message)) for v, message in data.get("wrong", []))
        return cls(value(data["answer"]), data.get("decimals"), wrong)

    @property
    def tolerance(self) -> float:
        # Half a unit in the last asked decimal, plus slack for binary rounding.
        return 1e-9 if self.decimals is None else 0.5 * 10.0**-self.decimals + 1e-9

    @property
    def is_vector(self) -> bool:
        return isinstance(self.answer, tuple)

    def read(self, text: str) -> float | tuple[float, ...]:
        return tuple(read_vector(text)) if self.is_vector else read_number(text)

    def close(self, value: float | tuple[float, ...], target: float | tuple[float, ...]) -> bool:
        if isinstance(target, tuple):
            return (
                isinstance(value, tuple)
                and len(value) == len(target)
                and all(abs(v - t) <= self.tolerance for v, t in zip(value, target, strict=True))
            )
        return not isinstance(value, tuple) and abs(value - target) <= self.tolerance


def grade_numeric(spec: NumericSpec, text: str) -> dict:
    """Judge typed text: {verdict: correct | wrong | unreadable, message}.

    An unreadable entry is not an attempt: the page says what it could not read and the
    student tries again without it counting.
    """
    try:
        value = spec.read(text)
    except Unreadable as exc:
        return {"verdict": "unreadable", "message": f"I {exc}."}
    if spec.close(value, spec.answer):
        return {"verdict": "correct", "message": ""}
    for wrong_value, message in spec.wrong:
        if spec.close(value, wrong_value):
            return {"verdict": "wrong", "message": message}
    return {"verdict": "wrong", "message": _why_wrong(spec, value)}


def _why_wrong(spec: NumericSpec, value: float | tuple[float, ...]) -> str:
    if isinstance(spec.answer, tuple):
        assert isinstance(value, tuple)
        if len(value) != len(spec.answer):
            return f"The answer has {len(spec.answer)} numbers; you gave {len(value)}."
        bad = next(
            i
            for i, (v, t) in enumerate(zip(value, spec.answer, strict=True))
            if abs(v - t) > spec.tolerance
        )
        return f"Entry {bad + 1} is off; check how you computed it."
    assert not isinstance(value, tuple)
    if spec.decimals is not None and abs(value - spec.answer) <= 10.0 ** (1 - spec.decimals):
        return f"Close. Work with unrounded values and give {spec.decimals} decimals."
    if spec.decimals is None and abs(value - spec.answer) < 0.5:
        return "Close, but this answer is exact: no rounding is needed."
    return "That is not it. Rework the steps above and try again."

"""Reading a typed numeric answer: what the student wrote, as a number or a list of numbers.

Accepted: `0.84`, `.84`, `0,84` (decimal comma), `3`, `-2.5`, scientific notation as NumPy
prints it (`8.4e-1`, `3.0e-05`, `1e-3`, `2E3`, `-1.5e+2`), and arithmetic with `+ - * / ^`
(or `**`), parentheses, `sqrt` (or `√`), `sin`, `cos`, `exp`, `ln`, `pi`, `e`. Full-width
digits and signs (`０,５`) and Arabic-Indic digits (`٠٫٥`, `۰٫۵`) read as their ASCII twins,
one character for one; other scripts' digits get a message asking for 0 to 9. Vector
answers (livelab.builder.answer_vector) are numbers separated by commas, semicolons or blank space.

The letter e: right after digits and followed by digits (an optional sign in between, no
spaces) it starts a power of ten, as in Python and NumPy: `2e-3` is 0.002, `2E3` is 2000.
Anywhere else it is Euler's number: `e`, `2*e`, `e^-1`, `1/(1+e)`, `e-3` (e minus 3). A
number directly followed by e without digits (`2e`, or `2e - 3` with spaces) could mean
either, so it is refused with a message that shows both spellings.

Every problem raises Unreadable, whose text is one or more complete sentences that the page
shows as they are; nothing else escapes the parser, so a typed answer can never crash the
page. Input is capped at MAX_LENGTH characters and MAX_DEPTH levels of nesting, which also
keeps the recursion shallow inside Pyodide. Nothing is evaluated by Python's eval: a small
recursive-descent parser reads the text. Standard library only.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from livelab.builder.answer_lexicon import (
    CONSTANTS,
    FUNCTIONS,
    MAX_DEPTH,
    MAX_LENGTH,
    NOT_FINITE,
    OTHER_DIGITS,
    READABLE,
    SIGNS,
    TOKEN,
    WORD,
    Unreadable,
    check_length,
    key,
    quote,
    unknown,
)

__all__ = [
    "MAX_DEPTH",
    "MAX_LENGTH",
    "SIGNS",
    "Parser",
    "Unreadable",
    "check_length",
    "quote",
    "read_number",
]


@dataclass
class Parser:
    text: str
    decimal_comma: bool
    offset: int = 0
    """Where text starts in what the student typed (a vector entry starts after a comma)."""
    entry: str = ""
    """How a vector entry is named in messages, e.g. "entry 2"; empty for one number."""
    spaced: bool = False
    """Vector entries separated by blank space (read_spaced): a sign after a blank and glued
    to what follows starts the next entry, as in NumPy's `[ 0.5 -1.5]`."""
    separator: str = ""
    """The sign between a vector's entries ("," or ";"), named in messages; empty when blank
    space separates them or there is one number."""
    pos: int = 0
    depth: int = 0

    @property
    def subject(self) -> str:
        return self.entry.capitalize() if self.entry else "The answer"

    def fail(self, why: str, at: int | None = None) -> Unreadable:
        """A sentence naming the text that could not be read, where it is, and why."""
        start = self.pos if at is None else at
        rest = self.text[start:].lstrip()
        start = len(self.text) - len(rest)
        if not rest:
            return Unreadable(f"{self.subject} ends too soon: {why}.")
        inside = f" in {self.entry}" if self.entry else ""
        character = self.offset + start + 1
        return Unreadable(
            f"Could not read {quote(rest)}{inside} (character {character}): {why}.", character
        )

    def not_finite(self, name: str) -> Unreadable:
        return Unreadable(f"{self.subject} must be a finite number, not {quote(name)}.")

    def finite(self, value: float) -> float:
        if not math.isfinite(value):
            raise Unreadable(f"{self.subject} is too large to compute.")
        return value

    def nested(self, parse: Callable[[], float]) -> float:
        """Parse a part that sits inside another; refuse nesting deeper than MAX_DEPTH."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise Unreadable(
                f"{self.subject} puts more than {MAX_DEPTH} parentheses, signs, powers or "
                "functions inside each other; write it more simply."
            )
        value = parse()
        self.depth -= 1
        return value

    def peek(self) -> str | None:
        match = TOKEN.match(self.text, self.pos)
        return match.group(0).strip() if match else None

    def take(self) -> str:
        match = TOKEN.match(self.text, self.pos)
        if not match:
            raise self.fail(READABLE)
        self.pos = match.end()
        return match.group(0).strip()

    def expression(self) -> float:
        value = self.term()
        while self.peek() in ("+", "-") and not self.signed_entry():
            op = self.take()
            right = self.term()
            value = self.finite(value + right if op == "+" else value - right)
        return value

    def signed_entry(self) -> bool:
        """Whether a sign starts the next entry: spaced, after a blank, glued to what follows."""
        rest = self.text[self.pos :]
        if not self.spaced or not rest[:1].isspace():
            return False
        sign = rest.lstrip()
        return len(sign) > 1 and not sign[1].isspace()

    def term(self) -> float:
        value = self.unary()
        while self.peek() in ("*", "/"):
            op = self.take()
            right = self.unary()
            if op == "/" and right == 0:
                raise Unreadable(f"{self.subject} divides by zero, so it has no value.")
            value = self.finite(value * right if op == "*" else value / right)
        return value

    def unary(self) -> float:
        if self.peek() in ("+", "-"):
            sign = -1.0 if self.take() == "-" else 1.0
            return sign * self.nested(self.unary)
        return self.power()

    def power(self) -> float:
        base = self.atom()
        if self.peek() not in ("^", "**"):
            return base
        self.take()
        exponent = self.nested(self.unary)
        shown = f"({base:g})^{exponent:g}" if base < 0 else f"{base:g}^{exponent:g}"
        try:
            value = base**exponent
        except OverflowError:
            raise Unreadable(f"The power {shown} is too large to compute.") from None
        except ZeroDivisionError:
            raise Unreadable(f"Zero to a negative power ({shown}) has no value.") from None
        if isinstance(value, complex):
            raise Unreadable(
                f"A negative number to a fractional power ({shown}) has no real value."
            )
        return self.finite(value)

    def atom(self) -> float:
        token = self.peek()
        if token is None:
            if not self.entry and self.text[self.pos :].lstrip().startswith("["):
                raise self.fail("this question asks for one number, not a list")
            if self.text[self.pos :].lstrip()[:1].isdecimal():
                raise self.fail(OTHER_DIGITS)
            raise self.fail("expected a number")
        if token == "(":
            self.take()
            value = self.nested(self.expression)
            if self.peek() != ")":
                raise self.fail("a “(” is not closed")
            self.take()
            return value
        if token[0] in "0123456789.,":
            start = self.pos
            return self.number(self.take(), start)
        if WORD.fullmatch(token):
            start = self.pos
            return self.name(self.take(), start)
        raise self.fail("expected a number")

    def number(self, token: str, start: int) -> float:
        if "," in token and not self.decimal_comma:
            raise self.fail("use a point for decimals inside a list of numbers", start)
        word = WORD.match(self.text, self.pos)  # a name glued to the number, as in 2e or 2pi
        if word:
            name = word.group(0)
            if key(name) in NOT_FINITE:
                raise self.not_finite(name)
            if key(name) not in (*CONSTANTS, *FUNCTIONS):
                raise self.fail(unknown(name))
            if key(name) == "e" and "e" not in token.lower():
                raise self.fail(
                    f"after a number, e must be followed by digits for a power of ten, as in "
                    f"{token}e-3; for {token} times e, write {token}*e"
                )
            raise self.fail(f"put * between {token} and {name}, as in {token}*{name}")
        value = float(token.replace(",", "."))
        if math.isinf(value):
            raise Unreadable(
                f"The number {quote(token)} is too large to use; the largest is about 1.8e308."
            )
        return value

    def name(self, token: str, start: int) -> float:
        found = key(token)
        if found in NOT_FINITE:
            raise self.not_finite(token)
        if found in CONSTANTS:
            return CONSTANTS[found]
        if found not in FUNCTIONS:
            raise self.fail(unknown(token), start)
        argument = self.nested(self.atom)  # sqrt(2), sqrt 2 and √2 all read the same
        function = "sqrt" if found == "√" else found
        try:
            value = FUNCTIONS[found](argument)
        except ValueError:
            raise Unreadable(f"The function {function} is not defined at {argument:g}.") from None
        except OverflowError:
            raise Unreadable(
                f"The value of {function}({argument:g}) is too large to compute."
            ) from None
        return self.finite(value)

    def done(self) -> None:
        rest = self.text[self.pos :].strip()
        if rest.startswith(")"):
            raise self.fail("this “)” has no “(” to close")
        if rest and self.peek() is None:
            raise self.fail(OTHER_DIGITS if rest[0].isdecimal() else READABLE)
        if rest:
            raise self.fail(self.after_number())

    def after_number(self) -> str:
        """Why more text cannot follow a complete number, in the words of what is asked."""
        token = self.peek() or ""
        if WORD.fullmatch(token) and key(token) not in (*CONSTANTS, *FUNCTIONS, *NOT_FINITE):
            return unknown(token)  # a word after the number, as in "0.84 radians"
        if self.entry:  # a list: the numbers need the list's separator between them
            between = f"“{self.separator}”" if self.separator else "a blank or a comma"
            return f"a number ends just before this; put {between} between every two numbers"
        if self.text[self.pos : self.pos + 1].isspace():  # "2 3", "0 1.41" or "2, 3"
            return (
                "this question asks for one number, and a second one starts here; to "
                "combine them, put an operator such as * or + between them"
            )
        return (
            "a complete number ends just before this; join the parts with an operator "
            "such as * or +"
        )

    def read(self) -> float:
        if not self.text.strip():
            empty = f"{self.subject} is empty"
            raise Unreadable(f"{empty}." if not self.entry else f"{empty}: put a number there.")
        value = self.expression()
        self.done()
        return value

    def read_spaced(self) -> list[float]:
        """Entries separated by blank space, each named "entry n" in messages."""
        values: list[float] = []
        while True:
            self.entry = f"entry {len(values) + 1}"
            values.append(self.expression())
            rest = self.text[self.pos :]
            if not rest.strip():
                return values
            if not rest[0].isspace() or self.peek() in (None, ")"):
                self.done()  # raises: says what cannot follow the entry


def read_number(text: str, decimal_comma: bool = True) -> float:
    """The value of one number or arithmetic expression; Unreadable if it is not one."""
    check_length(text)
    return Parser(text.translate(SIGNS), decimal_comma).read()

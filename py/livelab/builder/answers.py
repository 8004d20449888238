"""Numeric answers: judge what a student typed against the fence's answer.

The typed text is read by livelab.builder.answer_text (numbers, decimal comma, scientific notation,
arithmetic, lists; see its docstring); this module compares the value with the answer at
the precision the question asks and says, in a sentence the page shows after "Correct." or
"Not yet.", how close it was.

Build only, like the rest of livelab.builder: the page grades with its JavaScript twin
(web/grading/numeric.js), and no worker grades a numeric answer. This is the reference the
build replays each fence's answers with (kinds/numeric.py) and the tests hold the page to
(tests/answer_vectors.json).
"""

from __future__ import annotations

from dataclasses import dataclass

from livelab.builder.answer_text import SIGNS, Unreadable, read_number
from livelab.builder.answer_vector import DECIMAL_EXAMPLE, DIGIT_COMMA, read_vector

__all__ = ["NumericSpec", "Unreadable", "grade_numeric", "read_number", "read_vector"]


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

    def nearly(self, gap: float) -> bool:
        """Whether a miss this size looks like rounding too early rather than a mistake."""
        if self.decimals is None:
            return gap < 0.5
        return gap <= 10.0 ** (1 - self.decimals)

    @property
    def keep_precision(self) -> str:
        """The rest of a sentence saying "close": what to do about it."""
        if self.decimals is None:
            return ", but this answer is exact: no rounding is needed."
        return f". Work with unrounded values and give {self.decimals} decimals."

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
        return {"verdict": "unreadable", "message": str(exc), "column": exc.column}
    if spec.close(value, spec.answer):
        return {"verdict": "correct", "message": ""}
    for wrong_value, message in spec.wrong:
        if spec.close(value, wrong_value):
            return {"verdict": "wrong", "message": message}
    return {"verdict": "wrong", "message": _why_wrong(spec, value, text)}


def _entries(numbers: list[int]) -> str:
    if len(numbers) == 1:
        return f"Entry {numbers[0]} is"
    return f"Entries {', '.join(map(str, numbers[:-1]))} and {numbers[-1]} are"


def _why_wrong(spec: NumericSpec, value: float | tuple[float, ...], text: str) -> str:
    """Feedback for a wrong value: close but rounded too early, or off."""
    if isinstance(spec.answer, tuple):
        assert isinstance(value, tuple)
        if len(value) != len(spec.answer):
            count = f"The answer has {len(spec.answer)} numbers; you gave {len(value)}."
            if not DIGIT_COMMA.search(text.translate(SIGNS)):
                return count
            return (
                f"{count} If a comma in a number was meant as a decimal point, put “;” or "
                f"blanks between the numbers, as in {DECIMAL_EXAMPLE}."
            )
        gaps = [abs(v - t) for v, t in zip(value, spec.answer, strict=True)]
        far = [i for i, gap in enumerate(gaps, start=1) if not spec.nearly(gap)]
        if far:
            return f"{_entries(far[:1])} off; check how you computed it."
        near = [i for i, gap in enumerate(gaps, start=1) if gap > spec.tolerance]
        return f"{_entries(near)} close{spec.keep_precision}"
    assert not isinstance(value, tuple)
    if spec.nearly(abs(value - spec.answer)):
        return f"Close{spec.keep_precision}"
    return "That is not it. Rework the steps above and try again."

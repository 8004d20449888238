"""One option spec for everything an author writes in a fence: lab params and question options.

An Option says what a value may be (its type, from its default or from `types`; limits; a fixed
set of choices), whether the fence must give it, and one line saying what it is. The same spec
checks a fence at build time, checks a lab's inputs in the browser, draws a lab's control and
writes the authoring reference.
"""

from __future__ import annotations

import difflib
import math
from dataclasses import dataclass
from typing import Any

# How the page shows a labelled lab param. A param without a label has no control of its own:
# it is a setting fixed by the fence, or one that buttons change (a "Run" button sets run: true).
CONTROLS = ("range", "number", "radio", "checkbox")


def text(key: str, **values: object) -> str:
    """A refusal of a value as the student who set it reads it, in the site's language
    (livelab.i18n, imported here only when something is refused). In the browser a lab's
    controls send such values (an emptied field, a number out of range) and the lab shows the
    sentence; a build reports the same refusal of a fence's value."""
    from livelab import i18n

    return i18n.text(key, **values)


class _Required:
    def __repr__(self) -> str:
        return "REQUIRED"


REQUIRED: Any = _Required()
"""The default of an option that every fence must give."""


@dataclass(frozen=True)
class Option:
    """One option: its type comes from `types` when given, else from the default.

    Typed by default (bool, int, float, str or a vector of floats), an option is a lab param:
    limits apply to numbers and to every entry of a vector, a str takes one of `choices`
    ((value, label) pairs), and a `label` gives it a control of kind `control` on the page.
    Typed by `types`, it is a plain fence option (text, a list, a mapping...).
    """

    default: Any = REQUIRED
    minimum: float | None = None
    maximum: float | None = None
    step: float | str | None = None
    label: str | None = None
    control: str = "range"
    choices: tuple[tuple[str, str], ...] = ()
    what: str = ""
    """One line for the authoring reference and for messages, e.g. "the question, Markdown"."""
    types: tuple[type, ...] = ()
    digits: int = 2
    """Decimals a slider shows beside itself for a float value."""

    def __post_init__(self) -> None:
        if self.control not in CONTROLS:
            raise ValueError(f"control must be one of {', '.join(CONTROLS)}, got {self.control!r}")
        if not self.types and self.required:
            raise ValueError("an option without a default needs `types`")

    @property
    def required(self) -> bool:
        return self.default is REQUIRED

    @property
    def is_vector(self) -> bool:
        return isinstance(self.default, tuple)

    @property
    def is_bool(self) -> bool:
        return isinstance(self.default, bool)

    @property
    def is_choice(self) -> bool:
        return isinstance(self.default, str) and bool(self.choices)

    @property
    def is_int(self) -> bool:
        return isinstance(self.default, int) and not self.is_bool

    def type_name(self) -> str:
        """The accepted type in words, for the authoring reference."""
        if self.types:
            return " or ".join(_TYPE_NAMES.get(t, t.__name__) for t in self.types)
        if self.is_vector:
            return f"list of {len(self.default)} numbers"
        if self.is_choice:
            return "one of " + ", ".join(value for value, _ in self.choices)
        return _TYPE_NAMES.get(type(self.default), type(self.default).__name__)

    def show(self, value: object) -> str:
        """The value as a slider shows it beside itself: whole numbers plain, floats fixed."""
        if isinstance(value, float):
            text = f"{value:.{self.digits}f}"
            return text[1:] if text.startswith("-") and float(text) == 0 else text
        return str(value)

    def coerce(self, name: str, value: object) -> Any:
        """Return value as this option's type, or raise ValueError saying what is wrong."""
        if self.types:
            if isinstance(value, bool) and bool not in self.types:
                raise ValueError(
                    f"option {name!r} must be {self.what or self.type_name()}; got {value!r}"
                )
            if not isinstance(value, self.types):
                raise ValueError(
                    f"option {name!r} must be {self.what or self.type_name()}; got {value!r}"
                )
            return value
        if self.is_vector:
            return self._coerce_vector(name, value)
        if self.is_bool:
            if not isinstance(value, bool):
                raise ValueError(text("option.bool", name=name, value=repr(value)))
            return value
        if self.is_choice:
            allowed = [v for v, _ in self.choices]
            if value not in allowed:
                raise ValueError(
                    text("option.choice", name=name, allowed=", ".join(allowed), value=repr(value))
                )
            return str(value)
        if isinstance(self.default, str):
            if not isinstance(value, str):
                raise ValueError(text("option.text", name=name, value=repr(value)))
            return value
        return self._coerce_number(name, value)

    def _coerce_number(self, name: str, value: object) -> int | float:
        if value is None:  # the page sends null for an empty or unreadable number field
            raise ValueError(text("option.empty", name=name))
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(text("option.number", name=name, value=repr(value)))
        if self.is_int and value != int(value):
            raise ValueError(text("option.whole", name=name, value=repr(value)))
        number = int(value) if self.is_int else float(value)
        if not math.isfinite(number):
            raise ValueError(text("option.finite", name=name, value=repr(value)))
        self._check_range(name, number)
        self._check_step(name, number)
        return number

    def _check_step(self, name: str, number: int | float) -> None:
        # Whole-number steps are part of the contract (d_k moves in pairs); fractional steps
        # only set a slider's resolution, so typed values between them stay allowed.
        step, low = self.step, self.minimum or 0
        if self.is_int and isinstance(step, int) and step > 1 and (number - low) % step:
            raise ValueError(
                text("option.step", name=name, low=_bound(low), step=step, value=number)
            )

    def _check_range(self, name: str, number: float) -> None:
        low, high = self.minimum, self.maximum
        if (low is not None and number < low) or (high is not None and number > high):
            raise ValueError(
                text(
                    "option.range",
                    name=name,
                    low=_bound(low),
                    high=_bound(high),
                    value=f"{number:g}",
                )
            )

    def _coerce_vector(self, name: str, value: object) -> tuple[float, ...]:
        size = len(self.default)
        if not isinstance(value, (list, tuple)) or len(value) != size:
            raise ValueError(text("option.size", name=name, size=size, value=repr(value)))
        numbers = []
        for i, v in enumerate(value):
            if v is None:
                raise ValueError(text("option.empty", name=f"{name}[{i}]"))
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(text("option.finite_list", name=name, value=repr(value)))
            self._check_range(f"{name}[{i}]", float(v))
            numbers.append(float(v))
        return tuple(numbers)


_TYPE_NAMES = {
    bool: "true or false",
    int: "whole number",
    float: "number",
    str: "text",
    list: "list",
    dict: "mapping",
}


def _bound(limit: float | None) -> str:
    return "no limit" if limit is None else f"{limit:g}"


def did_you_mean(name: str, known: list[str] | tuple[str, ...]) -> str:
    """' (did you mean 'x'?)' for the closest known name, or '' when none is close."""
    close = difflib.get_close_matches(str(name), list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


class Options(dict):
    """The options of one fence kind or lab, by name, in display order."""

    def coerce(self, given: dict, owner: str = "this lab") -> dict:
        """Defaults overlaid with given values, checked; ValueError names what is wrong.

        Unknown names get a "did you mean"; a missing required option is named with what it
        is. Optional options without a value are left out (None defaults stay None).
        """
        unknown = sorted(set(given) - set(self), key=str)
        if unknown:
            hint = did_you_mean(unknown[0], list(self))
            raise ValueError(
                f"unknown option {', '.join(map(repr, unknown))}{hint}; "
                f"{owner} takes {', '.join(self)}"
            )
        out = {}
        for name, spec in self.items():
            if name in given:
                out[name] = spec.coerce(name, given[name])
            elif spec.required:
                raise ValueError(f"missing option {name!r} ({spec.what or spec.type_name()})")
            else:
                out[name] = spec.default
        return out

    def defaults(self) -> dict:
        """Every option's default (required ones left out)."""
        return {name: spec.default for name, spec in self.items() if not spec.required}

    def controls(self) -> dict[str, Option]:
        """The options that have a control on the page (those with a label)."""
        return {name: spec for name, spec in self.items() if spec.label}

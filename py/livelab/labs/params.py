"""Declared lab parameters: one spec drives fence validation, control markup and input checks."""

from __future__ import annotations

import math
from dataclasses import dataclass

# How the page shows a labelled param. A param without a label has no control of its own: it is
# a setting fixed by the fence, or one that buttons change (a "Run" button sets run: true).
CONTROLS = ("range", "number", "radio", "checkbox")


@dataclass(frozen=True)
class Param:
    """One lab parameter: its type comes from the default (bool, int, float, str or a vector).

    A str param takes one of `choices`, given as (value, label) pairs. Limits apply to numbers
    and to every entry of a vector.
    """

    default: bool | int | float | str | tuple[float, ...]
    minimum: float | None = None
    maximum: float | None = None
    step: float | str | None = None
    label: str | None = None
    control: str = "range"
    choices: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.control not in CONTROLS:
            raise ValueError(f"control must be one of {', '.join(CONTROLS)}, got {self.control!r}")

    @property
    def is_vector(self) -> bool:
        return isinstance(self.default, tuple)

    @property
    def is_bool(self) -> bool:
        return isinstance(self.default, bool)

    @property
    def is_choice(self) -> bool:
        return isinstance(self.default, str)

    @property
    def is_int(self) -> bool:
        return isinstance(self.default, int) and not self.is_bool

    def coerce(self, name: str, value: object) -> bool | int | float | str | tuple[float, ...]:
        """Return value as this param's type, or raise ValueError saying what is wrong."""
        if self.is_vector:
            return self._coerce_vector(name, value)
        if self.is_bool:
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, got {value!r}")
            return value
        if self.is_choice:
            allowed = [v for v, _ in self.choices]
            if value not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")
            return str(value)
        return self._coerce_number(name, value)

    def _coerce_number(self, name: str, value: object) -> int | float:
        if value is None:  # the page sends null for an empty or unreadable number field
            raise ValueError(f"{name} needs a number: the field is empty or not a number")
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name} must be a number, got {value!r}")
        if self.is_int and value != int(value):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        number = int(value) if self.is_int else float(value)
        if not math.isfinite(number):
            raise ValueError(f"{name} must be finite, got {value!r}")
        self._check_range(name, number)
        self._check_step(name, number)
        return number

    def _check_step(self, name: str, number: int | float) -> None:
        # Whole-number steps are part of the contract (d_k moves in pairs); fractional steps
        # only set a slider's resolution, so typed values between them stay allowed.
        step, low = self.step, self.minimum or 0
        if self.is_int and isinstance(step, int) and step > 1 and (number - low) % step:
            raise ValueError(
                f"{name} must be {_bound(low)} plus a multiple of {step}, got {number}"
            )

    def _check_range(self, name: str, number: float) -> None:
        low, high = self.minimum, self.maximum
        if (low is not None and number < low) or (high is not None and number > high):
            raise ValueError(f"{name} must lie in [{_bound(low)}, {_bound(high)}], got {number:g}")

    def _coerce_vector(self, name: str, value: object) -> tuple[float, ...]:
        size = len(self.default)  # type: ignore[arg-type]
        if not isinstance(value, (list, tuple)) or len(value) != size:
            raise ValueError(f"{name} must be a list of {size} numbers, got {value!r}")
        numbers = []
        for i, v in enumerate(value):
            if v is None:
                raise ValueError(f"{name}[{i}] needs a number: the field is empty or not a number")
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"{name} must hold finite numbers only, got {value!r}")
            self._check_range(f"{name}[{i}]", float(v))
            numbers.append(float(v))
        return tuple(numbers)


def _bound(limit: float | None) -> str:
    return "no limit" if limit is None else f"{limit:g}"


class Params(dict):
    """The parameters of one lab, by name, in display order."""

    def coerce(self, given: dict) -> dict:
        """Defaults overlaid with given values; unknown names and bad values raise ValueError."""
        unknown = sorted(set(given) - set(self))
        if unknown:
            raise ValueError(
                f"unknown setting {', '.join(map(repr, unknown))}; this lab takes {', '.join(self)}"
            )
        return {
            name: spec.coerce(name, given[name]) if name in given else spec.default
            for name, spec in self.items()
        }

    def controls(self) -> dict[str, Param]:
        """The params that have a control on the page (those with a label)."""
        return {name: spec for name, spec in self.items() if spec.label}

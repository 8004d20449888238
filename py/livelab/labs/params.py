"""Declared lab parameters: one spec drives fence validation, slider markup and input checks."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass(frozen=True)
class Param:
    """One lab parameter. A param with a label is a slider control; without, a fixed setting."""

    default: float | int | tuple[float, ...]
    minimum: float | None = None
    maximum: float | None = None
    step: float | None = None
    label: str | None = None

    @property
    def is_vector(self) -> bool:
        return isinstance(self.default, tuple)

    @property
    def is_int(self) -> bool:
        return isinstance(self.default, int)

    def coerce(self, name: str, value: object) -> float | int | tuple[float, ...]:
        """Return value as this param's type, or raise ValueError saying what is wrong."""
        if self.is_vector:
            return self._coerce_vector(name, value)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueError(f"{name} must be a number, got {value!r}")
        if self.is_int and value != int(value):
            raise ValueError(f"{name} must be a whole number, got {value!r}")
        number = int(value) if self.is_int else float(value)
        if not math.isfinite(number):
            raise ValueError(f"{name} must be finite, got {value!r}")
        low, high = self.minimum, self.maximum
        if (low is not None and number < low) or (high is not None and number > high):
            raise ValueError(f"{name} must lie in [{low}, {high}], got {value!r}")
        return number

    def _coerce_vector(self, name: str, value: object) -> tuple[float, ...]:
        size = len(self.default)  # type: ignore[arg-type]
        if not isinstance(value, (list, tuple)) or len(value) != size:
            raise ValueError(f"{name} must be a list of {size} numbers, got {value!r}")
        if any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in value):
            raise ValueError(f"{name} must hold numbers only, got {value!r}")
        return tuple(float(v) for v in value)


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
        """The params shown as sliders."""
        return {name: spec for name, spec in self.items() if spec.label}

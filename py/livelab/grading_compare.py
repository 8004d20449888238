"""Strict comparison of a returned value with the reference: type, then shape, then values.

A mismatch says what happened and what to change, in words a student can act on. The NaN
policy: a NaN or infinity in the answer fails unless the reference has the same non-finite
value at the same place (the course's reference kernels never return NaN).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

_FLOAT_FIX = "keep the values as floats: no rounding, int() or astype"
_DTYPES = {  # kind -> (what the array holds, what to do)
    "i": ("integers", _FLOAT_FIX),
    "u": ("unsigned integers", _FLOAT_FIX),
    "b": ("booleans", "return the computed numbers, not a comparison"),
    "c": ("complex numbers", "return real numbers (take .real if you used complex ones)"),
    "O": ("Python objects", "build the array from plain numbers"),
    "U": ("text", "return numbers, not strings"),
    "S": ("bytes", "return numbers, not strings"),
}


@dataclass(frozen=True)
class Mismatch:
    """Why a returned value is not the expected array."""

    kind: str
    """One of none, sequence, scalar, type, subclass, dtype, shape, nan, values."""
    detail: str
    """What happened, as a clause after "your function", e.g. "returned a list"."""
    fix: str
    """What to change, e.g. "wrap the result in np.array(...)"."""


def _number(x: Any) -> str:
    if isinstance(x, (complex, np.complexfloating)):
        return str(x)
    try:
        return f"{float(x):.6g}"
    except (TypeError, ValueError):
        return repr(x)


def _index(position: tuple[int, ...]) -> str:
    return str(position[0]) if len(position) == 1 else str(position)


def _shape_fix(got: tuple[int, ...], want: tuple[int, ...]) -> str:
    if got == (1, *want):
        return "drop the extra leading axis of length 1"
    if got == (*want, 1):
        return "drop the extra trailing axis of length 1"
    if got[1:] == want and got[:1] != (1,):
        return f"return one result per input, with shape {want}"
    if int(np.prod(got)) == int(np.prod(want)):
        return "the count of numbers is right but they are arranged differently: check the axes"
    try:
        np.broadcast_shapes(got, want)
    except ValueError:
        return f"the result must have shape {want}"
    return f"these shapes broadcast together, but the result must have exactly shape {want}"


def _plain_number(value: Any) -> str:
    """The value of a built-in or NumPy scalar; other objects are not touched."""
    if type(value) in (int, float, bool) or type(value).__module__ == "numpy":
        return f" ({_number(np.asarray(value).item())})"
    return ""


def compare(value: Any, expected: np.ndarray, rtol: float, atol: float) -> Mismatch | None:
    """Compare a returned value with the reference array; None when it is accepted.

    Only the exact type of value is inspected before it is known to be a plain ndarray, so
    no method of a student-defined object runs here.
    """
    want, kind = expected.shape, type(value)
    if value is None:
        return Mismatch("none", "returned None", f"return an array of shape {want}")
    if issubclass(kind, (list, tuple)):
        name = "list" if issubclass(kind, list) else "tuple"
        return Mismatch("sequence", f"returned a {name}", "wrap the result in np.array(...)")
    if issubclass(kind, (int, float, complex, np.generic)) or (
        kind is np.ndarray and value.ndim == 0 and expected.ndim > 0
    ):
        return Mismatch(
            "scalar",
            f"returned a single number{_plain_number(value)}",
            f"return the whole array of shape {want}, not one number",
        )
    if not issubclass(kind, np.ndarray):
        return Mismatch(
            "type", f"returned a {kind.__name__}", f"return a NumPy array of shape {want}"
        )
    if kind is not np.ndarray:
        return Mismatch(
            "subclass",
            f"returned a {kind.__name__}",
            "return a plain NumPy array (np.asarray turns it into one)",
        )
    if value.dtype.kind != "f":
        holds, fix = _DTYPES.get(value.dtype.kind, (str(value.dtype), "return an array of floats"))
        return Mismatch("dtype", f"returned an array of {holds} ({value.dtype})", fix)
    if value.shape != want:
        detail = f"returned shape {value.shape} instead of {want}"
        return Mismatch("shape", detail, _shape_fix(value.shape, want))
    got = value.astype(float)
    ref = expected.astype(float)
    same_nonfinite = (np.isnan(got) & np.isnan(ref)) | (np.isinf(got) & (got == ref))
    broken = ~np.isfinite(got) & ~same_nonfinite
    if broken.any():
        position = tuple(int(i) for i in np.argwhere(broken)[0])
        return Mismatch(
            "nan",
            f"returned {_number(got[position])} at index {_index(position)} where "
            f"{_number(ref[position])} is expected",
            "make sure nothing is divided by zero",
        )
    close = np.isclose(got, ref, rtol=rtol, atol=atol) | same_nonfinite
    if not close.all():
        position = tuple(int(i) for i in np.argwhere(~close)[0])
        return Mismatch(
            "values",
            f"returned {_number(got[position])} at index {_index(position)} where "
            f"{_number(ref[position])} is expected",
            "check each step of your formula against the definition",
        )
    return None


def same_behaviour(
    value: Any, raised: bool, other_value: Any, other_raised: bool, rtol: float, atol: float
) -> bool:
    """True when two outcomes agree: both raised, or equal numeric arrays (NaN equals NaN)."""
    if raised or other_raised:
        return raised and other_raised
    if type(value) is not np.ndarray or type(other_value) is not np.ndarray:
        return False
    if value.shape != other_value.shape or value.dtype.kind != other_value.dtype.kind:
        return False
    if value.dtype.kind not in "fiub":
        return False
    return bool(np.allclose(value, other_value, rtol=rtol, atol=atol, equal_nan=True))

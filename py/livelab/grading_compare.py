"""Strict comparison of a returned value with the reference: type, then shape, then values.

The value is a description (livelab.grading_wire.Returned) made where the student code ran.

A mismatch says what happened and what to change, in words a student can act on. The NaN
policy: a NaN or infinity in the answer fails unless the reference has the same non-finite
value at the same place (the course's reference kernels never return NaN).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from livelab.grading_wire import Returned, WireError, number_text

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


def compare(value: Returned, expected: np.ndarray, rtol: float, atol: float) -> Mismatch | None:
    """Compare a returned value (as livelab.grading_wire describes it) with the reference
    array; None when it is accepted."""
    want = expected.shape
    if value.kind == "none":
        return Mismatch("none", "returned None", f"return an array of shape {want}")
    if value.kind in ("list", "tuple"):
        return Mismatch("sequence", f"returned a {value.kind}", "wrap the result in np.array(...)")
    if value.kind == "scalar" or (value.kind == "array" and value.shape == () and want != ()):
        shown = f" ({value.shown})" if value.shown else ""
        return Mismatch(
            "scalar",
            f"returned a single number{shown}",
            f"return the whole array of shape {want}, not one number",
        )
    if value.kind == "object":
        return Mismatch(
            "type", f"returned a {value.type_name}", f"return a NumPy array of shape {want}"
        )
    if value.kind == "subclass":
        return Mismatch(
            "subclass",
            f"returned a {value.type_name}",
            "return a plain NumPy array (np.asarray turns it into one)",
        )
    if value.dtype_kind != "f":
        holds, fix = _DTYPES.get(value.dtype_kind, (value.dtype_name, "return an array of floats"))
        return Mismatch("dtype", f"returned an array of {holds} ({value.dtype_name})", fix)
    if value.shape != want:
        detail = f"returned shape {value.shape} instead of {want}"
        return Mismatch("shape", detail, _shape_fix(value.shape, want))
    if value.values is None:  # a float array of the expected shape always travels whole
        raise WireError("the values of an array of the expected shape are missing")
    got = value.values.astype(float)
    ref = expected.astype(float)
    same_nonfinite = (np.isnan(got) & np.isnan(ref)) | (np.isinf(got) & (got == ref))
    broken = ~np.isfinite(got) & ~same_nonfinite
    if broken.any():
        position = tuple(int(i) for i in np.argwhere(broken)[0])
        return Mismatch(
            "nan",
            f"returned {number_text(got[position])} at index {_index(position)} where "
            f"{number_text(ref[position])} is expected",
            "make sure nothing is divided by zero",
        )
    close = np.isclose(got, ref, rtol=rtol, atol=atol) | same_nonfinite
    if not close.all():
        position = tuple(int(i) for i in np.argwhere(~close)[0])
        return Mismatch(
            "values",
            f"returned {number_text(got[position])} at index {_index(position)} where "
            f"{number_text(ref[position])} is expected",
            "check each step of your formula against the definition",
        )
    return None


def same_behaviour(
    value: Returned | None, other: Returned | None, rtol: float, atol: float
) -> bool:
    """True when two outcomes agree: both raised (None), or equal numeric arrays (NaN equals
    NaN)."""
    if value is None or other is None:
        return value is None and other is None
    if value.kind != "array" or other.kind != "array":
        return False
    if value.shape != other.shape or value.dtype_kind != other.dtype_kind:
        return False
    if value.values is None or other.values is None or value.dtype_kind not in "fiub":
        return False
    return bool(np.allclose(value.values, other.values, rtol=rtol, atol=atol, equal_nan=True))

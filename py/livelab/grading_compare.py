"""Strict comparison of a returned value with the reference: type, then shape, then values.

The value is a description (livelab.grading_wire.Returned) made where the student code ran.

A mismatch says what happened and what to change, in words a student can act on. The NaN
policy: a NaN or infinity in the answer fails unless the reference has the same non-finite
value at the same place (the course's reference kernels never return NaN).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from livelab import i18n
from livelab.grading_wire import Returned, WireError, number_text


def _dtype_mismatch(kind: str, dtype: str) -> tuple[str, str]:
    """(what the array holds, what to do) for an array whose dtype kind is not float."""
    if kind == "i":
        return i18n.text("grader.returned_integers", dtype=dtype), i18n.text("grader.fix_floats")
    if kind == "u":
        return i18n.text("grader.returned_unsigned", dtype=dtype), i18n.text("grader.fix_floats")
    if kind == "b":
        holds = i18n.text("grader.returned_booleans", dtype=dtype)
        return holds, i18n.text("grader.fix_not_comparison")
    if kind == "c":
        return i18n.text("grader.returned_complex", dtype=dtype), i18n.text("grader.fix_real")
    if kind == "O":
        holds = i18n.text("grader.returned_objects", dtype=dtype)
        return holds, i18n.text("grader.fix_plain_numbers")
    if kind == "U":
        return i18n.text("grader.returned_text", dtype=dtype), i18n.text("grader.fix_not_strings")
    if kind == "S":
        return i18n.text("grader.returned_bytes", dtype=dtype), i18n.text("grader.fix_not_strings")
    return i18n.text("grader.returned_dtype", dtype=dtype), i18n.text("grader.fix_float_array")


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


def _value_at(got: np.ndarray, ref: np.ndarray, position: tuple[int, ...]) -> str:
    """What was returned at a wrong position, beside what is expected there."""
    return i18n.text(
        "grader.returned_value_at",
        got=number_text(got[position]),
        index=_index(position),
        want=number_text(ref[position]),
    )


def _shape_fix(got: tuple[int, ...], want: tuple[int, ...]) -> str:
    if got == (1, *want):
        return i18n.text("grader.shape_drop_leading")
    if got == (*want, 1):
        return i18n.text("grader.shape_drop_trailing")
    if got[1:] == want and got[:1] != (1,):
        return i18n.text("grader.shape_one_per_input", shape=want)
    if int(np.prod(got)) == int(np.prod(want)):
        return i18n.text("grader.shape_arranged")
    try:
        np.broadcast_shapes(got, want)
    except ValueError:
        return i18n.text("grader.shape_must_be", shape=want)
    return i18n.text("grader.shape_broadcast", shape=want)


def compare(value: Returned, expected: np.ndarray, rtol: float, atol: float) -> Mismatch | None:
    """Compare a returned value (as livelab.grading_wire describes it) with the reference
    array; None when it is accepted."""
    want = expected.shape
    if value.kind == "none":
        fix = i18n.text("grader.fix_array_of_shape", shape=want)
        return Mismatch("none", i18n.text("grader.returned_none"), fix)
    if value.kind in ("list", "tuple"):
        said = (
            i18n.text("grader.returned_list")
            if value.kind == "list"
            else i18n.text("grader.returned_tuple")
        )
        return Mismatch("sequence", said, i18n.text("grader.fix_wrap_array"))
    if value.kind == "scalar" or (value.kind == "array" and value.shape == () and want != ()):
        said = (
            i18n.text("grader.returned_number_shown", value=value.shown)
            if value.shown
            else i18n.text("grader.returned_number")
        )
        return Mismatch("scalar", said, i18n.text("grader.fix_whole_array", shape=want))
    if value.kind == "object":
        said = i18n.text("grader.returned_object", type=value.type_name)
        return Mismatch("type", said, i18n.text("grader.fix_numpy_array", shape=want))
    if value.kind == "subclass":
        said = i18n.text("grader.returned_object", type=value.type_name)
        return Mismatch("subclass", said, i18n.text("grader.fix_plain_array"))
    if value.dtype_kind != "f":
        return Mismatch("dtype", *_dtype_mismatch(value.dtype_kind, value.dtype_name))
    if value.shape != want:
        detail = i18n.text("grader.returned_shape", got=value.shape, want=want)
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
            "nan", _value_at(got, ref, position), i18n.text("grader.fix_divide_by_zero")
        )
    close = np.isclose(got, ref, rtol=rtol, atol=atol) | same_nonfinite
    if not close.all():
        position = tuple(int(i) for i in np.argwhere(~close)[0])
        return Mismatch(
            "values", _value_at(got, ref, position), i18n.text("grader.fix_check_formula")
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

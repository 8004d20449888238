"""What travels between the worker that runs a student's blank and the one that grades it.

A check runs in two interpreters. The runner (livelab.grading_execute) holds no course, no
reference and no expected output; it runs the blank on the cases and describes what came
back. The grader (livelab.grading) never runs student code; it compares those descriptions
with the reference. Everything between them is JSON: an array travels as dtype, shape and
base64 bytes and is rebuilt only for plain numeric dtypes, so no object the student made is
ever called on the grader's side, and a damaged or forged reply is refused (WireError).
"""

from __future__ import annotations

import base64
import binascii
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

ARRAY_BYTES_LIMIT = 8 * 2**20
"""Bytes of a returned array sent whole; a bigger one travels as dtype and shape only."""
KINDS = ("none", "list", "tuple", "scalar", "object", "subclass", "array")
DATA_KINDS = "fiub"
"""dtype kinds whose values travel: the ones a comparison reads (floats, ints, booleans)."""


class WireError(ValueError):
    """A runner's reply that is not in the shape this module writes."""


@dataclass(frozen=True)
class Returned:
    """A value the student's function returned, as the grader sees it.

    kind: "none", "list", "tuple", "scalar", "object" (not an array), "subclass" (of
    ndarray) or "array" (a plain ndarray). type_name names an object's or subclass's type;
    shown is a scalar's value as text (empty when it is not a plain number). For an array:
    its dtype kind and name, shape, and values (None for other kinds or a too big array).
    """

    kind: str
    type_name: str = ""
    shown: str = ""
    dtype_kind: str = ""
    dtype_name: str = ""
    shape: tuple[int, ...] = ()
    values: np.ndarray | None = None


def number_text(x: Any) -> str:
    """A number as feedback shows it: 6 significant digits."""
    if isinstance(x, (complex, np.complexfloating)):
        return str(x)
    try:
        return f"{float(x):.6g}"
    except (TypeError, ValueError):
        return repr(x)


def _shown(value: Any) -> str:
    """The value of a built-in or NumPy scalar (or 0-d array); other objects are not touched."""
    if type(value) in (int, float, bool, np.ndarray) or type(value).__module__ == "numpy":
        return number_text(np.asarray(value).item())
    return ""


def describe(value: Any) -> Returned:
    """What a returned value is, read from its exact type only: no method of a
    student-defined object runs here."""
    kind = type(value)
    if value is None:
        return Returned("none")
    if issubclass(kind, (list, tuple)):
        return Returned("list" if issubclass(kind, list) else "tuple")
    if issubclass(kind, (int, float, complex, np.generic)):
        return Returned("scalar", shown=_shown(value))
    if not issubclass(kind, np.ndarray):
        return Returned("object", type_name=kind.__name__)
    if kind is not np.ndarray:
        return Returned("subclass", type_name=kind.__name__)
    shape = tuple(int(n) for n in value.shape)
    values = None
    if value.dtype.kind in DATA_KINDS and value.nbytes <= ARRAY_BYTES_LIMIT:
        values = np.ascontiguousarray(value).copy()
    return Returned(
        "array",
        shown=_shown(value) if value.ndim == 0 else "",
        dtype_kind=value.dtype.kind,
        dtype_name=str(value.dtype),
        shape=shape,
        values=values,
    )


def to_wire(returned: Returned) -> dict[str, Any]:
    wire: dict[str, Any] = {"kind": returned.kind}
    if returned.kind in ("object", "subclass"):
        wire["type_name"] = returned.type_name
    if returned.kind in ("scalar", "array"):
        wire["shown"] = returned.shown
    if returned.kind == "array":
        wire.update(dtype_kind=returned.dtype_kind, dtype_name=returned.dtype_name)
        wire["shape"] = list(returned.shape)
        if returned.values is not None:
            wire["dtype"] = returned.values.dtype.str
            wire["data"] = base64.b64encode(returned.values.tobytes()).decode("ascii")
    return wire


def _text(wire: dict[str, Any], key: str, limit: int = 200) -> str:
    value = wire.get(key, "")
    if not isinstance(value, str) or len(value) > limit:
        raise WireError(f"{key} is not a short text")
    return value


def _shape(wire: dict[str, Any]) -> tuple[int, ...]:
    shape = wire.get("shape")
    if not isinstance(shape, list) or len(shape) > 32:
        raise WireError("shape is not a list of sizes")
    if not all(type(n) is int and n >= 0 for n in shape):
        raise WireError("shape is not a list of sizes")
    return tuple(shape)


def _values(wire: dict[str, Any], kind: str, shape: tuple[int, ...]) -> np.ndarray | None:
    if "data" not in wire:
        return None
    dtype = np.dtype(_text(wire, "dtype", 8))
    if dtype.kind not in DATA_KINDS or dtype.kind != kind or dtype.fields is not None:
        raise WireError(f"values of dtype {dtype} do not travel")
    try:
        data = base64.b64decode(_text(wire, "data", 2 * ARRAY_BYTES_LIMIT), validate=True)
    except binascii.Error as err:
        raise WireError("data is not base64") from err
    if len(data) != math.prod(shape) * dtype.itemsize:
        raise WireError("data does not fill the shape")
    return np.frombuffer(data, dtype=dtype).reshape(shape)


def from_wire(wire: Any) -> Returned:
    """Rebuild a description; WireError when it is not one this module wrote."""
    if not isinstance(wire, dict) or wire.get("kind") not in KINDS:
        raise WireError("not a description of a returned value")
    kind = wire["kind"]
    if kind in ("none", "list", "tuple"):
        return Returned(kind)
    if kind in ("object", "subclass"):
        return Returned(kind, type_name=_text(wire, "type_name"))
    if kind == "scalar":
        return Returned(kind, shown=_text(wire, "shown"))
    shape = _shape(wire)
    dtype_kind = _text(wire, "dtype_kind", 1)
    try:
        values = _values(wire, dtype_kind, shape)
    except TypeError as err:
        raise WireError(str(err)) from err
    return Returned(
        "array",
        shown=_text(wire, "shown"),
        dtype_kind=dtype_kind,
        dtype_name=_text(wire, "dtype_name", 40),
        shape=shape,
        values=values,
    )


def inputs_to_wire(value: Any) -> Any:
    """A case's argument as JSON: arrays, tuples, lists and dicts tagged (and walked), numbers
    and text as they are."""
    if isinstance(value, np.ndarray):
        data = base64.b64encode(np.ascontiguousarray(value).tobytes()).decode("ascii")
        return {"array": {"dtype": value.dtype.str, "shape": list(value.shape), "data": data}}
    if isinstance(value, (list, tuple)):
        return {"tuple" if isinstance(value, tuple) else "list": [inputs_to_wire(v) for v in value]}
    if isinstance(value, dict):
        return {"dict": {str(k): inputs_to_wire(v) for k, v in value.items()}}
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"a case argument of type {type(value).__name__} cannot travel")


def inputs_from_wire(wire: Any) -> Any:
    if isinstance(wire, dict) and "array" in wire:
        spec = wire["array"]
        data = base64.b64decode(spec["data"])
        return np.frombuffer(data, dtype=np.dtype(spec["dtype"])).reshape(spec["shape"]).copy()
    if isinstance(wire, dict) and "tuple" in wire:
        return tuple(inputs_from_wire(v) for v in wire["tuple"])
    if isinstance(wire, dict) and "list" in wire:
        return [inputs_from_wire(v) for v in wire["list"]]
    if isinstance(wire, dict) and "dict" in wire:
        return {k: inputs_from_wire(v) for k, v in wire["dict"].items()}
    return wire

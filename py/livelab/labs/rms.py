"""RMS lab: RMSNorm of a short vector worked out step by step, LayerNorm of it alongside.

Every entry is editable; a shift c is added to every entry before both norms, which shows
that LayerNorm ignores such a shift (it subtracts the mean) while RMSNorm does not. With
eps = 0 an all-zero row has no RMSNorm: the lab shows the kernel's error instead of NaN.
"""

from __future__ import annotations

import numpy as np

from livelab.kernels import layernorm, rmsnorm, root_mean_square
from livelab.labs.params import Param, Params
from livelab.labs.view import fmt_number, fmt_vector

MAX_ENTRIES = 6
DIGITS = 4

PARAMS = Params(
    size=Param(2, 2, MAX_ENTRIES, 1, "Number of entries"),
    x=Param((3.0, 4.0, -2.0, 1.0, 0.5, -1.5), -10.0, 10.0, 0.1),
    shift=Param(0.0, -10.0, 10.0, 0.5, "Shift every entry by c"),
    eps=Param(1e-6, 0.0, 1.0, "any", "eps (added inside the square root)", control="number"),
)


def _norm_or_error(norm, row: np.ndarray, eps: float) -> tuple[list[float] | None, str]:
    """The norm of row, or None and the kernel's message when the kernel refuses the row."""
    try:
        return norm(row, eps=eps).tolist(), ""
    except ValueError as exc:
        return None, str(exc)


def state(
    size: int = 2,
    x: tuple[float, ...] = (3.0, 4.0, -2.0, 1.0, 0.5, -1.5),
    shift: float = 0.0,
    eps: float = 1e-6,
) -> dict:
    """Both norms of the first `size` entries of x plus shift, with RMSNorm's steps."""
    original = np.array(x[:size], dtype=float)  # [size]
    row = original + shift  # [size]
    squares = row * row
    rms_out, rms_error = _norm_or_error(rmsnorm, row, eps)
    ln_out, ln_error = _norm_or_error(layernorm, row, eps)
    rms_before, _ = _norm_or_error(rmsnorm, original, eps)
    ln_before, _ = _norm_or_error(layernorm, original, eps)
    return {
        "size": size,
        "shift": shift,
        "eps": eps,
        "x": original.tolist(),
        "row": row.tolist(),
        "squares": squares.tolist(),
        "mean_square": float(np.mean(squares)),
        "rms": float(root_mean_square(row)),
        "divisor": float(np.sqrt(np.mean(squares) + eps)),
        "rms_out": rms_out,
        "rms_out_mean_square": None if rms_out is None else float(np.mean(np.square(rms_out))),
        "rms_error": rms_error,
        "mean": float(np.mean(row)),
        "centered": (row - np.mean(row)).tolist(),
        "std": float(np.std(row)),
        "ln_out": ln_out,
        "ln_error": ln_error,
        "rms_before_shift": rms_before,
        "ln_before_shift": ln_before,
    }


def _same(a: list[float] | None, b: list[float] | None) -> bool:
    return a is not None and b is not None and np.allclose(a, b, atol=1e-9)


def _shift_effect(name: str, after: list[float] | None, before: list[float] | None) -> str:
    if after is None or before is None:
        return f"{name}: not defined for this row"
    if _same(after, before):
        return f"{name}: the same as without the shift"
    return f"{name}: changed by the shift (without it: {fmt_vector(before, DIGITS)})"


def view(s: dict) -> dict:
    """Every step as text; entries beyond `size` are hidden."""
    missing = "—"
    rms_ok, ln_ok = s["rms_out"] is not None, s["ln_out"] is not None
    text = {
        "size": str(s["size"]),
        "shift": fmt_number(s["shift"], 1),
        "row": fmt_vector(s["row"], DIGITS),
        "squares": fmt_vector(s["squares"], DIGITS),
        "mean_square": fmt_number(s["mean_square"], DIGITS),
        "rms": fmt_number(s["rms"], DIGITS),
        "divisor": fmt_number(s["divisor"], DIGITS),
        "rms_out": fmt_vector(s["rms_out"], DIGITS) if rms_ok else missing,
        "rms_out_mean_square": (
            fmt_number(s["rms_out_mean_square"], DIGITS) if rms_ok else missing
        ),
        "rms_error": s["rms_error"],
        "mean": fmt_number(s["mean"], DIGITS),
        "centered": fmt_vector(s["centered"], DIGITS),
        "std": fmt_number(s["std"], DIGITS),
        "ln_out": fmt_vector(s["ln_out"], DIGITS) if ln_ok else missing,
        "ln_error": s["ln_error"],
    }
    if s["shift"] == 0:
        text["rms_shift"] = "RMSNorm: no shift applied (c = 0)"
        text["ln_shift"] = "LayerNorm: no shift applied (c = 0)"
    else:
        text["rms_shift"] = _shift_effect("RMSNorm", s["rms_out"], s["rms_before_shift"])
        text["ln_shift"] = _shift_effect("LayerNorm", s["ln_out"], s["ln_before_shift"])
    hidden = {f"entry-{i}": i >= s["size"] for i in range(MAX_ENTRIES)}
    return {"text": text, "hidden": hidden}

"""Normalizations over the last axis: LayerNorm and RMSNorm.

Both act on each row (the last axis) on its own, for any number of leading batch axes.
"""

from __future__ import annotations

import numpy as np


def _checked_gain(gain: np.ndarray | None, d: int, name: str) -> np.ndarray | None:
    """Return gain as a float array of shape [d], or None."""
    if gain is None:
        return None
    gain = np.asarray(gain, dtype=float)
    if gain.shape != (d,):
        raise ValueError(f"{name} needs shape ({d},) to match the last axis, got {gain.shape}")
    return gain


def _reject_zero_spread(spread: np.ndarray, eps: float, kernel: str, what: str) -> None:
    """Raise when a row would be divided by zero (eps = 0 and a zero spread)."""
    if eps < 0:
        raise ValueError(f"{kernel} needs eps >= 0, got {eps}")
    if eps == 0 and np.any(spread == 0):
        at = ""
        if spread.ndim > 1:
            index = tuple(int(i) for i in np.argwhere(spread[..., 0] == 0)[0])
            at = f" (row {index[0] if len(index) == 1 else index})"
        raise ValueError(f"{kernel} with eps=0 is undefined for {what}{at}: pass a positive eps")


def layernorm(
    x: np.ndarray,
    gain: np.ndarray | None = None,
    bias: np.ndarray | None = None,
    eps: float = 1e-5,
) -> np.ndarray:
    """LayerNorm over the last axis: (x - mean) / sqrt(var + eps), then gain and bias.

    Shapes: x [..., d], gain [d], bias [d] -> [..., d]. The variance is the biased one
    (divide by d). With eps=0 a constant row is rejected with ValueError.
    """
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    gain, bias = _checked_gain(gain, d, "gain"), _checked_gain(bias, d, "bias")
    centered = x - np.mean(x, axis=-1, keepdims=True)  # [..., d]
    var = np.mean(centered * centered, axis=-1, keepdims=True)  # [..., 1]
    _reject_zero_spread(var, eps, "LayerNorm", "a constant row")
    y = centered / np.sqrt(var + eps)  # [..., d]
    if gain is not None:
        y = y * gain
    if bias is not None:
        y = y + bias
    return y


def rmsnorm(x: np.ndarray, gain: np.ndarray | None = None, eps: float = 1e-6) -> np.ndarray:
    """RMSNorm over the last axis: x / sqrt(mean(x**2) + eps), times an optional gain.

    Shapes: x [..., d], gain [d] -> [..., d]. No mean is subtracted and there is no shift.
    eps sits inside the square root. With eps=0 an all-zero row is rejected with ValueError
    instead of returning NaN.
    """
    x = np.asarray(x, dtype=float)
    gain = _checked_gain(gain, x.shape[-1], "gain")
    mean_square = np.mean(x * x, axis=-1, keepdims=True)  # [..., 1]
    _reject_zero_spread(mean_square, eps, "RMSNorm", "an all-zero row")
    y = x / np.sqrt(mean_square + eps)  # [..., d]
    return y if gain is None else y * gain


def root_mean_square(x: np.ndarray) -> np.ndarray:
    """The root mean square of each row, sqrt(mean(x**2)).

    Shapes: x [..., d] -> [...].
    """
    x = np.asarray(x, dtype=float)
    return np.sqrt(np.mean(x * x, axis=-1))  # [...]

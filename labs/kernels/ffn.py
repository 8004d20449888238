"""Feed-forward networks: the ReLU FFN of 2017 and the gated SwiGLU FFN.

Weights are stored input-major: a row vector x [d_model] is projected as x @ W with
W [d_model, d_ff], so every kernel works on [..., d_model] rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    # Annotations only: numpy.typing costs the browser an import before the first lab view.
    import numpy.typing as npt


def sigmoid(z: npt.ArrayLike) -> np.ndarray:
    """The logistic function 1 / (1 + exp(-z)), computed without overflow.

    Shapes: z [...] -> [...].
    """
    z = np.asarray(z, dtype=float)
    e = np.exp(-np.abs(z))  # in (0, 1], never overflows
    return np.where(z >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


def silu(z: npt.ArrayLike) -> np.ndarray:
    """SiLU (also called swish): z * sigmoid(z). Keeps a small negative part, unlike ReLU.

    Shapes: z [...] -> [...].
    """
    z = np.asarray(z, dtype=float)
    return z * sigmoid(z)


def relu(z: npt.ArrayLike) -> np.ndarray:
    """ReLU: max(z, 0) entry by entry.

    Shapes: z [...] -> [...].
    """
    return np.maximum(np.asarray(z, dtype=float), 0.0)


def _check_projection(x: np.ndarray, w: np.ndarray, name: str) -> None:
    if w.ndim != 2 or w.shape[0] != x.shape[-1]:
        raise ValueError(
            f"{name} must have shape ({x.shape[-1]}, hidden) to multiply rows of width "
            f"{x.shape[-1]}, got {w.shape}"
        )


def relu_ffn(
    x: np.ndarray,
    W1: np.ndarray,
    W2: np.ndarray,
    b1: np.ndarray | None = None,
    b2: np.ndarray | None = None,
) -> np.ndarray:
    """The two-matrix FFN: relu(x @ W1 + b1) @ W2 + b2 (biases optional).

    Shapes: x [..., d_model], W1 [d_model, d_ff], W2 [d_ff, d_model] -> [..., d_model].
    """
    x, W1, W2 = (np.asarray(a, dtype=float) for a in (x, W1, W2))
    _check_projection(x, W1, "W1")
    hidden = x @ W1  # [..., d_ff]
    if b1 is not None:
        hidden = hidden + b1
    _check_projection(hidden, W2, "W2")
    out = relu(hidden) @ W2  # [..., d_model]
    return out if b2 is None else out + b2


def swiglu_ffn(
    x: np.ndarray,
    W_gate: np.ndarray,
    W_up: np.ndarray,
    W_down: np.ndarray,
    *,
    b_gate: np.ndarray | None = None,
    b_up: np.ndarray | None = None,
    b_down: np.ndarray | None = None,
) -> np.ndarray:
    """The gated FFN: (silu(x @ W_gate) * (x @ W_up)) @ W_down, biases optional.

    The gate branch goes through SiLU, the value (up) branch does not; their entry-by-entry
    product is projected back to the model width.
    Shapes: x [..., d_model], W_gate and W_up [d_model, d_ff], W_down [d_ff, d_model]
    -> [..., d_model].
    """
    x, W_gate, W_up, W_down = (np.asarray(a, dtype=float) for a in (x, W_gate, W_up, W_down))
    _check_projection(x, W_gate, "W_gate")
    if W_up.shape != W_gate.shape:
        raise ValueError(f"W_up must have the shape of W_gate {W_gate.shape}, got {W_up.shape}")
    gate = x @ W_gate  # [..., d_ff]
    up = x @ W_up  # [..., d_ff]
    if b_gate is not None:
        gate = gate + b_gate
    if b_up is not None:
        up = up + b_up
    hidden = silu(gate) * up  # [..., d_ff]
    _check_projection(hidden, W_down, "W_down")
    out = hidden @ W_down  # [..., d_model]
    return out if b_down is None else out + b_down


def ffn_weight_count(d_model: int, d_ff: int, gated: bool, bias: bool = False) -> int:
    """Number of FFN parameters: 2 matrices d_model x d_ff for ReLU, 3 for a gated FFN.

    With bias=True each hidden projection adds d_ff and the output projection d_model.
    """
    if d_model <= 0 or d_ff <= 0:
        raise ValueError(f"widths must be positive, got d_model={d_model}, d_ff={d_ff}")
    hidden_projections = 2 if gated else 1
    count = (hidden_projections + 1) * d_model * d_ff
    if bias:
        count += hidden_projections * d_ff + d_model
    return count


def gated_width_for_equal_weights(d_ff: int) -> float:
    """Hidden width of a gated FFN with as many (bias-free) weights as a ReLU FFN of d_ff.

    Three matrices instead of two, so the width shrinks to 2/3: 48 -> 32, 96 -> 64.
    """
    return 2 * d_ff / 3

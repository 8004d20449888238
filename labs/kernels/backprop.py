"""Forward and backward passes, written by hand in NumPy, for the training experiments (issue
33): the pieces of a residual stack (norms, the two FFNs, a linear map), the loss and Adam.

Each `*_forward` returns (output, saved): `saved` is what its `*_backward` needs. Each
`*_backward(saved, grad_out)` returns the gradient of the loss with respect to the forward's
inputs, in the order the forward takes them, each of its input's shape.

Inputs are rows, x [..., N, d]. A weight either is shared by every row ([d_in, d_out], a gain
[d]) or has leading axes of its own that match x's ([R, d_in, d_out], a gain [R, 1, d]): R
independent models, say one per seed, trained in one pass. A weight's gradient is summed over
the axes it does not have. tests/unit/test_backprop.py checks every backward pass against
central finite differences, with shared and with per-model weights.
"""

from __future__ import annotations

import numpy as np

from labs.kernels.ffn import sigmoid

NORM_EPS = 1e-5


def _summed_to(a: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """a summed over the axes a weight of `shape` does not have (NumPy's broadcast, undone)."""
    a = a.reshape(-1, *a.shape[a.ndim - len(shape) :]).sum(axis=0) if a.ndim > len(shape) else a
    axes = tuple(i for i, n in enumerate(shape) if n == 1 and a.shape[i] != 1)
    return a.sum(axis=axes, keepdims=True) if axes else a


def _weight_grad(x: np.ndarray, grad_out: np.ndarray, w: np.ndarray) -> np.ndarray:
    """dLoss/dw for out = x @ w: x^T @ grad_out over the rows, summed to w's shape."""
    return _summed_to(np.swapaxes(x, -1, -2) @ grad_out, w.shape)


def linear_forward(x: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, tuple]:
    """x @ w. Shapes: x [..., N, d_in], w [d_in, d_out] or [..., d_in, d_out] -> [..., N, d_out]."""
    return x @ w, (x, w)


def linear_backward(saved: tuple, grad_out: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(dx, dw), each of its input's shape, from grad_out [..., N, d_out]."""
    x, w = saved
    return grad_out @ np.swapaxes(w, -1, -2), _weight_grad(x, grad_out, w)


def layernorm_forward(x: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, tuple]:
    """(x - mean) / sqrt(var + eps) * gain over the last axis (no bias).

    Shapes: x [..., d], gain [d] -> [..., d]. Arithmetic per row: a mean, a centring, a
    variance, a division and the gain (see `norm_flops`).
    """
    centred = x - x.mean(axis=-1, keepdims=True)  # [..., d]
    inv = 1.0 / np.sqrt((centred * centred).mean(axis=-1, keepdims=True) + NORM_EPS)  # [..., 1]
    normed = centred * inv
    return normed * gain, (normed, inv, gain)


def _norm_backward(saved: tuple, grad_out: np.ndarray, centred: bool) -> tuple[np.ndarray, ...]:
    """Both norms' backward pass: a LayerNorm (centred) also takes out the gradient's mean."""
    normed, inv, gain = saved
    dgain = _summed_to(grad_out * normed, gain.shape)
    g = grad_out * gain  # [..., d]
    dx = g - normed * (g * normed).mean(axis=-1, keepdims=True)
    if centred:
        dx -= g.mean(axis=-1, keepdims=True)
    return inv * dx, dgain


def layernorm_backward(saved: tuple, grad_out: np.ndarray) -> tuple[np.ndarray, ...]:
    """(dx [..., d], dgain [d]) from grad_out [..., d]."""
    return _norm_backward(saved, grad_out, centred=True)


def rmsnorm_forward(x: np.ndarray, gain: np.ndarray) -> tuple[np.ndarray, tuple]:
    """x / sqrt(mean(x**2) + eps) * gain over the last axis: LayerNorm without the centring.

    Shapes: x [..., d], gain [d] -> [..., d].
    """
    inv = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + NORM_EPS)  # [..., 1]
    normed = x * inv
    return normed * gain, (normed, inv, gain)


def rmsnorm_backward(saved: tuple, grad_out: np.ndarray) -> tuple[np.ndarray, ...]:
    """(dx [..., d], dgain [d]) from grad_out [..., d]."""
    return _norm_backward(saved, grad_out, centred=False)


def norm_flops(kind: str, d: int) -> int:
    """Floating-point operations to normalise one row of width d, gain included.

    LayerNorm: mean (d), centring (d), squares and their mean (2d), scaling by 1/sqrt (d),
    gain (d), plus 2 for the eps and the square root: 6d + 2. RMSNorm drops the mean and the
    centring: 4d + 2.
    """
    if kind == "layernorm":
        return 6 * d + 2
    if kind == "rmsnorm":
        return 4 * d + 2
    raise ValueError(f"kind must be 'layernorm' or 'rmsnorm', got {kind!r}")


def relu_ffn_forward(x: np.ndarray, w1: np.ndarray, w2: np.ndarray) -> tuple[np.ndarray, tuple]:
    """ReLU(x @ w1) @ w2. Shapes: x [..., d], w1 [d, f], w2 [f, d] -> [..., d]."""
    pre = x @ w1  # [..., f]
    hidden = np.maximum(pre, 0.0)
    return hidden @ w2, (x, w1, w2, pre, hidden)


def relu_ffn_backward(saved: tuple, grad_out: np.ndarray) -> tuple[np.ndarray, ...]:
    """(dx, dw1, dw2) from grad_out [..., d]."""
    x, w1, w2, pre, hidden = saved
    dpre = (grad_out @ np.swapaxes(w2, -1, -2)) * (pre > 0)  # [..., N, f]
    dx = dpre @ np.swapaxes(w1, -1, -2)
    return dx, _weight_grad(x, dpre, w1), _weight_grad(hidden, grad_out, w2)


def swiglu_ffn_forward(
    x: np.ndarray, w_gate: np.ndarray, w_up: np.ndarray, w_down: np.ndarray
) -> tuple[np.ndarray, tuple]:
    """(SiLU(x @ w_gate) * (x @ w_up)) @ w_down.

    Shapes: x [..., d], w_gate and w_up [d, f], w_down [f, d] -> [..., d].
    """
    gate = x @ w_gate  # [..., f]
    up = x @ w_up  # [..., f]
    sig = sigmoid(gate)
    hidden = gate * sig * up
    return hidden @ w_down, (x, w_gate, w_up, w_down, gate, up, sig, hidden)


def swiglu_ffn_backward(saved: tuple, grad_out: np.ndarray) -> tuple[np.ndarray, ...]:
    """(dx, dw_gate, dw_up, dw_down) from grad_out [..., d]."""
    x, w_gate, w_up, w_down, gate, up, sig, hidden = saved
    dhidden = grad_out @ np.swapaxes(w_down, -1, -2)  # [..., N, f]
    dup = dhidden * gate * sig
    dgate = dhidden * up * sig * (1.0 + gate * (1.0 - sig))  # d SiLU(z)/dz = s (1 + z (1 - s))
    dx = dgate @ np.swapaxes(w_gate, -1, -2) + dup @ np.swapaxes(w_up, -1, -2)
    grads = (_weight_grad(x, dgate, w_gate), _weight_grad(x, dup, w_up))
    return dx, *grads, _weight_grad(hidden, grad_out, w_down)


def cross_entropy(logits: np.ndarray, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each model's mean softmax cross-entropy over its rows, and the gradient of the sum of
    those means with respect to the logits.

    Shapes: logits [..., N, V], targets [..., N] of ints in [0, V) -> (losses [...],
    dlogits [..., N, V]); with no leading axes the loss is a 0-d array.
    """
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probs = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))  # [..., N, V]
    idx = targets[..., None]
    picked = np.take_along_axis(log_probs, idx, axis=-1)[..., 0]  # [..., N]
    dlogits = np.exp(log_probs)  # the probabilities, less one at each target below
    np.put_along_axis(dlogits, idx, np.take_along_axis(dlogits, idx, axis=-1) - 1.0, axis=-1)
    return -picked.mean(axis=-1), dlogits / targets.shape[-1]


class Adam:
    """Adam (Kingma and Ba, 2015) over a dict of arrays, with an optional linear warm-up.

    The step size at update t (counted from 1) is lr * min(1, t / warmup); warmup 0 means
    none. betas (0.9, 0.999) and eps 1e-8, the paper's defaults.

    The weights move into one flat buffer, and each entry of `params` becomes a view into it,
    so an update is a handful of NumPy calls however many weights there are (a 24-block stack
    has 75): in Pyodide a call's overhead, not its arithmetic, is what such small models cost.
    """

    def __init__(self, params: dict[str, np.ndarray], lr: float, warmup: int = 0) -> None:
        self.lr, self.warmup, self.t = lr, warmup, 0
        self.names = list(params)
        self.flat = np.concatenate([np.asarray(params[n], dtype=float).ravel() for n in self.names])
        start = 0
        for name in self.names:
            size, shape = params[name].size, params[name].shape
            params[name] = self.flat[start : start + size].reshape(shape)
            start += size
        self.m = np.zeros_like(self.flat)
        self.v = np.zeros_like(self.flat)

    def rate(self) -> float:
        """The step size of the next update."""
        t = self.t + 1
        return self.lr * (min(1.0, t / self.warmup) if self.warmup else 1.0)

    def step(self, params: dict[str, np.ndarray], grads: dict[str, np.ndarray]) -> None:
        """Update params in place from grads (same keys and shapes); params must be the dict
        this Adam was made with."""
        lr = self.rate()
        self.t += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        g = np.concatenate([grads[name].ravel() for name in self.names])
        self.m *= b1
        self.m += (1 - b1) * g
        self.v *= b2
        self.v += (1 - b2) * g * g
        m_hat = self.m / (1 - b1**self.t)
        v_hat = self.v / (1 - b2**self.t)
        self.flat -= lr * m_hat / (np.sqrt(v_hat) + eps)


def attention_forward(q: np.ndarray, k: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, tuple]:
    """Single-head causal attention, softmax(q k^T / sqrt(d) + mask) v.

    Shapes: q, k [..., T, d], v [..., T, d_v] -> [..., T, d_v]; row t sees rows 0 .. t.
    """
    length, d = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d)  # [..., T, T]
    scores = np.where(np.tril(np.ones((length, length), dtype=bool)), scores, -np.inf)
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v, (q, k, v, weights)


def attention_backward(saved: tuple, grad_out: np.ndarray) -> tuple[np.ndarray, ...]:
    """(dq, dk, dv) from grad_out [..., T, d_v]."""
    q, k, v, weights = saved
    scale = 1.0 / np.sqrt(q.shape[-1])
    dweights = grad_out @ np.swapaxes(v, -1, -2)  # [..., T, T]
    dscores = weights * (dweights - (dweights * weights).sum(axis=-1, keepdims=True))
    dq = dscores @ k * scale
    dk = np.swapaxes(dscores, -1, -2) @ q * scale
    return dq, dk, np.swapaxes(weights, -1, -2) @ grad_out

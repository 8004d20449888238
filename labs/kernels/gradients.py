"""Weight-gradient size per layer of small random transformers at initialisation, pre-norm
against post-norm, in the setting of Xiong et al. (2020, "On Layer Normalization in the
Transformer Architecture"): a real loss at the top, attention and FFN sublayers, Xavier init.

The toy transformer, kept small enough to differentiate by hand with NumPy:

- the input is `tokens` rows: a random unit-variance embedding per row plus the 2017
  sinusoidal position code;
- layer l (counted from 1) is one sublayer with one residual connection: odd layers are
  single-head causal self-attention, o = softmax(q k^T / sqrt(d) + mask) v, out = o @ W_O,
  even layers the 2017 ReLU FFN, out = ReLU(h @ W1) @ W2 (hidden width 4 d), no biases;
  so 12 layers are 6 attention and 6 FFN sublayers, the paper's 6-block encoder;
- every matrix starts Xavier-uniform, U(-a, a) with a = sqrt(6 / (fan_in + fan_out));
- LayerNorm has no gain or bias; pre-norm ends with one final norm, post-norm does not;
- a linear readout W_U [d, vocab] turns the top rows into logits, and the loss is the mean
  softmax cross-entropy against random target ids.

    pre-norm:  x_{l+1} = x_l + f_l(LN(x_l)),   logits = LN(x_n) @ W_U
    post-norm: x_{l+1} = LN(x_l + f_l(x_l)),   logits = x_n @ W_U

The size reported per layer is the Frobenius norm of dLoss/d(the sublayer's output matrix),
W_O or W2, the matrix that writes into the residual stream (the paper plots W2's).
Leading axes are independent stacks: every array carries them, so many stacks run at once.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

PLACEMENTS = ("pre", "post")
_LN_EPS = 1e-5
FFN_WIDENING = 4  # hidden width of the FFN over the model width, as in the 2017 design


class Stacks(NamedTuple):
    """Inputs, weights and targets of a batch of random toy transformers.

    Shapes: x [..., T, d]; layers[l] is (W_Q, W_K, W_V, W_O), each [..., d, d], for an odd
    layer l + 1 and (W1 [..., d, 4d], W2 [..., 4d, d]) for an even one; readout [..., d, V];
    targets [..., T] of ints in [0, V).
    """

    x: np.ndarray
    layers: list[tuple[np.ndarray, ...]]
    readout: np.ndarray
    targets: np.ndarray


def is_attention(weights: tuple[np.ndarray, ...]) -> bool:
    """Whether a layer's weights are attention's four matrices (else the FFN's two)."""
    return len(weights) == 4


def _check_placement(placement: str) -> None:
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be 'pre' or 'post', got {placement!r}")


def _t(a: np.ndarray) -> np.ndarray:
    """Swap the last two axes: a [..., m, n] -> [..., n, m]."""
    return np.swapaxes(a, -1, -2)


def _row_mean(a: np.ndarray) -> np.ndarray:
    """Mean over the last axis, kept: a [..., d] -> [..., 1] (np.mean's wrapper is slower)."""
    return np.add.reduce(a, axis=-1, keepdims=True) / a.shape[-1]


def _layernorm(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LayerNorm without gain or bias, and its divisor: x [..., d] -> y [..., d], s [..., 1]."""
    centered = x - _row_mean(x)
    sigma = np.sqrt(_row_mean(centered * centered) + _LN_EPS)
    return centered / sigma, sigma


def _layernorm_backward(y: np.ndarray, sigma: np.ndarray, grad_out: np.ndarray) -> np.ndarray:
    """Gradient through LayerNorm from its output y and divisor sigma: [..., d] -> [..., d]."""
    return (grad_out - _row_mean(grad_out) - y * _row_mean(grad_out * y)) / sigma


def _attention(h: np.ndarray, w: tuple[np.ndarray, ...]) -> tuple[np.ndarray, tuple]:
    """Single-head causal attention h [..., T, d] -> out [..., T, d], and what backward needs."""
    w_q, w_k, w_v, w_o = w
    q, k, v = h @ w_q, h @ w_k, h @ w_v  # each [..., T, d]
    n = h.shape[-2]
    scores = q @ _t(k) / np.sqrt(h.shape[-1])  # [..., T, T]
    scores = np.where(np.tri(n, dtype=bool), scores, -np.inf)  # a query sees keys <= itself
    a = np.exp(scores - scores.max(axis=-1, keepdims=True))
    a /= a.sum(axis=-1, keepdims=True)  # [..., T, T], rows sum to 1
    o = a @ v  # [..., T, d]
    return o @ w_o, (h, q, k, v, a, o)


def _attention_backward(
    w: tuple[np.ndarray, ...], saved: tuple, grad: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray]:
    """From dLoss/d(out) [..., T, d]: ([dW_Q, dW_K, dW_V, dW_O], dLoss/dh [..., T, d])."""
    w_q, w_k, w_v, w_o = w
    h, q, k, v, a, o = saved
    grad_o = grad @ _t(w_o)  # [..., T, d]
    grad_a = grad_o @ _t(v)  # [..., T, T]
    grad_v = _t(a) @ grad_o  # [..., T, d]
    # softmax backward per row; masked entries have a = 0 and get nothing
    grad_s = a * (grad_a - np.sum(grad_a * a, axis=-1, keepdims=True)) / np.sqrt(h.shape[-1])
    grad_q, grad_k = grad_s @ k, _t(grad_s) @ q  # [..., T, d] each
    h_t = _t(h)
    dws = [h_t @ grad_q, h_t @ grad_k, h_t @ grad_v, _t(o) @ grad]
    return dws, grad_q @ _t(w_q) + grad_k @ _t(w_k) + grad_v @ _t(w_v)


def _ffn(h: np.ndarray, w: tuple[np.ndarray, ...]) -> tuple[np.ndarray, tuple]:
    """ReLU FFN h [..., T, d] -> out [..., T, d], and what backward needs."""
    z = h @ w[0]  # [..., T, 4d]
    r = np.maximum(z, 0)
    return r @ w[1], (h, z, r)


def _ffn_backward(
    w: tuple[np.ndarray, ...], saved: tuple, grad: np.ndarray
) -> tuple[list[np.ndarray], np.ndarray]:
    """From dLoss/d(out) [..., T, d]: ([dW1, dW2], dLoss/dh [..., T, d])."""
    h, z, r = saved
    grad_z = (grad @ _t(w[1])) * (z > 0)  # [..., T, 4d]
    return [_t(h) @ grad_z, _t(r) @ grad], grad_z @ _t(w[0])


def _forward(stacks: Stacks, placement: str) -> tuple[np.ndarray, list, tuple]:
    """Top rows [..., T, d] (after pre-norm's final norm), per-layer saves, final-norm save."""
    _check_placement(placement)
    x = np.asarray(stacks.x, dtype=float)
    saved = []
    for w in stacks.layers:
        sublayer = _attention if is_attention(w) else _ffn
        if placement == "pre":
            y, sigma = _layernorm(x)
            out, inner = sublayer(y, w)
            x = x + out
        else:
            out, inner = sublayer(x, w)
            x, sigma = _layernorm(x + out)
            y = x
        saved.append((y, sigma, inner))  # the layer's one norm: its output and divisor
    final = _layernorm(x) if placement == "pre" else (x, None)
    return final[0], saved, final


def _softmax_loss(top: np.ndarray, stacks: Stacks) -> tuple[np.ndarray, np.ndarray]:
    """Mean cross-entropy [...] and its gradient wrt the top rows [..., T, d]."""
    logits = top @ stacks.readout  # [..., T, V]
    logits = logits - logits.max(axis=-1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(axis=-1, keepdims=True)
    hit = np.take_along_axis(p, stacks.targets[..., None], axis=-1)[..., 0]  # [..., T]
    loss = -np.mean(np.log(hit), axis=-1)
    np.put_along_axis(p, stacks.targets[..., None], hit[..., None] - 1, axis=-1)  # p - onehot
    return loss, (p / p.shape[-2]) @ _t(stacks.readout)


def stack_loss(stacks: Stacks, placement: str) -> np.ndarray:
    """The loss of every stack, used to check the gradients by finite differences.

    Shapes: stacks as in Stacks, with leading axes [...] -> [...].
    """
    return _softmax_loss(_forward(stacks, placement)[0], stacks)[0]


def stack_weight_grads(stacks: Stacks, placement: str) -> list[list[np.ndarray]]:
    """dLoss/dW for every matrix of every layer; entry 0 is the layer nearest the input.

    Shapes: -> one list per layer with a gradient of each weight's shape, in the order of
    stacks.layers: [dW_Q, dW_K, dW_V, dW_O] or [dW1, dW2].
    """
    top, saved, (y_top, sigma_top) = _forward(stacks, placement)
    grad = _softmax_loss(top, stacks)[1]  # dLoss/d(top rows) [..., T, d]
    if placement == "pre":
        grad = _layernorm_backward(y_top, sigma_top, grad)  # the one final norm
    grads = []
    for index in reversed(range(len(stacks.layers))):
        y, sigma, inner = saved[index]
        backward = _attention_backward if is_attention(stacks.layers[index]) else _ffn_backward
        if placement == "pre":
            # the sum x + out hands its gradient to the branch unchanged
            dws, grad_in = backward(stacks.layers[index], inner, grad)
            grad = grad + _layernorm_backward(y, sigma, grad_in)
        else:
            # the sum sits under the layer's norm, so the gradient passes that norm first
            grad = _layernorm_backward(y, sigma, grad)
            dws, grad_in = backward(stacks.layers[index], inner, grad)
            grad = grad + grad_in
        grads.append(dws)
    return grads[::-1]


def _positions(tokens: int, width: int) -> np.ndarray:
    """The 2017 sinusoidal position code: [tokens, width], sin on even and cos on odd columns."""
    angle = np.arange(tokens)[:, None] / 10000.0 ** (np.arange(0, width, 2) / width)
    code = np.empty((tokens, width))
    code[:, 0::2], code[:, 1::2] = np.sin(angle), np.cos(angle[:, : width // 2])
    return code


def random_stacks(
    n_layers: int,
    seed: int = 0,
    stacks: int = 32,
    width: int = 16,
    tokens: int = 8,
    attention: bool = True,
) -> Stacks:
    """Seeded toy transformers: `stacks` of them, vocabulary size = width.

    Odd layers are attention and even ones FFNs; with attention=False every layer is an FFN.
    Shapes as in Stacks, with leading axis [stacks].
    """
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    rng = np.random.default_rng(seed)

    def xavier(fan_in: int, fan_out: int) -> np.ndarray:  # -> [stacks, fan_in, fan_out]
        bound = np.sqrt(6.0 / (fan_in + fan_out))
        w = rng.random((stacks, fan_in, fan_out))  # scaled in place: cheaper than rng.uniform
        w *= 2 * bound
        w -= bound
        return w

    hidden = FFN_WIDENING * width
    layers = [
        tuple(xavier(width, width) for _ in range(4))
        if attention and index % 2 == 0
        else (xavier(width, hidden), xavier(hidden, width))
        for index in range(n_layers)
    ]
    x = rng.standard_normal((stacks, tokens, width)) + _positions(tokens, width)
    readout = xavier(width, width)
    targets = rng.integers(0, width, (stacks, tokens))
    return Stacks(x, layers, readout, targets)


def weight_gradient_sizes(
    n_layers: int,
    seed: int = 0,
    stacks: int = 32,
    width: int = 16,
    tokens: int = 8,
    attention: bool = True,
) -> dict[str, np.ndarray]:
    """Frobenius norm of dLoss/d(output matrix) per layer, for both placements.

    Both placements run on the same weights, inputs and targets.
    Shapes: -> {"pre": [stacks, n_layers], "post": [stacks, n_layers]}; column 0 is the
    layer nearest the input.
    """
    batch = random_stacks(n_layers, seed, stacks, width, tokens, attention)
    return {
        placement: np.stack(
            [
                np.sqrt(np.sum(dws[-1] ** 2, axis=(-2, -1)))  # W_O or W2: the last matrix
                for dws in stack_weight_grads(batch, placement)
            ],
            axis=1,
        )
        for placement in PLACEMENTS
    }

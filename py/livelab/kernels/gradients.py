"""Gradient size per layer in a small residual stack, pre-norm versus post-norm.

The stack is deliberately simple so the backward pass fits on a page: every sublayer is
f(h) = tanh(h @ W_l), the norm is LayerNorm without gain or bias, and the loss is
sum(output * upstream) for a fixed random upstream gradient. Backpropagation is written
out by hand with NumPy.

    pre-norm:  x_{l+1} = x_l + f_l(LN(x_l)),   output = LN(x_n)   (one final norm)
    post-norm: x_{l+1} = LN(x_l + f_l(x_l)),   output = x_n
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from livelab.kernels.norms import layernorm

PLACEMENTS = ("pre", "post")
_LN_EPS = 1e-5


def _check_placement(placement: str) -> None:
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be 'pre' or 'post', got {placement!r}")


def _layernorm_backward(x: np.ndarray, grad_out: np.ndarray) -> np.ndarray:
    """Gradient through LayerNorm (no gain, no bias) at input x.

    Shapes: x [..., d], grad_out [..., d] -> [..., d].
    """
    centered = x - x.mean(axis=-1, keepdims=True)
    sigma = np.sqrt(np.mean(centered * centered, axis=-1, keepdims=True) + _LN_EPS)  # [..., 1]
    y = centered / sigma
    mean_g = grad_out.mean(axis=-1, keepdims=True)
    mean_gy = (grad_out * y).mean(axis=-1, keepdims=True)
    return (grad_out - mean_g - y * mean_gy) / sigma


def residual_stack(x: np.ndarray, weights: Sequence[np.ndarray], placement: str) -> np.ndarray:
    """Forward pass of the tanh stack with norms placed 'pre' or 'post'.

    Shapes: x [..., d], weights: n_layers matrices [d, d] -> [..., d].
    """
    _check_placement(placement)
    x = np.asarray(x, dtype=float)
    for w in weights:
        if placement == "pre":
            x = x + np.tanh(layernorm(x, eps=_LN_EPS) @ w)
        else:
            x = layernorm(x + np.tanh(x @ w), eps=_LN_EPS)
    return layernorm(x, eps=_LN_EPS) if placement == "pre" else x


def residual_stack_input_grads(
    x: np.ndarray, weights: Sequence[np.ndarray], placement: str, upstream: np.ndarray
) -> list[np.ndarray]:
    """Gradient of sum(residual_stack(x) * upstream) with respect to each layer's input.

    Shapes: x [..., d], upstream [..., d] -> n_layers arrays [..., d]; entry l is the
    gradient at the input of layer l (entry 0 at the stack input).
    """
    _check_placement(placement)
    inputs, x = [], np.asarray(x, dtype=float)
    for w in weights:  # forward, keeping each layer's input
        inputs.append(x)
        if placement == "pre":
            x = x + np.tanh(layernorm(x, eps=_LN_EPS) @ w)
        else:
            x = layernorm(x + np.tanh(x @ w), eps=_LN_EPS)
    grad = np.asarray(upstream, dtype=float)
    if placement == "pre":
        grad = _layernorm_backward(x, grad)  # the one final norm
    grads: list[np.ndarray] = []
    for w, x_in in zip(reversed(weights), reversed(inputs), strict=True):
        if placement == "pre":
            t = np.tanh(layernorm(x_in, eps=_LN_EPS) @ w)
            grad = grad + _layernorm_backward(x_in, (grad * (1 - t * t)) @ w.T)
        else:
            t = np.tanh(x_in @ w)
            grad_sum = _layernorm_backward(x_in + t, grad)
            grad = grad_sum + (grad_sum * (1 - t * t)) @ w.T
        grads.append(grad)
    return grads[::-1]


def residual_gradient_norms(
    n_layers: int, placement: str, seed: int = 0, width: int = 16, tokens: int = 8
) -> np.ndarray:
    """Size (Frobenius norm) of the loss gradient at the input of every layer.

    A seeded random stack of n_layers tanh sublayers with weights N(0, 1 / width), a random
    input [tokens, width] and a random upstream gradient. Entry 0 is the earliest layer.
    Shapes: -> [n_layers].
    """
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    _check_placement(placement)
    rng = np.random.default_rng(seed)
    weights = [rng.standard_normal((width, width)) / np.sqrt(width) for _ in range(n_layers)]
    x = rng.standard_normal((tokens, width))
    upstream = rng.standard_normal((tokens, width))
    grads = residual_stack_input_grads(x, weights, placement, upstream)
    return np.array([np.linalg.norm(g) for g in grads])  # [n_layers]

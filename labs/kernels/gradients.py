"""Weight-gradient size per layer in small random stacks, pre-norm versus post-norm.

The measured quantity is the one Xiong et al. (2020, "On Layer Normalization in the
Transformer Architecture") study at initialisation: the Frobenius norm of the gradient of
the loss with respect to a layer's weight matrix. The toy stack is built so that its
backward pass fits on a page:

- every layer's sublayer is the 2017 feed-forward network without biases,
  f(h) = ReLU(h @ W1) @ W2, with W1 [d, 4d] and W2 [4d, d] (by default d = 12);
- the weights start Xavier-uniform, U(-a, a) with a = sqrt(6 / (fan_in + fan_out)), as
  PyTorch's nn.Transformer initialises its matrices;
- the input is a few random token rows (by default 4), LayerNorm has no gain or bias,
  and the loss is sum(output * upstream) for a fixed random upstream gradient, standing
  in for whatever loss sits above the stack.

    pre-norm:  x_{l+1} = x_l + f_l(LN(x_l)),   output = LN(x_n)   (one final norm)
    post-norm: x_{l+1} = LN(x_l + f_l(x_l)),   output = x_n

The size reported per layer is that of dLoss/dW2, the FFN's output matrix, as in the paper.
Leading axes are independent stacks: x, upstream and every weight matrix share them, so many
stacks run in one pass. Backpropagation is written out by hand with NumPy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np

PLACEMENTS = ("pre", "post")
_LN_EPS = 1e-5
FFN_WIDENING = 4  # hidden width of the FFN over the model width, as in the 2017 design

Layer = tuple[np.ndarray, np.ndarray]  # (W1 [..., d, h], W2 [..., h, d])


def _check_placement(placement: str) -> None:
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be 'pre' or 'post', got {placement!r}")


def _t(a: np.ndarray) -> np.ndarray:
    """Swap the last two axes: a [..., m, n] -> [..., n, m]."""
    return np.swapaxes(a, -1, -2)


def _row_mean(a: np.ndarray) -> np.ndarray:
    """Mean over the last axis, kept: a [..., d] -> [..., 1].

    np.mean's Python wrapper costs more than the sum itself at these sizes, and the lab
    runs the stack on every slider move, so the sum is taken directly.
    """
    return np.add.reduce(a, axis=-1, keepdims=True) / a.shape[-1]


def _layernorm(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """LayerNorm without gain or bias, and the divisor it used (kept for the backward pass).

    Shapes: x [..., d] -> y [..., d], sigma [..., 1].
    """
    centered = x - _row_mean(x)
    sigma = np.sqrt(_row_mean(centered * centered) + _LN_EPS)  # [..., 1]
    return centered / sigma, sigma


def _layernorm_backward(y: np.ndarray, sigma: np.ndarray, grad_out: np.ndarray) -> np.ndarray:
    """Gradient through LayerNorm, given its output y and divisor sigma.

    Shapes: y [..., d], sigma [..., 1], grad_out [..., d] -> [..., d].
    """
    return (grad_out - _row_mean(grad_out) - y * _row_mean(grad_out * y)) / sigma


def residual_stack(x: np.ndarray, layers: Sequence[Layer], placement: str) -> np.ndarray:
    """Forward pass of the FFN stack with norms placed 'pre' or 'post'.

    Shapes: x [..., T, d], layers: n_layers pairs (W1 [..., d, h], W2 [..., h, d])
    -> [..., T, d].
    """
    _check_placement(placement)
    x = np.asarray(x, dtype=float)
    for w1, w2 in layers:
        if placement == "pre":
            x = x + np.maximum(_layernorm(x)[0] @ w1, 0) @ w2
        else:
            x = _layernorm(x + np.maximum(x @ w1, 0) @ w2)[0]
    return _layernorm(x)[0] if placement == "pre" else x


def _backward(
    x: np.ndarray, layers: Sequence[Layer], placement: str, upstream: np.ndarray
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """Backpropagation through the stack, last layer first.

    Yields per layer what its weight gradients are made of: the FFN input h [..., T, d],
    the gradient at its pre-activation grad_z [..., T, h], its hidden r [..., T, h] and the
    gradient at its output grad_out [..., T, d]; then dW1 = h^T grad_z, dW2 = r^T grad_out.
    """
    _check_placement(placement)
    x = np.asarray(x, dtype=float)
    # Per layer: the FFN's input h, its pre-activation z and hidden r, and the output y and
    # divisor sigma of the layer's one norm (in the branch for pre, on the path for post).
    saved: list[tuple[np.ndarray, ...]] = []
    for w1, w2 in layers:  # forward, keeping what the backward pass needs
        if placement == "pre":
            y, sigma = _layernorm(x)
            h = y
        else:
            h = x
        z = h @ w1  # [..., T, h]
        r = np.maximum(z, 0)
        branch = r @ w2  # [..., T, d]
        if placement == "pre":
            x = x + branch
        else:
            x, sigma = _layernorm(x + branch)
            y = x
        saved.append((h, z, r, y, sigma))
    grad = np.asarray(upstream, dtype=float)  # dLoss/d(stack output)
    if placement == "pre":
        grad = _layernorm_backward(*_layernorm(x), grad)  # the one final norm
    for (w1, w2), (h, z, r, y, sigma) in zip(reversed(layers), reversed(saved), strict=True):
        # pre: the sum x + branch hands its gradient to the branch as it is; post: the sum
        # sits under the norm on the path, so the gradient goes through that norm first
        grad_out = grad if placement == "pre" else _layernorm_backward(y, sigma, grad)
        grad_z = (grad_out @ _t(w2)) * (z > 0)  # [..., T, h]
        yield h, grad_z, r, grad_out
        grad_h = grad_z @ _t(w1)  # [..., T, d]
        if placement == "pre":
            grad = grad + _layernorm_backward(y, sigma, grad_h)
        else:
            grad = grad_out + grad_h


def residual_stack_weight_grads(
    x: np.ndarray, layers: Sequence[Layer], placement: str, upstream: np.ndarray
) -> list[Layer]:
    """Gradient of sum(residual_stack(x) * upstream) with respect to every W1 and W2.

    Shapes: x [..., T, d], upstream [..., T, d], layers as in residual_stack
    -> n_layers pairs (dW1 [..., d, h], dW2 [..., h, d]); entry 0 is the earliest layer.
    """
    grads = [
        (_t(h) @ grad_z, _t(r) @ grad_out)
        for h, grad_z, r, grad_out in _backward(x, layers, placement, upstream)
    ]
    return grads[::-1]


def random_stacks(
    n_layers: int, seed: int = 0, stacks: int = 20, width: int = 12, tokens: int = 4
) -> tuple[np.ndarray, list[Layer], np.ndarray]:
    """Seeded input, Xavier-uniform FFN weights and upstream gradient for `stacks` stacks.

    Shapes: -> x [stacks, tokens, width], n_layers pairs (W1 [stacks, width, 4 width],
    W2 [stacks, 4 width, width]), upstream [stacks, tokens, width].
    """
    if n_layers < 1:
        raise ValueError(f"n_layers must be at least 1, got {n_layers}")
    rng = np.random.default_rng(seed)
    hidden = FFN_WIDENING * width
    bound = np.sqrt(6.0 / (width + hidden))  # Xavier: the same for W1 and W2
    # Uniform draws are far cheaper than normal ones, and the lab redraws on every slider
    # move; scaling [0, 1) in place skips the temporaries of rng.uniform.
    w1 = rng.random((n_layers, stacks, width, hidden))
    w2 = rng.random((n_layers, stacks, hidden, width))
    for w in (w1, w2):
        w *= 2 * bound
        w -= bound  # now U(-bound, bound)
    x = rng.standard_normal((stacks, tokens, width))
    upstream = rng.standard_normal((stacks, tokens, width))
    return x, list(zip(w1, w2, strict=True)), upstream


def weight_gradient_sizes(
    n_layers: int, seed: int = 0, stacks: int = 20, width: int = 12, tokens: int = 4
) -> dict[str, np.ndarray]:
    """Frobenius norm of dLoss/dW2 in every layer of `stacks` seeded random stacks.

    Both placements run on the same weights, input and upstream gradient.
    Shapes: -> {"pre": [stacks, n_layers], "post": [stacks, n_layers]}; column 0 is the
    layer nearest the input.
    """
    x, layers, upstream = random_stacks(n_layers, seed, stacks, width, tokens)
    sizes = {}
    for placement in PLACEMENTS:
        norms = [
            np.linalg.norm(_t(r) @ grad_out, axis=(-2, -1))  # [stacks]; dW1 is not needed
            for _, _, r, grad_out in _backward(x, layers, placement, upstream)
        ]
        sizes[placement] = np.stack(norms[::-1], axis=1)  # [stacks, n_layers]
    return sizes

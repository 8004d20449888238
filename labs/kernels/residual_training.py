"""A stack of residual FFN blocks trained with Adam on a small classification task: the model
behind the experiments on norm placement (pre-norm against post-norm) and norm kind
(LayerNorm against RMSNorm), issue 33.

    pre-norm:  x_{l+1} = x_l + FFN_l(norm(x_l)),    logits = norm(x_L) @ W_out
    post-norm: x_{l+1} = norm(x_l + FFN_l(x_l)),    logits = x_L @ W_out

FFN_l is ReLU(h @ W1) @ W2 with hidden width 4 d, every norm has its own gain (from 1), and
the weights start Xavier-uniform. The task: inputs are standard-normal rows of width d, and
the class of a row is the arg max of a fixed random teacher, tanh(x @ A) @ B. Everything is
drawn from one seed, so a run is the same in CPython and in Pyodide.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from labs.kernels import backprop as bp

PLACEMENTS = ("pre", "post")
NORMS = {"layernorm": (bp.layernorm_forward, bp.layernorm_backward),
         "rmsnorm": (bp.rmsnorm_forward, bp.rmsnorm_backward)}  # fmt: skip


class Task(NamedTuple):
    """Training and held-out rows and their classes: x [N, d], y [N] ints in [0, classes)."""

    x: np.ndarray
    y: np.ndarray
    test_x: np.ndarray
    test_y: np.ndarray


def make_task(seed: int, width: int, classes: int = 8, rows: int = 256) -> Task:
    """The teacher task: rows training rows and as many held-out ones."""
    rng = np.random.default_rng(seed)
    a = rng.standard_normal((width, 2 * width)) / np.sqrt(width)
    b = rng.standard_normal((2 * width, classes))
    x = rng.standard_normal((2 * rows, width))
    y = np.argmax(np.tanh(x @ a) @ b, axis=-1)
    return Task(x[:rows], y[:rows], x[rows:], y[rows:])


def _xavier(rng: np.random.Generator, fan_in: int, fan_out: int) -> np.ndarray:
    bound = np.sqrt(6.0 / (fan_in + fan_out))
    return rng.uniform(-bound, bound, size=(fan_in, fan_out))


def init_stack(seed: int, width: int, depth: int, classes: int, placement: str) -> dict:
    """Weights of a stack: per block W1_l [d, 4d], W2_l [4d, d] and a norm gain g_l [d];
    pre-norm's final gain g_final [d]; the readout W_out [d, classes]."""
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be 'pre' or 'post', got {placement!r}")
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    for layer in range(depth):
        params[f"W1_{layer}"] = _xavier(rng, width, 4 * width)
        params[f"W2_{layer}"] = _xavier(rng, 4 * width, width)
        params[f"g_{layer}"] = np.ones(width)
    if placement == "pre":
        params["g_final"] = np.ones(width)
    params["W_out"] = _xavier(rng, width, classes)
    return params


def loss_and_grads(
    params: dict, x: np.ndarray, y: np.ndarray, placement: str, norm: str
) -> tuple[float, dict]:
    """The mean cross-entropy of the stack on (x [N, d], y [N]) and its gradient per weight."""
    norm_forward, norm_backward = NORMS[norm]
    depth = sum(1 for name in params if name.startswith("W1_"))
    saved = []
    h = x
    for layer in range(depth):
        w1, w2, g = params[f"W1_{layer}"], params[f"W2_{layer}"], params[f"g_{layer}"]
        if placement == "pre":
            normed, norm_saved = norm_forward(h, g)
            out, ffn_saved = bp.relu_ffn_forward(normed, w1, w2)
            h = h + out
        else:
            out, ffn_saved = bp.relu_ffn_forward(h, w1, w2)
            h, norm_saved = norm_forward(h + out, g)
        saved.append((norm_saved, ffn_saved))
    final_saved = None
    if placement == "pre":
        h, final_saved = norm_forward(h, params["g_final"])
    logits, out_saved = bp.linear_forward(h, params["W_out"])
    loss, dlogits = bp.cross_entropy(logits, y)

    grads: dict[str, np.ndarray] = {}
    dh, grads["W_out"] = bp.linear_backward(out_saved, dlogits)
    if final_saved is not None:
        dh, grads["g_final"] = norm_backward(final_saved, dh)
    for layer in reversed(range(depth)):
        norm_saved, ffn_saved = saved[layer]
        w1, w2 = f"W1_{layer}", f"W2_{layer}"
        if placement == "pre":
            dnormed, grads[w1], grads[w2] = bp.relu_ffn_backward(ffn_saved, dh)
            dx, grads[f"g_{layer}"] = norm_backward(norm_saved, dnormed)
            dh = dh + dx
        else:
            dsum, grads[f"g_{layer}"] = norm_backward(norm_saved, dh)
            dx, grads[w1], grads[w2] = bp.relu_ffn_backward(ffn_saved, dsum)
            dh = dsum + dx
    return loss, grads


class Step(NamedTuple):
    """One logged point of a run: the update count and the training loss before it."""

    step: int
    loss: float


def train(
    *,
    placement: str,
    norm: str = "layernorm",
    depth: int = 12,
    width: int = 16,
    lr: float = 3e-3,
    warmup: int = 0,
    steps: int = 200,
    seed: int = 0,
    batch: int = 64,
) -> Iterator[Step]:
    """Train one stack with Adam on make_task(seed, width), yielding a Step per update.

    Minibatches are drawn from the training rows with the same seed. A loss that is no
    longer finite ends the run (the last Step carries it): it diverged.
    """
    if norm not in NORMS:
        raise ValueError(f"norm must be 'layernorm' or 'rmsnorm', got {norm!r}")
    task = make_task(seed, width)
    classes = int(task.y.max()) + 1
    params = init_stack(seed + 1, width, depth, max(classes, 2), placement)
    adam = bp.Adam(params, lr=lr, warmup=warmup)
    rng = np.random.default_rng(seed + 2)
    for step in range(steps):
        rows = rng.choice(len(task.x), size=batch, replace=False)
        loss, grads = loss_and_grads(params, task.x[rows], task.y[rows], placement, norm)
        yield Step(step, loss)
        if not np.isfinite(loss):
            return
        adam.step(params, grads)

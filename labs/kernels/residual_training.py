"""A stack of residual FFN blocks trained with Adam on a small classification task: the model
behind the experiments on norm placement (pre-norm against post-norm) and norm kind
(LayerNorm against RMSNorm), issue 33.

    pre-norm:  x_{l+1} = x_l + FFN_l(norm(x_l)),    logits = norm(x_L) @ W_out
    post-norm: x_{l+1} = norm(x_l + FFN_l(x_l)),    logits = x_L @ W_out

FFN_l is ReLU(h @ W1) @ W2 with hidden width 4 d, every norm has its own gain (from 1), and
the weights start Xavier-uniform. The task: inputs are standard-normal rows of width d, and
the class of a row is the arg max of a fixed random teacher, tanh(x @ A) @ B. Everything is
drawn from one seed, so a run is the same in CPython and in Pyodide.

Several seeds train at once, as one batch of models: every weight carries a leading axis of
one model per seed (labs.kernels.backprop says how), which costs far less Python per update
than a run per seed.
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
    """Weights of one stack: per block W1_l [d, 4d], W2_l [4d, d] and a norm gain g_l [1, d];
    pre-norm's final gain g_final [1, d]; the readout W_out [d, classes]."""
    if placement not in PLACEMENTS:
        raise ValueError(f"placement must be 'pre' or 'post', got {placement!r}")
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    for layer in range(depth):
        params[f"W1_{layer}"] = _xavier(rng, width, 4 * width)
        params[f"W2_{layer}"] = _xavier(rng, 4 * width, width)
        params[f"g_{layer}"] = np.ones((1, width))
    if placement == "pre":
        params["g_final"] = np.ones((1, width))
    params["W_out"] = _xavier(rng, width, classes)
    return params


def loss_and_grads(
    params: dict, x: np.ndarray, y: np.ndarray, placement: str, norm: str
) -> tuple[np.ndarray, dict]:
    """Each model's mean cross-entropy on its rows (x [R, N, d], y [R, N] -> [R]; or one model,
    x [N, d] -> a 0-d array) and the gradient of their sum for every weight."""
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
    """One logged point of a run: the update count and each seed's training loss before it."""

    step: int
    losses: tuple[float, ...]


def train(
    *,
    placement: str,
    norm: str = "layernorm",
    depth: int = 12,
    width: int = 16,
    lr: float = 3e-3,
    warmup: int = 0,
    steps: int = 200,
    seeds: tuple[int, ...] = (0,),
    batch: int = 64,
) -> Iterator[Step]:
    """Train one stack per seed with Adam, all at once, each on make_task(seed, width); yield a
    Step per update. Seed s draws its task, its weights and its minibatches from s alone, so
    its curve does not depend on which other seeds run beside it. A loss that is no longer
    finite ends the run (the last Step carries it): that model diverged.
    """
    if norm not in NORMS:
        raise ValueError(f"norm must be 'layernorm' or 'rmsnorm', got {norm!r}")
    tasks = [make_task(seed, width) for seed in seeds]
    x, y = np.stack([t.x for t in tasks]), np.stack([t.y for t in tasks])  # [R, N, d], [R, N]
    classes = int(y.max()) + 1
    inits = [init_stack(seed + 1, width, depth, max(classes, 2), placement) for seed in seeds]
    params = {name: np.stack([p[name] for p in inits]) for name in inits[0]}
    adam = bp.Adam(params, lr=lr, warmup=warmup)
    rngs = [np.random.default_rng(seed + 2) for seed in seeds]
    for step in range(steps):
        rows = np.stack([rng.choice(x.shape[1], size=batch, replace=False) for rng in rngs])
        batch_x = np.take_along_axis(x, rows[..., None], axis=1)  # [R, batch, d]
        batch_y = np.take_along_axis(y, rows, axis=1)  # [R, batch]
        losses, grads = loss_and_grads(params, batch_x, batch_y, placement, norm)
        yield Step(step, tuple(float(v) for v in losses))
        if not np.all(np.isfinite(losses)):
            return
        adam.step(params, grads)

"""Positions that travel: one causal attention layer learns to copy the token GAP places back,
trained on sequences of length TRAIN_LENGTH and tested on longer ones, with one of three
ways to tell it where a token is (the `train-rope` experiment, issue 33).

    x = E[token] (+ P[t], learned, or + S[t], the 2017 sinusoids; nothing with RoPE)
    q = x W_q + b_q,  k = x W_k + b_k  (both turned by RoPE at their positions, with RoPE)
    v = x W_v;  out = causal_attention(q, k, v);  logits = out @ W_out

The loss is the cross-entropy of the token GAP places back, at every position that has one.
The biases give q and k a part that does not depend on the token, which is what a head
needs to find a position by its offset alone. Learned positions have no row past the
training length, so a model with them cannot run on longer sequences (`test_accuracy`
returns None there). Several seeds train at once (labs.kernels.backprop).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from labs.kernels import backprop as bp
from labs.kernels.rope import rope

METHODS = ("learned", "sinusoidal", "rope")
GAP = 3
TRAIN_LENGTH = 16
VOCAB = 12


def sinusoids(length: int, width: int) -> np.ndarray:
    """The 2017 position code: sin and cos of t / 10000 ** (2i / d). Shapes: -> [length, d]."""
    rates = 10000.0 ** (-2.0 * np.arange(width // 2) / width)
    angles = np.arange(length)[:, None] * rates[None, :]
    out = np.zeros((length, width))
    out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
    return out


def init_model(seed: int, method: str, width: int) -> dict:
    """One model's weights; P [TRAIN_LENGTH, d] only for learned positions."""
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(width)
    params = {"E": rng.standard_normal((VOCAB, width))}
    if method == "learned":
        params["P"] = rng.standard_normal((TRAIN_LENGTH, width))
    for name in ("W_q", "W_k", "W_v"):
        params[name] = rng.standard_normal((width, width)) * scale
    params["b_q"] = np.zeros((1, width))
    params["b_k"] = np.zeros((1, width))
    params["W_out"] = rng.standard_normal((width, VOCAB)) * scale
    return params


def _embed(params: dict, tokens: np.ndarray, method: str) -> np.ndarray:
    """x [R, N, T, d] for tokens [R, N, T] (R models, N sequences)."""
    width = params["E"].shape[-1]
    x = np.stack([params["E"][r][tokens[r]] for r in range(tokens.shape[0])])
    length = tokens.shape[-1]
    if method == "learned":
        x = x + params["P"][:, None, :length]
    elif method == "sinusoidal":
        x = x + sinusoids(length, width)
    return x


def loss_and_grads(params: dict, tokens: np.ndarray, method: str) -> tuple:
    """Each model's mean copy loss on its sequences (tokens [R, N, T] -> [R]) and the gradient
    of their sum for every weight. The weights are per model: [R, ...]."""
    x = _embed(params, tokens, method)
    w = {name: params[name][:, None] for name in ("W_q", "W_k", "W_v", "b_q", "b_k", "W_out")}
    q, q_saved = bp.linear_forward(x, w["W_q"])
    k, k_saved = bp.linear_forward(x, w["W_k"])
    v, v_saved = bp.linear_forward(x, w["W_v"])
    q, k = q + w["b_q"], k + w["b_k"]
    if method == "rope":
        q, k = rope(q), rope(k)
    out, att_saved = bp.attention_forward(q, k, v)
    logits, out_saved = bp.linear_forward(out[..., GAP:, :], w["W_out"])
    losses, dlogits = bp.cross_entropy(logits, tokens[..., :-GAP])  # [R, N]
    n = tokens.shape[1]

    grads: dict[str, np.ndarray] = {}
    dout_tail, dw_out = bp.linear_backward(out_saved, dlogits / n)
    dout = np.zeros_like(out)
    dout[..., GAP:, :] = dout_tail
    dq, dk, dv = bp.attention_backward(att_saved, dout)
    if method == "rope":  # RoPE turns each row by an angle: its backward turns it back
        positions = -np.arange(tokens.shape[-1])
        dq, dk = rope(dq, positions), rope(dk, positions)
    sum_rows = lambda a: a.sum(axis=(1, 2))[:, None]  # noqa: E731 [R, N, T, d] -> [R, 1, d]
    grads["b_q"], grads["b_k"] = sum_rows(dq), sum_rows(dk)
    dx = np.zeros_like(x)
    for name, d_act, saved in (("W_q", dq, q_saved), ("W_k", dk, k_saved), ("W_v", dv, v_saved)):
        dx_part, dw = bp.linear_backward(saved, d_act)
        dx += dx_part
        grads[name] = dw[:, 0]
    grads["W_out"] = dw_out[:, 0]
    grads["E"] = np.zeros_like(params["E"])
    for r in range(tokens.shape[0]):
        np.add.at(grads["E"][r], tokens[r], dx[r])
    if method == "learned":
        grads["P"] = dx.sum(axis=1)
    return losses.mean(axis=1), grads


def accuracy(params: dict, tokens: np.ndarray, method: str) -> np.ndarray | None:
    """Each model's share of positions where the top logit is the token GAP back
    (tokens [R, N, T] -> [R]); None when the method cannot run at this length."""
    if method == "learned" and tokens.shape[-1] > TRAIN_LENGTH:
        return None
    x = _embed(params, tokens, method)
    q = x @ params["W_q"][:, None] + params["b_q"][:, None]
    k = x @ params["W_k"][:, None] + params["b_k"][:, None]
    if method == "rope":
        q, k = rope(q), rope(k)
    out, _ = bp.attention_forward(q, k, x @ params["W_v"][:, None])
    logits = out[..., GAP:, :] @ params["W_out"][:, None]
    return (logits.argmax(axis=-1) == tokens[..., :-GAP]).mean(axis=(1, 2))


class Step(NamedTuple):
    """One logged point: the update count and each seed's training loss before it."""

    step: int
    losses: tuple[float, ...]


def train(
    *, method: str, width: int = 16, lr: float = 1e-2, steps: int = 300,
    seeds: tuple[int, ...] = (0, 1, 2), batch: int = 16,
) -> Iterator[tuple[Step, dict]]:  # fmt: skip
    """Train one model per seed on random sequences of TRAIN_LENGTH tokens; yield (Step,
    the weights) per update (the weights are live: read them, do not keep them)."""
    inits = [init_model(seed + 1, method, width) for seed in seeds]
    params = {name: np.stack([p[name] for p in inits]) for name in inits[0]}
    adam = bp.Adam(params, lr=lr)
    rngs = [np.random.default_rng(seed + 2) for seed in seeds]
    for step in range(steps):
        tokens = np.stack([rng.integers(0, VOCAB, size=(batch, TRAIN_LENGTH)) for rng in rngs])
        losses, grads = loss_and_grads(params, tokens, method)
        yield Step(step, tuple(float(v) for v in losses)), params
        adam.step(params, grads)

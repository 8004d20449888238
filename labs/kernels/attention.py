"""Causal multi-head self-attention with RoPE applied to queries and keys (never values).

Heads are laid out as [..., H, L, d_head]; a joined row [..., L, H * d_head] holds head 0's
coordinates first, then head 1's, and so on.
"""

from __future__ import annotations

import numpy as np

from labs.kernels.rope import rope

Steps = list[tuple[str, np.ndarray]]


def softmax(z: np.ndarray, axis: int = -1) -> np.ndarray:
    """Softmax along axis, shifted by the maximum so exp never overflows.

    Shapes: z [...] -> [...]. Entries equal to -inf get weight 0.
    """
    z = np.asarray(z, dtype=float)
    e = np.exp(z - np.max(z, axis=axis, keepdims=True))
    return e / np.sum(e, axis=axis, keepdims=True)


def causal_mask(length: int) -> np.ndarray:
    """True where a query (row) may look at a key (column): key position <= query position.

    Shapes: -> [L, L] of bool.
    """
    return np.tril(np.ones((length, length), dtype=bool))


def split_heads(x: np.ndarray, n_heads: int) -> np.ndarray:
    """Cut the last axis into heads.

    Shapes: x [..., L, H * d_head] -> [..., H, L, d_head].
    """
    *lead, length, width = x.shape
    if width % n_heads:
        raise ValueError(f"width {width} does not split into {n_heads} equal heads")
    heads = x.reshape(*lead, length, n_heads, width // n_heads)  # [..., L, H, dh]
    return np.swapaxes(heads, -3, -2)  # [..., H, L, dh]


def merge_heads(h: np.ndarray) -> np.ndarray:
    """Join heads back into one row per position.

    Shapes: h [..., H, L, d_head] -> [..., L, H * d_head].
    """
    *lead, n_heads, length, d_head = h.shape
    return np.swapaxes(h, -3, -2).reshape(*lead, length, n_heads * d_head)  # [..., L, H*dh]


def attention_steps(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    *,
    rope_base: float | None = 10000.0,
    positions: np.ndarray | None = None,
) -> Steps:
    """Causal scaled dot-product attention, every intermediate value named.

    q and k are rotated by RoPE (skipped when rope_base is None); v is used as given.
    Shapes: q, k, v [..., L, d_head] -> steps q_rot, k_rot [..., L, d_head],
    scores, weights [..., L, L] (scores unmasked, weights masked), out [..., L, d_head].
    """
    q, k, v = (np.asarray(a, dtype=float) for a in (q, k, v))
    if rope_base is not None:
        q, k = rope(q, positions, rope_base), rope(k, positions, rope_base)
    length, d_head = q.shape[-2], q.shape[-1]
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(d_head)  # [..., L, L]
    masked = np.where(causal_mask(length), scores, -np.inf)  # future keys get -inf
    weights = softmax(masked, axis=-1)  # [..., L, L]
    out = weights @ v  # [..., L, d_head]
    return [("q_rot", q), ("k_rot", k), ("scores", scores), ("weights", weights), ("out", out)]


def head_attention(
    q: np.ndarray,
    k: np.ndarray,
    v: np.ndarray,
    *,
    rope_base: float | None = 10000.0,
    positions: np.ndarray | None = None,
) -> np.ndarray:
    """Causal attention of one or more heads, RoPE on q and k.

    Shapes: q, k, v [..., L, d_head] -> [..., L, d_head].
    """
    return attention_steps(q, k, v, rope_base=rope_base, positions=positions)[-1][1]


def causal_attention(
    x: np.ndarray,
    W_q: np.ndarray,
    W_k: np.ndarray,
    W_v: np.ndarray,
    W_o: np.ndarray,
    n_heads: int,
    *,
    rope_base: float | None = 10000.0,
    positions: np.ndarray | None = None,
) -> np.ndarray:
    """Causal multi-head self-attention: project, split, rotate q and k, attend, join, project.

    Shapes: x [..., L, D], W_q, W_k, W_v [D, H * d_head], W_o [H * d_head, D] -> [..., L, D].
    """
    x = np.asarray(x, dtype=float)
    q = split_heads(x @ W_q, n_heads)  # [..., H, L, dh]
    k = split_heads(x @ W_k, n_heads)  # [..., H, L, dh]
    v = split_heads(x @ W_v, n_heads)  # [..., H, L, dh]
    heads = head_attention(q, k, v, rope_base=rope_base, positions=positions)  # [..., H, L, dh]
    return merge_heads(heads) @ W_o  # [..., L, D]

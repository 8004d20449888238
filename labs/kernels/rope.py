"""Rotary position embedding (RoPE).

Convention: pairs are adjacent coordinates (0, 1), (2, 3), ...; pair i of a width-d vector
turns at rate base ** (-2 i / d) radians per position, counter-clockwise. With an odd width
the last coordinate has no partner and is left as it is (as in partial-rotary models).

This is also how Meta's LLaMA reference code pairs coordinates: it reads each q and k row as
d/2 complex numbers made of neighbouring coordinates and multiplies them by unit complex
numbers. GPT-NeoX and Hugging Face's port of LLaMA instead pair coordinate i with i + d/2
(their `rotate_half`); `rope_halves` and `rope_score(..., layout="halves")` compute that
layout. To load a LLaMA checkpoint, Hugging Face's conversion script permutes the rows of
W_q and W_k head by head (rows of PyTorch's [out, in] weights; here, where a row is
multiplied as x @ W_q, they are columns), so each adjacent pair lands at (i, i + d/2) and
the scores come out the same. Without that permutation the two layouts give different
numbers for the same weights, although in both a score depends only on the offset between
the two positions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    # Annotations only: numpy.typing costs the browser an import before the first lab view.
    import numpy.typing as npt


def rotate(v: np.ndarray, angle: float | np.ndarray) -> np.ndarray:
    """Rotate the pair on the last axis of v counter-clockwise by angle radians.

    Shapes: v [..., 2], angle scalar or broadcastable to [...] -> [..., 2].
    """
    v = np.asarray(v, dtype=float)
    if v.shape[-1] != 2:
        raise ValueError(f"rotate needs a pair on the last axis, got shape {v.shape}")
    c, s = np.cos(angle), np.sin(angle)
    x, y = v[..., 0], v[..., 1]
    return np.stack([c * x - s * y, s * x + c * y], axis=-1)  # [..., 2]


def rope_rates(d: int, base: float = 10000.0) -> np.ndarray:
    """Per-pair turning rates base ** (-2 i / d), i = 0 .. d // 2 - 1.

    Shapes: -> [d // 2].
    """
    if d <= 0:
        raise ValueError(f"RoPE needs a positive width, got {d}")
    return base ** (-2.0 * np.arange(d // 2) / d)  # [d/2]


def rope(
    x: npt.ArrayLike, positions: npt.ArrayLike | None = None, base: float = 10000.0
) -> np.ndarray:
    """Rotate every adjacent pair of x by position * rate of that pair.

    Shapes: x [..., L, d], positions [L] (default 0 .. L-1) -> [..., L, d]. An odd d leaves
    the last coordinate unturned.
    """
    x = np.asarray(x, dtype=float)
    length, d = x.shape[-2], x.shape[-1]
    pos = np.arange(length) if positions is None else np.asarray(positions, dtype=float)
    if pos.shape != (length,):
        raise ValueError(f"positions must have shape ({length},), got {pos.shape}")
    angles = pos[:, None] * rope_rates(d, base)[None, :]  # [L, d//2]
    paired = 2 * (d // 2)
    pairs = x[..., :paired].reshape(*x.shape[:-1], d // 2, 2)  # [..., L, d//2, 2]
    turned = rotate(pairs, angles).reshape(*x.shape[:-1], paired)  # [..., L, 2 * (d//2)]
    return np.concatenate([turned, x[..., paired:]], axis=-1)  # [..., L, d]


def rope_halves(
    x: npt.ArrayLike, positions: npt.ArrayLike | None = None, base: float = 10000.0
) -> np.ndarray:
    """RoPE in the rotate-half layout: coordinate i turns together with i + d/2.

    Pair i (coordinates i and i + d/2) turns at the same rate base ** (-2 i / d) as adjacent
    pair i of `rope`; only which coordinates form a pair differs.
    Shapes: x [..., L, d] with d even, positions [L] (default 0 .. L-1) -> [..., L, d].
    """
    x = np.asarray(x, dtype=float)
    d = x.shape[-1]
    if d % 2:
        raise ValueError(f"the rotate-half layout needs an even width, got {d}")
    half = d // 2
    # Move each (i, i + d/2) pair next to each other, turn it with `rope`, and move it back.
    adjacent = np.stack([x[..., :half], x[..., half:]], axis=-1).reshape(x.shape)  # [..., L, d]
    turned = rope(adjacent, positions, base).reshape(*x.shape[:-1], half, 2)  # [..., L, d/2, 2]
    return np.concatenate([turned[..., 0], turned[..., 1]], axis=-1)  # [..., L, d]


def rope_score(
    q: np.ndarray,
    k: np.ndarray,
    query_position: float,
    key_position: float,
    base: float = 10000.0,
    layout: str = "adjacent",
) -> float:
    """Unscaled score q . k after RoPE puts q at query_position and k at key_position.

    layout "adjacent" pairs (0, 1), (2, 3), ... (`rope`); "halves" pairs i with i + d/2
    (`rope_halves`). Shapes: q [d], k [d] -> scalar. The result depends only on the offset
    query_position - key_position.
    """
    turn = {"adjacent": rope, "halves": rope_halves}.get(layout)
    if turn is None:
        raise ValueError(f'layout must be "adjacent" or "halves", got {layout!r}')
    q_rot = turn(np.asarray(q, dtype=float)[None, :], np.array([query_position]), base)[0]  # [d]
    k_rot = turn(np.asarray(k, dtype=float)[None, :], np.array([key_position]), base)[0]  # [d]
    return float(q_rot @ k_rot)

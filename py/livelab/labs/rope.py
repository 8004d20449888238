"""RoPE lab: one pair q and one pair k, each turned by its position times theta.

The score q·k after rotation depends only on the distance q_pos - k_pos; the lab lets a
student move either position, or both at once, and watch that happen.
"""

from __future__ import annotations

import numpy as np

from livelab.kernels import rope, rotate
from livelab.labs.params import Param, Params
from livelab.labs.view import fmt_number, fmt_vector, svg_point

PARAMS = Params(
    q_pos=Param(0, 0, 20, 1, "q position"),
    k_pos=Param(0, 0, 20, 1, "k position"),
    theta=Param(0.5, 0.0, 3.14, 0.01, "θ (radians per position)"),
    q=Param((1.0, 0.0)),
    k=Param((0.0, 1.0)),
)

# The drawing: a circle of radius 1 around (CENTER, CENTER) in a square SVG of side 2 * CENTER.
CENTER = 100.0
SCALE = 80.0


def state(
    q_pos: int = 0,
    k_pos: int = 0,
    theta: float = 0.5,
    q: tuple[float, ...] = (1.0, 0.0),
    k: tuple[float, ...] = (0.0, 1.0),
) -> dict:
    """Rotate q by q_pos * theta and k by k_pos * theta; return both pairs and their score."""
    q_angle, k_angle = q_pos * theta, k_pos * theta
    q_rot = rotate(np.asarray(q, dtype=float), q_angle)  # [2]
    k_rot = rotate(np.asarray(k, dtype=float), k_angle)  # [2]
    return {
        "q_pos": q_pos,
        "k_pos": k_pos,
        "theta": theta,
        "q_angle": q_angle,
        "k_angle": k_angle,
        "distance": q_pos - k_pos,
        "q_rot": q_rot.tolist(),
        "k_rot": k_rot.tolist(),
        "score": float(q_rot @ k_rot),
    }


def view(s: dict) -> dict:
    """What the widget shows for a state: text fields and the arrow tips in SVG space."""
    return {
        "text": {
            "q_pos": str(s["q_pos"]),
            "k_pos": str(s["k_pos"]),
            "theta": fmt_number(s["theta"]),
            "q_angle": fmt_number(s["q_angle"]),
            "k_angle": fmt_number(s["k_angle"]),
            "distance": str(s["distance"]),
            "q_rot": fmt_vector(s["q_rot"]),
            "k_rot": fmt_vector(s["k_rot"]),
            "score": fmt_number(s["score"]),
        },
        "attrs": {
            "q_arrow": _tip(s["q_rot"]),
            "k_arrow": _tip(s["k_rot"]),
        },
    }


def _tip(pair: list[float]) -> dict[str, str]:
    """SVG end point (x2, y2) of an arrow from the centre to a pair scaled to the circle."""
    length = float(np.hypot(pair[0], pair[1])) or 1.0
    point = svg_point(pair[0] / length, pair[1] / length, CENTER, SCALE)
    return {"x2": point["x"], "y2": point["y"]}


def seeded_demo(
    seed: int = 0,
    width: int = 4,
    positions: tuple[tuple[int, int], ...] = ((7, 4), (107, 104)),
    base: float = 10000.0,
) -> dict:
    """Random q and k of one width (q drawn first), scored at several (q_pos, k_pos) pairs.

    Every pair of coordinates turns at its own rate base ** (-2 i / width); equal distances
    still give equal scores.
    """
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(width)  # [width]
    k = rng.standard_normal(width)  # [width]
    scores = []
    for q_pos, k_pos in positions:
        q_rot = rope(q[None, :], positions=[q_pos], base=base)[0]  # [width]
        k_rot = rope(k[None, :], positions=[k_pos], base=base)[0]  # [width]
        scores.append(float(q_rot @ k_rot))
    return {
        "q": q.tolist(),
        "k": k.tolist(),
        "positions": [list(p) for p in positions],
        "scores": scores,
    }

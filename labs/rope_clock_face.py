"""The RoPE clock lab's face: one hand per pair of a head, its number on a ring outside.

Hand i stands at (m - n) * theta_i from the top, counter-clockwise; the view of
labs.rope_clock draws it from the lab's state (its "hands" angles).
"""

from __future__ import annotations

import math

from livelab.labs.view import shape

# The clock face: centre and radius in a square SVG, hands from 0.95 to 0.5 of the radius
# (the fastest longest, as a second hand), the pair numbers on a ring just outside the face.
FACE_SIZE, FACE_RADIUS = 220.0, 80.0
LONGEST, SHORTEST = 0.95, 0.5
LABEL_RING = FACE_RADIUS + 13
LABEL_GAP = 0.3  # radians between two pair numbers on the ring, at least


def hand_lengths(n_pairs: int) -> list[float]:
    """Hand lengths in SVG units: from LONGEST (pair 0, the fastest) to SHORTEST of the radius."""
    if n_pairs == 1:
        return [LONGEST * FACE_RADIUS]
    step = (LONGEST - SHORTEST) / (n_pairs - 1)
    return [(LONGEST - step * i) * FACE_RADIUS for i in range(n_pairs)]


def spread(angles: list[float], gap: float = LABEL_GAP) -> list[float]:
    """Angles moved apart, as little as may be, until neighbours on the circle are gap apart.

    Neighbours keep their order round the circle (by angle, then by index), so no two swap.
    """
    order = sorted(range(len(angles)), key=lambda i: (angles[i] % (2 * math.pi), i))
    out = [float(angles[i] % (2 * math.pi)) for i in range(len(angles))]
    if len(angles) < 2:
        return out
    for _ in range(500):
        moved = False
        for j, a in enumerate(order):
            b = order[(j + 1) % len(order)]
            between = out[b] - out[a] + (2 * math.pi if j == len(order) - 1 else 0.0)
            if between < gap - 1e-9:
                push = (gap - between) / 2
                out[a] -= push
                out[b] += push
                moved = True
        if not moved:
            break
    return out


def clock_shapes(s: dict) -> list[dict]:
    """One hand per pair at (m - n) * theta_i from the top, counter-clockwise, numbered outside.

    The numbers sit on a ring at their hands' angles, moved apart where hands nearly coincide
    (a thin line then joins a number to its hand's tip).
    """
    c = FACE_SIZE / 2
    out: list[dict] = []
    lengths = hand_lengths(len(s["hands"]))
    # Math angles (counter-clockwise from the right) of hands measured from the top.
    angles = [math.pi / 2 + hand for hand in s["hands"]]
    label_angles = spread(angles)
    for i, (angle, length, label_angle) in enumerate(
        zip(angles, lengths, label_angles, strict=True)
    ):
        tip = (c + length * math.cos(angle), c - length * math.sin(angle))
        out.append(
            shape(
                "line",
                {"x1": c, "y1": c, "x2": tip[0], "y2": tip[1]},
                class_="livelab-clock-hand",
                stroke_width=f"{1.5 + 3.0 * i / max(1, len(lengths) - 1):.2f}",
            )
        )
        at = (c + LABEL_RING * math.cos(label_angle), c - LABEL_RING * math.sin(label_angle))
        if abs(label_angle - angle) > 0.05:
            out.append(
                shape(
                    "line",
                    {"x1": tip[0], "y1": tip[1], "x2": at[0], "y2": at[1]},
                    class_="livelab-guide",
                )
            )
        out.append(
            shape(
                "text",
                {"x": at[0], "y": at[1] + 4.5},
                str(i),
                class_="livelab-hand-label",
                text_anchor="middle",
            )
        )
    out.append(shape("circle", {"cx": c, "cy": c, "r": 3.0}, class_="livelab-hub"))
    return out

"""The RoPE clock lab's face: one hand per pair of a head, its number on a ring outside.

Hand i stands at (m - n) * theta_i from the top, counter-clockwise; the view of
labs.rope_clock draws it from the lab's state (its "hands" angles). A head of more than
MOST_HANDS pairs gets MOST_HANDS hands, spread over its pairs from the fastest to the slowest:
the pair numbers on the ring need LABEL_GAP radians each, so no more fit round the face.
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
MOST_HANDS = 16  # 16 numbers take 4.8 of the ring's 2π radians, leaving room to spread


def shown_pairs(n_pairs: int) -> list[int]:
    """The pairs that get a hand: all of them, or MOST_HANDS spread evenly from 0 to the last."""
    if n_pairs <= MOST_HANDS:
        return list(range(n_pairs))
    step = (n_pairs - 1) / (MOST_HANDS - 1)
    return [round(step * j) for j in range(MOST_HANDS)]


def hand_lengths(n_pairs: int) -> list[float]:
    """Hand lengths in SVG units: from LONGEST (pair 0, the fastest) to SHORTEST of the radius."""
    if n_pairs == 1:
        return [LONGEST * FACE_RADIUS]
    step = (LONGEST - SHORTEST) / (n_pairs - 1)
    return [(LONGEST - step * i) * FACE_RADIUS for i in range(n_pairs)]


def spread(angles: list[float], gap: float = LABEL_GAP) -> list[float]:
    """Angles moved apart, as little as may be, until neighbours on the circle are gap apart.

    Neighbours keep their order round the circle (by angle, then by index), so no two swap.
    The circle is cut at its widest empty arc and the angles laid out along a line; runs of
    angles closer than gap are merged into clusters spaced exactly gap apart, each centred on
    its members' own angles (the least squared movement), until no two clusters overlap.
    Every angle comes back moved by its displacement, not reduced mod 2π. Needs
    len(angles) * gap <= 2π.
    """
    n, turn = len(angles), 2 * math.pi
    if n < 2:
        return [float(a) for a in angles]
    order = sorted(range(n), key=lambda i: (angles[i] % turn, i))
    around = [angles[i] % turn for i in order]
    # The empty arc after each angle; the last one wraps round to the first angle.
    gaps = [around[j + 1] - around[j] for j in range(n - 1)] + [around[0] + turn - around[-1]]
    first = (max(range(n), key=lambda j: gaps[j]) + 1) % n  # just after the widest empty arc
    line = [around[(first + j) % n] + (turn if first + j >= n else 0.0) for j in range(n)]
    # A cluster is (start, count, centre): member j sits at centre + (j - start) * gap, and its
    # centre is the mean of line[j] - (j - start) * gap over its members.
    clusters: list[tuple[int, int, float]] = []
    for j, value in enumerate(line):
        clusters.append((j, 1, value))
        while len(clusters) > 1:
            (s0, c0, m0), (_, c1, m1) = clusters[-2], clusters[-1]
            if m0 + c0 * gap <= m1 + 1e-12:
                break
            # Merged, member s1 + k keeps offset (c0 + k) * gap from s0.
            merged = (m0 * c0 + (m1 - c0 * gap) * c1) / (c0 + c1)
            clusters[-2:] = [(s0, c0 + c1, merged)]
    (_, c_last, m_last), (_, _, m_first) = clusters[-1], clusters[0]
    if len(clusters) > 1 and m_last + c_last * gap > m_first + turn + 1e-12:
        # The two ends meet across the cut: one cluster of all, which always fits.
        clusters = [(0, n, sum(v - j * gap for j, v in enumerate(line)) / n)]
    out = [0.0] * n
    for start, count, centre in clusters:
        for j in range(start, start + count):
            moved = centre + (j - start) * gap - line[j]
            index = order[(first + j) % n]
            out[index] = float(angles[index] + moved)
    return out


def clock_shapes(s: dict) -> list[dict]:
    """A hand per shown pair at (m - n) * theta_i from the top, counter-clockwise, numbered
    outside with its pair's number.

    The numbers sit on a ring at their hands' angles, moved apart where hands nearly coincide
    (a thin line then joins a number to its hand's tip).
    """
    c = FACE_SIZE / 2
    out: list[dict] = []
    pairs = shown_pairs(len(s["hands"]))
    lengths = hand_lengths(len(pairs))
    # Math angles (counter-clockwise from the right) of hands measured from the top.
    angles = [math.pi / 2 + s["hands"][pair] for pair in pairs]
    label_angles = spread(angles, LABEL_GAP + 0.001)  # a hair more: coordinates are rounded
    for i, (pair, angle, length, label_angle) in enumerate(
        zip(pairs, angles, lengths, label_angles, strict=True)
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
        if abs(label_angle - angle) > 0.05:  # moved off its hand's angle
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
                str(pair),
                class_="livelab-hand-label",
                text_anchor="middle",
            )
        )
    out.append(shape("circle", {"cx": c, "cy": c, "r": 3.0}, class_="livelab-hub"))
    return out

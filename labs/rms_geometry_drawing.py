"""The plane of the RMS geometry lab: a row [x1, x2] and where the two norms send it.

Pure functions from the lab's state (labs.rms_geometry) to shapes (livelab.labs.view.shape).
The points carry short labels placed where they cover neither another label nor a point, at
the largest size figure text takes (a phone); a legend under the axes names every mark.
"""

from __future__ import annotations

import math
from typing import NamedTuple

from livelab.labs.view import BELOW_AXES, Frame, largest_em, shape

WIDTH = 340.0
EM = largest_em(WIDTH)  # figure text at its largest, in viewBox units (about 15.8)
LIMIT = 4.5  # the plane shows -LIMIT..LIMIT on both axes
TICKS = [-4, -2, 0, 2, 4]
BOX = (40.0, float(round(1.4 * EM)), 286.0, 286.0)  # square: one unit is as long on both axes
_BOTTOM = BOX[1] + BOX[3]
LEGEND_ROW = 1.35 * EM  # from one legend row's centre to the next
LEGEND_TOP = _BOTTOM + (BELOW_AXES + 0.75) * EM  # centre of the first legend row
LEGEND_COLUMNS = (8.0, WIDTH / 2 + 4)
HEIGHT = float(round(LEGEND_TOP + 2 * LEGEND_ROW + 0.75 * EM))
# A label's box around its anchor at the largest em: 0.8 em above the baseline, 0.25 em
# below, and per glyph 0.6 em (Roboto's digits are 0.56 em) or, for a capital, 0.75 em (its
# bold M is 0.87 em, but no label has two in a row: "RMS" is 2.1 em against 2.25 allowed).
ASCENT, DESCENT = 0.8 * EM, 0.25 * EM
# Markers nest, so points that coincide all stay visible: the ring of x - mean outside the
# LayerNorm diamond, the RMSNorm square inside it and the row's dot on top (half-sizes).
SIZES = {"centred": 8.0, "ln": 6.5, "rms": 4.0, "x": 3.0}
MARK = 8.0  # how far labels keep from the centre of every marker
GAP = 4.0  # between a marker's edge and its label


class Box(NamedTuple):
    """An axis-aligned rectangle in viewBox units."""

    left: float
    top: float
    right: float
    bottom: float

    def meets(self, other: Box, pad: float = 0.0) -> bool:
        """Whether the two overlap, or come closer than pad."""
        return not (
            self.right + pad <= other.left
            or other.right + pad <= self.left
            or self.bottom + pad <= other.top
            or other.bottom + pad <= self.top
        )

    def inside(self, other: Box) -> bool:
        return (
            self.left >= other.left
            and self.right <= other.right
            and self.top >= other.top
            and self.bottom <= other.bottom
        )


PLANE = Box(BOX[0], BOX[1], BOX[0] + BOX[2], _BOTTOM)


def text_box(x: float, y: float, text: str, anchor: str) -> Box:
    """Where a one-line label at (x, baseline y) can reach when drawn at the largest em."""
    width = EM * sum(0.75 if char.isupper() else 0.6 for char in text)
    left = {"start": x, "middle": x - width / 2, "end": x - width}[anchor]
    return Box(left, y - ASCENT, left + width, y + DESCENT)


def marker_box(x: float, y: float) -> Box:
    return Box(x - MARK, y - MARK, x + MARK, y + MARK)


def _candidates(x: float, y: float, outward: float) -> list[tuple[float, float, str]]:
    """Label anchors round a point (x, baseline y, text-anchor), the most outward first.

    outward is the math angle (y up) pointing away from the origin; a label on that side
    stays off the circle and the guides that run through the origin. Eight spots next to the
    point come first, then eight twice as far, for points crowded by their neighbours.
    """
    middle = y + 0.3 * EM  # a baseline that centres digits and letters on y

    def turn(angle: float) -> float:
        return abs((angle - outward + math.pi) % (2 * math.pi) - math.pi)

    out = []
    for reach in (MARK + GAP, 2 * (MARK + GAP)):
        side = reach * 0.7
        spots = [
            (0.0, (x + reach, middle, "start")),
            (math.pi / 4, (x + side, y - side, "start")),
            (math.pi / 2, (x, y - reach, "middle")),
            (3 * math.pi / 4, (x - side, y - side, "end")),
            (math.pi, (x - reach, middle, "end")),
            (5 * math.pi / 4, (x - side, y + side + ASCENT, "end")),
            (3 * math.pi / 2, (x, y + reach + ASCENT, "middle")),
            (7 * math.pi / 4, (x + side, y + side + ASCENT, "start")),
        ]
        out += [spot for angle, spot in sorted(spots, key=lambda item: turn(item[0]))]
    return out


def _crossings(box: Box, origin: tuple[float, float], radius: float) -> int:
    """How many of the zero-mean line and the circle run through a label's box."""
    corners = [
        (x - origin[0], y - origin[1]) for x in (box.left, box.right) for y in (box.top, box.bottom)
    ]
    # In SVG space (y down, equal scales) the line x1 + x2 = 0 is dy = dx.
    sides = {dy > dx for dx, dy in corners}
    near = math.hypot(
        max(box.left - origin[0], origin[0] - box.right, 0.0),
        max(box.top - origin[1], origin[1] - box.bottom, 0.0),
    )
    far = max(math.hypot(dx, dy) for dx, dy in corners)
    return (len(sides) > 1) + (near < radius < far)


def place_labels(
    points: list[tuple[float, float, str]],
    origin: tuple[float, float],
    radius: float,
    others: tuple[tuple[float, float], ...] = (),
) -> list[dict]:
    """A text shape per (x, y, text): inside the plane, clear of every marker and label.

    others are markers without a label of their own, which the labels keep clear of too.

    Points are placed in order; each takes its first free spot, most outward first. When
    none is free (no row on a 0.1 grid of the lab's range comes to that; tests/unit checks
    a coarser one) the spot that meets the fewest boxes is taken.
    """
    markers = [marker_box(x, y) for x, y, _ in points] + [marker_box(x, y) for x, y in others]
    placed: list[Box] = []
    out = []
    for x, y, text in points:
        outward = math.atan2(origin[1] - y, x - origin[0]) if (x, y) != origin else math.pi / 4
        best, fewest = None, math.inf
        for ax, ay, anchor in _candidates(x, y, outward):
            box = text_box(ax, ay, text, anchor)
            # pad: the drawn coordinates are rounded to 0.01, which must not make two touch.
            clashes = float(sum(box.meets(other, pad=0.5) for other in [*markers, *placed]))
            clashes += 0 if box.inside(PLANE) else 10
            clashes += 0.1 * _crossings(box, origin, radius)  # allowed, when nothing else is
            if clashes < fewest:
                best, fewest = (ax, ay, anchor, box), clashes
            if clashes == 0:
                break
        assert best is not None
        ax, ay, anchor, box = best
        placed.append(box)
        out.append(
            shape("text", {"x": ax, "y": ay}, text, class_="livelab-geo-label", text_anchor=anchor)
        )
    return out


def _point(kind: str, x: float, y: float) -> dict:
    """A point's marker: the row a dot, RMSNorm a square, LayerNorm a diamond, x - mean a ring."""
    cls = f"livelab-geo-point livelab-geo-point--{kind}"
    r = SIZES[kind]
    if kind == "rms":
        return shape("rect", {"x": x - r, "y": y - r, "width": 2 * r, "height": 2 * r}, class_=cls)
    if kind == "ln":
        d = f"M{x:.2f},{y - r:.2f} L{x + r:.2f},{y:.2f} L{x:.2f},{y + r:.2f} L{x - r:.2f},{y:.2f} Z"
        return shape("path", {"d": d}, class_=cls)
    return shape("circle", {"cx": x, "cy": y, "r": r}, class_=cls)


def _segment(frame: Frame, a: list[float], b: list[float], cls: str) -> dict:
    ends: dict[str, object] = {"x1": frame.x(a[0]), "y1": frame.y(a[1])}
    ends.update(x2=frame.x(b[0]), y2=frame.y(b[1]))
    return shape("line", ends, class_=cls)


def legend() -> list[dict]:
    """Every mark of the plane with its name, two to a row under the axes; static."""
    entries = [
        ("x", "x, the row"),
        ("rms", "RMSNorm(x)"),
        ("centred", "x − mean"),
        ("ln", "LayerNorm(x)"),
        ("circle", "radius √2"),
        ("line", "x1 + x2 = 0"),
    ]
    out = []
    for i, (kind, text) in enumerate(entries):
        x, y = LEGEND_COLUMNS[i % 2], LEGEND_TOP + LEGEND_ROW * (i // 2)
        if kind == "circle":
            # A piece of a large circle, so it is not taken for the ring of x - mean.
            arc = f"M{x:.2f},{y + 6:.2f} A16,16 0 0 1 {x + 18:.2f},{y - 6:.2f}"
            out.append(shape("path", {"d": arc}, class_="livelab-geo-circle"))
        elif kind == "line":
            sample: dict[str, object] = {"x1": x, "y1": y + 7, "x2": x + 18, "y2": y - 7}
            out.append(shape("line", sample, class_="livelab-geo-line"))
        else:
            out.append(_point(kind, x + 9, y))
        out.append(shape("text", {"x": x + 24, "y": y + 0.3 * EM}, text, class_="livelab-tick"))
    return out


def plane_shapes(s: dict) -> list[dict]:
    """Axes, the circle of radius √d, the zero-mean line, the row, its two norms and labels."""
    frame = Frame((-LIMIT, LIMIT), (-LIMIT, LIMIT), BOX)
    out = frame.axes(TICKS, TICKS, "x1", "x2")
    o = (frame.x(0), frame.y(0))
    radius = s["radius"] * BOX[2] / (2 * LIMIT)
    out.append(shape("circle", {"cx": o[0], "cy": o[1], "r": radius}, class_="livelab-geo-circle"))
    out.append(_segment(frame, [-LIMIT, LIMIT], [LIMIT, -LIMIT], "livelab-geo-line"))
    x, centred = s["x"], s["centred"]
    # The row's direction from the origin, out to the circle when the row is shorter.
    if s["rms_out"] is not None:
        far = x if s["rms"] >= 1 else s["rms_out"]
        out.append(_segment(frame, [0.0, 0.0], far, "livelab-guide"))
    # Taking the mean away moves x along (1, 1) onto the zero-mean line.
    out.append(_segment(frame, x, centred, "livelab-guide"))
    ring = (frame.x(centred[0]), frame.y(centred[1]))
    out.append(_point("centred", *ring))
    labelled = [(frame.x(x[0]), frame.y(x[1]), "x")]
    for kind, key, name in (("ln", "ln_out", "LN"), ("rms", "rms_out", "RMS")):
        if s[key] is not None:
            at = (frame.x(s[key][0]), frame.y(s[key][1]))
            out.append(_point(kind, *at))
            labelled.append((*at, name))
    out.append(_point("x", *labelled[0][:2]))
    return out + place_labels(labelled, o, radius, (ring,))

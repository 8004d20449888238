"""Bar pictures shared by labs: a symmetric scale with round ends, and labelled bar rows.

Pure functions from numbers to the shape dicts of livelab.labs.view; every bar carries its
own label and number, so no series is told apart by colour alone.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from livelab.labs.view import fmt_number, shape, tick_anchor


def nice_limit(values: Iterable[float], least: float = 1.0) -> float:
    """The smallest of 1, 2, 5 times a power of ten that is at least every |value| and least."""
    top = max([least, *(abs(v) for v in values)])
    power = 10.0 ** math.floor(math.log10(top))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= top * (1 - 1e-12))


def bar_rows(
    rows: list[tuple[str, str, float, int]], box: tuple[float, float, float, float]
) -> list[dict]:
    """Horizontal bars from a zero line in the middle of box, one row per (key, label, value,
    digits): the label and the value above the bar, the scale's ends and zero below the box."""
    left, top, width, height = box
    limit = nice_limit(value for _, _, value, _ in rows)
    zero = left + width / 2
    row_height = height / len(rows)
    out: list[dict] = []
    for i, (key, label, value, digits) in enumerate(rows):
        row_top = top + i * row_height
        end = zero + value / limit * width / 2
        out.append(
            shape(
                "text",
                {"x": left, "y": row_top + 13},
                f"{label} = {fmt_number(value, digits)}",
                class_=f"livelab-bar-label livelab-bar-label--{key}",
            )
        )
        bar_height = min(14.0, row_height - 22)
        out.append(
            shape(
                "rect",
                {"x": min(zero, end), "y": row_top + 18, "width": abs(end - zero)},
                class_=f"livelab-bar livelab-bar--{key}",
                height=bar_height,
            )
        )
        # The zero line runs through the bars only, never through a label above them.
        out.append(
            shape(
                "line",
                {"x1": zero, "y1": row_top + 15, "x2": zero, "y2": row_top + 21 + bar_height},
                class_="livelab-axis",
            )
        )
    bottom = top + height
    digits = 0 if limit >= 1 else 2
    for x, tick in ((left, -limit), (zero, 0.0), (left + width, limit)):
        out.append(
            shape(
                "text",
                {"x": x, "y": bottom + 16},
                fmt_number(tick, digits),
                class_="livelab-tick",
                text_anchor=tick_anchor(x, left, left + width),
            )
        )
    return out

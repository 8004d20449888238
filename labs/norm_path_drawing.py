"""Drawings of the norm path lab: the residual path and the weight-gradient chart.

Pure functions from numbers to shapes (see livelab.labs.view.shape); the lab itself, its
params and its state are in labs.norm_path.
"""

from __future__ import annotations

import math

from livelab.labs.view import BELOW_AXES, CENTRED, Frame, em, fmt_number, largest_em, shape

PLACEMENT_NAMES = {"post": "post-norm", "pre": "pre-norm"}

# The path drawing: a horizontal residual path, one segment per layer, a final-norm slot.
PATH_WIDTH, PATH_HEIGHT = 360.0, 146.0
PATH_Y, BRANCH_Y = 92.0, 26.0
PATH_LEFT, PATH_RIGHT = 20.0, 290.0
# The gradient plot: two title lines above the box, tick labels, x title and legend below.
# Text rows are placed in em, and the box leaves room for them at the largest em (a phone):
# the titles' baselines 2.25 and 0.95 em above the box (the top y label reaches 0.6 em above
# it), then below it the axes' rows and one legend row per placement.
PLOT_WIDTH = 360.0
_EM = largest_em(PLOT_WIDTH)
TITLE_ROWS = (-2.25, -0.95)
LEGEND_ROW = 1.35  # em between legend rows, and from the x title to the first
PLOT_BOX = (40.0, float(round(3.3 * _EM)), 300.0, 140.0)
_BOTTOM = PLOT_BOX[1] + PLOT_BOX[3]
LEGEND_TOP = _BOTTOM + (BELOW_AXES + 0.75) * _EM  # centre of the first legend row
PLOT_HEIGHT = float(round(LEGEND_TOP + (LEGEND_ROW + 0.75) * _EM))
MARKERS = {"post": "squares", "pre": "circles"}  # told apart by shape as well as colour
Y_TITLE = "size of dLoss/dW_O or dLoss/dW2"


def _box(cx: float, cy: float, width: float, label: str, kind: str) -> list[dict]:
    """A labelled node centred at (cx, cy); the label is left out when the box is too narrow."""
    height = 18.0
    out = [
        shape(
            "rect",
            {"x": cx - width / 2, "y": cy - height / 2, "width": width, "height": height},
            class_=f"livelab-node livelab-node--{kind}",
            rx=3,
        )
    ]
    if label and width >= 16:
        out.append(
            shape(
                "text",
                {"x": cx, "y": cy + 4},
                label,
                class_="livelab-node-label",
                text_anchor="middle",
            )
        )
    return out


def _plus(cx: float, cy: float, r: float) -> list[dict]:
    """An add node: a circle with a cross drawn in lines (a "+" glyph would outgrow it)."""
    arm = 0.6 * r
    return [
        shape("circle", {"cx": cx, "cy": cy, "r": r}, class_="livelab-plus"),
        shape("line", {"x1": cx - arm, "y1": cy, "x2": cx + arm, "y2": cy}, class_="livelab-plus"),
        shape("line", {"x1": cx, "y1": cy - arm, "x2": cx, "y2": cy + arm}, class_="livelab-plus"),
    ]


def path_shapes(placement: str, layers: int) -> list[dict]:
    """The residual path left to right: per layer a branch through f back to an add node.

    Within a layer's span: the branch leaves at 0.1 and returns at 0.45 (the add node), and
    post-norm's LN sits at 0.72, no wider than 0.36 of the span, so it never covers the add
    node (whose radius is at most 0.08 of the span) nor the next layer's branch at 1.1.
    """
    span = (PATH_RIGHT - PATH_LEFT) / layers
    out = [
        shape(
            "line",
            {"x1": 10.0, "y1": PATH_Y, "x2": PATH_WIDTH - 34, "y2": PATH_Y},
            class_="livelab-path",
        ),
        shape("text", {"x": 4.0, "y": PATH_Y - 8}, "x", class_="livelab-node-label"),
        shape("text", {"x": PATH_WIDTH - 30, "y": PATH_Y + 4}, "out", class_="livelab-node-label"),
    ]
    adds: list[dict] = []  # drawn last, so nothing is drawn over them
    for layer in range(layers):
        x0 = PATH_LEFT + layer * span
        up, down = x0 + 0.1 * span, x0 + 0.45 * span
        out.append(
            shape(
                "polyline",
                {
                    "points": f"{up:.2f},{PATH_Y} {up:.2f},{BRANCH_Y} {down:.2f},{BRANCH_Y} "
                    f"{down:.2f},{PATH_Y}"
                },
                class_="livelab-branch",
            )
        )
        out += _box((up + down) / 2, BRANCH_Y, min(30.0, 0.42 * span), "f", "f")
        adds += _plus(down, PATH_Y, min(6.0, 0.08 * span))
        if placement == "pre":
            out += _box(up, (PATH_Y + BRANCH_Y) / 2, min(30.0, 0.42 * span), "LN", "norm")
        else:
            out += _box(x0 + 0.72 * span, PATH_Y, min(30.0, 0.36 * span), "LN", "norm")
    if placement == "pre":
        out += _box(PATH_RIGHT + 24, PATH_Y, 30.0, "LN", "norm")
        out.append(
            shape(
                "text",
                {"x": PATH_RIGHT + 24, "y": PATH_Y + 24},
                "final",
                class_="livelab-tick",
                text_anchor="middle",
            )
        )
    return out + adds


def path_legend() -> list[dict]:
    """What the shapes are, in words (narrow boxes have no room for their own labels).

    Static, so the lab draws it outside the redrawn group: the path's shapes are only the path.
    """
    y = PATH_HEIGHT - 12
    out = _box(20.0, y, 16.0, "", "norm")
    out.append(shape("text", {"x": 32.0, "y": y + 4}, "LayerNorm", class_="livelab-tick"))
    out += _box(130.0, y, 16.0, "", "f")
    out.append(shape("text", {"x": 142.0, "y": y + 4}, "sublayer f", class_="livelab-tick"))
    out += _plus(250.0, y, 6.0)
    out.append(shape("text", {"x": 260.0, "y": y + 4}, "add", class_="livelab-tick"))
    return out


def log_ticks(low: float, high: float) -> list[float]:
    """Round values 1, 2, 5 times a power of ten; the first is <= low and the last >= high."""
    ladder = [
        m * 10.0**k
        for k in range(math.floor(math.log10(low)) - 1, math.ceil(math.log10(high)) + 1)
        for m in (1, 2, 5)
    ]
    start = max(i for i, t in enumerate(ladder) if t <= low)
    stop = min(i for i, t in enumerate(ladder) if t >= high)
    return ladder[start : stop + 1]


def _marker(name: str, cx: float, cy: float) -> dict:
    """A point of a series: post-norm a square, pre-norm a circle, in the series colour."""
    kind = f"livelab-marker livelab-marker--{name} livelab-series--{name}"
    if MARKERS[name] == "squares":
        return shape("rect", {"x": cx - 3, "y": cy - 3, "width": 6.0, "height": 6.0}, class_=kind)
    return shape("circle", {"cx": cx, "cy": cy, "r": 3.5}, class_=kind)


def gradient_shapes(gradients: dict[str, list[float]], placement: str, stacks: int) -> list[dict]:
    """Weight-gradient size per layer on a log axis, both placements, the chosen one bold.

    Each point is the median of `stacks` random stacks (the y title says so).
    """
    layers = len(gradients["post"])
    everything = [v for values in gradients.values() for v in values]
    ticks = log_ticks(min(everything), max(everything))
    frame = Frame((0.5, layers + 0.5), (math.log10(ticks[0]), math.log10(ticks[-1])), PLOT_BOX)
    left, width = PLOT_BOX[0], PLOT_BOX[2]
    step = 4 if layers <= 24 else 8  # inner ticks, none too close to the last layer's
    inner = [t for t in range(step, layers, step) if layers - t >= step / 2]
    x_ticks = sorted({1, layers, *inner}) if layers > 1 else [1]
    x_title = f"layer 1 … {layers} (1 is nearest the input)"
    # The y title takes two lines from the left edge, where a long line has the most room.
    y_titles = (Y_TITLE, f"median of {stacks} random stacks, log scale")
    out = [
        shape("text", {"x": 4.0, "y": PLOT_BOX[1]}, line, class_="livelab-axis-label", dy=em(row))
        for row, line in zip(TITLE_ROWS, y_titles, strict=True)
    ]
    axes = frame.axes(
        x_ticks,
        [],  # the log axis gets its own ticks below: the frame's y is log10 of the size
        x_title if layers > 1 else "layer 1, the only one",
        "",
    )
    out += [s for s in axes if s.get("text") != ""]
    for t in ticks:
        y = frame.y(math.log10(t))
        label = fmt_number(t, max(0, -math.floor(math.log10(t))))
        out.append(
            shape(
                "line", {"x1": left, "y1": y, "x2": left + width, "y2": y}, class_="livelab-guide"
            )
        )
        out.append(
            shape(
                "text",
                {"x": left - 4, "y": y},
                label,
                class_="livelab-tick",
                text_anchor="end",
                dy=CENTRED,
            )
        )
    layer_numbers = range(1, layers + 1)
    for name in ("post", "pre"):
        logs = [math.log10(v) for v in gradients[name]]
        chosen = " livelab-series--chosen" if name == placement else ""
        series = f"livelab-series livelab-series--{name}{chosen}"
        out.append(shape("polyline", {"points": frame.points(layer_numbers, logs)}, class_=series))
        out += [
            _marker(name, frame.x(n), frame.y(v)) for n, v in zip(layer_numbers, logs, strict=True)
        ]
    for row, name in enumerate(("post", "pre")):
        x, legend_y = left, LEGEND_TOP + LEGEND_ROW * _EM * row
        line: dict[str, object] = {"x1": x, "y1": legend_y, "x2": x + 24, "y2": legend_y}
        out.append(shape("line", line, class_=f"livelab-series livelab-series--{name}"))
        out.append(_marker(name, x + 12, legend_y))
        legend = f"{PLACEMENT_NAMES[name]} ({MARKERS[name]})"
        out.append(
            shape("text", {"x": x + 30, "y": legend_y}, legend, class_="livelab-tick", dy=CENTRED)
        )
    return out

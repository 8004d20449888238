"""Norm path lab: where the norms sit, post-norm against pre-norm, for a stack of n layers.

Post-norm, x = LN(x + f(x)), puts one norm on the straight residual path in every layer.
Pre-norm, x = x + f(LN(x)), moves it into the branch and adds one final norm after the
last layer. The lab draws the path, counts the norms on it, repeats the worked numbers of
the lesson and plots how large each layer's weight gradient is at initialisation, the
quantity Xiong et al. (2020) compare: the typical size over STACKS random stacks of the
chosen depth (see livelab.kernels.gradients for the stacks), on a log scale.
"""

from __future__ import annotations

import math

import numpy as np

from livelab.kernels import postnorm_block, prenorm_block, weight_gradient_sizes
from livelab.labs.params import Param, Params
from livelab.labs.view import Frame, fmt_number, fmt_vector, shape

PLACEMENT_NAMES = {"post": "post-norm", "pre": "pre-norm"}

PARAMS = Params(
    placement=Param(
        "post",
        label="Where the norm sits",
        control="radio",
        choices=(
            ("post", "Post-norm: x = LN(x + f(x))"),
            ("pre", "Pre-norm: x = x + f(LN(x))"),
        ),
    ),
    layers=Param(6, 1, 24, 1, "Number of layers"),
    seed=Param(0, 0, 10_000, 1),
)

# The lesson's worked example: one input and one sublayer output, fixed numbers.
WORKED_X = (1.0, -1.0, 0.5, -0.5)
WORKED_F = (3.0, 3.0, -3.0, -3.0)

# Random stacks behind every point of the gradient chart (each point is their geometric mean).
STACKS = 20
# What the lesson says the chart shows, as numbers: the chart's caption prints them and the
# unit tests check them over many seeds, so the words and the kernel cannot drift apart.
CLAIM_FROM_LAYERS = 6  # the claims hold for stacks at least this deep
OUTPUT_GAP = 1.2  # last layer: post-norm's gradient over pre-norm's, at least
PRE_SLOPE = 1.3  # pre-norm: its first layer's gradient over its last layer's, at least
POST_SPREAD = 2.0  # post-norm: its largest layer's gradient over its smallest, at most

# The path drawing: a horizontal residual path, one segment per layer, a final-norm slot.
PATH_WIDTH, PATH_HEIGHT = 360.0, 120.0
PATH_Y, BRANCH_Y = 92.0, 26.0
PATH_LEFT, PATH_RIGHT = 20.0, 290.0
# The gradient plot: two title lines above the box, tick labels, x title and legend below.
PLOT_WIDTH, PLOT_HEIGHT = 360.0, 250.0
PLOT_BOX = (40.0, 42.0, 300.0, 140.0)
MARKERS = {"post": "squares", "pre": "circles"}  # told apart by shape as well as colour
Y_TITLE = "weight-gradient size (dLoss/dW2)"


def claim_sentence() -> str:
    """The chart's reading in numbers, as the caption under the chart prints it."""
    return (
        f"From {CLAIM_FROM_LAYERS} layers on, post-norm's last layer gets more than "
        f"{OUTPUT_GAP:g} times the gradient of pre-norm's last layer, pre-norm's first layer "
        f"more than {PRE_SLOPE:g} times its own last layer's, and post-norm's layers all stay "
        f"within a factor of {POST_SPREAD:g} of each other."
    )


def typical_sizes(sizes: np.ndarray) -> np.ndarray:
    """Geometric mean over the stacks: sizes [stacks, n_layers] -> [n_layers]."""
    return np.exp(np.mean(np.log(sizes), axis=0))


def state(placement: str = "post", layers: int = 6, seed: int = 0) -> dict:
    """Norm counts on the residual path, the worked numbers and weight-gradient sizes."""
    x, fx = np.array(WORKED_X), np.array(WORKED_F)
    post_out = postnorm_block(x, lambda _: fx)  # LN(x + f(x))
    pre_out = prenorm_block(x, lambda _: fx)  # x + f(...): the branch output is the given f(x)
    sizes = weight_gradient_sizes(layers, seed, stacks=STACKS)
    post = placement == "post"
    return {
        "placement": placement,
        "layers": layers,
        "seed": seed,
        "path_norms": layers if post else 0,
        "branch_norms": 0 if post else layers,
        "final_norms": 0 if post else 1,
        "worked_x": list(WORKED_X),
        "worked_f": list(WORKED_F),
        "post_out": post_out.tolist(),
        "pre_out": pre_out.tolist(),
        "gradients": {p: typical_sizes(sizes[p]).tolist() for p in PLACEMENT_NAMES},
    }


def view(s: dict) -> dict:
    """Counts as text, the path and the gradient plot as shapes, the chosen row highlighted."""
    post = s["placement"] == "post"
    grads = s["gradients"]
    return {
        "text": {
            "layers": str(s["layers"]),
            "count": _count_sentence(s),
            "path_norms": str(s["path_norms"]),
            "branch_norms": str(s["branch_norms"]),
            "final_norms": str(s["final_norms"]),
            "path_title": (
                f"Residual path of a {s['layers']}-layer {PLACEMENT_NAMES[s['placement']]} "
                f"stack; LayerNorms on it: {_count_sentence(s)}"
            ),
            "worked_x": fmt_vector(s["worked_x"]),
            "worked_f": fmt_vector(s["worked_f"]),
            "post_out": fmt_vector(s["post_out"]),
            "pre_out": fmt_vector(s["pre_out"]),
            "grad_post": _grad_summary(grads["post"]),
            "grad_pre": _grad_summary(grads["pre"]),
            "grad_gap": (
                f"At layer {s['layers']}, post-norm's gradient is "
                f"{fmt_number(grads['post'][-1] / grads['pre'][-1])} times pre-norm's."
            ),
        },
        "attrs": {
            "post_row": {"class": "livelab-chosen" if post else ""},
            "pre_row": {"class": "" if post else "livelab-chosen"},
        },
        "svg": {
            "path": path_shapes(s["placement"], s["layers"]),
            "gradients": gradient_shapes(grads, s["placement"]),
        },
    }


def _count_sentence(s: dict) -> str:
    if s["placement"] == "post":
        return f"{s['path_norms']}, one in every layer"
    return "0 between the layers, then 1 final norm after the last one"


def _grad_summary(values: list[float]) -> str:
    first, last = values[0], values[-1]
    if len(values) == 1:
        return f"{fmt_number(first, 1)} at layer 1, the only layer."
    return (
        f"{fmt_number(first, 1)} at layer 1 and {fmt_number(last, 1)} at layer {len(values)}: "
        f"the last gets {fmt_number(last / first)} times the first."
    )


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
    if width >= 17:
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


def path_shapes(placement: str, layers: int) -> list[dict]:
    """The residual path left to right: per layer a branch through f back to a '+'."""
    span = (PATH_RIGHT - PATH_LEFT) / layers
    box = min(30.0, 0.42 * span)
    out = [
        shape(
            "line",
            {"x1": 10.0, "y1": PATH_Y, "x2": PATH_WIDTH - 34, "y2": PATH_Y},
            class_="livelab-path",
        ),
        shape("text", {"x": 4.0, "y": PATH_Y - 8}, "x", class_="livelab-node-label"),
        shape("text", {"x": PATH_WIDTH - 30, "y": PATH_Y + 4}, "out", class_="livelab-node-label"),
    ]
    for layer in range(layers):
        x0 = PATH_LEFT + layer * span
        up, down = x0 + 0.2 * span, x0 + 0.65 * span
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
        out += _box((up + down) / 2, BRANCH_Y, box, "f", "f")
        plus_r = min(6.0, 0.12 * span)
        out.append(shape("circle", {"cx": down, "cy": PATH_Y, "r": plus_r}, class_="livelab-plus"))
        if plus_r >= 5:
            out.append(
                shape(
                    "text",
                    {"x": down, "y": PATH_Y + 4},
                    "+",
                    class_="livelab-node-label",
                    text_anchor="middle",
                )
            )
        if placement == "pre":
            out += _box(up, (PATH_Y + BRANCH_Y) / 2, box, "LN", "norm")
        else:
            out += _box(x0 + 0.86 * span, PATH_Y, box, "LN", "norm")
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


def gradient_shapes(gradients: dict[str, list[float]], placement: str) -> list[dict]:
    """Weight-gradient size per layer on a log axis, both placements, the chosen one bold."""
    layers = len(gradients["post"])
    everything = [v for values in gradients.values() for v in values]
    ticks = log_ticks(min(everything), max(everything))
    frame = Frame((0.5, layers + 0.5), (math.log10(ticks[0]), math.log10(ticks[-1])), PLOT_BOX)
    left, top, width, height = PLOT_BOX
    x_ticks = sorted({1, layers, *range(4, layers, 4)}) if layers > 1 else [1]
    x_title = f"layer 1 … {layers} (layer 1 is nearest the input)"
    out = [shape("text", {"x": left, "y": top - 22}, Y_TITLE, class_="livelab-axis-label")]
    out += frame.axes(
        x_ticks,
        [],  # the log axis gets its own ticks below: the frame's y is log10 of the size
        x_title if layers > 1 else "layer 1, the only one",
        f"geometric mean of {STACKS} random stacks, log scale",
    )
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
                "text", {"x": left - 4, "y": y + 4}, label, class_="livelab-tick", text_anchor="end"
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
    legend_y = top + height + 54
    for column, name in enumerate(("post", "pre")):
        x = left + column * 140
        line: dict[str, object] = {"x1": x, "y1": legend_y, "x2": x + 24, "y2": legend_y}
        out.append(shape("line", line, class_=f"livelab-series livelab-series--{name}"))
        out.append(_marker(name, x + 12, legend_y))
        legend = f"{PLACEMENT_NAMES[name]} ({MARKERS[name]})"
        out.append(shape("text", {"x": x + 30, "y": legend_y + 4}, legend, class_="livelab-tick"))
    return out

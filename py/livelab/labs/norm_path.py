"""Norm path lab: where the norms sit, post-norm against pre-norm, for a stack of n layers.

Post-norm, x = LN(x + f(x)), puts one norm on the straight residual path in every layer.
Pre-norm, x = x + f(LN(x)), moves it into the branch and adds one final norm after the
last layer. The lab draws the path, counts the norms on it, repeats the worked numbers of
the lesson and measures the gradient reaching each layer of a small random stack.
"""

from __future__ import annotations

import numpy as np

from livelab.kernels import postnorm_block, prenorm_block, residual_gradient_norms
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

# The path drawing: a horizontal residual path, one segment per layer, a final-norm slot.
PATH_WIDTH, PATH_HEIGHT = 360.0, 120.0
PATH_Y, BRANCH_Y = 92.0, 26.0
PATH_LEFT, PATH_RIGHT = 20.0, 290.0
# The gradient plot.
PLOT_WIDTH, PLOT_HEIGHT = 360.0, 240.0
PLOT_BOX = (36.0, 44.0, 310.0, 150.0)


def state(placement: str = "post", layers: int = 6, seed: int = 0) -> dict:
    """Norm counts on the residual path, the worked numbers and gradient sizes per layer."""
    x, fx = np.array(WORKED_X), np.array(WORKED_F)
    post_out = postnorm_block(x, lambda _: fx)  # LN(x + f(x))
    pre_out = prenorm_block(x, lambda _: fx)  # x + f(...): the branch output is the given f(x)
    gradients = {p: residual_gradient_norms(layers, p, seed).tolist() for p in PLACEMENT_NAMES}
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
        "gradients": gradients,
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
    return (
        f"{fmt_number(first)} at layer 1, {fmt_number(last)} at layer {len(values)} "
        f"(ratio {fmt_number(first / last)})"
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


def gradient_shapes(gradients: dict[str, list[float]], placement: str) -> list[dict]:
    """Gradient size at each layer's input, both placements, the chosen one drawn bold."""
    layers = len(gradients["post"])
    top = max(max(v) for v in gradients.values())
    y_max = float(np.ceil(top / 4) * 4)
    frame = Frame((0.5, layers + 0.5), (0.0, y_max), PLOT_BOX)
    x_ticks = sorted({1, layers, *range(4, layers, 4)}) if layers > 1 else [1]
    out = frame.axes(
        x_ticks,
        [0.0, y_max / 2, y_max],
        "layer (1 = nearest the input)",
        "gradient size at the layer's input",
    )
    for name in ("post", "pre"):
        values = gradients[name]
        layer_numbers = range(1, layers + 1)
        chosen = " livelab-series--chosen" if name == placement else ""
        series = f"livelab-series livelab-series--{name}{chosen}"
        out.append(
            shape("polyline", {"points": frame.points(layer_numbers, values)}, class_=series)
        )
        for n, v in zip(layer_numbers, values, strict=True):
            out.append(
                shape(
                    "circle",
                    {"cx": frame.x(n), "cy": frame.y(v), "r": 2.5},
                    class_=f"livelab-dot livelab-dot--{name}",
                )
            )
    legend_x = PLOT_BOX[0] + PLOT_BOX[2] - 90
    for row, name in enumerate(("post", "pre")):
        y = 14.0 + row * 14
        out.append(
            shape(
                "line",
                {"x1": legend_x, "y1": y - 4, "x2": legend_x + 18, "y2": y - 4},
                class_=f"livelab-series livelab-series--{name}",
            )
        )
        out.append(
            shape(
                "text", {"x": legend_x + 24, "y": y}, PLACEMENT_NAMES[name], class_="livelab-tick"
            )
        )
    return out

"""GLU lab: one gate and one value through SiLU and their product, and the weight budget.

A SwiGLU hidden unit multiplies SiLU(gate) by a value; SiLU is drawn next to ReLU over
[-4, 4] with the current gate marked. The calculator counts the weights of a bias-free
ReLU FFN of width d_ff and of a SwiGLU FFN of a width the student picks, and says how far
apart the two counts are. It never names the equal-weight width or the ratio 2/3: finding
them is the student's task (the lesson asks for the ratio right after this lab).
"""

from __future__ import annotations

import numpy as np

from livelab.kernels import ffn_weight_count, relu, silu
from livelab.labs.params import Param, Params
from livelab.labs.view import Frame, fmt_number, shape

PARAMS = Params(
    gate=Param(-1.0, -4.0, 4.0, 0.1, "gate input"),
    value=Param(3.0, -4.0, 4.0, 0.1, "value input"),
    d_model=Param(12, 1, 100_000, 1, "d_model (model width)", control="number"),
    d_ff=Param(48, 1, 400_000, 1, "d_ff (hidden width of the ReLU FFN)", control="number"),
    # Starts at the ReLU width, so the page opens on the unequal counts of equal widths.
    d_gated=Param(48, 1, 400_000, 1, "d_ff′ (hidden width of the SwiGLU FFN)", control="number"),
)

CURVE_POINTS = 161  # z from -4 to 4 in steps of 0.05
PLOT_WIDTH, PLOT_HEIGHT = 340.0, 250.0
PLOT_BOX = (36.0, 30.0, 290.0, 180.0)
Y_RANGE = (-1.0, 4.0)


def state(
    gate: float = -1.0, value: float = 3.0, d_model: int = 12, d_ff: int = 48, d_gated: int = 48
) -> dict:
    """SiLU and ReLU of the gate, the gated product, both curves and the two weight counts."""
    z = np.linspace(-4.0, 4.0, CURVE_POINTS)
    silu_gate = float(silu(gate))
    relu_weights = ffn_weight_count(d_model, d_ff, gated=False)
    swiglu_weights = ffn_weight_count(d_model, d_gated, gated=True)
    return {
        "gate": gate,
        "value": value,
        "silu_gate": silu_gate,
        "relu_gate": float(relu(gate)),
        "product": silu_gate * value,
        "curve_z": z.tolist(),
        "curve_silu": silu(z).tolist(),
        "curve_relu": relu(z).tolist(),
        "d_model": d_model,
        "d_ff": d_ff,
        "d_gated": d_gated,
        "relu_weights": relu_weights,
        "swiglu_weights": swiglu_weights,
        "extra_weights": swiglu_weights - relu_weights,
    }


def _balance(extra: int) -> str:
    """One sentence comparing the SwiGLU count with the ReLU count."""
    if extra == 0:
        return "Both FFNs hold the same number of weights."
    more = "more" if extra > 0 else "fewer"
    return f"The SwiGLU FFN holds {abs(extra):,} {more} weights than the ReLU FFN."


def view(s: dict) -> dict:
    """Numbers as text; the two curves and the marked point as shapes."""
    return {
        "text": {
            "gate": fmt_number(s["gate"], 1),
            "value": fmt_number(s["value"], 1),
            "silu_gate": fmt_number(s["silu_gate"], 4),
            "relu_gate": fmt_number(s["relu_gate"], 4),
            "value_again": fmt_number(s["value"], 4),
            "product": fmt_number(s["product"], 4),
            "relu_weights": f"{s['relu_weights']:,}",
            "swiglu_weights": f"{s['swiglu_weights']:,}",
            "balance": _balance(s["extra_weights"]),
            "plot_title": (
                f"SiLU and ReLU from -4 to 4; at gate {fmt_number(s['gate'], 1)} SiLU gives "
                f"{fmt_number(s['silu_gate'], 4)} and ReLU {fmt_number(s['relu_gate'], 4)}"
            ),
        },
        "svg": {"curves": curve_shapes(s)},
    }


def curve_shapes(s: dict) -> list[dict]:
    """Axes, the ReLU and SiLU curves, and the current gate marked on both."""
    frame = Frame((-4.0, 4.0), Y_RANGE, PLOT_BOX)
    out = frame.axes([-4, -2, 0, 2, 4], [-1, 0, 1, 2, 3, 4], "gate z", "f(z)")
    out.append(
        shape(
            "polyline",
            {"points": frame.points(s["curve_z"], s["curve_relu"])},
            class_="livelab-series livelab-series--relu",
        )
    )
    out.append(
        shape(
            "polyline",
            {"points": frame.points(s["curve_z"], s["curve_silu"])},
            class_="livelab-series livelab-series--silu",
        )
    )
    gx = frame.x(s["gate"])
    out.append(
        shape(
            "line",
            {"x1": gx, "y1": PLOT_BOX[1], "x2": gx, "y2": PLOT_BOX[1] + PLOT_BOX[3]},
            class_="livelab-guide",
        )
    )
    out.append(
        shape(
            "circle",
            {"cx": gx, "cy": frame.y(s["relu_gate"]), "r": 4.5},
            class_="livelab-dot livelab-dot--relu",
        )
    )
    out.append(
        shape(
            "circle",
            {"cx": gx, "cy": frame.y(s["silu_gate"]), "r": 4.5},
            class_="livelab-dot livelab-dot--silu",
        )
    )
    left = PLOT_BOX[0] + 10
    for row, (name, label) in enumerate((("silu", "SiLU(z)"), ("relu", "ReLU(z)"))):
        y = PLOT_BOX[1] + 14 + row * 16
        out.append(
            shape(
                "line",
                {"x1": left, "y1": y - 4, "x2": left + 18, "y2": y - 4},
                class_=f"livelab-series livelab-series--{name}",
            )
        )
        out.append(shape("text", {"x": left + 24, "y": y}, label, class_="livelab-tick"))
    return out

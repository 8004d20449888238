"""GLU lab: one gate and one value through SiLU and their product, and the weight budget.

A SwiGLU hidden unit multiplies SiLU(gate) by a value; SiLU is drawn next to ReLU over
[-4, 4] with the current gate marked, and a second picture draws the unit itself: the value,
SiLU(gate) and their product as bars on one scale, each labelled with its number. The
calculator counts the weights of a bias-free
ReLU FFN of width d_ff and of a SwiGLU FFN of a width the student picks, and says how far
apart the two counts are. It never names the equal-weight width or the ratio 2/3: finding
them is the student's task (the lesson asks for the ratio right after this lab).
"""

from __future__ import annotations

import numpy as np

from labs.kernels import ffn_weight_count, relu, silu
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.bars import bar_rows
from livelab.labs.markup import Marks, attr, control_html, strip
from livelab.labs.view import BELOW_AXES, CENTRED, Frame, fmt_number, largest_em, shape
from livelab.options import Option, Options

PARAMS = Options(
    gate=Option(-1.0, -4.0, 4.0, 0.1, "gate input", what="the gate z that SiLU acts on", digits=1),
    value=Option(
        3.0, -4.0, 4.0, 0.1, "value input", what="the value SiLU(gate) multiplies", digits=1
    ),
    d_model=Option(
        12, 1, 100_000, 1, "d_model (model width)", control="number", what="the model width"
    ),
    d_ff=Option(
        48,
        1,
        400_000,
        1,
        "d_ff (hidden width of the ReLU FFN)",
        control="number",
        what="hidden width of the ReLU FFN the calculator counts",
    ),
    # Starts at the ReLU width, so the page opens on the unequal counts of equal widths.
    d_gated=Option(
        48,
        1,
        400_000,
        1,
        "d_ff′ (hidden width of the SwiGLU FFN)",
        control="number",
        what="hidden width of the SwiGLU FFN the calculator counts",
    ),
)

CURVE_POINTS = 161  # z from -4 to 4 in steps of 0.05
PLOT_WIDTH = 340.0
PLOT_BOX = (36.0, 30.0, 290.0, 180.0)
_EM = largest_em(PLOT_WIDTH)  # the axes' rows below the box need room at a phone's text size
PLOT_HEIGHT = float(round(PLOT_BOX[1] + PLOT_BOX[3] + BELOW_AXES * _EM + 2))
Y_RANGE = (-1.0, 4.0)


def state(*, gate: float, value: float, d_model: int, d_ff: int, d_gated: int) -> dict:
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
            "unit_title": (
                f"The gated unit as bars: value {fmt_number(s['value'], 1)}, SiLU(gate) "
                f"{fmt_number(s['silu_gate'], 4)}, their product {fmt_number(s['product'], 4)}"
            ),
        },
        "svg": {"curves": curve_shapes(s), "unit": unit_shapes(s)},
    }


UNIT_WIDTH, UNIT_HEIGHT = 340.0, 150.0


def unit_shapes(s: dict) -> list[dict]:
    """The hidden unit: value, SiLU(gate) and SiLU(gate) × value as labelled bars, one scale."""
    rows = [
        ("value", "value", s["value"], 1),
        ("gate", "SiLU(gate)", s["silu_gate"], 4),
        ("product", "SiLU(gate) × value", s["product"], 4),
    ]
    return bar_rows(rows, (12.0, 8.0, UNIT_WIDTH - 24.0, UNIT_HEIGHT - 30.0))


def body(values: dict, marks: Marks) -> str:
    """The gated unit, its plot, and the weight-count calculator of one GLU lab instance."""
    product_id = attr(marks.dom_id("product"))
    balance_id = attr(marks.dom_id("balance"))
    plot_title = attr(marks.dom_id("plot-title"))
    unit_title = attr(marks.dom_id("unit-title"))
    return (
        strip(
            '<div class="livelab-controls">'
            + control_html(PARAMS, "gate", values, marks)
            + control_html(PARAMS, "value", values, marks)
            + "</div>"
        )
        + '<div class="livelab-glu-pictures">'
        f'<svg class="livelab-figure" viewBox="0 0 {PLOT_WIDTH:g} {PLOT_HEIGHT:g}" '
        f'role="img" aria-labelledby="{plot_title}">'
        + marks.text("plot_title", tag="title", extra=f' id="{plot_title}"')
        + marks.shapes("curves")
        + "</svg>"
        f'<svg class="livelab-figure livelab-figure--unit" '
        f'viewBox="0 0 {UNIT_WIDTH:g} {UNIT_HEIGHT:g}" role="img" aria-labelledby="{unit_title}">'
        + marks.text("unit_title", tag="title", extra=f' id="{unit_title}"')
        + marks.shapes("unit")
        + "</svg>"
        "</div>"
        '<dl class="livelab-readout">'
        f"<dt>SiLU(gate)</dt><dd>{marks.text('silu_gate')}</dd>"
        f"<dt>ReLU(gate), for comparison</dt><dd>{marks.text('relu_gate')}</dd>"
        f"<dt>value</dt><dd>{marks.text('value_again')}</dd>"
        "</dl>"
        '<p class="livelab-score">'
        f'<label for="{product_id}">SiLU(gate) × value</label> '
        + marks.text("product", tag="output", extra=f' id="{product_id}" aria-live="polite"')
        + "</p>"
        '<fieldset class="livelab-calculator"><legend>Weight count of one FFN, no biases</legend>'
        '<div class="livelab-controls">'
        + control_html(PARAMS, "d_model", values, marks)
        + control_html(PARAMS, "d_ff", values, marks)
        + control_html(PARAMS, "d_gated", values, marks)
        + "</div>"
        '<dl class="livelab-readout">'
        f"<dt>ReLU FFN of width d_ff, two matrices</dt><dd>{marks.text('relu_weights')}</dd>"
        f"<dt>SwiGLU FFN of width d_ff′, three matrices</dt>"
        f"<dd>{marks.text('swiglu_weights')}</dd>"
        "</dl>"
        '<p class="livelab-score">'
        f'<label for="{balance_id}">Weight counts compared</label> '
        + marks.text("balance", tag="output", extra=f' id="{balance_id}" aria-live="polite"')
        + "</p>"
        "</fieldset>" + marks.error()
    )


# ReLU is dashed and marked by a square, SiLU solid and marked by a circle: the two series
# differ in shape as well as colour, and the legend shows both.
RELU_DASH = "6 4"


def _marker(name: str, x: float, y: float) -> dict:
    """The marker of a series at (x, y): a circle for SiLU, a square for ReLU."""
    css = f"livelab-dot livelab-dot--{name}"
    if name == "relu":
        return shape("rect", {"x": x - 4, "y": y - 4, "width": 8, "height": 8}, class_=css)
    return shape("circle", {"cx": x, "cy": y, "r": 4.5}, class_=css)


def curve_shapes(s: dict) -> list[dict]:
    """Axes, the ReLU and SiLU curves, and the current gate marked on both."""
    frame = Frame((-4.0, 4.0), Y_RANGE, PLOT_BOX)
    out = frame.axes([-4, -2, 0, 2, 4], [-1, 0, 1, 2, 3, 4], "gate z", "f(z)")
    out.append(
        shape(
            "polyline",
            {"points": frame.points(s["curve_z"], s["curve_relu"])},
            class_="livelab-series livelab-series--relu",
            stroke_dasharray=RELU_DASH,
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
    out.append(_marker("relu", gx, frame.y(s["relu_gate"])))
    out.append(_marker("silu", gx, frame.y(s["silu_gate"])))
    # The legend in the box's top left corner, where both curves are near zero: one row per
    # series, rows far enough apart for a phone's text size.
    left = PLOT_BOX[0] + 10
    for row, (name, label) in enumerate((("silu", "SiLU(z)"), ("relu", "ReLU(z)"))):
        y = PLOT_BOX[1] + 10 + row * 1.35 * _EM
        dash = {"stroke_dasharray": RELU_DASH} if name == "relu" else {}
        out.append(
            shape(
                "line",
                {"x1": left, "y1": y, "x2": left + 18, "y2": y},
                class_=f"livelab-series livelab-series--{name}",
                **dash,
            )
        )
        out.append(_marker(name, left + 9, y))
        out.append(
            shape("text", {"x": left + 24, "y": y}, label, class_="livelab-tick", dy=CENTRED)
        )
    return out


def scratch(s: dict) -> Scratch:
    """The lab's gate, value and widths as Python, ending on the gated product it shows."""
    code = f"""# GLU lab: one hidden unit, SiLU(gate) times value, and two weight counts.
gate, value = {s["gate"]!r}, {s["value"]!r}
silu_gate = float(silu(gate))  # SiLU keeps a little of a negative gate
print("SiLU(gate):", silu_gate, " ReLU(gate):", float(relu(gate)))
d_model, d_ff, d_gated = {s["d_model"]!r}, {s["d_ff"]!r}, {s["d_gated"]!r}
print("ReLU FFN weights:", ffn_weight_count(d_model, d_ff, gated=False))
print("SwiGLU FFN weights:", ffn_weight_count(d_model, d_gated, gated=True))
product = silu_gate * value  # the lab shows it to 4 decimals
product
"""
    return Scratch(code, "product")


LAB = register_lab(
    lab_of_module(
        __name__, name="glu", title="GLU: a SiLU gate times a value, and what three matrices cost"
    )
)

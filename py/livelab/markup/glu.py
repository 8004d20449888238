"""Markup of the GLU lab: gate and value sliders, SiLU beside ReLU, the weight calculator."""

from __future__ import annotations

from livelab.labs import glu
from livelab.markup import Marks, attr, control_html

TITLE = "GLU: a SiLU gate times a value, and what three matrices cost"


def body(values: dict, marks: Marks) -> str:
    """The gated unit, its plot, and the weight-count calculator of one GLU lab instance."""
    product_id = attr(marks.dom_id("product"))
    balance_id = attr(marks.dom_id("balance"))
    plot_title = attr(marks.dom_id("plot-title"))
    return (
        '<div class="livelab-controls">'
        + control_html(glu.PARAMS, "gate", values, marks)
        + control_html(glu.PARAMS, "value", values, marks)
        + "</div>"
        '<div class="livelab-rope">'
        f'<svg class="livelab-figure" viewBox="0 0 {glu.PLOT_WIDTH:g} {glu.PLOT_HEIGHT:g}" '
        f'role="img" aria-labelledby="{plot_title}">'
        + marks.text("plot_title", tag="title", extra=f' id="{plot_title}"')
        + marks.shapes("curves")
        + "</svg>"
        '<dl class="livelab-readout">'
        f"<dt>SiLU(gate)</dt><dd>{marks.text('silu_gate')}</dd>"
        f"<dt>ReLU(gate), for comparison</dt><dd>{marks.text('relu_gate')}</dd>"
        f"<dt>value</dt><dd>{marks.text('value_again')}</dd>"
        "</dl>"
        "</div>"
        '<p class="livelab-score">'
        f'<label for="{product_id}">SiLU(gate) × value</label> '
        + marks.text("product", tag="output", extra=f' id="{product_id}" aria-live="polite"')
        + "</p>"
        '<fieldset class="livelab-calculator"><legend>Weight count of one FFN, no biases</legend>'
        '<div class="livelab-controls">'
        + control_html(glu.PARAMS, "d_model", values, marks)
        + control_html(glu.PARAMS, "d_ff", values, marks)
        + control_html(glu.PARAMS, "d_gated", values, marks)
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

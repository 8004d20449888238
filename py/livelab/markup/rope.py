"""Markup of the RoPE lab: sliders, a "Both +1" button, the two arrows and the score."""

from __future__ import annotations

from livelab.labs import rope
from livelab.markup import Marks, attr, controls_html

TITLE = "RoPE: turn q and k by their positions, then score them"


def body(values: dict, marks: Marks) -> str:
    """Controls, drawing and readouts of one RoPE lab instance."""
    size = 2 * rope.CENTER
    c, r = rope.CENTER, rope.SCALE
    score_id = attr(marks.dom_id("score"))
    return (
        '<div class="livelab-controls">'
        + controls_html(rope.PARAMS, values, marks)
        + '<button type="button" class="livelab-button" data-step="q_pos k_pos" data-by="1" '
        "disabled>Both +1</button>"
        "</div>"
        '<div class="livelab-rope">'
        f'<svg class="livelab-plot" viewBox="0 0 {size:g} {size:g}" role="img" '
        f'aria-labelledby="{attr(marks.dom_id("drawing"))}">'
        f'<title id="{attr(marks.dom_id("drawing"))}">q and k drawn as arrows on the unit '
        "circle after rotation</title>"
        f'<circle class="livelab-axis" cx="{c:g}" cy="{c:g}" r="{r:g}"/>'
        f'<line class="livelab-axis" x1="{c - r:g}" y1="{c:g}" x2="{c + r:g}" y2="{c:g}"/>'
        f'<line class="livelab-axis" x1="{c:g}" y1="{c - r:g}" x2="{c:g}" y2="{c + r:g}"/>'
        f'<line class="livelab-arrow livelab-arrow--q" x1="{c:g}" y1="{c:g}" '
        f"{marks.attrs('q_arrow')}/>"
        f'<line class="livelab-arrow livelab-arrow--k" x1="{c:g}" y1="{c:g}" '
        f"{marks.attrs('k_arrow')}/>"
        "</svg>"
        '<dl class="livelab-readout">'
        f'<dt><span class="livelab-key livelab-key--q">q</span> turned by</dt>'
        f"<dd>{marks.text('q_angle')} rad → {marks.text('q_rot')}</dd>"
        f'<dt><span class="livelab-key livelab-key--k">k</span> turned by</dt>'
        f"<dd>{marks.text('k_angle')} rad → {marks.text('k_rot')}</dd>"
        f"<dt>distance m − n</dt><dd>{marks.text('distance')}</dd>"
        "</dl>"
        "</div>"
        '<p class="livelab-score">'
        f'<label for="{score_id}">score q·k</label> '
        # <output> is a polite live region already (role status); aria-live says it for old readers.
         + marks.text("score", tag="output", extra=f' id="{score_id}" aria-live="polite"') + "</p>"
    )

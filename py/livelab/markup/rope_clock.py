"""Markup of the RoPE clock lab: one clock per pair, the score, and the score by distance."""

from __future__ import annotations

from livelab.labs import rope_clock
from livelab.markup import Marks, attr, control_html, set_button

TITLE = "RoPE with many rates: every pair of a head is a clock hand"


def body(values: dict, marks: Marks) -> str:
    """Controls, the clocks, the score and its plot for one RoPE clock lab instance."""
    score_id = attr(marks.dom_id("score"))
    clocks_title = attr(marks.dom_id("clocks-title"))
    plot_title = attr(marks.dom_id("plot-title"))
    return (
        '<div class="livelab-controls">'
        + control_html(rope_clock.PARAMS, "d_k", values, marks)
        + control_html(rope_clock.PARAMS, "q_pos", values, marks)
        + control_html(rope_clock.PARAMS, "k_pos", values, marks)
        + control_html(rope_clock.PARAMS, "seed", values, marks)
        + "</div>"
        '<div class="livelab-buttons">'
        '<button type="button" class="livelab-button" data-step="q_pos k_pos" data-by="100" '
        "disabled>Move both by 100</button>"
        + set_button("q at 7, k at 4", {"q_pos": 7, "k_pos": 4})
        + set_button("q at 107, k at 104", {"q_pos": 107, "k_pos": 104})
        + "</div>"
        '<p class="livelab-score">'
        f'<label for="{score_id}">q·k summed over all pairs</label> '
        + marks.text("score", tag="output", extra=f' id="{score_id}" aria-live="polite"')
        + "</p>"
        '<dl class="livelab-readout">'
        f"<dt>distance m − n</dt><dd>{marks.text('distance')}</dd>"
        f"<dt>pairs and their rates θ</dt><dd>{marks.text('pairs')} pairs: "
        f"{marks.text('rates')} rad per position</dd>"
        f'<dt><span class="livelab-key livelab-key--q">q</span> before turning</dt>'
        f"<dd>{marks.text('q')}</dd>"
        f'<dt><span class="livelab-key livelab-key--k">k</span> before turning</dt>'
        f"<dd>{marks.text('k')}</dd>"
        "</dl>"
        f'<svg class="livelab-figure livelab-figure--clocks" {marks.attrs("clocks")} role="img" '
        f'aria-labelledby="{clocks_title}">'
        + marks.text("clocks_title", tag="title", extra=f' id="{clocks_title}"')
        + marks.shapes("clocks")
        + "</svg>"
        f'<svg class="livelab-figure" viewBox="0 0 {rope_clock.PLOT_WIDTH:g} '
        f'{rope_clock.PLOT_HEIGHT:g}" role="img" aria-labelledby="{plot_title}">'
        f'<title id="{plot_title}">q·k for every distance from −64 to 64, the '
        "current distance marked</title>"
        + marks.shapes("scores")
        + "</svg>"
        + marks.text("plot_note", tag="p", extra=' class="livelab-note"')
        + marks.error()
    )

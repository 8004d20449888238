"""Markup of the modern block lab: config fields, Run, the figure and the table of steps."""

from __future__ import annotations

import html

from livelab.labs import modern_block
from livelab.markup import Marks, attr, control_html, set_button

TITLE = "The modern block, drawn from its config and run in your browser"

RUN_FIELDS = ("batch", "tokens", "seed")


def body(values: dict, marks: Marks) -> str:
    """Controls, figure, summary and step table of one modern block lab instance."""
    if marks.view.get("error"):
        from livelab.build.fences import (
            FenceError,  # build-only; a fence must not ship a broken config
        )

        raise FenceError(marks.view["error"])
    params = modern_block.PARAMS
    summary_id = attr(marks.dom_id("summary"))
    figure_title = attr(marks.dom_id("figure-title"))
    shipped = {name: params[name].default for name in modern_block.CONFIG_FIELDS}
    config_controls = "".join(
        control_html(params, name, values, marks) for name in modern_block.CONFIG_FIELDS
    )
    run_controls = "".join(control_html(params, name, values, marks) for name in RUN_FIELDS)
    return (
        '<fieldset class="livelab-config"><legend>Config fields (modern-config.json)</legend>'
        f'<div class="livelab-controls">{config_controls}</div></fieldset>'
        '<fieldset class="livelab-config"><legend>Seeded input</legend>'
        f'<div class="livelab-controls">{run_controls}</div></fieldset>'
        '<div class="livelab-buttons">'
        + set_button("Run the block", {"run": True})
        + set_button("Restore the shipped config", shipped)
        + "</div>"
        + marks.error()
        + '<p class="livelab-score">'
        f'<label for="{summary_id}">Forward pass</label> '
        + marks.text("summary", tag="output", extra=f' id="{summary_id}" aria-live="polite"')
        + "</p>"
        '<dl class="livelab-readout">'
        f"<dt>weights in one block</dt><dd>{marks.text('weights')}</dd>"
        "</dl>"
        '<div class="livelab-block" data-figure>'
        f'<svg class="livelab-figure livelab-figure--block" {marks.attrs("figure")} role="img" '
        f'aria-labelledby="{figure_title}">'
        + marks.text("figure_title", tag="title", extra=f' id="{figure_title}"')
        + marks.shapes("figure")
        + "</svg>"
        + marks.text("shown", tag="p", extra=' class="livelab-note"')
        + '<p class="livelab-note">For Q, K, V the numbers are those of Q, and the RoPE row '
        "shows the same Q after its turn.</p>"
        '<div class="livelab-table-wrap"><table class="livelab-table">'
        "<caption>Every step of the block with its shape</caption>"
        "<thead><tr>"
        + "".join(
            f'<th scope="col">{html.escape(h)}</th>'
            for h in ("step", "shape", "shape in the run", "first numbers")
        )
        + "</tr></thead>"
        + marks.rows("steps")
        + "</table></div>"
        "</div>"
        '<details class="livelab-details"><summary>The config as JSON</summary>'
        + marks.text("config", tag="pre")
        + "</details>"
    )

"""Markup of the RMS lab: editable entries, shift and eps, RMSNorm's steps beside LayerNorm."""

from __future__ import annotations

from livelab.labs import rms
from livelab.markup import Marks, attr, control_html, set_button, vector_entry_html

TITLE = "RMS: normalize a vector by its root mean square, next to LayerNorm"


def _entries(values: dict, marks: Marks) -> str:
    spec = rms.PARAMS["x"]
    cells = [
        f'<div class="livelab-entry" {marks.hide(f"entry-{i}")}>'
        + vector_entry_html("x", i, spec, values["x"][i], f"entry {i + 1}", marks)
        + "</div>"
        for i in range(rms.MAX_ENTRIES)
    ]
    return (
        '<fieldset class="livelab-entries"><legend>Entries of x</legend>'
        + "".join(cells)
        + "</fieldset>"
    )


def _presets() -> str:
    zeros = {"size": 4, "x": [0.0] * rms.MAX_ENTRIES, "shift": 0.0, "eps": 0.0}
    example = {"size": 2, "x": [3.0, 4.0, 0.0, 0.0, 0.0, 0.0], "shift": 0.0}
    return (
        '<div class="livelab-buttons">'
        + set_button("Try [3, 4]", example)
        + set_button("Try an all-zero row with eps = 0", zeros)
        + "</div>"
    )


def body(values: dict, marks: Marks) -> str:
    """Controls, presets and the two side-by-side panels of one RMS lab instance."""
    rms_id = attr(marks.dom_id("rms"))
    return (
        '<div class="livelab-controls">'
        + control_html(rms.PARAMS, "size", values, marks)
        + control_html(rms.PARAMS, "shift", values, marks)
        + control_html(rms.PARAMS, "eps", values, marks)
        + "</div>"
        + _entries(values, marks)
        + _presets()
        + '<p class="livelab-score">'
        f'<label for="{rms_id}">RMS of x + c</label> '
        + marks.text("rms", tag="output", extra=f' id="{rms_id}" aria-live="polite"')
        + "</p>"
        '<p class="livelab-row">x + c = ' + marks.text("row") + "</p>"
        '<div class="livelab-panels">'
        '<section class="livelab-panel" aria-label="RMSNorm">'
        '<p class="livelab-panel__title">RMSNorm</p>'
        '<dl class="livelab-readout">'
        f"<dt>squares</dt><dd>{marks.text('squares')}</dd>"
        f"<dt>mean of the squares</dt><dd>{marks.text('mean_square')}</dd>"
        f"<dt>RMS, its square root</dt><dd>{marks.text('rms')}</dd>"
        f"<dt>divide by √(mean + eps)</dt><dd>{marks.text('divisor')}</dd>"
        f"<dt>normalized</dt><dd>{marks.text('rms_out')}</dd>"
        f"<dt>mean square of the result</dt><dd>{marks.text('rms_out_mean_square')}</dd>"
        "</dl>"
        + marks.text("rms_error", tag="p", extra=' class="livelab-error" aria-live="polite"')
        + '<p class="livelab-note">'
        + marks.text("rms_shift")
        + "</p>"
        "</section>"
        '<section class="livelab-panel" aria-label="LayerNorm">'
        '<p class="livelab-panel__title">LayerNorm</p>'
        '<dl class="livelab-readout">'
        f"<dt>mean</dt><dd>{marks.text('mean')}</dd>"
        f"<dt>minus the mean</dt><dd>{marks.text('centered')}</dd>"
        f"<dt>standard deviation</dt><dd>{marks.text('std')}</dd>"
        f"<dt>normalized</dt><dd>{marks.text('ln_out')}</dd>"
        "</dl>"
        + marks.text("ln_error", tag="p", extra=' class="livelab-error" aria-live="polite"')
        + '<p class="livelab-note">'
        + marks.text("ln_shift")
        + "</p>"
        "</section>"
        "</div>" + marks.error()
    )

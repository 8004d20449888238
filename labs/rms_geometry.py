"""RMS geometry lab: where RMSNorm puts a row of width 2, and what LayerNorm's centring adds.

A row x = [x1, x2] is a point of the plane. RMSNorm (eps 0, no gain) divides it by its RMS,
so its output keeps x's direction and has length √2: every nonzero row lands on the circle of
radius √2. LayerNorm (unit gain, no offset, eps 0) first takes the mean away, which moves x
along (1, 1) onto the line x1 + x2 = 0, and then scales onto the same circle: its output is
(1, -1) or (-1, 1), and it has none when x1 = x2. The numbers come from labs.kernels.
"""

from __future__ import annotations

import math

import numpy as np

from labs.kernels import layernorm, rmsnorm, root_mean_square
from labs.rms_geometry_drawing import HEIGHT, WIDTH, legend, plane_shapes
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import (
    Marks,
    attr,
    mirrored_number_html,
    set_button,
    shapes_svg,
    strip,
)
from livelab.labs.view import fmt_number, fmt_vector
from livelab.options import Option, Options

DIGITS = 3
START = {"x1": 3.0, "x2": 1.0}  # a row whose two norms differ: the lab opens on no answer

PARAMS = Options(
    x1=Option(3.0, -4.0, 4.0, 0.1, "x1", control="number", what="the row's first entry x1"),
    x2=Option(1.0, -4.0, 4.0, 0.1, "x2", control="number", what="the row's second entry x2"),
)

ZERO_ROW = (
    "RMSNorm: x = [0, 0] has no direction. Its RMS is 0, so dividing by it is 0 / 0 and "
    "there is no point to draw (with eps = 0)."
)
EQUAL_ENTRIES = (
    "LayerNorm: with x1 = x2, taking the mean away leaves [0, 0], which no scaling can move "
    "onto the circle, so there is no output (with eps = 0)."
)


def _or_none(norm, row: np.ndarray) -> list[float] | None:
    """norm(row) with eps = 0, or None where the kernel refuses the row (a zero spread)."""
    try:
        return norm(row, eps=0.0).tolist()
    except ValueError:
        return None


def state(*, x1: float, x2: float) -> dict:
    """The row, its RMS and mean, and both norms (None where a norm is undefined)."""
    row = np.array([x1, x2], dtype=float)  # [2]
    mean = float(np.mean(row))
    rms_out, ln_out = _or_none(rmsnorm, row), _or_none(layernorm, row)
    apart = None
    if rms_out is not None and ln_out is not None:
        apart = float(np.linalg.norm(np.subtract(rms_out, ln_out)))
    return {
        "x": row.tolist(),
        "d": row.size,
        "radius": math.sqrt(row.size),  # RMSNorm's outputs lie at this distance from 0
        "rms": float(root_mean_square(row)),
        "rms_out": rms_out,
        "rms_length": None if rms_out is None else float(np.linalg.norm(rms_out)),
        "mean": mean,
        "centred": (row - mean).tolist(),  # [2], on the line x1 + x2 = 0
        "ln_out": ln_out,
        "ln_length": None if ln_out is None else float(np.linalg.norm(ln_out)),
        "apart": apart,
    }


def _agreement(s: dict) -> str:
    if s["apart"] is None:
        return "Nothing to compare: for this row at least one of the two norms has no output."
    if s["apart"] < 1e-9:
        return "RMSNorm(x) and LayerNorm(x) are the same point."
    return (
        f"RMSNorm(x) and LayerNorm(x) are different points, {fmt_number(s['apart'], DIGITS)} apart."
    )


def _plane_title(s: dict) -> str:
    """The figure's accessible name: every point it draws, in numbers."""
    parts = [f"x = {fmt_vector(s['x'], DIGITS)}"]
    if s["rms_out"] is None:
        parts.append("no RMSNorm(x)")
    else:
        parts.append(f"RMSNorm(x) = {fmt_vector(s['rms_out'], DIGITS)} on the circle, along x")
    parts.append(f"x − mean = {fmt_vector(s['centred'], DIGITS)} on the line x1 + x2 = 0")
    if s["ln_out"] is None:
        parts.append("no LayerNorm(x)")
    else:
        parts.append(f"LayerNorm(x) = {fmt_vector(s['ln_out'], DIGITS)} on circle and line")
    return "The plane of rows [x1, x2] with the circle of radius √2: " + "; ".join(parts)


def view(s: dict) -> dict:
    """The numbers as text, a message for each undefined norm, the plane as shapes."""
    missing = "not defined"
    rms_ok, ln_ok = s["rms_out"] is not None, s["ln_out"] is not None
    text = {
        "rms": fmt_number(s["rms"], DIGITS),
        "rms_out": fmt_vector(s["rms_out"], DIGITS) if rms_ok else missing,
        "rms_length": fmt_number(s["rms_length"], DIGITS) if rms_ok else missing,
        "rms_error": "" if rms_ok else ZERO_ROW,
        "mean": fmt_number(s["mean"], DIGITS),
        "centred": fmt_vector(s["centred"], DIGITS),
        "ln_out": fmt_vector(s["ln_out"], DIGITS) if ln_ok else missing,
        "ln_length": fmt_number(s["ln_length"], DIGITS) if ln_ok else missing,
        "ln_error": "" if ln_ok else EQUAL_ENTRIES,
        "agreement": _agreement(s),
        "plane_title": _plane_title(s),
    }
    return {"text": text, "svg": {"plane": plane_shapes(s)}}


GENERAL_FACT = (
    "The plane is the case d = 2. For a row of any width d, RMSNorm scales every nonzero row, "
    "keeping its direction, onto the sphere of radius √d around 0. LayerNorm first subtracts "
    "the mean, which moves the row into the subspace of rows whose entries add up to 0 (here "
    "the dashed line), and then scales it onto the same sphere, so its outputs lie where that "
    "sphere meets that subspace. The two therefore give the same output exactly when the "
    "row's mean is already 0: subtracting it then changes nothing."
)


def _entry(name: str, value: float, marks: Marks) -> str:
    """An entry of the row: a number field (exact, the value sent) and a slider that follows."""
    field = mirrored_number_html(name, PARAMS[name], value, PARAMS[name].label, marks)
    return f'<div class="livelab-entry">{field}</div>'


def _entries(values: dict, marks: Marks) -> str:
    return (
        '<fieldset class="livelab-entries"><legend>The row x = [x1, x2]</legend>'
        + _entry("x1", values["x1"], marks)
        + _entry("x2", values["x2"], marks)
        + "</fieldset>"
    )


def _output(name: str, label: str, marks: Marks) -> str:
    """A key result: a labelled output that screen readers announce when it changes."""
    dom_id = attr(marks.dom_id(name.replace("_", "-")))
    return (
        f'<dt><label for="{dom_id}">{label}</label></dt><dd>'
        + marks.text(name, tag="output", extra=f' id="{dom_id}" aria-live="polite"')
        + "</dd>"
    )


def body(values: dict, marks: Marks) -> str:
    """Entries, presets, the plane with its legend, the numbers and the general fact."""
    title = attr(marks.dom_id("plane-title"))
    return (
        strip(_entries(values, marks))
        + '<div class="livelab-buttons">'
        + set_button("Back to [3, 1]", START)
        + set_button("Try x1 = x2: [2, 2]", {"x1": 2.0, "x2": 2.0})
        + set_button("Try the zero row", {"x1": 0.0, "x2": 0.0})
        + "</div>"
        '<div class="livelab-geometry">'
        f'<svg class="livelab-figure livelab-figure--plane" viewBox="0 0 {WIDTH:g} {HEIGHT:g}" '
        f'role="img" aria-labelledby="{title}">'
        + marks.text("plane_title", tag="title", extra=f' id="{title}"')
        + marks.shapes("plane")
        + f"<g>{shapes_svg(legend())}</g>"
        "</svg>"
        '<div class="livelab-geometry__numbers">'
        '<section class="livelab-panel" aria-label="Where RMSNorm puts x">'
        '<p class="livelab-panel__title">RMSNorm: divide by the RMS</p>'
        '<dl class="livelab-readout">'
        f"<dt>RMS of x</dt><dd>{marks.text('rms')}</dd>"
        + _output("rms_out", "RMSNorm(x)", marks)
        + f"<dt>its length</dt><dd>{marks.text('rms_length')}</dd>"
        "</dl>"
        + marks.text("rms_error", tag="p", extra=' class="livelab-error" aria-live="polite"')
        + "</section>"
        '<section class="livelab-panel" aria-label="Where LayerNorm puts x">'
        '<p class="livelab-panel__title">LayerNorm: subtract the mean, then divide</p>'
        '<dl class="livelab-readout">'
        f"<dt>mean of x</dt><dd>{marks.text('mean')}</dd>"
        f"<dt>x − mean</dt><dd>{marks.text('centred')}</dd>"
        + _output("ln_out", "LayerNorm(x)", marks)
        + f"<dt>its length</dt><dd>{marks.text('ln_length')}</dd>"
        "</dl>"
        + marks.text("ln_error", tag="p", extra=' class="livelab-error" aria-live="polite"')
        + "</section>"
        + marks.text("agreement", tag="p", extra=' class="livelab-note" aria-live="polite"')
        + "</div></div>"
        # Folded: the page asks when the two agree before this lab, and the fact answers it.
        '<details class="livelab-details"><summary>The same picture for any width d</summary>'
        f"<p>{GENERAL_FACT}</p></details>" + marks.error()
    )


def scratch(s: dict) -> Scratch:
    """The row as Python: its RMS and mean, LayerNorm where defined, ending on RMSNorm."""
    ln_line = (
        'print("LayerNorm:", layernorm(x, eps=0.0))  # unit gain, no offset'
        if s["ln_out"] is not None
        else "# layernorm(x, eps=0.0) raises here: x - mean is [0, 0]"
    )
    code = f"""# RMS geometry lab: one row of width 2, both norms with eps = 0.
x = np.array({s["x"]!r})  # [2]
print("RMS:", root_mean_square(x), " mean:", np.mean(x))
{ln_line}
rmsnorm(x, eps=0.0)  # length sqrt(2); the lab shows it to {DIGITS} decimals
"""
    return Scratch(code, "rms_out")


LAB = register_lab(
    lab_of_module(
        __name__,
        name="rms_geometry",
        title="Where RMSNorm puts a row, and what LayerNorm's centring adds",
    )
)

"""RMS lab: RMSNorm of a short vector worked out step by step, LayerNorm of it alongside.

Every entry is editable; a shift c is added to every entry before both norms, which shows
that LayerNorm ignores such a shift (it subtracts the mean) while RMSNorm does not. With
eps = 0 an all-zero row has no RMSNorm: the lab shows the kernel's error instead of NaN.
Beside the numbers, bars of x + c and of x / RMS on one scale show the row brought to size.
"""

from __future__ import annotations

import numpy as np

from labs.kernels import layernorm, rmsnorm, root_mean_square
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.bars import nice_limit
from livelab.labs.markup import (
    Marks,
    attr,
    control_html,
    set_button,
    strip,
    vector_entry_html,
)
from livelab.labs.view import BELOW_AXES, Frame, fmt_number, fmt_vector, largest_em, shape
from livelab.options import Option, Options

MAX_ENTRIES = 6
DIGITS = 4

PARAMS = Options(
    size=Option(2, 2, MAX_ENTRIES, 1, "Number of entries", what="how many entries of x are used"),
    x=Option(
        (3.0, 4.0, -2.0, 1.0, 0.5, -1.5),
        -10.0,
        10.0,
        0.1,
        what="the entries of x, one field each; only the first size of them are used",
    ),
    shift=Option(
        0.0,
        -10.0,
        10.0,
        0.5,
        "Shift every entry by c",
        what="c, added to every entry before both norms",
        digits=1,
    ),
    eps=Option(
        1e-6,
        0.0,
        1.0,
        "any",
        "eps (added inside the square root)",
        control="number",
        what="eps, added to the mean square inside the square root",
    ),
)


def _norm_or_error(norm, row: np.ndarray, eps: float) -> tuple[list[float] | None, str]:
    """The norm of row, or None and the kernel's message when the kernel refuses the row."""
    try:
        return norm(row, eps=eps).tolist(), ""
    except ValueError as exc:
        return None, str(exc)


def state(*, size: int, x: tuple[float, ...], shift: float, eps: float) -> dict:
    """Both norms of the first `size` entries of x plus shift, with RMSNorm's steps."""
    original = np.array(x[:size], dtype=float)  # [size]
    row = original + shift  # [size]
    squares = row * row
    rms_out, rms_error = _norm_or_error(rmsnorm, row, eps)
    ln_out, ln_error = _norm_or_error(layernorm, row, eps)
    rms_before, _ = _norm_or_error(rmsnorm, original, eps)
    ln_before, _ = _norm_or_error(layernorm, original, eps)
    return {
        "size": size,
        "shift": shift,
        "eps": eps,
        "x": original.tolist(),
        "row": row.tolist(),
        "squares": squares.tolist(),
        "mean_square": float(np.mean(squares)),
        "rms": float(root_mean_square(row)),
        "divisor": float(np.sqrt(np.mean(squares) + eps)),
        "rms_out": rms_out,
        "rms_out_mean_square": None if rms_out is None else float(np.mean(np.square(rms_out))),
        "rms_error": rms_error,
        "mean": float(np.mean(row)),
        "centered": (row - np.mean(row)).tolist(),
        "std": float(np.std(row)),
        "ln_out": ln_out,
        "ln_error": ln_error,
        "rms_before_shift": rms_before,
        "ln_before_shift": ln_before,
    }


def _same(a: list[float] | None, b: list[float] | None) -> bool:
    return a is not None and b is not None and np.allclose(a, b, atol=1e-9)


def _shift_effect(name: str, after: list[float] | None, before: list[float] | None) -> str:
    if after is None or before is None:
        return f"{name}: not defined for this row"
    if _same(after, before):
        return f"{name}: the same as without the shift"
    return f"{name}: changed by the shift (without it: {fmt_vector(before, DIGITS)})"


def view(s: dict) -> dict:
    """Every step as text; entries beyond `size` are hidden."""
    missing = "—"
    rms_ok, ln_ok = s["rms_out"] is not None, s["ln_out"] is not None
    text = {
        "row": fmt_vector(s["row"], DIGITS),
        "squares": fmt_vector(s["squares"], DIGITS),
        "mean_square": fmt_number(s["mean_square"], DIGITS),
        "rms": fmt_number(s["rms"], DIGITS),
        "divisor": fmt_number(s["divisor"], DIGITS),
        "rms_out": fmt_vector(s["rms_out"], DIGITS) if rms_ok else missing,
        "rms_out_mean_square": (
            fmt_number(s["rms_out_mean_square"], DIGITS) if rms_ok else missing
        ),
        "rms_error": s["rms_error"],
        "mean": fmt_number(s["mean"], DIGITS),
        "centered": fmt_vector(s["centered"], DIGITS),
        "std": fmt_number(s["std"], DIGITS),
        "ln_out": fmt_vector(s["ln_out"], DIGITS) if ln_ok else missing,
        "ln_error": s["ln_error"],
    }
    if s["shift"] == 0:
        text["rms_shift"] = "RMSNorm: no shift applied (c = 0)"
        text["ln_shift"] = "LayerNorm: no shift applied (c = 0)"
    else:
        text["rms_shift"] = _shift_effect("RMSNorm", s["rms_out"], s["rms_before_shift"])
        text["ln_shift"] = _shift_effect("LayerNorm", s["ln_out"], s["ln_before_shift"])
    normalized = f"of x / RMS, {text['rms_out']}" if rms_ok else "no x / RMS (not defined)"
    text["bars_title"] = f"Bars of x + c, {text['row']}, and {normalized}, entry by entry"
    hidden = {f"entry-{i}": i >= s["size"] for i in range(MAX_ENTRIES)}
    return {"text": text, "hidden": hidden, "svg": {"bars": bar_shapes(s)}}


BARS_WIDTH = 340.0
BARS_BOX = (40.0, 48.0, 290.0, 130.0)  # room above for the legend row and the y title
# Below the box, the axes' rows of text at a phone's text size (the largest in viewBox units).
BARS_HEIGHT = float(round(BARS_BOX[1] + BARS_BOX[3] + BELOW_AXES * largest_em(BARS_WIDTH) + 2))


def _legend(name: str, label: str, x: float) -> list[dict]:
    """A swatch of one series' bar and its name, in the row above the plot."""
    return [
        shape(
            "rect",
            {"x": x, "y": 8, "width": 12, "height": 12},
            class_=f"livelab-bar livelab-bar--{name} livelab-swatch",
        ),
        shape("text", {"x": x + 17, "y": 18}, label, class_="livelab-tick"),
    ]


def bar_shapes(s: dict) -> list[dict]:
    """Per entry, a solid bar of x + c beside a hollow bar of x / RMS, on one scale, with the
    RMS of x + c marked: dividing by it brings that level to 1."""
    row, out = s["row"], s["rms_out"] or []
    limit = nice_limit([*row, *out])
    frame = Frame((0.0, float(len(row))), (-limit, limit), BARS_BOX)
    shapes = frame.axes([], [-limit, 0, limit], "entry", "value", digits=0 if limit >= 1 else 1)
    shapes += _legend("x", "x + c", BARS_BOX[0]) + _legend("normalized", "x / RMS", 150.0)
    group = BARS_BOX[2] / len(row)
    width = min(18.0, group * 0.36)
    for i, value in enumerate(row):
        middle = frame.x(i + 0.5)
        bars = [("x", value, middle - width - 1)]
        if out:  # no RMSNorm for this row: the kernel's error is shown beside the picture
            bars.append(("normalized", out[i], middle + 1))
        for name, height, left in bars:
            top, bottom = sorted((frame.y(height), frame.y(0)))
            shapes.append(
                shape(
                    "rect",
                    {"x": left, "y": top, "width": width, "height": bottom - top},
                    class_=f"livelab-bar livelab-bar--{name}",
                )
            )
        shapes.append(frame.x_tick(middle, str(i + 1)))
    if s["rms"] <= limit:
        y = frame.y(s["rms"])
        right = BARS_BOX[0] + BARS_BOX[2]
        shapes.append(
            shape(
                "line", {"x1": BARS_BOX[0], "y1": y, "x2": right, "y2": y}, class_="livelab-guide"
            )
        )
        shapes.append(
            shape("text", {"x": right, "y": y - 3}, "RMS", class_="livelab-tick", text_anchor="end")
        )
    return shapes


def _entries(values: dict, marks: Marks) -> str:
    spec = PARAMS["x"]
    cells = [
        f'<div class="livelab-entry" {marks.hide(f"entry-{i}")}>'
        + vector_entry_html("x", i, spec, values["x"][i], f"entry {i + 1}", marks)
        + "</div>"
        for i in range(MAX_ENTRIES)
    ]
    return (
        '<fieldset class="livelab-entries"><legend>Entries of x</legend>'
        + "".join(cells)
        + "</fieldset>"
    )


def _presets() -> str:
    zeros = {"size": 4, "x": [0.0] * MAX_ENTRIES, "shift": 0.0, "eps": 0.0}
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
    bars_title = attr(marks.dom_id("bars-title"))
    return (
        strip(
            '<div class="livelab-controls">'
            + control_html(PARAMS, "size", values, marks)
            + control_html(PARAMS, "shift", values, marks)
            + control_html(PARAMS, "eps", values, marks)
            + "</div>"
        )
        + _entries(values, marks)
        + _presets()
        + '<div class="livelab-rms-picture">'
        f'<svg class="livelab-figure livelab-figure--bars" viewBox="0 0 {BARS_WIDTH:g} '
        f'{BARS_HEIGHT:g}" role="img" aria-labelledby="{bars_title}">'
        + marks.text("bars_title", tag="title", extra=f' id="{bars_title}"')
        + marks.shapes("bars")
        + "</svg><div>"
        '<p class="livelab-score">'
        f'<label for="{rms_id}">RMS of x + c</label> '
        + marks.text("rms", tag="output", extra=f' id="{rms_id}" aria-live="polite"')
        + "</p>"
        '<p class="livelab-row">x + c = ' + marks.text("row") + "</p>"
        "</div></div>"
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


def scratch(s: dict) -> Scratch:
    """The lab's entries, shift and eps as Python, ending on RMSNorm of the shifted row."""
    code = f"""# RMS lab: RMSNorm of x + c; layernorm(row, eps=eps) gives the LayerNorm line.
x = np.array({s["x"]!r})  # the entries in use
c = {s["shift"]!r}  # added to every entry
eps = {s["eps"]!r}  # inside the square root
row = x + c
print("mean square:", np.mean(row * row), " RMS:", root_mean_square(row))
rmsnorm(row, eps=eps)  # the lab shows it to 4 decimals
"""
    return Scratch(code, "rms_out")


LAB = register_lab(
    lab_of_module(
        __name__,
        name="rms",
        title="RMS: normalize a vector by its root mean square, next to LayerNorm",
    )
)

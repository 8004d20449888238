"""What the labs that train two models side by side share (train_norm, train_rmsnorm,
train_glu): streaming the curves every few updates, each series' final loss over the seeds,
and the figure: every seed's curve per series, with a labelled output per series.

A state is a dict with, per series name, its curves (one list of losses per seed), and
"done", the updates drawn so far; each lab adds its own settings and numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence

import numpy as np

from livelab.labs.markup import Marks, attr, control_html, run_buttons, strip
from livelab.labs.view import BELOW_AXES, CENTRED, Frame, fmt_number, largest_em, shape
from livelab.options import Options

LAST = 10  # a seed's final loss: the mean of its last LAST logged losses
PLOT_WIDTH = 340.0
PLOT_BOX = (40.0, 30.0, 284.0, 160.0)  # room above for the y label, left for "0.5" ticks
_EM = largest_em(PLOT_WIDTH)  # the rows below the box need room at a phone's text size
PLOT_HEIGHT = float(round(PLOT_BOX[1] + PLOT_BOX[3] + BELOW_AXES * _EM + 2))


def side_by_side(runs: Mapping[str, Iterable[Sequence[float]]]) -> Iterator[dict[str, list]]:
    """Runs that log each seed's loss per update, advanced together: after every update,
    per series, the losses so far as [updates][seeds] rows."""
    rows: dict[str, list] = {name: [] for name in runs}
    for steps in zip(*runs.values(), strict=False):
        for name, losses in zip(runs, steps, strict=True):
            rows[name].append(tuple(losses))
        yield rows


def seed_finals(rows: list) -> np.ndarray:
    """Each seed's final loss: the mean of its last LAST logged losses."""
    return np.array(rows)[-LAST:].mean(axis=0)


def curves_state(rows: dict[str, list], **settings: object) -> dict:
    """A state from the rows so far: per series its curves [seed][update], the median of the
    seeds' final losses ("final_<series>", nan once a loss is not finite), and "done"."""
    out: dict = dict(settings)
    for name, series_rows in rows.items():
        out[name] = np.array(series_rows).T.tolist()
        out[f"final_{name}"] = float(np.median(seed_finals(series_rows)))
    out["done"] = min(len(series_rows) for series_rows in rows.values())
    return out


def every(states: Iterable[dict], step: int) -> Iterator[dict]:
    """The states whose "done" is a multiple of step, and the last one in any case."""
    last = None
    for last in states:
        if last["done"] % step == 0:
            yield last
    if last is not None and last["done"] % step:
        yield last


def final_text(value: float) -> str:
    return "diverged" if not np.isfinite(value) else fmt_number(value, 3)


def curve_shapes(
    s: dict,
    series: Sequence[str],
    updates: int,
    y_ticks: Sequence[float],
    y_label: str = "loss",
    log: bool = False,
) -> list[dict]:
    """Axes and one polyline per seed and series, y linear or (log) logarithmic between the
    first and last tick. A value beyond the range is drawn at its edge, and one that is not
    finite at the top."""
    # On a log scale the plot's y is log10 of the value over the first tick, so the range
    # starts at 0 and the x axis lies along the bottom, as on a linear one.
    first = float(y_ticks[0])
    scale = (lambda v: np.log10(v / first)) if log else (lambda v: v)
    low, top = float(scale(first)), float(scale(y_ticks[-1]))
    frame = Frame((0.0, float(updates)), (low, top), PLOT_BOX)
    x_ticks = update_ticks(updates)
    out = frame.axes(x_ticks, [], "update", y_label)
    digits = _digits(y_ticks)
    for t in y_ticks:
        at: dict[str, object] = {"x": frame.left - 4, "y": frame.y(float(scale(t)))}
        label = f"{t:g}" if log else fmt_number(t, digits)  # 0.03 and 3 on a log scale
        out.append(shape("text", at, label, class_="livelab-tick", text_anchor="end", dy=CENTRED))
    for name in series:
        for seed_curve in s[name]:
            ys = [_placed(v, scale, low, top) for v in seed_curve]
            points = frame.points(range(len(ys)), ys)
            kind = f"livelab-series livelab-series--{name}"
            out.append(shape("polyline", {"points": points}, class_=kind))
    return out


def update_ticks(updates: int) -> list[int]:
    """Round ticks for an axis of 0 .. updates, at most 5 intervals: the smallest round step
    that ends on `updates` (0, 20, 40, 60; 0, 50, .. 250), else the smallest that fits."""
    steps = (10, 20, 25, 50, 100, 200, 500)
    fits = [s for s in steps if updates / s <= 5]
    step = next((s for s in fits if updates % s == 0), fits[0] if fits else updates)
    return list(range(0, updates + 1, step))


def _placed(value: float, scale, low: float, top: float) -> float:
    """Where a value is drawn: scaled and kept inside [low, top]; not finite: at the top."""
    if not np.isfinite(value):
        return top
    if value <= 0:  # below every tick of either scale (losses are never negative)
        return low
    return min(top, max(low, float(scale(value))))


def _digits(ticks: Sequence[float]) -> int:
    return max((len(f"{t:g}".partition(".")[2]) for t in ticks), default=0)


def output_row(marks: Marks, name: str, label: str, series: str | None = None) -> str:
    """A labelled <output> for the text `name`; a series' swatch before its label."""
    dom_id = attr(marks.dom_id(name))
    swatch = (
        f'<span class="livelab-swatch livelab-swatch--{series}" aria-hidden="true"></span>'
        if series
        else ""
    )
    return (
        f'<p class="livelab-score">{swatch}<label for="{dom_id}">{label}</label> '
        + marks.text(name, tag="output", extra=f' id="{dom_id}" aria-live="polite"')
        + "</p>"
    )


def curves_body(params: Options, values: dict, marks: Marks, outputs: str) -> str:
    """The settings, Run and Stop, the plot (its title says what it shows) and the outputs."""
    title = attr(marks.dom_id("plot-title"))
    return (
        strip(
            '<div class="livelab-controls">'
            + "".join(control_html(params, name, values, marks) for name in params)
            + "</div>"
            + run_buttons()
        )
        + f'<svg class="livelab-figure" viewBox="0 0 {PLOT_WIDTH:g} {PLOT_HEIGHT:g}" '
        f'role="img" aria-labelledby="{title}">'
        + marks.text("plot_title", tag="title", extra=f' id="{title}"')
        + marks.shapes("curves")
        + "</svg>"
        + f"<p>{marks.text('progress')}</p>"
        + outputs
    )

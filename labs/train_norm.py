"""Experiment lab `train_norm` (on the page as `train-norm`): the same stack of residual FFN
blocks trained twice, with the norm before each block (pre-norm) and after each residual sum
(post-norm), on the same task, from the same seeds, with Adam
(labs.kernels.residual_training).

It runs: `run(**params)` yields the curves so far every few updates (livelab.labs.runs drives
it in chunks), and `state(**params)` is that run taken to its end, which the build computes
for the page's first view. The student sets the depth, the learning rate and a linear
warm-up; the lab draws every seed's loss curve for both placements and says each
placement's final loss (the median over the seeds, each seed's the mean of its last
updates) in a labelled output.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from labs.kernels.residual_training import train
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr, control_html, run_buttons, strip
from livelab.labs.view import BELOW_AXES, Frame, fmt_number, largest_em, shape
from livelab.options import Option, Options

PARAMS = Options(
    depth=Option(24, 2, 32, 1, "depth (residual blocks)", what="how many blocks each stack has"),
    lr=Option(0.01, 0.001, 0.03, 0.001, "learning rate", what="Adam's step size", digits=3),
    warmup=Option(
        0, 0, 100, 10, "warm-up (updates)", what="updates over which the rate rises from 0"
    ),
)

UPDATES = 120
SEEDS = (0, 1, 2)
LAST = 10  # a seed's final loss: the mean of its last LAST updates
EVERY = 4  # a running lab yields its curves every EVERY updates
PLACEMENTS = ("pre", "post")

PLOT_WIDTH = 340.0
PLOT_BOX = (40.0, 30.0, 284.0, 160.0)  # room above for the y label, left for "0.5" ticks
_EM = largest_em(PLOT_WIDTH)  # the rows below the box need room at a phone's text size
PLOT_HEIGHT = float(round(PLOT_BOX[1] + PLOT_BOX[3] + BELOW_AXES * _EM + 2))
Y_MAX = 2.5  # log 8 = 2.08, a uniform guess over the task's 8 classes, fits below it


def _curves(depth: int, lr: float, warmup: int) -> Iterator[dict]:
    """Both placements trained side by side; after every update, the curves so far."""
    runs = [
        train(placement=p, depth=depth, lr=lr, warmup=warmup, steps=UPDATES, seeds=SEEDS)
        for p in PLACEMENTS
    ]
    curves: dict[str, list[tuple[float, ...]]] = {p: [] for p in PLACEMENTS}
    for steps in zip(*runs, strict=False):
        for placement, step in zip(PLACEMENTS, steps, strict=True):
            curves[placement].append(step.losses)
        yield _state(curves, depth, lr, warmup)


def _state(curves: dict, depth: int, lr: float, warmup: int) -> dict:
    """The lab's numbers from the curves so far: per placement, the seeds' curves and the
    median over the seeds of their final losses (nan once a loss is not finite)."""
    out: dict = {"depth": depth, "lr": lr, "warmup": warmup, "updates": UPDATES}
    for placement, rows in curves.items():
        losses = np.array(rows)  # [updates so far, seeds]
        out[placement] = losses.T.tolist()
        out[f"final_{placement}"] = float(np.median(losses[-LAST:].mean(axis=0)))
    out["done"] = min(len(rows) for rows in curves.values())
    return out


def run(*, depth: int, lr: float, warmup: int) -> Iterator[dict]:
    """The curves so far, every EVERY updates, and once more at the end."""
    last = None
    for last in _curves(depth, lr, warmup):
        if last["done"] % EVERY == 0:
            yield last
    if last is not None and last["done"] % EVERY:
        yield last


def state(*, depth: int, lr: float, warmup: int) -> dict:
    """The run taken to its end."""
    *_, last = _curves(depth, lr, warmup)
    return last


def _final_text(value: float) -> str:
    return "diverged" if not np.isfinite(value) else fmt_number(value, 3)


def view(s: dict) -> dict:
    """The final losses as text; every seed's curve, per placement, as shapes."""
    return {
        "text": {
            "final_pre": _final_text(s["final_pre"]),
            "final_post": _final_text(s["final_post"]),
            "progress": f"{s['done']} of {s['updates']} updates",
            "plot_title": (
                f"Training loss over {s['done']} updates at depth {s['depth']}, "
                f"{len(SEEDS)} seeds each: pre-norm ends at {_final_text(s['final_pre'])}, "
                f"post-norm at {_final_text(s['final_post'])}"
            ),
        },
        "svg": {"curves": curve_shapes(s)},
    }


def curve_shapes(s: dict) -> list[dict]:
    """Axes and one polyline per seed and placement (losses clipped to the plot's top)."""
    frame = Frame((0.0, float(UPDATES)), (0.0, Y_MAX), PLOT_BOX)
    out = frame.axes([0, 40, 80, 120], [0, 0.5, 1, 1.5, 2, 2.5], "update", "loss", digits=1)
    for placement in PLACEMENTS:
        for seed_curve in s[placement]:
            ys = [min(Y_MAX, v) if np.isfinite(v) else Y_MAX for v in seed_curve]
            out.append(
                shape(
                    "polyline",
                    {"points": frame.points(range(len(ys)), ys)},
                    class_=f"livelab-series livelab-series--{placement}",
                )
            )
    return out


def body(values: dict, marks: Marks) -> str:
    """The settings, the plot and the two labelled final losses."""
    title = attr(marks.dom_id("plot-title"))
    outputs = "".join(
        f'<p class="livelab-score"><label for="{attr(marks.dom_id(name))}">{label}</label> '
        + marks.text(name, tag="output", extra=f' id="{attr(marks.dom_id(name))}"')
        + "</p>"
        for name, label in (
            ("final_pre", "final loss, pre-norm"),
            ("final_post", "final loss, post-norm"),
        )
    )
    return (
        strip(
            '<div class="livelab-controls">'
            + "".join(control_html(PARAMS, name, values, marks) for name in PARAMS)
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


def scratch(s: dict) -> Scratch:
    """Both trainings as Python, ending on pre-norm's final loss as the lab shows it."""
    code = f"""# train-norm lab: the same stack trained with the norm before each block ("pre") and
# after each residual sum ("post"), {len(SEEDS)} seeds, {UPDATES} updates of Adam each.
from labs.kernels.residual_training import train
finals = {{}}
for placement in ("pre", "post"):
    steps = list(train(placement=placement, depth={s["depth"]!r}, lr={s["lr"]!r},
                       warmup={s["warmup"]!r}, steps={UPDATES}, seeds={SEEDS!r}))
    losses = np.array([step.losses for step in steps])  # [updates, seeds]
    # a seed's final loss: the mean of its last {LAST} updates; the lab shows the median
    finals[placement] = float(np.median(losses[-{LAST}:].mean(axis=0)))
print("final loss, post-norm:", finals["post"])
finals["pre"]
"""
    return Scratch(code, "final_pre")


LAB = register_lab(
    lab_of_module(__name__, name="train_norm", title="Pre-norm against post-norm, trained")
)

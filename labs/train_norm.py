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
from functools import partial

from labs.kernels.residual_training import train
from labs.training_plot import (
    LAST,
    curve_shapes,
    curves_body,
    curves_state,
    every,
    final_text,
    output_row,
    side_by_side,
)
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks
from livelab.options import Option, Options

PARAMS = Options(
    depth=Option(24, 2, 32, 1, "depth (residual blocks)", what="how many blocks each stack has"),
    lr=Option(0.01, 0.001, 0.03, 0.001, "learning rate", what="Adam's step size", digits=3),
    warmup=Option(
        0, 0, 60, 5, "warm-up (updates)", what="updates over which the rate rises from 0"
    ),
)

UPDATES = 60
SEEDS = (0, 1, 2)
# A run yields its curves after every EVERY updates; livelab.labs.runs sends the newest state
# every 150 ms, and one update of the default 24 blocks takes about 50 ms in Pyodide.
EVERY = 1
PLACEMENTS = ("pre", "post")
Y_TICKS = (0, 0.5, 1, 1.5, 2, 2.5, 3)  # the first losses (up to 2.9) and log 8 = 2.08 fit


def _states(depth: int, lr: float, warmup: int) -> Iterator[dict]:
    """Both placements trained side by side; after every update, the state so far."""
    trained = partial(train, depth=depth, lr=lr, warmup=warmup, steps=UPDATES, seeds=SEEDS)
    runs = {p: (step.losses for step in trained(placement=p)) for p in PLACEMENTS}
    for rows in side_by_side(runs):
        yield curves_state(rows, depth=depth, lr=lr, warmup=warmup, updates=UPDATES)


def run(*, depth: int, lr: float, warmup: int) -> Iterator[dict]:
    """The curves so far, after every EVERY updates, and once more at the end."""
    return every(_states(depth, lr, warmup), EVERY)


def state(*, depth: int, lr: float, warmup: int) -> dict:
    """The run taken to its end."""
    *_, last = _states(depth, lr, warmup)
    return last


def view(s: dict) -> dict:
    """The final losses as text; every seed's curve, per placement, as shapes."""
    pre, post = final_text(s["final_pre"]), final_text(s["final_post"])
    return {
        "text": {
            "final_pre": pre,
            "final_post": post,
            "progress": f"{s['done']} of {s['updates']} updates",
            "plot_title": (
                f"Training loss over {s['done']} updates at depth {s['depth']}, "
                f"{len(SEEDS)} seeds each: pre-norm (blue) ends at {pre}, "
                f"post-norm (orange) at {post}"
            ),
        },
        "svg": {"curves": curve_shapes(s, PLACEMENTS, UPDATES, Y_TICKS)},
    }


def body(values: dict, marks: Marks) -> str:
    """The settings, the plot and the two labelled final losses."""
    outputs = output_row(marks, "final_pre", "final loss, pre-norm", "pre") + output_row(
        marks, "final_post", "final loss, post-norm", "post"
    )
    return curves_body(PARAMS, values, marks, outputs)


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

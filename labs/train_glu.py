"""Experiment lab `train_glu` (on the page as `train-glu`): a ReLU FFN of width 4·d against a
SwiGLU FFN of width round(⅔·4·d), which have the same number of weights, each in one pre-norm
block trained with Adam on a next-token task (labs.kernels.glu_training), five seeds each.

It runs as train_norm does (labs.training_plot), but what it draws is each model's exact
expected loss (glu_training.exact_losses, no sampling noise) less the least loss any model
can reach on its seed's chain, so the two FFNs are compared on how much each has still to
learn. Outputs: each FFN's final excess loss (the median over the seeds) and in how many
seeds SwiGLU ended below ReLU.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

import numpy as np

from labs.kernels.glu_training import hidden_width, make_chain, train
from labs.training_plot import curve_shapes, curves_body, every, output_row
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks
from livelab.labs.view import fmt_number
from livelab.options import Option, Options

PARAMS = Options(
    updates=Option(150, 50, 400, 50, "updates", what="how many Adam updates each model gets"),
    lr=Option(0.01, 0.001, 0.03, 0.001, "learning rate", what="Adam's step size", digits=3),
)

SEEDS = (0, 1, 2, 3, 4)
WIDTH = 16
BATCH = 64  # (token, next token) pairs per update and seed
EVERY = 5  # about 25 ms of Pyodide a state; livelab.labs.runs sends one every 150 ms
FFNS = ("relu", "swiglu")
Y_TICKS = (0.01, 0.03, 0.1, 0.3, 1, 3)  # a log scale: from the start (up to 1.7) to the end


def _states(updates: int, lr: float) -> Iterator[dict]:
    """Both FFNs trained side by side; after every update, per FFN the seeds' excess-loss
    curves and the median of their latest values, and the seeds SwiGLU is ahead in."""
    best = np.array([make_chain(seed).best_loss() for seed in SEEDS])
    rows: dict[str, list] = {f: [] for f in FFNS}
    trained = partial(train, width=WIDTH, lr=lr, steps=updates, seeds=SEEDS, batch=BATCH)
    runs = [trained(ffn=f) for f in FFNS]
    for steps in zip(*runs, strict=True):
        s: dict = {"updates": updates, "lr": lr}
        for f, step in zip(FFNS, steps, strict=True):
            rows[f].append(np.array(step.exact) - best)
            s[f] = np.array(rows[f]).T.tolist()
            s[f"final_{f}"] = float(np.median(rows[f][-1]))
        s["done"] = len(rows["relu"])
        s["wins"] = int(np.sum(rows["swiglu"][-1] < rows["relu"][-1]))
        yield s


def run(*, updates: int, lr: float) -> Iterator[dict]:
    """The curves so far, every EVERY updates, and once more at the end."""
    return every(_states(updates, lr), EVERY)


def state(*, updates: int, lr: float) -> dict:
    """The run taken to its end."""
    *_, last = _states(updates, lr)
    return last


def view(s: dict) -> dict:
    """The final excess losses and the seeds SwiGLU won, as text; the curves."""
    relu, swiglu = fmt_number(s["final_relu"], 3), fmt_number(s["final_swiglu"], 3)
    wins = f"{s['wins']} of {len(SEEDS)}"
    return {
        "text": {
            "final_relu": relu,
            "final_swiglu": swiglu,
            "wins": wins,
            "progress": f"{s['done']} of {s['updates']} updates",
            "plot_title": (
                f"Loss above the best possible over {s['done']} updates, {len(SEEDS)} seeds "
                f"each: ReLU (orange) ends at {relu}, SwiGLU (blue) at {swiglu}; SwiGLU "
                f"ended lower in {wins} seeds"
            ),
        },
        "svg": {
            "curves": curve_shapes(
                s, FFNS, s["updates"], Y_TICKS, "loss above best (log scale)", log=True
            )
        },
    }


def body(values: dict, marks: Marks) -> str:
    """The settings, the plot and the three labelled outputs."""
    outputs = (
        output_row(marks, "final_relu", f"loss above best, ReLU FFN ({4 * WIDTH} wide)", "relu")
        + output_row(
            marks,
            "final_swiglu",
            f"loss above best, SwiGLU FFN ({hidden_width('swiglu', WIDTH)} wide)",
            "swiglu",
        )
        + output_row(marks, "wins", "seeds in which SwiGLU ended lower")
    )
    return curves_body(PARAMS, values, marks, outputs)


def scratch(s: dict) -> Scratch:
    """Both trainings as Python, ending on SwiGLU's final excess loss as the lab shows it."""
    code = f"""# train-glu lab: a ReLU FFN (4d wide) against a SwiGLU FFN (2/3 of that), the same
# weight count, {len(SEEDS)} seeds, {s["updates"]} updates of Adam each.
from labs.kernels.glu_training import make_chain, train
best = np.array([make_chain(seed).best_loss() for seed in {SEEDS!r}])
above = {{}}
for ffn in ("relu", "swiglu"):
    *_, last = train(ffn=ffn, width={WIDTH}, lr={s["lr"]!r}, steps={s["updates"]!r},
                     seeds={SEEDS!r}, batch={BATCH})
    above[ffn] = np.array(last.exact) - best  # per seed: exact loss less the best possible
print("SwiGLU ended lower in", int(np.sum(above["swiglu"] < above["relu"])), "seeds")
float(np.median(above["swiglu"]))
"""
    return Scratch(code, "final_swiglu")


LAB = register_lab(
    lab_of_module(__name__, name="train_glu", title="A ReLU FFN against a SwiGLU FFN, trained")
)

"""Experiment lab `train_rmsnorm` (on the page as `train-rmsnorm`): one pre-norm stack of
residual FFN blocks trained twice, once with LayerNorm and once with RMSNorm in every norm's
place, on the same task, from the same seeds, with Adam (labs.kernels.residual_training).

It runs as train_norm does (labs.training_plot). Besides the curves and each norm's final
loss (the median over the seeds) it shows the range of the seeds' final losses, so a reader
can see whether the two medians differ by more than the seeds do, and the arithmetic one norm
spends on one row (labs.kernels.backprop.norm_flops).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial

from labs.kernels.backprop import norm_flops
from labs.kernels.residual_training import train
from labs.training_plot import (
    LAST,
    curve_shapes,
    curves_body,
    curves_state,
    every,
    final_text,
    output_row,
    seed_finals,
    side_by_side,
)
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks
from livelab.options import Option, Options

PARAMS = Options(
    depth=Option(8, 1, 24, 1, "depth (residual blocks)", what="how many blocks the stack has"),
    lr=Option(0.01, 0.001, 0.03, 0.001, "learning rate", what="Adam's step size", digits=3),
)

UPDATES = 60
SEEDS = (0, 1, 2, 3, 4)
WIDTH = 16  # the model width d (residual_training's default), for the arithmetic per row
EVERY = 2  # about 50 ms of Pyodide a state; livelab.labs.runs sends one every 150 ms
NORMS = ("layernorm", "rmsnorm")
NAMES = {"layernorm": "LayerNorm", "rmsnorm": "RMSNorm"}
Y_TICKS = (0, 0.5, 1, 1.5, 2, 2.5, 3)  # the first losses (up to 2.9) fit


def _states(depth: int, lr: float) -> Iterator[dict]:
    trained = partial(train, placement="pre", depth=depth, lr=lr, steps=UPDATES, seeds=SEEDS)
    runs = {n: (step.losses for step in trained(norm=n)) for n in NORMS}
    for rows in side_by_side(runs):
        s = curves_state(rows, depth=depth, lr=lr, updates=UPDATES)
        for n in NORMS:
            finals = seed_finals(rows[n])
            s[f"low_{n}"], s[f"high_{n}"] = float(finals.min()), float(finals.max())
        yield s


def run(*, depth: int, lr: float) -> Iterator[dict]:
    """The curves so far, every EVERY updates, and once more at the end."""
    return every(_states(depth, lr), EVERY)


def state(*, depth: int, lr: float) -> dict:
    """The run taken to its end."""
    *_, last = _states(depth, lr)
    return last


def _range(s: dict, n: str, joiner: str = "to") -> str:
    return f"{final_text(s[f'low_{n}'])} {joiner} {final_text(s[f'high_{n}'])}"


def view(s: dict) -> dict:
    """Final losses and the seeds' ranges as text, the arithmetic per row, the curves."""
    text = {"progress": f"{s['done']} of {s['updates']} updates"}
    for n in NORMS:
        text[f"final_{n}"] = final_text(s[f"final_{n}"])
        text[f"range_{n}"] = _range(s, n)
        text[f"flops_{n}"] = str(norm_flops(n, WIDTH))
    text["plot_title"] = (
        f"Training loss over {s['done']} updates of a pre-norm stack of depth {s['depth']}, "
        f"{len(SEEDS)} seeds each: with LayerNorm (orange) the seeds end between "
        f"{_range(s, 'layernorm', 'and')}, "
        f"with RMSNorm (blue) between {_range(s, 'rmsnorm', 'and')}"
    )
    return {"text": text, "svg": {"curves": curve_shapes(s, NORMS, UPDATES, Y_TICKS)}}


def body(values: dict, marks: Marks) -> str:
    """The settings, the plot, and per norm its final loss, its seeds' range and its
    arithmetic per row."""
    outputs = ""
    for n in NORMS:
        outputs += output_row(marks, f"final_{n}", f"final loss, {NAMES[n]}", n)
        outputs += output_row(marks, f"range_{n}", f"seeds' final losses, {NAMES[n]}")
    for n in NORMS:
        label = f"operations to normalise one row of {WIDTH} numbers, {NAMES[n]}"
        outputs += output_row(marks, f"flops_{n}", label)
    return curves_body(PARAMS, values, marks, outputs)


def scratch(s: dict) -> Scratch:
    """Both trainings as Python, ending on RMSNorm's final loss as the lab shows it."""
    code = f"""# train-rmsnorm lab: one pre-norm stack trained with LayerNorm and with RMSNorm,
# {len(SEEDS)} seeds, {UPDATES} updates of Adam each.
from labs.kernels.residual_training import train
finals = {{}}
for norm in ("layernorm", "rmsnorm"):
    steps = list(train(placement="pre", norm=norm, depth={s["depth"]!r}, lr={s["lr"]!r},
                       steps={UPDATES}, seeds={SEEDS!r}))
    losses = np.array([step.losses for step in steps])  # [updates, seeds]
    per_seed = losses[-{LAST}:].mean(axis=0)  # a seed's final loss: its last {LAST} updates
    print(norm, "seeds end between", per_seed.min(), "and", per_seed.max())
    finals[norm] = float(np.median(per_seed))
finals["rmsnorm"]
"""
    return Scratch(code, "final_rmsnorm")


LAB = register_lab(
    lab_of_module(__name__, name="train_rmsnorm", title="LayerNorm against RMSNorm, trained")
)

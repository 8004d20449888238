"""Experiment lab `train_rope` (on the page as `train-rope`): one causal attention layer learns
to copy the token GAP places back, trained on sequences of TRAIN_LENGTH tokens with learned
absolute positions, with the 2017 sinusoids added to the input, or with RoPE
(labs.kernels.rope_training), three seeds each; then each is tested on longer sequences.

It runs as train_norm does: `run(**params)` yields the three methods' loss curves every few
updates, and the last state, at the end of training, adds the accuracy at each test length
(the median over the seeds). Learned positions have no row past TRAIN_LENGTH, so their
cells there say "cannot run". The accuracies fill a table; those at the longest length are
also in labelled <output> elements.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from labs.kernels.rope_training import GAP, METHODS, TRAIN_LENGTH, VOCAB, accuracy, train
from labs.training_plot import curve_shapes, curves_body, every, output_row
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr
from livelab.labs.view import fmt_number
from livelab.options import Option, Options

PARAMS = Options(
    updates=Option(200, 50, 400, 50, "updates", what="how many Adam updates each model gets"),
    lr=Option(0.01, 0.001, 0.03, 0.001, "learning rate", what="Adam's step size", digits=3),
)

SEEDS = (0, 1, 2)
LENGTHS = (16, 24, 32, 48, 64)  # the test lengths; training is at TRAIN_LENGTH = 16
TEST_SEQUENCES = 32  # per model and length
TEST_SEED = 99
EVERY = 5  # about 35 ms of Pyodide an update for the three; runs sends a state every 150 ms
NAMES = {"learned": "learned positions", "sinusoidal": "sinusoids", "rope": "RoPE"}
Y_TICKS = (0, 0.5, 1, 1.5, 2, 2.5, 3)  # a blind guess among 12 tokens scores ln 12 = 2.48


def accuracies(models: dict[str, dict]) -> dict[str, dict[int, float | None]]:
    """Per method and test length, the median over the seeds of the share of positions where
    the model's top guess is the token GAP back; None where the method cannot run. Every
    method is tested on the same sequences."""
    out: dict[str, dict[int, float | None]] = {m: {} for m in models}
    for n in LENGTHS:
        shape = (len(SEEDS), TEST_SEQUENCES, n)
        tokens = np.random.default_rng([TEST_SEED, n]).integers(0, VOCAB, shape)
        for method, params in models.items():
            shares = accuracy(params, tokens, method)
            out[method][n] = None if shares is None else float(np.median(shares))
    return out


def _states(updates: int, lr: float) -> Iterator[dict]:
    """The three methods trained side by side; after every update, the curves so far, and at
    the end the accuracies."""
    runs = [train(method=m, lr=lr, steps=updates, seeds=SEEDS) for m in METHODS]
    rows: dict[str, list] = {m: [] for m in METHODS}
    models: dict[str, dict] = {}
    s: dict = {}
    for done, steps in enumerate(zip(*runs, strict=True), start=1):
        s = {"updates": updates, "lr": lr, "done": done, "accuracy": None}
        for method, (step, params) in zip(METHODS, steps, strict=True):
            rows[method].append(step.losses)
            s[method] = np.array(rows[method]).T.tolist()
            models[method] = params
        if done < updates:
            yield s
    s["accuracy"] = accuracies(models)
    yield s


def run(*, updates: int, lr: float) -> Iterator[dict]:
    """The curves so far, every EVERY updates, and the end with the accuracies."""
    return every(_states(updates, lr), EVERY)


def state(*, updates: int, lr: float) -> dict:
    """The run taken to its end."""
    *_, last = _states(updates, lr)
    return last


def _cell(s: dict, method: str, n: int) -> str:
    if s["accuracy"] is None:
        return "not yet"
    value = s["accuracy"][method][n]
    return "cannot run" if value is None else fmt_number(value, 2)


def view(s: dict) -> dict:
    """The accuracy table as text (filled in at the end), the loss curves."""
    text = {f"acc_{m}_{n}": _cell(s, m, n) for m in METHODS for n in LENGTHS}
    text |= {f"final_{m}": _cell(s, m, LENGTHS[-1]) for m in METHODS}
    text["progress"] = f"{s['done']} of {s['updates']} updates"
    longest = LENGTHS[-1]
    ending = (
        f"; at length {longest} learned positions cannot run, sinusoids reach "
        f"{_cell(s, 'sinusoidal', longest)} and RoPE {_cell(s, 'rope', longest)}"
        if s["accuracy"] is not None
        else ""
    )
    text["plot_title"] = (
        f"Training loss over {s['done']} updates at length {TRAIN_LENGTH}, {len(SEEDS)} seeds "
        f"per method: learned positions (green), sinusoids (orange), RoPE (blue){ending}"
    )
    curves = curve_shapes(s, METHODS, s["updates"], Y_TICKS)
    return {"text": text, "svg": {"curves": curves}}


def _table(marks: Marks) -> str:
    """Accuracy per method (rows) and test length (columns), each cell a labelled output."""
    head = "".join(f'<th scope="col">{n}</th>' for n in LENGTHS)
    rows = ""
    for m in METHODS:
        cells = "".join(f"<td>{marks.text(f'acc_{m}_{n}')}</td>" for n in LENGTHS)
        swatch = f'<span class="livelab-swatch livelab-swatch--{m}" aria-hidden="true"></span>'
        rows += f'<tr><th scope="row">{swatch}{NAMES[m]}</th>{cells}</tr>'
    caption = (
        f"Share of positions where the top guess is the token {GAP} back, at each test "
        f"length (trained at {TRAIN_LENGTH}), median over {len(SEEDS)} seeds"
    )
    # The caption is a paragraph outside the scrolling box, so a phone shows all of it while
    # the table scrolls sideways under it.
    caption_id = attr(marks.dom_id("table-caption"))
    return (
        f'<p class="livelab-caption" id="{caption_id}">{caption}</p>'
        '<div class="livelab-table-wrap">'
        f'<table class="livelab-table" aria-labelledby="{caption_id}">'
        f'<thead><tr><th scope="col">length</th>{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def _legend() -> str:
    """Which colour is which method (the table's rows carry the same swatches)."""
    items = "".join(
        f'<span class="livelab-swatch livelab-swatch--{m}" aria-hidden="true"></span>{NAMES[m]} '
        for m in METHODS
    )
    return f'<p class="livelab-legend">Curves: {items.strip()}</p>'


def body(values: dict, marks: Marks) -> str:
    """The settings, the loss plot, the accuracy table, and each method's accuracy at the
    longest length in a labelled output."""
    outputs = "".join(
        output_row(marks, f"final_{m}", f"accuracy at length {LENGTHS[-1]}, {NAMES[m]}", m)
        for m in METHODS
    )
    return curves_body(PARAMS, values, marks, _legend() + _table(marks) + outputs)


def scratch(s: dict) -> Scratch:
    """The three trainings as Python, ending on RoPE's accuracy at the longest length."""
    code = f"""# train-rope lab: copy the token {GAP} back, trained at length {TRAIN_LENGTH}
# with three ways of giving positions, {len(SEEDS)} seeds each, {s["updates"]} updates,
# then tested on longer sequences.
from labs.kernels.rope_training import VOCAB, accuracy, train
models = {{}}
for method in ("learned", "sinusoidal", "rope"):
    *_, (_, models[method]) = train(method=method, lr={s["lr"]!r}, steps={s["updates"]!r},
                                    seeds={SEEDS!r})
found = {{}}
for n in {LENGTHS!r}:
    shape = ({len(SEEDS)}, {TEST_SEQUENCES}, n)  # seeds, sequences, length
    tokens = np.random.default_rng([{TEST_SEED}, n]).integers(0, VOCAB, shape)
    for method, params in models.items():
        shares = accuracy(params, tokens, method)  # None: learned ones end at {TRAIN_LENGTH}
        found[method, n] = None if shares is None else float(np.median(shares))
print("sinusoids at {LENGTHS[-1]}:", found["sinusoidal", {LENGTHS[-1]}])
found["rope", {LENGTHS[-1]}]
"""
    return Scratch(code, "final_rope")


LAB = register_lab(
    lab_of_module(__name__, name="train_rope", title="Positions that travel, trained")
)

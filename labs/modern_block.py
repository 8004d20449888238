"""Modern block lab: the block figure drawn from a config, and one forward pass on demand.

The config fields are those of the shipped modern-config.json (the same file the kernels
read as MODERN_CONFIG); every field is a parameter the page can edit, in a compact form that
folds away, beside the figure on a wide screen. The figure is a table drawn as boxes: one row
per step with its shape in terms of B and T. "Run the block" (run: true) feeds a seeded input
X [B, T, hidden_size] through `modern_block_steps` with seeded weights and fills in, in each
box, the step's shape and first numbers for one token: the last one, since at token 0 RoPE
turns by nothing and causal attention has only itself to look at. A config the kernels
refuse gives a view with an error message and no new figure, so the page keeps its last
good one.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from labs.kernels import MODERN_CONFIG, init_params, modern_block_steps, param_shapes
from labs.kernels import validate_config as validate_block_config
from labs.modern_block_figure import COLUMNS, figure_html, figure_steps, step_classes
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr, control_html, set_button, strip
from livelab.labs.view import fmt_number
from livelab.options import Option, Options

CONFIG_FIELDS = tuple(MODERN_CONFIG)
_C: dict[str, Any] = dict(MODERN_CONFIG)


def _field(name: str, low: float, high: float, step: float | str, what: str) -> Option:
    """A config number: its default from modern-config.json, its name as its label."""
    default = float(_C[name]) if step == "any" else int(_C[name])
    return Option(default, low, high, step, name, control="number", what=f"config: {what}")


def _switch(name: str, what: str) -> Option:
    """A config true/false field as a checkbox labelled by its name."""
    return Option(bool(_C[name]), label=name, control="checkbox", what=f"config: {what}")


PARAMS = Options(
    hidden_size=_field("hidden_size", 1, 256, 1, "width of every token's vector"),
    query_heads=_field("query_heads", 1, 64, 1, "number of attention heads"),
    head_dim=_field("head_dim", 1, 256, 1, "width of each head, even for RoPE"),
    ffn_hidden_size=_field("ffn_hidden_size", 1, 1024, 1, "hidden width of the SwiGLU FFN"),
    rope_theta=_field("rope_theta", 1.0, 1e7, "any", "RoPE base of the turning rates"),
    eps=_field("eps", 0.0, 1.0, "any", "eps inside RMSNorm's square root"),
    max_sequence_slots=_field(
        "max_sequence_slots", 1, 1_000_000, 1, "the longest sequence the block accepts"
    ),
    pre_norm=_switch("pre_norm", "true for pre-norm, false for post-norm"),
    bias=_switch("bias", "whether every projection adds a bias"),
    batch=Option(
        2, 1, 4, 1, "B (sequences in the batch)", control="number", what="B of the seeded input X"
    ),
    tokens=Option(
        4, 1, 16, 1, "T (tokens per sequence)", control="number", what="T of the seeded input X"
    ),
    seed=Option(
        0,
        0,
        9999,
        1,
        "seed (input and weights)",
        control="number",
        what="seed of the input X and of the weights",
    ),
    run=Option(False, what="whether the page opens on the block already run"),
)

SHOWN_NUMBERS = 4  # entries of each step's first row shown on the page


def config_of(params: dict) -> dict:
    """The config fields of a lab's params, typed as in modern-config.json."""
    config = {name: params[name] for name in CONFIG_FIELDS}
    if float(config["rope_theta"]).is_integer():
        config["rope_theta"] = int(config["rope_theta"])
    return config


def _check(params: dict) -> dict:
    """The validated config as a dict; ValueError when the kernels refuse it."""
    config = config_of(params)
    validate_block_config(config)
    if params["tokens"] > config["max_sequence_slots"]:
        raise ValueError(
            f"T = {params['tokens']} tokens do not fit in max_sequence_slots = "
            f"{config['max_sequence_slots']}"
        )
    return config


def _token_row(values: np.ndarray) -> np.ndarray:
    """The row shown for a step: batch 0 (head 0), the last token. Every step keeps tokens on
    axis -2 (for the attention weights that is the query, so its row spreads over the keys)."""
    return values[(0,) * (values.ndim - 2) + (-1,)]  # [last axis]


def state(
    *,
    hidden_size: int,
    query_heads: int,
    head_dim: int,
    ffn_hidden_size: int,
    rope_theta: float,
    eps: float,
    max_sequence_slots: int,
    pre_norm: bool,
    bias: bool,
    batch: int,
    tokens: int,
    seed: int,
    run: bool,
) -> dict:
    """Figure steps and parameter count for the config; the forward pass when run is true."""
    params = locals()  # every argument, by name: config_of picks the config fields
    try:
        config = _check(params)
    except ValueError as exc:
        return {"error": f"This config cannot build a block: {exc}.", "config": config_of(params)}
    steps = figure_steps(config)
    out = {
        "error": "",
        "config": config,
        "steps": steps,
        "weights": int(sum(np.prod(s) for s in param_shapes(config).values())),
        "batch": params["batch"],
        "tokens": params["tokens"],
        "seed": params["seed"],
        "run": params["run"],
    }
    if params["run"]:
        x = np.random.default_rng((params["seed"], 1)).standard_normal(
            (params["batch"], params["tokens"], config["hidden_size"])
        )  # [B, T, D]
        values = dict(modern_block_steps(x, init_params(config, params["seed"]), config))
        out["shapes"] = {s["key"]: list(values[s["kernel"]].shape) for s in steps}
        out["rows"] = {s["key"]: _token_row(values[s["kernel"]]).tolist() for s in steps}
        out["kernel_shapes"] = {name: list(v.shape) for name, v in values.items()}
    return out


def _numbers(row: list[float]) -> str:
    shown = ", ".join(fmt_number(v) for v in row[:SHOWN_NUMBERS])
    return f"[{shown}{', …' if len(row) > SHOWN_NUMBERS else ''}]"


def step_cells(s: dict) -> list[list[str]]:
    """Each step's cells, as the figure's rows show them; the run's cells empty before it."""
    rows = []
    for step in s["steps"]:
        if s["run"]:
            actual = "(" + ", ".join(map(str, s["shapes"][step["key"]])) + ")"
            rows.append([step["label"], step["shape"], actual, _numbers(s["rows"][step["key"]])])
        else:
            rows.append([step["label"], step["shape"], "", ""])
    return rows


def view(s: dict) -> dict:
    """The figure's rows, their classes and the summary; only the error when there is one."""
    config_text = json.dumps(s["config"], indent=2)
    if s["error"]:
        return {
            "error": s["error"],
            "text": {"summary": "No block to run: fix the config first.", "config": config_text},
        }
    if s["run"]:
        out_shape = ", ".join(map(str, s["shapes"]["out"]))
        summary = (
            f"Ran one block on a seeded X of shape ({out_shape}): the output has the same "
            f"shape; the row of token {s['tokens'] - 1} starts {_numbers(s['rows']['out'])}"
        )
    else:
        summary = "Not run yet: press Run the block."
    last = s["tokens"] - 1
    shown = (
        f"The numbers are the first entries of token {last}, the last of the T = {s['tokens']} "
        "tokens, in sequence 0 (head 0 for the steps split into heads). "
        + (
            "For the attention weights they are how much that token takes from each key."
            if last
            else "With a single token, RoPE turns by nothing; raise T to see it act."
        )
    )
    text = {"summary": summary, "config": config_text, "weights": f"{s['weights']:,}"}
    text["shown"] = shown
    text["seeded"] = f"B = {s['batch']}, T = {s['tokens']}, seed {s['seed']}"
    for i, cells in enumerate(step_cells(s)):
        for column, cell in zip(COLUMNS, cells, strict=True):
            text[f"step-{i}-{column}"] = cell
    classes = step_classes(s["steps"])
    return {
        "error": "",
        "text": text,
        "attrs": {f"step-{i}": {"class": css} for i, css in enumerate(classes)},
    }


RUN_FIELDS = ("batch", "tokens", "seed")


def body(values: dict, marks: Marks) -> str:
    """Config form, buttons and summary beside the figure, for one modern block lab."""
    if marks.view.get("error"):
        # A fence must not ship a broken config: the build reports this as the fence's error.
        raise ValueError(marks.view["error"])
    params = PARAMS
    summary_id = attr(marks.dom_id("summary"))
    shipped = {name: params[name].default for name in CONFIG_FIELDS}
    # Number fields first, the two switches last: they pair up in the form's two columns.
    order = sorted(CONFIG_FIELDS, key=lambda name: params[name].control == "checkbox")
    config_controls = "".join(control_html(params, name, values, marks) for name in order)
    run_controls = "".join(control_html(params, name, values, marks) for name in RUN_FIELDS)
    return (
        '<div class="livelab-block">'
        '<div class="livelab-block__side">'
        # Open at first, so every field is in sight; folding it brings the figure up on a phone.
        '<details class="livelab-config-form" open><summary>Config fields (modern-config.json)'
        "</summary>"
        f'<div class="livelab-controls">{config_controls}</div>'
        "</details>"
        # The seeded input matters only for a run: folded, with its values in the summary line.
        '<details class="livelab-config-form"><summary>Seeded input: '
        + marks.text("seeded")
        + "</summary>"
        f'<div class="livelab-controls">{run_controls}</div>'
        "</details>"
        '<div class="livelab-buttons">'
        + set_button("Run the block", {"run": True})
        + set_button("Restore the shipped config", shipped)
        + "</div>"
        + marks.error()
        # On a phone the config's fields outnumber a screen: its key numbers stick to the
        # screen's bottom instead, while the fields scroll past above them.
        + strip(
            '<p class="livelab-score">'
            f'<label for="{summary_id}">Forward pass</label> '
            + marks.text("summary", tag="output", extra=f' id="{summary_id}" aria-live="polite"')
            + "</p>"
            '<dl class="livelab-readout">'
            f"<dt>weights in one block</dt><dd>{marks.text('weights')}</dd>"
            "</dl>",
            edge="bottom",
        )
        + "</div>"
        '<div class="livelab-block__figure" data-figure>'
        + figure_html(marks)
        + marks.text("shown", tag="p", extra=' class="livelab-note"')
        + '<p class="livelab-note">For Q, K, V the numbers are those of Q, and the RoPE row '
        "shows the same Q after its turn.</p>"
        "</div>"
        "</div>"
        '<details class="livelab-details"><summary>The config as JSON</summary>'
        + marks.text("config", tag="pre")
        + "</details>"
    )


def scratch(s: dict) -> Scratch:
    """The lab's config as Python; with the block run, the forward pass and the row shown."""
    what = "its weight count and one forward pass" if s.get("run") else "its weight count"
    head = f"""# Modern block lab: the config, {what}.
config = {s["config"]!r}
"""
    if s["error"]:
        return Scratch(head + "validate_config(config)  # the lab refuses it\n", "summary")
    head += """weights = int(sum(np.prod(shape) for shape in param_shapes(config).values()))
print(f"{weights:,} weights")
"""
    if not s["run"]:
        return Scratch(head + "weights\n", "weights")
    out = next(step["kernel"] for step in s["steps"] if step["key"] == "out")
    code = (
        head
        + f"""B, T, seed = {s["batch"]!r}, {s["tokens"]!r}, {s["seed"]!r}
X = np.random.default_rng((seed, 1)).standard_normal((B, T, config["hidden_size"]))
steps = dict(modern_block_steps(X, init_params(config, seed), config))
print({{name: value.shape for name, value in steps.items()}})
steps[{out!r}][0, -1, :{SHOWN_NUMBERS}]  # sequence 0, last token, first entries
"""
    )
    return Scratch(code, "summary")


LAB = register_lab(
    lab_of_module(
        __name__,
        name="modern_block",
        title="The modern block, drawn from its config and run in your browser",
    )
)

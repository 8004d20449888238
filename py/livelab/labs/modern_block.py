"""Modern block lab: the block figure drawn from a config, and one forward pass on demand.

The config fields are those of the shipped modern-config.json (the same file the kernels
read as MODERN_CONFIG); every field is a parameter the page can edit. Each step of the
block is drawn with its shape in terms of B and T. "Run the block" (run: true) feeds a
seeded input X [B, T, hidden_size] through `modern_block_steps` with seeded weights and
shows the first numbers of every step for one token: the last one, since at token 0 RoPE
turns by nothing and causal attention has only itself to look at. A config the kernels
refuse gives a view with an error message and no new drawing, so the page keeps its last
good figure.
"""

from __future__ import annotations

import html
import json
from typing import Any

import numpy as np

from livelab.kernels import MODERN_CONFIG, init_params, modern_block_steps, param_shapes
from livelab.kernels import validate_config as validate_block_config
from livelab.labs import Lab, register_lab
from livelab.labs.markup import Marks, attr, control_html, set_button
from livelab.labs.modern_block_figure import (
    FIGURE_WIDTH,
    figure_height,
    figure_shapes,
    figure_steps,
)
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


def view(s: dict) -> dict:
    """The figure, the table of steps and the summary; only the error when there is one."""
    config_text = json.dumps(s["config"], indent=2)
    if s["error"]:
        return {
            "error": s["error"],
            "text": {"summary": "No block to run: fix the config first.", "config": config_text},
        }
    ran = s["run"]
    rows = []
    for step in s["steps"]:
        if ran:
            actual = "(" + ", ".join(map(str, s["shapes"][step["key"]])) + ")"
            rows.append([step["label"], step["shape"], actual, _numbers(s["rows"][step["key"]])])
        else:
            rows.append([step["label"], step["shape"], "—", "—"])
    if ran:
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
    return {
        "error": "",
        "text": {
            "summary": summary,
            "config": config_text,
            "weights": f"{s['weights']:,}",
            "shown": shown,
            "figure_title": (
                "The block drawn from the config: "
                + ", then ".join(f"{st['label']} {st['shape']}" for st in s["steps"])
            ),
        },
        "attrs": {"figure": {"viewBox": f"0 0 {FIGURE_WIDTH:g} {figure_height(s['steps']):g}"}},
        "svg": {"figure": figure_shapes(s["steps"])},
        "rows": {"steps": rows},
    }


RUN_FIELDS = ("batch", "tokens", "seed")


def body(values: dict, marks: Marks) -> str:
    """Controls, figure, summary and step table of one modern block lab instance."""
    if marks.view.get("error"):
        from livelab.build.fences import (
            FenceError,  # build-only; a fence must not ship a broken config
        )

        raise FenceError(marks.view["error"])
    params = PARAMS
    summary_id = attr(marks.dom_id("summary"))
    figure_title = attr(marks.dom_id("figure-title"))
    shipped = {name: params[name].default for name in CONFIG_FIELDS}
    config_controls = "".join(control_html(params, name, values, marks) for name in CONFIG_FIELDS)
    run_controls = "".join(control_html(params, name, values, marks) for name in RUN_FIELDS)
    return (
        '<fieldset class="livelab-config"><legend>Config fields (modern-config.json)</legend>'
        f'<div class="livelab-controls">{config_controls}</div></fieldset>'
        '<fieldset class="livelab-config"><legend>Seeded input</legend>'
        f'<div class="livelab-controls">{run_controls}</div></fieldset>'
        '<div class="livelab-buttons">'
        + set_button("Run the block", {"run": True})
        + set_button("Restore the shipped config", shipped)
        + "</div>"
        + marks.error()
        + '<p class="livelab-score">'
        f'<label for="{summary_id}">Forward pass</label> '
        + marks.text("summary", tag="output", extra=f' id="{summary_id}" aria-live="polite"')
        + "</p>"
        '<dl class="livelab-readout">'
        f"<dt>weights in one block</dt><dd>{marks.text('weights')}</dd>"
        "</dl>"
        '<div class="livelab-block" data-figure>'
        f'<svg class="livelab-figure livelab-figure--block" {marks.attrs("figure")} role="img" '
        f'aria-labelledby="{figure_title}">'
        + marks.text("figure_title", tag="title", extra=f' id="{figure_title}"')
        + marks.shapes("figure")
        + "</svg>"
        + marks.text("shown", tag="p", extra=' class="livelab-note"')
        + '<p class="livelab-note">For Q, K, V the numbers are those of Q, and the RoPE row '
        "shows the same Q after its turn.</p>"
        '<div class="livelab-table-wrap"><table class="livelab-table">'
        "<caption>Every step of the block with its shape</caption>"
        "<thead><tr>"
        + "".join(
            f'<th scope="col">{html.escape(h)}</th>'
            for h in ("step", "shape", "shape in the run", "first numbers")
        )
        + "</tr></thead>"
        + marks.rows("steps")
        + "</table></div>"
        "</div>"
        '<details class="livelab-details"><summary>The config as JSON</summary>'
        + marks.text("config", tag="pre")
        + "</details>"
    )


LAB = register_lab(
    Lab(
        name="modern_block",
        title="The modern block, drawn from its config and run in your browser",
        params=PARAMS,
        state=state,
        view=view,
        body=body,
        module=__name__,
    )
)

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

import json
from typing import Any

import numpy as np

from livelab.kernels import MODERN_CONFIG, init_params, modern_block_steps, param_shapes
from livelab.kernels import validate_config as validate_block_config
from livelab.labs.params import Param, Params
from livelab.labs.view import fmt_number, shape

CONFIG_FIELDS = tuple(MODERN_CONFIG)
_C: dict[str, Any] = dict(MODERN_CONFIG)

PARAMS = Params(
    hidden_size=Param(int(_C["hidden_size"]), 1, 256, 1, "hidden_size", control="number"),
    query_heads=Param(int(_C["query_heads"]), 1, 64, 1, "query_heads", control="number"),
    head_dim=Param(int(_C["head_dim"]), 1, 256, 1, "head_dim", control="number"),
    ffn_hidden_size=Param(
        int(_C["ffn_hidden_size"]), 1, 1024, 1, "ffn_hidden_size", control="number"
    ),
    rope_theta=Param(float(_C["rope_theta"]), 1.0, 1e7, "any", "rope_theta", control="number"),
    eps=Param(float(_C["eps"]), 0.0, 1.0, "any", "eps", control="number"),
    max_sequence_slots=Param(
        int(_C["max_sequence_slots"]), 1, 1_000_000, 1, "max_sequence_slots", control="number"
    ),
    pre_norm=Param(bool(_C["pre_norm"]), label="pre_norm", control="checkbox"),
    bias=Param(bool(_C["bias"]), label="bias", control="checkbox"),
    batch=Param(2, 1, 4, 1, "B (sequences in the batch)", control="number"),
    tokens=Param(4, 1, 16, 1, "T (tokens per sequence)", control="number"),
    seed=Param(0, 0, 9999, 1, "seed (input and weights)", control="number"),
    run=Param(False),
)

SHOWN_NUMBERS = 4  # entries of each step's first row shown on the page
FIGURE_WIDTH = 340.0
BOX_LEFT, BOX_WIDTH, BOX_HEIGHT, BOX_GAP = 8.0, 300.0, 26.0, 12.0
LANE_X = 326.0  # the residual connections run down this line


def config_of(params: dict) -> dict:
    """The config fields of a lab's params, typed as in modern-config.json."""
    config = {name: params[name] for name in CONFIG_FIELDS}
    if float(config["rope_theta"]).is_integer():
        config["rope_theta"] = int(config["rope_theta"])
    return config


def figure_steps(config: dict) -> list[dict]:
    """The block's steps in order: key, label, kind, symbolic shape and the kernel step shown.

    Shapes name B and T and put the config's numbers in for the rest.
    """
    d, h, dh, f = (
        config["hidden_size"],
        config["query_heads"],
        config["head_dim"],
        config["ffn_hidden_size"],
    )
    b = " + b" if config["bias"] else ""
    row, heads, ffn = f"[B, T, {d}]", f"[B, {h}, T, {dh}]", f"[B, T, {f}]"

    def step(key: str, label: str, kind: str, shape_text: str, kernel: str | None = None):
        return {
            "key": key,
            "label": label,
            "kind": kind,
            "shape": shape_text,
            "kernel": kernel or key,
        }

    norm = f"RMSNorm (eps {config['eps']:g})"
    attention = [
        step("q", f"Q, K, V{b}: {h} heads × {dh}", "attn", f"{heads} each"),
        step("q_rot", f"RoPE on Q and K (base {config['rope_theta']:g})", "attn", heads),
        step("weights", "causal attention weights", "attn", f"[B, {h}, T, T]"),
        step("heads", "weights × V, each head", "attn", heads),
        step("joined", "join the heads", "attn", f"[B, T, {h * dh}]"),
        step("attn_out", f"output projection [{h * dh}, {d}]{b}", "attn", row),
    ]
    ffn_steps = [
        step("gate", f"gate [{d}, {f}] and up [{d}, {f}]{b}", "ffn", f"{ffn} each"),
        step("hidden", "SiLU(gate) ⊙ up", "ffn", ffn),
        step("ffn_out", f"down [{f}, {d}]{b}", "ffn", row),
    ]
    first = step("x", "X, the input", "io", row)
    if config["pre_norm"]:
        return [
            first,
            step("attn_norm", norm, "norm", row),
            *attention,
            step("residual", "+ X, call it R", "add", row),
            step("ffn_norm", norm, "norm", row),
            *ffn_steps,
            step("out", "+ R, the block's output", "add", row),
        ]
    return [
        first,
        *attention,
        step("attn_sum", "+ X", "add", row),
        step("residual", f"{norm}, call it R", "norm", row),
        *ffn_steps,
        step("ffn_sum", "+ R", "add", row),
        step("out", f"{norm}, the block's output", "norm", row),
    ]


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


def state(**params) -> dict:
    """Figure steps and parameter count for the config; the forward pass when run is true."""
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
        "attrs": {"figure": {"viewBox": f"0 0 {FIGURE_WIDTH:g} {_figure_height(s['steps']):g}"}},
        "svg": {"figure": figure_shapes(s["steps"])},
        "rows": {"steps": rows},
    }


def _figure_height(steps: list[dict]) -> float:
    return 10 + len(steps) * (BOX_HEIGHT + BOX_GAP)


def _box_top(i: int) -> float:
    return 6 + i * (BOX_HEIGHT + BOX_GAP)


def figure_shapes(steps: list[dict]) -> list[dict]:
    """A column of boxes, one per step with its shape, arrows between, residuals on the right."""
    out: list[dict] = []
    centre = BOX_LEFT + BOX_WIDTH / 2
    for i, step in enumerate(steps):
        top = _box_top(i)
        out.append(
            shape(
                "rect",
                {"x": BOX_LEFT, "y": top, "width": BOX_WIDTH, "height": BOX_HEIGHT},
                class_=f"livelab-node livelab-node--{step['kind']}",
                rx=4,
            )
        )
        out.append(
            shape(
                "text",
                {"x": BOX_LEFT + 8, "y": top + 17},
                step["label"],
                class_="livelab-node-label",
            )
        )
        out.append(
            shape(
                "text",
                {"x": BOX_LEFT + BOX_WIDTH - 8, "y": top + 17},
                step["shape"],
                class_="livelab-node-shape",
                text_anchor="end",
            )
        )
        if i:
            out.append(
                shape(
                    "line",
                    {"x1": centre, "y1": top - BOX_GAP, "x2": centre, "y2": top},
                    class_="livelab-flow",
                )
            )
    keys = [s["key"] for s in steps]
    sums = [i for i, s in enumerate(steps) if s["kind"] == "add"]
    sources = [0, keys.index("residual")]
    for source, target in zip(sources, sums, strict=True):
        y1 = _box_top(source) + BOX_HEIGHT / 2
        y2 = _box_top(target) + BOX_HEIGHT / 2
        right = BOX_LEFT + BOX_WIDTH
        out.append(
            shape(
                "polyline",
                {
                    "points": f"{right},{y1:.2f} {LANE_X},{y1:.2f} {LANE_X},{y2:.2f} "
                    f"{right},{y2:.2f}"
                },
                class_="livelab-skip",
            )
        )
    return out

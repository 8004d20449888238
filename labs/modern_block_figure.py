"""Figure of the modern block lab: the block's steps for a config, as the rows of one table.

The figure is the table: one row per step (label, shape in terms of B and T, and after a
run the shape and first numbers of that step), drawn as a column of boxes coloured by kind,
with the residual connections as lanes on the right. These are pure functions from a config
to steps and from steps to each row's classes, and figure_html, the table the page fills in;
the lab itself is labs.modern_block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from livelab.labs.markup import Marks

STEP_ROWS = 14
"""Steps of the block, pre-norm or post-norm alike; the page builds this many rows once."""
COLUMNS = ("label", "shape", "run_shape", "numbers")
"""The cells of a row: the step's label, then one cell per column of the table."""


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


def step_classes(steps: list[dict]) -> list[str]:
    """Each row's classes: its kind, and where it sits on a residual lane (from, on, to).

    A lane starts at the step whose value is kept (X, then R) and ends at the addition that
    takes it back; a step can end one lane and start the next.
    """
    keys = [s["key"] for s in steps]
    sums = [i for i, s in enumerate(steps) if s["kind"] == "add"]
    lanes = list(zip([0, keys.index("residual")], sums, strict=True))
    out = []
    for i, step in enumerate(steps):
        marks = [f"livelab-step livelab-step--{step['kind']}"]
        for start, end in lanes:
            if i == start:
                marks.append("livelab-lane-from")
            elif i == end:
                marks.append("livelab-lane-to")
            elif start < i < end:
                marks.append("livelab-lane-on")
        out.append(" ".join(marks))
    return out


def figure_html(marks: Marks) -> str:
    """The figure: a table whose rows are drawn as the block's boxes, top to bottom."""
    head = "".join(
        f'<th scope="col">{h}</th>' for h in ("step", "shape", "shape in the run", "first numbers")
    )
    rows = "".join(
        f'<tr role="row" {marks.attrs(f"step-{i}")}>'
        + marks.text(f"step-{i}-label", tag="th", extra=' scope="row" role="rowheader"')
        + "".join(
            marks.text(
                f"step-{i}-{column}", tag="td", extra=f' role="cell" class="livelab-step__{column}"'
            )
            for column in COLUMNS[1:]
        )
        + "</tr>"
        for i in range(STEP_ROWS)
    )
    # Explicit roles: the rows are laid out as boxes, and a table keeps its meaning only if
    # its CSS display stays a table's, which these do not.
    return (
        '<table class="livelab-steps" role="table">'
        "<caption>The block, one box per step with its shape</caption>"
        f'<thead class="livelab-steps__head"><tr role="row">{head}</tr></thead>'
        f"<tbody>{rows}</tbody></table>"
    )

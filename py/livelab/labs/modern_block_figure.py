"""Figure of the modern block lab: the block's steps for a config, drawn as a column of boxes.

Pure functions from a config to steps and from steps to shapes (one box per step,
residuals on the right); the lab itself, its params and its state are in
livelab.labs.modern_block.
"""

from __future__ import annotations

from livelab.labs.view import shape

FIGURE_WIDTH = 340.0
BOX_LEFT, BOX_WIDTH, BOX_HEIGHT, BOX_GAP = 8.0, 300.0, 26.0, 12.0
LANE_X = 326.0  # the residual connections run down this line


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


def figure_height(steps: list[dict]) -> float:
    """Height of the figure for these steps, in SVG units."""
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

"""Real models lab: where the weights of a published model are, counted from its config.

Pick one of five shipped configs (labs/configs/); a table lists every part of the model
with its shape, its count summed over the layers and its share of the total, and a bar
figure draws the shares, each bar labelled with its number. Beside them: the head width,
how many query heads share each key-value head and what that does to the KV cache, the
FFN width against d_model (the equal-weights rule gives 8/3 ≈ 2.67), rope_theta and the
period of the slowest RoPE pair. The page puts this lab after the questions on these
configs, and it opens on the smallest model, whose numbers answer none of them.
"""

from __future__ import annotations

from labs.kernels import (
    head_width,
    kv_cache_per_token,
    model_config,
    parameter_parts,
    slowest_rope_period,
)
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr, control_html, strip
from livelab.labs.view import fmt_number, largest_em, shape
from livelab.options import Option, Options

CHOICES = (
    ("smollm2-135m", "SmolLM2-135M"),
    ("llama-2-7b", "LLaMA-2-7B"),
    ("mistral-7b", "Mistral-7B-v0.1"),
    ("llama-3-8b", "Llama-3-8B"),
    ("qwen2-7b", "Qwen2-7B"),
)

PARAMS = Options(
    model=Option(
        "smollm2-135m",
        label="Model",
        control="radio",
        choices=CHOICES,
        what="which published config to count: " + ", ".join(key for key, _ in CHOICES),
    ),
)

PARTS = (  # key, the table's name, the bar's shorter name (it fits a phone's figure)
    ("embeddings", "Token embeddings", "embeddings"),
    ("W_q", "Attention W_q", "W_q"),
    ("W_k", "Attention W_k", "W_k"),
    ("W_v", "Attention W_v", "W_v"),
    ("W_o", "Attention W_o", "W_o"),
    ("ffn", "Gated FFN: W_gate, W_up, W_down", "FFN, 3 matrices"),
    ("norms", "RMSNorm gains", "norms"),
    ("output", "Output layer", "output layer"),
)
EQUAL_WEIGHTS_RATIO = 8 / 3  # a SwiGLU FFN as heavy as a ReLU FFN of width 4·d


def state(*, model: str) -> dict:
    """The config, its parameters by part and in total, and the attention and RoPE numbers."""
    config = model_config(model)
    parts = parameter_parts(config)
    d_k = head_width(config)
    return {
        "model": model,
        "config": config,
        "parts": parts,
        "total": sum(parts.values()),
        "d_k": d_k,
        "kv_cache": kv_cache_per_token(config),
        "kv_cache_ungrouped": 2 * config["num_attention_heads"] * d_k,
        "ffn_ratio": config["intermediate_size"] / config["hidden_size"],
        "slowest_period": slowest_rope_period(d_k, config["rope_theta"]),
    }


def _shape_text(key: str, s: dict) -> str:
    """How one part is built, per layer, in the config's numbers."""
    c, d_k = s["config"], s["d_k"]
    d, heads, groups = c["hidden_size"], c["num_attention_heads"], c["num_key_value_heads"]
    bias = " + bias" if c["qkv_bias"] else ""
    return {
        "embeddings": f"{c['vocab_size']} × {d}, once",
        "W_q": f"{d} × ({heads} heads × {d_k}){bias}",
        "W_k": f"{d} × ({groups} KV heads × {d_k}){bias}",
        "W_v": f"{d} × ({groups} KV heads × {d_k}){bias}",
        "W_o": f"({heads} heads × {d_k}) × {d}",
        "ffn": f"3 × {d} × {c['intermediate_size']}",
        "norms": f"2 × {d} per layer, + {d} at the top",
        "output": "tied: reuses the embeddings"
        if c["tie_word_embeddings"]
        else f"{d} × {c['vocab_size']}, once",
    }[key]


def _share(count: int, total: int) -> str:
    """A part's share in percent: 2 decimals, 3 for a part under a tenth of a percent."""
    percent = 100 * count / total
    return f"{percent:.{3 if 0 < percent < 0.1 else 2}f}%"


def _heads_text(heads: int, groups: int) -> str:
    if heads == groups:
        return f"{heads} query heads, each with its own KV head"
    return f"{heads} query heads share {groups} KV heads: {heads // groups} per KV head"


def _kv_text(s: dict) -> str:
    c = s["config"]
    kept = f"2 × {c['num_key_value_heads']} × {s['d_k']} = {s['kv_cache']:,} numbers per token"
    if c["num_key_value_heads"] == c["num_attention_heads"]:
        return kept
    return f"{kept} (a KV head per query head would keep {s['kv_cache_ungrouped']:,})"


def view(s: dict) -> dict:
    """The table's rows, the readouts as text and the share bars as shapes."""
    c, total = s["config"], s["total"]
    name, layers = c["name"], c["num_hidden_layers"]
    heads, groups = c["num_attention_heads"], c["num_key_value_heads"]
    rows = [
        [label, f"{s['parts'][key]:,}", _share(s["parts"][key], total), _shape_text(key, s)]
        for key, label, _ in PARTS
    ]
    rows.append(["All parameters", f"{total:,}", "100.00%", f"{layers} layers"])
    text = {
        "total": f"{total:,}",
        "caption": f"Where the {total:,} parameters of {name} are, summed over its {layers} layers",
        "bars_title": f"Share of each part in {name}: "
        + "; ".join(f"{label} {_share(s['parts'][key], total)}" for key, label, _ in PARTS),
        "d_k": f"{c['hidden_size']} / {heads} heads = {s['d_k']}",
        "heads": _heads_text(heads, groups),
        "kv_cache": _kv_text(s),
        "ffn_ratio": f"{c['intermediate_size']} / {c['hidden_size']} = "
        f"{fmt_number(s['ffn_ratio'])} (equal weights with a 4·d ReLU FFN: "
        f"{fmt_number(EQUAL_WEIGHTS_RATIO)})",
        "rope_theta": f"{c['rope_theta']:,}",
        "period": f"about {s['slowest_period']:,.0f} positions (head width {s['d_k']})",
    }
    return {"text": text, "rows": {"parts": rows}, "svg": {"bars": bar_shapes(s)}}


BARS_WIDTH = 340.0
ROW = 2.4 * largest_em(BARS_WIDTH)  # a label line and a bar under it, at a phone's text size
BARS_HEIGHT = float(round(ROW * len(PARTS) + 8))


def bar_shapes(s: dict) -> list[dict]:
    """One row per part: its name and share as text, then a bar as long as the share."""
    em = largest_em(BARS_WIDTH)
    out: list[dict] = []
    for i, (key, _, label) in enumerate(PARTS):
        top = 4 + i * ROW
        share = s["parts"][key] / s["total"]
        out.append(
            shape(
                "text",
                {"x": 4.0, "y": top + em},
                f"{label}: {_share(s['parts'][key], s['total'])}",
                class_="livelab-bar-label",
            )
        )
        out.append(
            shape(
                "rect",
                {"x": 4.0, "y": top + 1.25 * em, "width": (BARS_WIDTH - 8) * share},
                class_="livelab-bar livelab-bar--gate",
                height=0.8 * em,
            )
        )
    return out


def body(values: dict, marks: Marks) -> str:
    """The model picker, the total, the table of parts, the bars and the readouts."""
    total_id = attr(marks.dom_id("total"))
    bars_title = attr(marks.dom_id("bars-title"))
    return (
        strip(
            '<div class="livelab-controls">'
            + control_html(PARAMS, "model", values, marks)
            + "</div>"
        )
        + '<p class="livelab-score">'
        f'<label for="{total_id}">Parameters in all</label> '
        + marks.text("total", tag="output", extra=f' id="{total_id}" aria-live="polite"')
        + "</p>"
        '<div class="livelab-table-wrap"><table class="livelab-table">'
        + marks.text("caption", tag="caption")
        # The numbers before the shapes: on a phone they are in sight, the shapes scroll.
        + '<thead><tr><th scope="col">part</th><th scope="col">parameters</th>'
        '<th scope="col">share</th><th scope="col">shape, per layer</th></tr></thead>'
        + marks.rows("parts")
        + "</table></div>"
        f'<svg class="livelab-figure" viewBox="0 0 {BARS_WIDTH:g} {BARS_HEIGHT:g}" '
        f'role="img" aria-labelledby="{bars_title}">'
        + marks.text("bars_title", tag="title", extra=f' id="{bars_title}"')
        + marks.shapes("bars")
        + "</svg>"
        '<dl class="livelab-readout">'
        f"<dt>head width d_k</dt><dd>{marks.text('d_k')}</dd>"
        f"<dt>query and KV heads</dt><dd>{marks.text('heads')}</dd>"
        f"<dt>KV cache of one layer</dt><dd>{marks.text('kv_cache')}</dd>"
        f"<dt>FFN width / d_model</dt><dd>{marks.text('ffn_ratio')}</dd>"
        f"<dt>rope_theta</dt><dd>{marks.text('rope_theta')}</dd>"
        f"<dt>slowest RoPE pair turns once in</dt><dd>{marks.text('period')}</dd>"
        "</dl>" + marks.error()
    )


def scratch(s: dict) -> Scratch:
    """The model's config as Python, counted part by part, ending on the total the lab shows."""
    code = f"""# Real models lab: count the parameters of {s["config"]["name"]} from its config.
from labs.kernels import model_config, parameter_parts
config = model_config({s["model"]!r})
d, L = config["hidden_size"], config["num_hidden_layers"]
H, G = config["num_attention_heads"], config["num_key_value_heads"]
d_k = d // H  # head width
per_layer = 2 * d + 2 * d * H * d_k + 2 * d * G * d_k + 3 * d * config["intermediate_size"]
if config["qkv_bias"]:
    per_layer += H * d_k + 2 * G * d_k  # biases of q, k and v
embeddings = config["vocab_size"] * d
output = 0 if config["tie_word_embeddings"] else embeddings
total = L * per_layer + embeddings + output + d  # + d: the final norm
print(parameter_parts(config))
total
"""
    return Scratch(code, "total")


LAB = register_lab(
    lab_of_module(
        __name__,
        name="real_models",
        title="Real models: where the weights of a published config are",
    )
)

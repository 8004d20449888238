"""Where a real model's weights are: parameter counts from a published config.

The configs in labs/configs/ are our own copies of the fields of five published
config.json files that decide the count, under their Hugging Face names. One field is ours:
`qkv_bias`, true for Qwen2, whose attention always adds a bias to q, k and v (its
config.json does not say so; the architecture does). Every model here is a pre-norm
decoder with RMSNorm (a gain of d numbers, no shift), grouped-query attention without an
output bias, and a bias-free SwiGLU FFN. Counts are exact Python integers.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

CONFIG_DIR = Path(__file__).resolve().parents[1] / "configs"

MODEL_FILES: Mapping[str, str] = MappingProxyType(
    {
        "llama-2-7b": "llama-2-7b.json",
        "mistral-7b": "mistral-7b-v0.1.json",
        "llama-3-8b": "llama-3-8b.json",
        "qwen2-7b": "qwen2-7b.json",
        "smollm2-135m": "smollm2-135m.json",
    }
)
"""Short key -> the shipped config file of that model."""

FIELDS = (
    "hidden_size",
    "num_hidden_layers",
    "num_attention_heads",
    "num_key_value_heads",
    "intermediate_size",
    "vocab_size",
    "rope_theta",
    "tie_word_embeddings",
    "qkv_bias",
)


def model_config(key: str) -> dict:
    """The shipped config of a model by its short key (see MODEL_FILES); ValueError if unknown."""
    if key not in MODEL_FILES:
        raise ValueError(f"no config for {key!r}; known: {', '.join(MODEL_FILES)}")
    config = json.loads((CONFIG_DIR / MODEL_FILES[key]).read_text(encoding="utf-8"))
    missing = [f for f in FIELDS if f not in config]
    if missing:
        raise ValueError(f"config {key} lacks {', '.join(missing)}")
    return config


def head_width(config: Mapping[str, Any]) -> int:
    """d_k, the width of one attention head: hidden_size / num_attention_heads."""
    d, heads = int(config["hidden_size"]), int(config["num_attention_heads"])
    if d % heads:
        raise ValueError(f"hidden_size {d} does not split into {heads} heads")
    return d // heads


def parameter_parts(config: Mapping[str, Any]) -> dict[str, int]:
    """The model's parameters by part, summed over every layer, in the order of the forward pass.

    With d = hidden_size, L layers, H query heads and G key-value heads of width d_k, F =
    intermediate_size, V = vocab_size: embeddings V·d; W_q and W_o L·d·H·d_k each; W_k and
    W_v L·d·G·d_k each (plus L·H·d_k or L·G·d_k bias numbers when qkv_bias); the gated FFN
    L·3·d·F; norms L·2·d plus the final d; the output layer V·d, or 0 when it is tied to the
    embeddings (it reuses that matrix).
    """
    c = {name: config[name] for name in FIELDS}
    d, layers = int(c["hidden_size"]), int(c["num_hidden_layers"])
    heads, groups = int(c["num_attention_heads"]), int(c["num_key_value_heads"])
    d_ff, vocab = int(c["intermediate_size"]), int(c["vocab_size"])
    d_k = head_width(config)
    if heads % groups:
        raise ValueError(f"{heads} query heads do not share {groups} key-value heads evenly")
    q_width, kv_width = heads * d_k, groups * d_k
    bias = bool(c["qkv_bias"])
    return {
        "embeddings": vocab * d,
        "W_q": layers * (d * q_width + (q_width if bias else 0)),
        "W_k": layers * (d * kv_width + (kv_width if bias else 0)),
        "W_v": layers * (d * kv_width + (kv_width if bias else 0)),
        "W_o": layers * q_width * d,
        "ffn": layers * 3 * d * d_ff,
        "norms": layers * 2 * d + d,
        "output": 0 if c["tie_word_embeddings"] else vocab * d,
    }


def parameter_count(config: Mapping[str, Any]) -> int:
    """The model's total number of parameters: the sum of parameter_parts."""
    return sum(parameter_parts(config).values())


def kv_cache_per_token(config: Mapping[str, Any]) -> int:
    """Numbers one layer keeps in its KV cache for each token: a k and a v per KV head."""
    return 2 * int(config["num_key_value_heads"]) * head_width(config)


def slowest_rope_period(d_k: int, base: float) -> float:
    """Positions the slowest RoPE pair of a d_k-wide head takes to turn once.

    Pair i turns at base ** (-2 i / d_k) radians per position; the slowest is the last,
    i = d_k / 2 - 1, so its period is 2π / base ** (-(d_k - 2) / d_k).
    """
    if d_k < 2 or d_k % 2:
        raise ValueError(f"RoPE needs an even head width of at least 2, got {d_k}")
    return 2 * math.pi / base ** (-(d_k - 2) / d_k)

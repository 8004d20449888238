"""Residual blocks: pre-norm and post-norm placement, and the modern decoder block.

The modern block is driven by a config dict with the fields of the course's
modern-config.json (see MODERN_CONFIG): RMSNorm, causal attention with RoPE on q and k,
a SwiGLU FFN, each wrapped in a residual connection.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

import numpy as np

from labs.kernels.attention import attention_steps, merge_heads, split_heads
from labs.kernels.ffn import silu
from labs.kernels.norms import layernorm, rmsnorm

Sublayer = Callable[[np.ndarray], np.ndarray]
Norm = Callable[[np.ndarray], np.ndarray]
Steps = list[tuple[str, np.ndarray]]

MODERN_CONFIG_FILE = Path(__file__).resolve().parents[1] / "modern-config.json"
MODERN_CONFIG: Mapping[str, object] = MappingProxyType(
    json.loads(MODERN_CONFIG_FILE.read_text(encoding="utf-8"))
)
"""The block figure's config, read from the shipped modern-config.json: 3 heads of width 4
make the hidden size 12. Read-only; copy it with dict() to change a field."""

_INT_FIELDS = ("hidden_size", "query_heads", "head_dim", "ffn_hidden_size")
_BOOL_FIELDS = ("pre_norm", "bias")
_FLOAT_FIELDS = ("rope_theta", "eps")
_OPTIONAL_FIELDS = ("max_sequence_slots",)  # a declared capacity; the kernels do not use it


@dataclass(frozen=True)
class BlockConfig:
    """A validated modern-block config (see validate_config)."""

    hidden_size: int
    query_heads: int
    head_dim: int
    ffn_hidden_size: int
    rope_theta: float
    pre_norm: bool
    bias: bool
    eps: float
    max_sequence_slots: int | None = None


def prenorm_block(x: np.ndarray, f: Sublayer, norm: Norm = layernorm) -> np.ndarray:
    """Pre-norm residual block: x + f(norm(x)). Nothing rescales the residual path.

    Shapes: x [..., d], f maps [..., d] -> [..., d] -> [..., d].
    """
    x = np.asarray(x, dtype=float)
    return x + f(norm(x))


def postnorm_block(x: np.ndarray, f: Sublayer, norm: Norm = layernorm) -> np.ndarray:
    """Post-norm residual block (2017): norm(x + f(x)). One norm on the residual path.

    Shapes: x [..., d], f maps [..., d] -> [..., d] -> [..., d].
    """
    x = np.asarray(x, dtype=float)
    return norm(x + f(x))


def prenorm_stack(
    x: np.ndarray, sublayers: Sequence[Sublayer], norm: Norm = layernorm
) -> np.ndarray:
    """Pre-norm blocks one after another, then one final norm.

    Shapes: x [..., d] -> [..., d].
    """
    for f in sublayers:
        x = prenorm_block(x, f, norm)
    return norm(np.asarray(x, dtype=float))


def postnorm_stack(
    x: np.ndarray, sublayers: Sequence[Sublayer], norm: Norm = layernorm
) -> np.ndarray:
    """Post-norm blocks one after another; the last block already ends with a norm.

    Shapes: x [..., d] -> [..., d].
    """
    x = np.asarray(x, dtype=float)
    for f in sublayers:
        x = postnorm_block(x, f, norm)
    return x


def validate_config(config: Mapping[str, object] | BlockConfig) -> BlockConfig:
    """Check a modern-block config dict and return it as a typed BlockConfig.

    Raises ValueError naming the field at fault: missing or unknown fields, non-positive
    sizes, or query_heads * head_dim != hidden_size. An odd head_dim is allowed: RoPE turns
    its pairs and leaves the last coordinate as it is.
    """
    if isinstance(config, BlockConfig):
        return config
    known = set(_INT_FIELDS + _BOOL_FIELDS + _FLOAT_FIELDS + _OPTIONAL_FIELDS)
    missing = [f for f in _INT_FIELDS + _BOOL_FIELDS + _FLOAT_FIELDS if f not in config]
    unknown = sorted(set(config) - known)
    if missing:
        raise ValueError(f"config is missing {', '.join(missing)}")
    if unknown:
        raise ValueError(f"config has unknown fields {', '.join(unknown)}")
    ints: dict[str, int] = {}
    for field in _INT_FIELDS + tuple(f for f in _OPTIONAL_FIELDS if f in config):
        value = config[field]
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
            raise ValueError(f"config {field} must be a positive integer, got {value!r}")
        ints[field] = int(value)
    flags: dict[str, bool] = {}
    for field in _BOOL_FIELDS:
        if not isinstance(config[field], (bool, np.bool_)):
            raise ValueError(f"config {field} must be true or false, got {config[field]!r}")
        flags[field] = bool(config[field])
    numbers: dict[str, float] = {}
    for field in _FLOAT_FIELDS:
        value = config[field]
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
            raise ValueError(f"config {field} must be a number, got {value!r}")
        numbers[field] = float(value)
    c = BlockConfig(
        hidden_size=ints["hidden_size"],
        query_heads=ints["query_heads"],
        head_dim=ints["head_dim"],
        ffn_hidden_size=ints["ffn_hidden_size"],
        rope_theta=numbers["rope_theta"],
        pre_norm=flags["pre_norm"],
        bias=flags["bias"],
        eps=numbers["eps"],
        max_sequence_slots=ints.get("max_sequence_slots"),
    )
    if c.rope_theta <= 0:
        raise ValueError(f"config rope_theta must be positive, got {c.rope_theta}")
    if c.eps < 0:
        raise ValueError(f"config eps must be >= 0, got {c.eps}")
    if c.query_heads * c.head_dim != c.hidden_size:
        raise ValueError(
            f"config query_heads * head_dim = {c.query_heads} * {c.head_dim} = "
            f"{c.query_heads * c.head_dim} must equal hidden_size = {c.hidden_size}"
        )
    return c


def param_shapes(config: Mapping[str, object] | BlockConfig) -> dict[str, tuple[int, ...]]:
    """Name and shape of every parameter of one modern block under this config.

    Shapes with D = hidden_size, F = ffn_hidden_size, H * dh = query_heads * head_dim:
    attn_norm, ffn_norm [D]; W_q, W_k, W_v [D, H * dh]; W_o [H * dh, D]; W_gate, W_up [D, F];
    W_down [F, D]; with bias, each projection's bias [its output width].
    """
    c = validate_config(config)
    d, f, hd = c.hidden_size, c.ffn_hidden_size, c.query_heads * c.head_dim
    shapes: dict[str, tuple[int, ...]] = {
        "attn_norm": (d,),
        "W_q": (d, hd),
        "W_k": (d, hd),
        "W_v": (d, hd),
        "W_o": (hd, d),
        "ffn_norm": (d,),
        "W_gate": (d, f),
        "W_up": (d, f),
        "W_down": (f, d),
    }
    if c.bias:
        shapes.update(
            b_q=(hd,), b_k=(hd,), b_v=(hd,), b_o=(d,), b_gate=(f,), b_up=(f,), b_down=(d,)
        )
    return shapes


def init_params(config: Mapping[str, object] | BlockConfig, seed: int = 0) -> dict[str, np.ndarray]:
    """Seeded random parameters for one modern block.

    Matrices are drawn from N(0, 1 / fan_in), norm gains are ones, biases zeros.
    Shapes: each array has the shape param_shapes(config) gives under its name.
    """
    rng = np.random.default_rng(seed)
    params: dict[str, np.ndarray] = {}
    for name, shape in param_shapes(config).items():
        if name.startswith("W_"):
            params[name] = rng.standard_normal(shape) / np.sqrt(shape[0])
        elif name.endswith("_norm"):
            params[name] = np.ones(shape)
        else:
            params[name] = np.zeros(shape)
    return params


def _check_params(params: Mapping[str, np.ndarray], config: BlockConfig) -> None:
    for name, shape in param_shapes(config).items():
        if name not in params:
            raise ValueError(f"params is missing {name} of shape {shape}")
        if np.shape(params[name]) != shape:
            raise ValueError(f"params {name} must have shape {shape}, got {np.shape(params[name])}")


def _affine(x: np.ndarray, params: Mapping[str, np.ndarray], w: str, b: str) -> np.ndarray:
    y = x @ np.asarray(params[w], dtype=float)
    return y + params[b] if b in params else y


def modern_block_steps(
    x: np.ndarray,
    params: Mapping[str, np.ndarray],
    config: Mapping[str, object] | BlockConfig,
    positions: np.ndarray | None = None,
) -> Steps:
    """Run one modern block and return every intermediate value as (name, array).

    Shapes with B batch, T positions, D = hidden_size, H = query_heads, dh = head_dim,
    F = ffn_hidden_size: x [..., T, D];
    pre-norm order: x, attn_norm [..., T, D], q, k, v [..., H, T, dh], q_rot, k_rot,
    scores, weights [..., H, T, T], heads [..., H, T, dh], joined [..., T, H*dh],
    attn_out [..., T, D], residual = x + attn_out, ffn_norm, gate, up, hidden [..., T, F],
    ffn_out [..., T, D], out = residual + ffn_out.
    Post-norm (pre_norm false) has no attn_norm/ffn_norm inputs; instead
    attn_sum = x + attn_out, residual = RMSNorm(attn_sum), ffn_sum, out = RMSNorm(ffn_sum).
    """
    c = validate_config(config)
    _check_params(params, c)
    x = np.asarray(x, dtype=float)
    if x.ndim < 2 or x.shape[-1] != c.hidden_size:
        raise ValueError(f"x must have shape [..., T, {c.hidden_size}], got {x.shape}")

    def norm(name: str, z: np.ndarray) -> np.ndarray:
        return rmsnorm(z, params[name], c.eps)

    steps: Steps = [("x", x)]
    h = x
    if c.pre_norm:
        h = norm("attn_norm", x)  # [..., T, D]
        steps.append(("attn_norm", h))
    q = split_heads(_affine(h, params, "W_q", "b_q"), c.query_heads)  # [..., H, T, dh]
    k = split_heads(_affine(h, params, "W_k", "b_k"), c.query_heads)  # [..., H, T, dh]
    v = split_heads(_affine(h, params, "W_v", "b_v"), c.query_heads)  # [..., H, T, dh]
    steps += [("q", q), ("k", k), ("v", v)]
    attention = attention_steps(q, k, v, rope_base=c.rope_theta, positions=positions)
    steps += [("heads" if name == "out" else name, value) for name, value in attention]
    joined = merge_heads(attention[-1][1])  # [..., T, H*dh]
    attn_out = _affine(joined, params, "W_o", "b_o")  # [..., T, D]
    steps += [("joined", joined), ("attn_out", attn_out)]
    if c.pre_norm:
        residual = x + attn_out
        h = norm("ffn_norm", residual)
        steps += [("residual", residual), ("ffn_norm", h)]
    else:
        attn_sum = x + attn_out
        residual = h = norm("attn_norm", attn_sum)
        steps += [("attn_sum", attn_sum), ("residual", residual)]
    gate = _affine(h, params, "W_gate", "b_gate")  # [..., T, F]
    up = _affine(h, params, "W_up", "b_up")  # [..., T, F]
    hidden = silu(gate) * up  # [..., T, F]
    ffn_out = _affine(hidden, params, "W_down", "b_down")  # [..., T, D]
    steps += [("gate", gate), ("up", up), ("hidden", hidden), ("ffn_out", ffn_out)]
    if c.pre_norm:
        steps.append(("out", residual + ffn_out))
    else:
        ffn_sum = residual + ffn_out
        steps += [("ffn_sum", ffn_sum), ("out", norm("ffn_norm", ffn_sum))]
    return steps


def modern_block(
    x: np.ndarray,
    params: Mapping[str, np.ndarray],
    config: Mapping[str, object] | BlockConfig,
    positions: np.ndarray | None = None,
) -> np.ndarray:
    """One modern block: RMSNorm, causal attention with RoPE, RMSNorm, SwiGLU, residuals.

    Pre-norm: x + attn(RMSNorm(x)), then + SwiGLU(RMSNorm(.)). Post-norm (pre_norm false):
    RMSNorm(x + attn(x)), then RMSNorm(. + SwiGLU(.)).
    Shapes: x [..., T, hidden_size] -> [..., T, hidden_size].
    """
    return modern_block_steps(x, params, config, positions)[-1][1]


def modern_stack(
    x: np.ndarray,
    blocks: Sequence[Mapping[str, np.ndarray]],
    config: Mapping[str, object] | BlockConfig,
    final_gain: np.ndarray | None = None,
) -> np.ndarray:
    """Modern blocks one after another, then one final RMSNorm when the config is pre-norm.

    Shapes: x [..., T, hidden_size] -> [..., T, hidden_size].
    """
    c = validate_config(config)
    x = np.asarray(x, dtype=float)
    for params in blocks:
        x = modern_block(x, params, c)
    return rmsnorm(x, final_gain, c.eps) if c.pre_norm else x

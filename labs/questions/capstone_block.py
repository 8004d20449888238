"""Capstone: the whole modern block, written by the student as the body of one function.

The template gives rmsnorm (with a gain), rope (adjacent pairs, as the course's kernel),
silu and softmax; the blank spans several lines: pre-norm residuals around causal
single-head attention with RoPE on q and k, and around the SwiGLU FFN. The reference is the
course's modern_block with one head as wide as the model. Misconceptions are recognised by
running the same block with one idea changed (see _block).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from labs import kernels
from livelab.questions import Case, CodeQuestion, Misconception, register_code_question

TEMPLATE = """\
def rmsnorm(x, gain, eps=1e-6):
    return x / np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps) * gain

def rope(x, base=10000.0):
    # x [T, d], d even: the pair (2i, 2i+1) of the token at position t turns by
    # t * base**(-2i/d) radians, counter-clockwise.
    T, d = x.shape
    angle = np.arange(T)[:, None] * base ** (-np.arange(0, d, 2) / d)  # [T, d/2]
    c, s = np.cos(angle), np.sin(angle)
    out = np.empty_like(x)
    out[:, 0::2] = c * x[:, 0::2] - s * x[:, 1::2]
    out[:, 1::2] = s * x[:, 0::2] + c * x[:, 1::2]
    return out

def silu(z):
    return z / (1 + np.exp(-z))

def softmax(z):
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

def block(x, p):
    # x [T, d]: T tokens. One attention head as wide as the model. p holds the weights:
    # p["attn_norm"], p["ffn_norm"] [d]; p["W_q"], p["W_k"], p["W_v"], p["W_o"] [d, d];
    # p["W_gate"], p["W_up"] [d, f]; p["W_down"] [f, d].
    ____

rng = np.random.default_rng(19)
x = rng.standard_normal((4, 4))  # 4 tokens, d = 4
p = {"attn_norm": np.ones(4), "ffn_norm": np.ones(4)}  # RMSNorm gains [d]
for name in ("W_q", "W_k", "W_v", "W_o"):
    p[name] = rng.standard_normal((4, 4)) / 2  # [d, d]
p["W_gate"] = rng.standard_normal((4, 8)) / 2  # [d, f], f = 8
p["W_up"] = rng.standard_normal((4, 8)) / 2  # [d, f]
p["W_down"] = rng.standard_normal((8, 4)) / np.sqrt(8)  # [f, d]
print(block(x, p).round(4))
"""

REFERENCE_BLANK = """\
h = rmsnorm(x, p["attn_norm"])
q, k, v = h @ p["W_q"], h @ p["W_k"], h @ p["W_v"]
q, k = rope(q), rope(k)
T = x.shape[0]
scores = q @ k.T / np.sqrt(q.shape[-1])
scores = np.where(np.tril(np.ones((T, T), dtype=bool)), scores, -np.inf)
x = x + softmax(scores) @ v @ p["W_o"]
h = rmsnorm(x, p["ffn_norm"])
return x + (silu(h @ p["W_gate"]) * (h @ p["W_up"])) @ p["W_down"]"""

EPS = 1e-6


def _config(x: np.ndarray) -> dict:
    """The modern-block config of one head as wide as x's rows."""
    d = x.shape[-1]
    return dict(kernels.MODERN_CONFIG, hidden_size=d, query_heads=1, head_dim=d, eps=EPS)


def reference(x: np.ndarray, p: dict) -> np.ndarray:
    """The course kernel, one head of width d. Shapes: x [T, d], p as in the template -> [T, d]."""
    ffn = np.asarray(p["W_gate"]).shape[1]
    config = dict(_config(x), ffn_hidden_size=ffn, pre_norm=True, bias=False)
    return kernels.modern_block(x, p, config)


def _block(
    x: np.ndarray,
    p: dict,
    *,
    post_norm: bool = False,
    turn_v: bool = False,
    mask: bool = True,
    gate: Callable[[np.ndarray], np.ndarray] = kernels.silu,
    scale: bool = True,
    turn_qk: bool = True,
    norm_stream: bool = False,
    mask_future: bool = False,
    mask_at: str = "scores",
    residual: tuple[bool, bool] = (True, True),
) -> np.ndarray:
    """The block with one idea changed, for the misconceptions. Shapes: x [T, d] -> [T, d]."""
    x = np.asarray(x, dtype=float)

    def norm(z: np.ndarray, gain: str) -> np.ndarray:
        return kernels.rmsnorm(z, p[gain], EPS)

    def attend(h: np.ndarray) -> np.ndarray:
        q, k, v = h @ p["W_q"], h @ p["W_k"], h @ p["W_v"]  # [T, d] each
        if turn_qk:
            q, k = kernels.rope(q), kernels.rope(k)
        if turn_v:
            v = kernels.rope(v)
        scores = q @ k.T / (np.sqrt(q.shape[-1]) if scale else 1.0)  # [T, T]
        keep = kernels.causal_mask(len(h))  # [T, T]
        keep = keep.T if mask_future else keep  # the future and the key itself
        if mask and mask_at != "weights":  # -inf as it should be, or a 0 that still counts
            scores = np.where(keep, scores, -np.inf if mask_at == "scores" else 0.0)
        weights = kernels.softmax(scores)  # [T, T]
        if mask and mask_at == "weights":  # later keys zeroed after the softmax: rows sum < 1
            weights = weights * keep
        return weights @ v @ p["W_o"]  # [T, d]

    def ffn(h: np.ndarray) -> np.ndarray:
        return (gate(h @ p["W_gate"]) * (h @ p["W_up"])) @ p["W_down"]  # [T, d]

    if post_norm:
        x = norm(x + attend(x), "attn_norm")
        return norm(x + ffn(x), "ffn_norm")
    if norm_stream:  # x = norm(x), then x + f(x): the residual path is normalized too
        x = norm(x, "attn_norm")
        x = x + attend(x)
        x = norm(x, "ffn_norm")
        return x + ffn(x)
    keep_attn, keep_ffn = residual
    x = x * keep_attn + attend(norm(x, "attn_norm"))
    return x * keep_ffn + ffn(norm(x, "ffn_norm"))


def _weights(rng: np.random.Generator, d: int, f: int, gains: bool) -> dict:
    """Weights drawn in the template's order; norm gains drawn around 1 when gains is true."""
    p = {
        "attn_norm": 1 + 0.3 * rng.standard_normal(d) if gains else np.ones(d),
        "ffn_norm": 1 + 0.3 * rng.standard_normal(d) if gains else np.ones(d),
    }
    for name in ("W_q", "W_k", "W_v", "W_o"):
        p[name] = rng.standard_normal((d, d)) / np.sqrt(d)  # [d, d]
    p["W_gate"] = rng.standard_normal((d, f)) / np.sqrt(d)  # [d, f]
    p["W_up"] = rng.standard_normal((d, f)) / np.sqrt(d)  # [d, f]
    p["W_down"] = rng.standard_normal((f, d)) / np.sqrt(f)  # [f, d]
    return p


def _example() -> Case:
    rng = np.random.default_rng(19)
    x = rng.standard_normal((4, 4))  # [T, d]
    return Case(
        "the example: T = 4 tokens, d = 4, f = 8", (x, _weights(rng, 4, 8, False)), hidden=False
    )


def _case(rng: np.random.Generator, label: str, t: int, d: int, f: int, scale: float = 1.0) -> Case:
    x = scale * rng.standard_normal((t, d))  # [T, d]
    return Case(label, (x, _weights(rng, d, f, gains=True)))


def _hidden_cases(rng: np.random.Generator) -> list[Case]:
    return [
        _case(rng, "T = 3 tokens, d = 4, f = 8, with gains other than 1", 3, 4, 8),
        _case(rng, "T = 6 tokens, d = 6, f = 12", 6, 6, 12),
        _case(rng, "T = 8 tokens, d = 8, f = 16", 8, 8, 16),
        _case(rng, "T = 5 tokens, d = 2, f = 4", 5, 2, 4),
        _case(rng, "a single token, d = 6, f = 10", 1, 6, 10),
        _case(rng, "T = 7 tokens, d = 4, f = 6, larger inputs (about 3)", 7, 4, 6, scale=3.0),
    ]


def _variant(**change: object) -> Callable[[np.ndarray, dict], np.ndarray]:
    return lambda x, p: _block(x, p, **change)  # type: ignore[arg-type]


MISCONCEPTIONS = (
    Misconception(
        "post-norm",
        "Your block normalizes the residual path itself (a post-norm block, or x replaced by "
        "rmsnorm(x) before it is added back). In a pre-norm block the norm sits inside each "
        "branch only: x + attention(rmsnorm(x)), and the sum is passed on as it is.",
        variants=(_variant(post_norm=True), _variant(norm_stream=True)),
    ),
    Misconception(
        "rope-on-v",
        "RoPE turns q and k only: their dot product is what should depend on the distance. "
        "v carries what a token passes on and is used unturned.",
        variants=(_variant(turn_v=True),),
    ),
    Misconception(
        "no-mask",
        "Tokens see later tokens: before the softmax, set the scores of keys after the query "
        "to -inf (keep the lower triangle, np.tril).",
        variants=(_variant(mask=False),),
    ),
    Misconception(
        "mask-reversed",
        "Your mask keeps the wrong triangle: a query may look at its own key and the ones "
        "before it (np.tril), never at the ones after it.",
        variants=(_variant(mask_future=True),),
    ),
    Misconception(
        "mask-after-softmax",
        "Your mask comes after the softmax: zeroing the weights of later keys leaves each "
        "query's weights adding up to less than 1. Set the scores of later keys to -inf before "
        "the softmax, so the weights of the keys a query may see still add up to 1.",
        variants=(_variant(mask_at="weights"),),
    ),
    Misconception(
        "mask-with-zero",
        "Your mask sets the scores of later keys to 0, not -inf: after the softmax a score of 0 "
        "still weighs e^0 = 1, so later tokens leak in. Put -np.inf where the mask hides a key.",
        variants=(_variant(mask_at="zero"),),
    ),
    Misconception(
        "no-residual",
        "A residual connection is missing: each sublayer's output is added to the x that went "
        "into its norm, x = x + sublayer(rmsnorm(x)), for attention and for the FFN alike.",
        variants=(
            _variant(residual=(False, True)),
            _variant(residual=(True, False)),
            _variant(residual=(False, False)),
        ),
    ),
    Misconception(
        "relu-gate",
        "The FFN's gate is silu, not ReLU: silu(x @ W_gate) lets a little of a negative gate "
        "through where ReLU gives exactly 0.",
        variants=(_variant(gate=kernels.relu),),
    ),
    Misconception(
        "no-scale",
        "Divide the scores by the square root of the head width, np.sqrt(d), before the softmax.",
        variants=(_variant(scale=False),),
    ),
    Misconception(
        "no-rope",
        "Nothing in your attention knows where a token stands: turn q and k with rope before "
        "the scores.",
        variants=(_variant(turn_qk=False),),
    ),
)

QUESTION = register_code_question(
    CodeQuestion(
        name="capstone_block",
        template=TEMPLATE,
        function_name="block",
        reference=reference,
        reference_blank=REFERENCE_BLANK,
        example_cases=(_example(),),
        hidden_cases=_hidden_cases,
        seed=1919,
        misconceptions=MISCONCEPTIONS,
        name_hints={
            "T": "inside block, take the number of tokens from x.shape[0]",
            "d": "inside block, take the width from x.shape[1]",
            "f": "the FFN width is the second axis of p['W_gate']; you may not need it",
            "relu": "the FFN's gate uses silu, defined above",
            "sigmoid": "the FFN's gate uses silu, defined above",
            "W_q": 'the weights are in the dict p: p["W_q"]',
            "W_k": 'the weights are in the dict p: p["W_k"]',
            "W_v": 'the weights are in the dict p: p["W_v"]',
            "W_o": 'the weights are in the dict p: p["W_o"]',
            "W_gate": 'the weights are in the dict p: p["W_gate"]',
            "W_up": 'the weights are in the dict p: p["W_up"]',
            "W_down": 'the weights are in the dict p: p["W_down"]',
            "causal_mask": "build the mask with np.tril(np.ones((T, T), dtype=bool))",
        },
        module=__name__,
    )
)

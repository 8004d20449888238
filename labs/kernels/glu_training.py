"""A ReLU FFN of width 4·d against a SwiGLU FFN of width ⅔·4·d (the same weight count),
trained with Adam on a small next-token task: the model behind the `train-glu` experiment
(issue 33).

    h = E[token]                      token embedding, [d]
    h = h + FFN(RMSNorm(h))           one pre-norm block, ReLU or SwiGLU
    logits = RMSNorm(h) @ W_out       next-token logits, [V]

The task: token sequences from a fixed random Markov chain over V tokens, each row of its
transition matrix a softmax of normal scores times `sharpness`; the current tokens are drawn
uniformly, so the best possible loss is the mean entropy of the rows (`best_loss`), which the
lab can show beside the curves.
Several seeds train at once as a batch of models (labs.kernels.backprop).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from labs.kernels import backprop as bp

FFNS = ("relu", "swiglu")


class Chain(NamedTuple):
    """A Markov chain over V tokens: transition probabilities [V, V] (rows sum to 1)."""

    transitions: np.ndarray

    def best_loss(self) -> float:
        """The lowest mean loss any model can reach on sample_pairs (whose current tokens are
        uniform): the mean over the rows of each row's entropy, in nats."""
        p = self.transitions
        return float(-(p * np.log(p)).sum(axis=1).mean())


def make_chain(seed: int, vocab: int = 16, sharpness: float = 2.0) -> Chain:
    """The task's chain for a seed."""
    scores = np.random.default_rng(seed).standard_normal((vocab, vocab)) * sharpness
    p = np.exp(scores - scores.max(axis=1, keepdims=True))
    return Chain(p / p.sum(axis=1, keepdims=True))


def sample_pairs(chain: Chain, rng: np.random.Generator, count: int) -> tuple[np.ndarray, ...]:
    """count (token, next token) pairs, the tokens drawn uniformly: ([count], [count])."""
    vocab = len(chain.transitions)
    tokens = rng.integers(0, vocab, size=count)
    cumulative = chain.transitions[tokens].cumsum(axis=1)  # [count, V]
    nexts = (rng.random((count, 1)) < cumulative).argmax(axis=1)
    return tokens, nexts


def hidden_width(ffn: str, width: int) -> int:
    """The FFN's hidden width: 4·d for ReLU, round(⅔·4·d) for SwiGLU (equal weights)."""
    if ffn not in FFNS:
        raise ValueError(f"ffn must be 'relu' or 'swiglu', got {ffn!r}")
    return 4 * width if ffn == "relu" else round(2 * 4 * width / 3)


def init_model(seed: int, ffn: str, width: int, vocab: int) -> dict:
    """One model's weights: E [V, d], the block's FFN, two gains [1, d] and W_out [d, V]."""
    rng = np.random.default_rng(seed)
    f = hidden_width(ffn, width)
    scale = lambda fan_in: 1.0 / np.sqrt(fan_in)  # noqa: E731
    params = {"E": rng.standard_normal((vocab, width)), "g_block": np.ones((1, width))}
    if ffn == "relu":
        params["W1"] = rng.standard_normal((width, f)) * scale(width)
    else:
        params["W_gate"] = rng.standard_normal((width, f)) * scale(width)
        params["W_up"] = rng.standard_normal((width, f)) * scale(width)
    params["W2"] = rng.standard_normal((f, width)) * scale(f)
    params["g_final"] = np.ones((1, width))
    params["W_out"] = rng.standard_normal((width, vocab)) * scale(width)
    return params


def loss_and_grads(params: dict, tokens: np.ndarray, nexts: np.ndarray) -> tuple:
    """Each model's mean next-token loss (tokens, nexts [R, N] -> [R]) and the gradient of
    their sum for every weight."""
    relu = "W1" in params
    h = np.take_along_axis(params["E"], tokens[..., None], axis=1)  # [R, N, d]
    normed, n1 = bp.rmsnorm_forward(h, params["g_block"])
    if relu:
        out, ffn_saved = bp.relu_ffn_forward(normed, params["W1"], params["W2"])
    else:
        weights = (params["W_gate"], params["W_up"], params["W2"])
        out, ffn_saved = bp.swiglu_ffn_forward(normed, *weights)
    top, n2 = bp.rmsnorm_forward(h + out, params["g_final"])
    logits, out_saved = bp.linear_forward(top, params["W_out"])
    losses, dlogits = bp.cross_entropy(logits, nexts)

    grads: dict[str, np.ndarray] = {}
    dtop, grads["W_out"] = bp.linear_backward(out_saved, dlogits)
    dh, grads["g_final"] = bp.rmsnorm_backward(n2, dtop)
    if relu:
        dnormed, grads["W1"], grads["W2"] = bp.relu_ffn_backward(ffn_saved, dh)
    else:
        dnormed, grads["W_gate"], grads["W_up"], grads["W2"] = bp.swiglu_ffn_backward(ffn_saved, dh)
    dx, grads["g_block"] = bp.rmsnorm_backward(n1, dnormed)
    dh = dh + dx  # [R, N, d]: scattered back onto the embedding rows the tokens picked
    grads["E"] = np.zeros_like(params["E"])
    for r in range(tokens.shape[0]):
        np.add.at(grads["E"][r], tokens[r], dh[r])
    return losses, grads


def weight_count(params: dict) -> int:
    """The weights of one model of a batch (every array's size over the models)."""
    return sum(p[0].size for p in params.values())


def exact_losses(params: dict, chains: list[Chain]) -> np.ndarray:
    """Each model's expected next-token loss over its own chain, with no sampling: the model's
    prediction depends on the current token alone, so it is every token's loss weighted by
    the chain's transitions, averaged over the (uniform) current tokens. [R]; its least
    possible value is the chain's best_loss."""
    vocab = len(chains[0].transitions)
    tokens = np.broadcast_to(np.arange(vocab), (len(chains), vocab))
    h = np.take_along_axis(params["E"], tokens[..., None], axis=1)  # [R, V, d]
    normed, _ = bp.rmsnorm_forward(h, params["g_block"])
    if "W1" in params:
        out, _ = bp.relu_ffn_forward(normed, params["W1"], params["W2"])
    else:
        out, _ = bp.swiglu_ffn_forward(normed, params["W_gate"], params["W_up"], params["W2"])
    top, _ = bp.rmsnorm_forward(h + out, params["g_final"])
    logits = top @ params["W_out"]  # [R, V, V]
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_q = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    p = np.stack([chain.transitions for chain in chains])  # [R, V, V]
    return -(p * log_q).sum(axis=-1).mean(axis=-1)


class Step(NamedTuple):
    """One logged point: the update count, each seed's training loss on the batch it is about
    to learn from, and each seed's exact expected loss (exact_losses) at that moment."""

    step: int
    losses: tuple[float, ...]
    exact: tuple[float, ...]


def train(
    *,
    ffn: str,
    width: int = 16,
    lr: float = 1e-2,
    steps: int = 200,
    seeds: tuple[int, ...] = (0, 1, 2, 3, 4),
    batch: int = 128,
) -> Iterator[Step]:
    """Train one model per seed (all at once) on make_chain(seed); a Step per update. A seed's
    chain, weights and batches come from that seed alone, and both FFNs see the same ones."""
    chains = [make_chain(seed) for seed in seeds]
    vocab = len(chains[0].transitions)
    inits = [init_model(seed + 1, ffn, width, vocab) for seed in seeds]
    params = {name: np.stack([p[name] for p in inits]) for name in inits[0]}
    adam = bp.Adam(params, lr=lr)
    rngs = [np.random.default_rng(seed + 2) for seed in seeds]
    for step in range(steps):
        pairs = [sample_pairs(chain, rng, batch) for chain, rng in zip(chains, rngs, strict=True)]
        tokens, nexts = (np.stack(part) for part in zip(*pairs, strict=True))
        losses, grads = loss_and_grads(params, tokens, nexts)
        exact = exact_losses(params, chains)
        yield Step(step, tuple(float(v) for v in losses), tuple(float(v) for v in exact))
        adam.step(params, grads)

"""The ReLU-against-SwiGLU model behind train-glu (labs.kernels.glu_training): its gradient
against finite differences for both FFNs, equal weight counts, the task's best loss."""

from __future__ import annotations

import numpy as np
import pytest

from labs.kernels.glu_training import (
    Chain,
    hidden_width,
    init_model,
    loss_and_grads,
    make_chain,
    sample_pairs,
    train,
    weight_count,
)
from tests.unit.test_backprop import numeric_grad


@pytest.mark.parametrize("ffn", ["relu", "swiglu"])
def test_model_gradient_matches_finite_differences(ffn):
    one = init_model(seed=3, ffn=ffn, width=3, vocab=5)
    params = {name: w[None].copy() for name, w in one.items()}  # a batch of one model
    tokens, nexts = sample_pairs(make_chain(4, vocab=5), np.random.default_rng(5), 6)
    tokens, nexts = tokens[None], nexts[None]
    _, grads = loss_and_grads(params, tokens, nexts)
    for name, weight in params.items():
        loss = lambda: float(loss_and_grads(params, tokens, nexts)[0].sum())  # noqa: E731
        np.testing.assert_allclose(grads[name], numeric_grad(loss, weight), rtol=1e-5, atol=1e-8)


def test_the_swiglu_width_gives_the_relu_ffns_weight_count_to_within_one_row():
    assert hidden_width("relu", 16) == 64 and hidden_width("swiglu", 16) == 43
    relu = {n: w[None] for n, w in init_model(0, "relu", 16, 16).items()}
    swiglu = {n: w[None] for n, w in init_model(0, "swiglu", 16, 16).items()}
    assert abs(weight_count(swiglu) - weight_count(relu)) <= 16
    with pytest.raises(ValueError, match="ffn"):
        hidden_width("gelu", 16)


def test_the_best_loss_is_the_mean_entropy_of_the_chains_rows():
    uniform = Chain(np.full((4, 4), 0.25))
    assert uniform.best_loss() == pytest.approx(np.log(4))
    chain = make_chain(0)
    assert 0 < chain.best_loss() < np.log(16)
    # Sampled next tokens follow the chain's rows.
    tokens, nexts = sample_pairs(chain, np.random.default_rng(1), 40_000)
    picked = nexts[tokens == 0]
    freq = np.bincount(picked, minlength=16) / len(picked)
    np.testing.assert_allclose(freq, chain.transitions[0], atol=0.03)


def test_both_ffns_learn_towards_the_best_loss():
    best = np.mean([make_chain(seed).best_loss() for seed in (0, 1)])
    for ffn in ("relu", "swiglu"):
        steps = list(train(ffn=ffn, steps=150, seeds=(0, 1)))
        first, last = np.mean(steps[0].losses), np.mean(steps[-1].losses)
        assert last < first and last < best + 0.5, (ffn, first, last, best)

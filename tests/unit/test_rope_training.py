"""The copy-a-gap-back model behind train-rope (labs.kernels.rope_training): its gradient
against finite differences for each way of giving positions, and what the methods do at
lengths past training."""

from __future__ import annotations

import numpy as np
import pytest

from labs.kernels.rope_training import (
    TRAIN_LENGTH,
    VOCAB,
    accuracy,
    init_model,
    loss_and_grads,
    sinusoids,
    train,
)
from tests.unit.test_backprop import numeric_grad


@pytest.mark.parametrize("method", ["learned", "sinusoidal", "rope"])
def test_model_gradient_matches_finite_differences(method):
    one = init_model(seed=3, method=method, width=4)
    params = {name: w[None].copy() for name, w in one.items()}
    for name in ("b_q", "b_k"):  # off zero, so RoPE turns them
        params[name] += 0.3 * np.random.default_rng(4).standard_normal(params[name].shape)
    length = TRAIN_LENGTH if method == "learned" else 7
    tokens = np.random.default_rng(5).integers(0, VOCAB, size=(1, 2, length))
    _, grads = loss_and_grads(params, tokens, method)
    assert grads.keys() == params.keys()
    for name, weight in params.items():
        loss = lambda: float(loss_and_grads(params, tokens, method)[0].sum())  # noqa: E731
        np.testing.assert_allclose(grads[name], numeric_grad(loss, weight), rtol=1e-5, atol=1e-8)


def test_sinusoids_are_the_2017_code():
    code = sinusoids(5, 4)
    np.testing.assert_allclose(code[:, 0], np.sin(np.arange(5)))
    np.testing.assert_allclose(code[:, 3], np.cos(np.arange(5) / 100.0))


def test_learned_positions_cannot_run_past_the_training_length():
    params = {name: w[None] for name, w in init_model(0, "learned", 4).items()}
    tokens = np.zeros((1, 1, TRAIN_LENGTH + 1), dtype=int)
    assert accuracy(params, tokens, "learned") is None
    with pytest.raises(ValueError, match="method"):
        init_model(0, "alibi", 4)


def test_all_three_learn_the_copy_and_rope_travels_furthest():
    test = np.random.default_rng(99)
    at = {}
    for method in ("learned", "sinusoidal", "rope"):
        *_, (_, params) = train(method=method, steps=300)
        at[method] = {
            n: accuracy(params, test.integers(0, VOCAB, (3, 32, n)), method) for n in (16, 32)
        }
        np.testing.assert_array_equal(at[method][16], 1.0)  # each seed copies perfectly at 16
    assert at["learned"][32] is None
    assert np.all(at["rope"][32] > at["sinusoidal"][32]), at

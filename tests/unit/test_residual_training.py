"""The residual stack behind the norm experiments (labs.kernels.residual_training): its
hand-written gradient against finite differences, its runs repeatable by seed, and the
direction the norm-placement experiment must show in CPython."""

from __future__ import annotations

import numpy as np
import pytest

from labs.kernels.residual_training import init_stack, loss_and_grads, make_task, train
from tests.unit.test_backprop import numeric_grad


@pytest.mark.parametrize("placement", ["pre", "post"])
@pytest.mark.parametrize("norm", ["layernorm", "rmsnorm"])
def test_stack_gradient_matches_finite_differences(placement, norm):
    task = make_task(seed=3, width=3, classes=4, rows=5)
    params = init_stack(seed=4, width=3, depth=2, classes=4, placement=placement)
    for name in params:  # gains away from 1, so their gradients are tested off the start
        if name.startswith("g_"):
            params[name] += 0.1 * np.random.default_rng(5).standard_normal(3)
    _, grads = loss_and_grads(params, task.x, task.y, placement, norm)
    assert grads.keys() == params.keys()
    for name, weight in params.items():
        loss = lambda: loss_and_grads(params, task.x, task.y, placement, norm)[0]  # noqa: E731
        np.testing.assert_allclose(grads[name], numeric_grad(loss, weight), rtol=1e-5, atol=1e-8)


def test_a_run_is_the_same_for_the_same_settings_and_changes_with_the_seed():
    settings = {"placement": "pre", "depth": 3, "steps": 5}
    first = [s.loss for s in train(**settings, seed=1)]
    assert first == [s.loss for s in train(**settings, seed=1)]
    assert first != [s.loss for s in train(**settings, seed=2)]
    assert len(first) == 5


def test_unknown_settings_are_refused_by_name():
    with pytest.raises(ValueError, match="placement"):
        next(train(placement="sandwich"))
    with pytest.raises(ValueError, match="norm"):
        next(train(placement="pre", norm="batchnorm"))


def test_deep_post_norm_without_warm_up_does_not_learn_where_pre_norm_does():
    # 24 blocks, Adam at 1e-2, no warm-up, 60 updates, 3 seeds: post-norm's loss stays near
    # log(8), the loss of a uniform guess over the 8 classes, while pre-norm's falls.
    def final(placement: str, seed: int) -> float:
        steps = list(train(placement=placement, depth=24, lr=1e-2, steps=60, seed=seed))
        return float(np.mean([s.loss for s in steps[-5:]]))

    for seed in range(3):
        pre, post = final("pre", seed), final("post", seed)
        assert post > pre + 1.0, (seed, pre, post)
        assert post == pytest.approx(np.log(8), abs=0.1), (seed, post)

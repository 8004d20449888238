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
            params[name] += 0.1 * np.random.default_rng(5).standard_normal((1, 3))
    _, grads = loss_and_grads(params, task.x, task.y, placement, norm)
    assert grads.keys() == params.keys()
    for name, weight in params.items():
        loss = lambda: float(loss_and_grads(params, task.x, task.y, placement, norm)[0])  # noqa: E731
        np.testing.assert_allclose(grads[name], numeric_grad(loss, weight), rtol=1e-5, atol=1e-8)


def test_a_run_is_the_same_for_the_same_settings_and_changes_with_the_seed():
    settings = {"placement": "pre", "depth": 3, "steps": 5}
    first = [s.losses for s in train(**settings, seeds=(1,))]
    assert first == [s.losses for s in train(**settings, seeds=(1,))]
    assert first != [s.losses for s in train(**settings, seeds=(2,))]
    assert len(first) == 5


def test_a_seeds_curve_does_not_depend_on_the_seeds_trained_beside_it():
    settings = {"placement": "post", "depth": 4, "steps": 8}
    alone = [s.losses[0] for s in train(**settings, seeds=(2,))]
    beside = [s.losses[1] for s in train(**settings, seeds=(0, 2, 5))]
    np.testing.assert_allclose(beside, alone, rtol=1e-9)


def test_unknown_settings_are_refused_by_name():
    with pytest.raises(ValueError, match="placement"):
        next(train(placement="sandwich"))
    with pytest.raises(ValueError, match="norm"):
        next(train(placement="pre", norm="batchnorm"))


def test_deep_post_norm_without_warm_up_does_not_learn_where_pre_norm_does():
    # 24 blocks, Adam at 1e-2, no warm-up, 60 updates, 3 seeds: post-norm's loss stays near
    # log(8), the loss of a uniform guess over the 8 classes, while pre-norm's falls.
    def finals(placement: str) -> np.ndarray:
        steps = list(train(placement=placement, depth=24, lr=1e-2, steps=60, seeds=(0, 1, 2)))
        return np.mean([s.losses for s in steps[-5:]], axis=0)  # per seed

    pre, post = finals("pre"), finals("post")
    assert np.all(post > pre + 1.0), (pre, post)
    np.testing.assert_allclose(post, np.log(8), atol=0.1)

"""Every hand-written backward pass in labs.kernels.backprop against central finite
differences, in float64, on batched inputs; and Adam's warm-up and first step."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from labs.kernels import backprop as bp
from labs.kernels.attention import attention_steps
from labs.kernels.norms import layernorm, rmsnorm

RNG = np.random.default_rng(7)
H = 1e-6


def numeric_grad(loss: Callable[[], float], a: np.ndarray) -> np.ndarray:
    """dloss/da by central differences, one entry at a time (a is changed and put back)."""
    grad = np.zeros_like(a)
    for i in np.ndindex(a.shape):
        keep = a[i]
        a[i] = keep + H
        up = loss()
        a[i] = keep - H
        down = loss()
        a[i] = keep
        grad[i] = (up - down) / (2 * H)
    return grad


def check(forward, backward, inputs: list[np.ndarray]) -> None:
    """backward's gradients of sum(out * probe) match finite differences for every input."""
    out, _ = forward(*inputs)
    probe = RNG.standard_normal(out.shape)
    loss = lambda: float((forward(*inputs)[0] * probe).sum())  # noqa: E731
    _, saved = forward(*inputs)
    grads = backward(saved, probe)
    assert len(grads) == len(inputs)
    for a, g in zip(inputs, grads, strict=True):
        assert g.shape == a.shape
        np.testing.assert_allclose(g, numeric_grad(loss, a), rtol=1e-5, atol=1e-7)


def x(*shape: int) -> np.ndarray:
    return RNG.standard_normal(shape)


def test_linear_backward_matches_finite_differences():
    check(bp.linear_forward, bp.linear_backward, [x(2, 3, 4), x(4, 5)])


@pytest.mark.parametrize("kind", ["layernorm", "rmsnorm"])
def test_norm_backward_matches_finite_differences(kind):
    forward, backward = getattr(bp, f"{kind}_forward"), getattr(bp, f"{kind}_backward")
    check(forward, backward, [x(2, 3, 6), 1 + 0.1 * x(6)])


def test_norm_forwards_are_the_course_kernels_up_to_their_eps():
    rows, gain = x(3, 8), 1 + 0.1 * x(8)
    np.testing.assert_allclose(
        bp.layernorm_forward(rows, gain)[0], layernorm(rows, gain, eps=bp.NORM_EPS), rtol=1e-12
    )
    np.testing.assert_allclose(
        bp.rmsnorm_forward(rows, gain)[0], rmsnorm(rows, gain, eps=bp.NORM_EPS), rtol=1e-12
    )


def test_relu_ffn_backward_matches_finite_differences():
    check(bp.relu_ffn_forward, bp.relu_ffn_backward, [x(2, 3, 4), x(4, 16), x(16, 4)])


def test_swiglu_ffn_backward_matches_finite_differences():
    inputs = [x(2, 3, 4), x(4, 10), x(4, 10), x(10, 4)]
    check(bp.swiglu_ffn_forward, bp.swiglu_ffn_backward, inputs)


def test_cross_entropy_gradient_matches_finite_differences():
    # Two models of 5 rows each: a loss per model, the gradient of their sum.
    logits, targets = x(2, 5, 7), RNG.integers(0, 7, size=(2, 5))
    losses, grad = bp.cross_entropy(logits, targets)
    assert losses.shape == (2,)
    total = lambda: float(bp.cross_entropy(logits, targets)[0].sum())  # noqa: E731
    np.testing.assert_allclose(grad, numeric_grad(total, logits), atol=1e-8)
    # Uniform logits: the loss is log V.
    assert float(bp.cross_entropy(np.zeros((4, 7)), np.arange(4))[0]) == pytest.approx(np.log(7))


def test_each_model_of_a_batch_of_models_gets_its_own_weight_gradients():
    # R = 2 models with weights of their own ([2, ...]) and gains [2, 1, d].
    check(bp.linear_forward, bp.linear_backward, [x(2, 3, 4), x(2, 4, 5)])
    check(bp.rmsnorm_forward, bp.rmsnorm_backward, [x(2, 3, 6), 1 + 0.1 * x(2, 1, 6)])
    check(bp.layernorm_forward, bp.layernorm_backward, [x(2, 3, 6), 1 + 0.1 * x(2, 1, 6)])
    check(bp.relu_ffn_forward, bp.relu_ffn_backward, [x(2, 3, 4), x(2, 4, 8), x(2, 8, 4)])
    inputs = [x(2, 3, 4), x(2, 4, 6), x(2, 4, 6), x(2, 6, 4)]
    check(bp.swiglu_ffn_forward, bp.swiglu_ffn_backward, inputs)


def test_layernorm_costs_more_arithmetic_than_rmsnorm():
    assert bp.norm_flops("layernorm", 64) - bp.norm_flops("rmsnorm", 64) == 2 * 64
    with pytest.raises(ValueError, match="layernorm"):
        bp.norm_flops("batchnorm", 64)


def test_adam_warms_up_linearly_and_its_first_step_is_the_rate_times_the_sign():
    params = {"w": np.array([1.0, -2.0, 3.0])}
    adam = bp.Adam(params, lr=0.1, warmup=4)
    assert [adam.rate()] == [pytest.approx(0.025)]
    adam.step(params, {"w": np.array([0.5, -3.0, 0.0])})
    # Bias-corrected, Adam's first update is lr * g / (|g| + eps): the sign, where g != 0.
    np.testing.assert_allclose(params["w"], [1.0 - 0.025, -2.0 + 0.025, 3.0], atol=1e-9)
    for _ in range(5):
        adam.step(params, {"w": np.ones(3)})
    assert adam.rate() == pytest.approx(0.1)
    assert bp.Adam(params, lr=0.1).rate() == pytest.approx(0.1)


def test_causal_attention_backward_matches_finite_differences():
    check(bp.attention_forward, bp.attention_backward, [x(2, 5, 4), x(2, 5, 4), x(2, 5, 3)])


def test_causal_attention_is_the_course_kernel():
    q, k, v = x(5, 4), x(5, 4), x(5, 3)
    expected = dict(attention_steps(q, k, v, rope_base=None))["out"]
    np.testing.assert_allclose(bp.attention_forward(q, k, v)[0], expected, rtol=1e-12)

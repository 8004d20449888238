"""The toy transformers behind the norm path chart: forward pass, hand-written backward pass
(checked by finite differences), Xavier init and the per-layer gradient sizes."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from labs import kernels as K
from labs.kernels import gradients as G


def _small(seed: int, n_layers: int = 4) -> K.Stacks:
    """One small stack (no leading axis), weights big enough that every path matters."""
    batch = K.random_stacks(n_layers, seed=seed, stacks=1, width=4, tokens=3)
    scale = 2.0  # livelier attention weights than Xavier's, so the softmax is far from flat
    layers = [tuple(scale * w[0] for w in ws) for ws in batch.layers]
    return K.Stacks(batch.x[0], layers, batch.readout[0], batch.targets[0])


def _reference_top(s: K.Stacks, placement: str) -> np.ndarray:
    """The same stack from the course's own kernels: causal attention, ReLU FFN, stacks."""
    sublayers = [
        (lambda h, w=w: K.causal_attention(h, *w, 1, rope_base=None))
        if G.is_attention(w)
        else (lambda h, w=w: K.relu_ffn(h, *w))
        for w in s.layers
    ]
    stack = K.prenorm_stack if placement == "pre" else K.postnorm_stack
    return stack(s.x, sublayers)


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_the_loss_is_cross_entropy_on_top_of_the_course_stack(placement):
    s = _small(1)
    logits = _reference_top(s, placement) @ s.readout  # [T, V]
    log_p = logits - np.log(np.sum(np.exp(logits), axis=-1, keepdims=True))
    expected = -np.mean(log_p[np.arange(len(s.targets)), s.targets])
    assert_allclose(K.stack_loss(s, placement), expected, rtol=1e-10)


@pytest.mark.parametrize("placement", ["pre", "post"])
def test_weight_gradients_match_finite_differences(placement):
    s = _small(2)
    grads = K.stack_weight_grads(s, placement)
    assert [[g.shape for g in gs] for gs in grads] == [[w.shape for w in ws] for ws in s.layers]
    step = 1e-6
    for layer in range(len(s.layers)):  # two attention layers and two FFNs, every matrix
        for which, w in enumerate(s.layers[layer]):
            numeric = np.zeros_like(w)
            for i in np.ndindex(w.shape):
                moved = []
                for sign in (1, -1):
                    bumped = w.copy()
                    bumped[i] += sign * step
                    layers = list(s.layers)
                    layers[layer] = tuple(
                        bumped if j == which else m for j, m in enumerate(s.layers[layer])
                    )
                    moved.append(K.stack_loss(s._replace(layers=layers), placement))
                numeric[i] = (moved[0] - moved[1]) / (2 * step)
            assert_allclose(grads[layer][which], numeric, rtol=1e-5, atol=1e-8)


def test_many_stacks_at_once_give_each_stack_its_own_gradients():
    batch = K.random_stacks(4, seed=2, stacks=3, width=5, tokens=3)
    together = K.stack_weight_grads(batch, "post")
    for k in range(3):
        one = K.Stacks(
            batch.x[k],
            [tuple(w[k] for w in ws) for ws in batch.layers],
            batch.readout[k],
            batch.targets[k],
        )
        for both, alone in zip(together, K.stack_weight_grads(one, "post"), strict=True):
            for g, a in zip(both, alone, strict=True):
                assert_allclose(g[k], a)


def test_random_stacks_alternate_attention_and_xavier_uniform_ffns():
    batch = K.random_stacks(3, seed=0, stacks=20, width=16, tokens=8)
    assert batch.x.shape == (20, 8, 16) and batch.targets.shape == (20, 8)
    assert batch.readout.shape == (20, 16, 16) and 0 <= batch.targets.min() < 16
    assert [len(ws) for ws in batch.layers] == [4, 2, 4]  # W_Q, W_K, W_V, W_O; W1, W2
    w1, w2 = batch.layers[1]
    assert w1.shape == (20, 16, 64) and w2.shape == (20, 64, 16)
    bound = np.sqrt(6 / (16 + 64))
    assert np.abs(w1).max() <= bound and np.abs(w2).max() <= bound
    assert_allclose(w1.var(), bound**2 / 3, rtol=0.05)  # the variance of U(-a, a) is a^2 / 3
    w_q = batch.layers[0][0]
    assert_allclose(w_q.var(), (6 / 32) / 3, rtol=0.1)
    # the 2017 position code is added: averaged over stacks, position 0 is [0, 1, 0, 1, ...]
    assert_allclose(batch.x[:, 0].mean(axis=0)[:4], [0, 1, 0, 1], atol=0.5)


def test_weight_gradient_sizes_are_the_output_matrices_and_seeded():
    sizes = K.weight_gradient_sizes(6, seed=1, stacks=5)
    assert set(sizes) == {"pre", "post"}
    assert sizes["pre"].shape == sizes["post"].shape == (5, 6) and (sizes["pre"] > 0).all()
    assert_allclose(K.weight_gradient_sizes(6, seed=1, stacks=5)["pre"], sizes["pre"])
    assert not np.allclose(K.weight_gradient_sizes(6, seed=2, stacks=5)["pre"], sizes["pre"])
    batch = K.random_stacks(6, seed=1, stacks=5)
    grads = K.stack_weight_grads(batch, "post")
    assert_allclose(sizes["post"][:, 0], np.linalg.norm(grads[0][3], axis=(-2, -1)))  # W_O
    assert_allclose(sizes["post"][:, -1], np.linalg.norm(grads[-1][1], axis=(-2, -1)))  # W2
    with pytest.raises(ValueError, match="placement"):
        K.stack_weight_grads(batch, "middle")
    with pytest.raises(ValueError, match="n_layers"):
        K.weight_gradient_sizes(0)


def test_post_norms_climb_toward_the_output_comes_from_attention():
    """What the page says: with FFN layers only, post-norm's gradients stay about level."""
    for attention, low, high in ((False, 0.8, 1.25), (True, 1.3, np.inf)):
        ratios = []
        for seed in range(8):
            post = np.median(K.weight_gradient_sizes(24, seed, attention=attention)["post"], 0)
            ratios.append(post[-1] / post[0])
        assert low < np.median(ratios) < high, (attention, ratios)
    assert [len(ws) for ws in K.random_stacks(3, attention=False).layers] == [2, 2, 2]

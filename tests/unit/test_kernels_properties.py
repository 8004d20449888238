"""Property-based checks of the kernels: what must hold for every input, not just examples."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from numpy.testing import assert_allclose

from labs import kernels as K

FAST = settings(max_examples=25, deadline=None)
finite = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
angles = st.floats(-50, 50, allow_nan=False, allow_infinity=False)
positions = st.integers(-500, 500)


def arrays(shape):
    return hnp.arrays(np.float64, shape, elements=finite)


def nonzero_rows(shape):
    """Arrays whose every row has an entry of size at least 0.1 (so RMS is well defined)."""
    return arrays(shape).filter(lambda a: bool((np.abs(a).max(axis=-1) > 0.1).all()))


@FAST
@given(v=arrays(2), angle=angles)
def test_rotate_keeps_length(v, angle):
    assert np.isclose(np.linalg.norm(K.rotate(v, angle)), np.linalg.norm(v), rtol=1e-12)


@FAST
@given(v=arrays(2), a=angles, b=angles)
def test_rotations_add_their_angles(v, a, b):
    assert_allclose(K.rotate(K.rotate(v, a), b), K.rotate(v, a + b), rtol=1e-9, atol=1e-9)


@FAST
@given(x=arrays((3, 6)), pos=st.lists(positions, min_size=3, max_size=3))
def test_rope_keeps_every_pair_length(x, pos):
    y = K.rope(x, positions=pos)
    pairs_in = np.linalg.norm(x.reshape(3, 3, 2), axis=-1)
    pairs_out = np.linalg.norm(y.reshape(3, 3, 2), axis=-1)
    assert_allclose(pairs_out, pairs_in, rtol=1e-9, atol=1e-9)


@FAST
@given(x=arrays((2, 1, 8)))
def test_rope_at_position_0_is_the_identity(x):
    assert_allclose(K.rope(x), x)


@FAST
@given(q=arrays(8), k=arrays(8), m=positions, n=positions, shift=positions)
def test_rope_score_depends_only_on_distance(q, k, m, n, shift):
    scale = 1 + np.abs(q).sum() * np.abs(k).sum()
    assert np.isclose(
        K.rope_score(q, k, m, n), K.rope_score(q, k, m + shift, n + shift), atol=1e-9 * scale
    )


@FAST
@given(x=nonzero_rows((3, 5)))
def test_rmsnorm_without_eps_gives_mean_square_1(x):
    y = K.rmsnorm(x, eps=0)
    assert_allclose(np.mean(y**2, axis=-1), 1.0, rtol=1e-9)


@FAST
@given(x=nonzero_rows((2, 4)), c=st.floats(0.01, 100))
def test_rmsnorm_without_eps_ignores_a_positive_scale(x, c):
    assert_allclose(K.rmsnorm(c * x, eps=0), K.rmsnorm(x, eps=0), rtol=1e-9, atol=1e-12)


@FAST
@given(x=arrays((2, 5)).filter(lambda a: bool((np.ptp(a, axis=-1) > 0.1).all())))
def test_layernorm_without_eps_gives_mean_0_and_variance_1(x):
    y = K.layernorm(x, eps=0)
    assert_allclose(np.mean(y, axis=-1), 0.0, atol=1e-9)
    assert_allclose(np.var(y, axis=-1), 1.0, rtol=1e-9)


@FAST
@given(z=arrays(7))
def test_silu_is_z_times_sigmoid_and_stays_above_its_minimum(z):
    assert_allclose(K.silu(z), z / (1 + np.exp(-z)), rtol=1e-12, atol=1e-300)
    assert (K.silu(z) >= -0.2785).all()  # SiLU's global minimum is about -0.27846


@FAST
@given(
    x=arrays((2, 3, 4)),
    w_gate=arrays((4, 6)),
    w_up=arrays((4, 6)),
    w_down=arrays((6, 4)),
)
def test_swiglu_treats_every_token_row_on_its_own(x, w_gate, w_up, w_down):
    whole = K.swiglu_ffn(x, w_gate, w_up, w_down)
    assert whole.shape == (2, 3, 4)
    row = K.swiglu_ffn(x[1, 2], w_gate, w_up, w_down)
    assert_allclose(whole[1, 2], row, rtol=1e-9, atol=1e-6)


@FAST
@given(d_model=st.integers(1, 512), third=st.integers(1, 512))
def test_swiglu_at_two_thirds_width_has_relu_weight_count(d_model, third):
    d_ff = 3 * third
    gated_width = K.gated_width_for_equal_weights(d_ff)
    assert gated_width == 2 * third
    assert K.ffn_weight_count(d_model, int(gated_width), gated=True) == K.ffn_weight_count(
        d_model, d_ff, gated=False
    )


@FAST
@given(z=arrays((3, 5)))
def test_softmax_rows_are_probabilities(z):
    p = K.softmax(z)
    assert (p >= 0).all()
    assert_allclose(p.sum(axis=-1), 1.0)


@FAST
@given(q=arrays((5, 4)), k=arrays((5, 4)), shift=st.integers(-1000, 1000))
def test_attention_scores_with_rope_do_not_change_when_all_positions_shift(q, k, shift):
    v = np.zeros((5, 4))
    base = K.attention_steps(q, k, v, positions=np.arange(5))
    moved = K.attention_steps(q, k, v, positions=np.arange(5) + shift)
    scale = 1 + np.abs(q).max() * np.abs(k).max()
    assert_allclose(dict(moved)["scores"], dict(base)["scores"], atol=1e-8 * scale)


@FAST
@given(x=arrays((4, 6)), future=arrays((6,)), seed=st.integers(0, 100))
def test_causal_attention_never_reads_a_later_token(x, future, seed):
    rng = np.random.default_rng(seed)
    w_q, w_k, w_v = (rng.standard_normal((6, 6)) for _ in range(3))
    w_o = rng.standard_normal((6, 6))
    changed = x.copy()
    changed[-1] = future
    before = K.causal_attention(x, w_q, w_k, w_v, w_o, n_heads=3)
    after = K.causal_attention(changed, w_q, w_k, w_v, w_o, n_heads=3)
    assert_allclose(after[:-1], before[:-1])

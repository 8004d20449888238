"""The reference kernels reproduce every number of COURSE-SPEC sections 2 and 3.

The spec's numbers are the contract, so they are written out here on purpose.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from labs import kernels as K

QUARTER = np.pi / 2


# --- section B: pre-norm and post-norm -------------------------------------------------


def test_postnorm_hides_x_and_prenorm_keeps_it_worked_numbers():
    x = np.array([1.0, -1.0, 0.5, -0.5])
    f_of_x = np.array([3.0, 3.0, -3.0, -3.0])
    post = K.postnorm_block(x, lambda _: f_of_x)
    pre = K.prenorm_block(x, lambda _: f_of_x)
    assert_allclose(post, [1.29, 0.64, -0.81, -1.13], atol=0.005)
    assert_allclose(pre, [4.0, 2.0, -2.5, -3.5])


def test_stacks_apply_blocks_in_order_and_prenorm_adds_one_final_norm():
    x = np.array([[1.0, 2.0, 4.0], [0.5, -1.0, 3.0]])
    sublayers = [lambda h: 2.0 * h, lambda h: h + 1.0]
    pre = x
    for f in sublayers:
        pre = pre + f(K.layernorm(pre))
    assert_allclose(K.prenorm_stack(x, sublayers), K.layernorm(pre))
    post = x
    for f in sublayers:
        post = K.layernorm(post + f(post))
    assert_allclose(K.postnorm_stack(x, sublayers), post)


# --- section C and the chapter: RMSNorm ------------------------------------------------


def test_rmsnorm_of_1_1_3_5_has_rms_3_and_last_entry_1_67():
    x = np.array([1.0, 1.0, 3.0, 5.0])
    assert K.root_mean_square(x) == pytest.approx(3.0)
    y = K.rmsnorm(x)
    assert_allclose(np.round(y, 4), [0.3333, 0.3333, 1.0, 1.6667])
    assert round(float(y[-1]), 2) == 1.67


def test_rms_by_hand_3_4_and_4_5():
    assert K.root_mean_square(np.array([3.0, 4.0])) == pytest.approx(3.535534, abs=1e-6)
    assert_allclose(K.rmsnorm([3.0, 4.0], eps=0), [0.848528, 1.131371], atol=1e-6)
    assert K.root_mean_square(np.array([4.0, 5.0])) == pytest.approx(np.sqrt(20.5))
    assert_allclose(K.rmsnorm([4.0, 5.0], eps=0), [0.883452, 1.104315], atol=1e-6)


def test_layernorm_maps_3_4_and_4_5_to_the_same_row():
    assert_allclose(K.layernorm([3.0, 4.0], eps=0), [-1.0, 1.0])
    assert_allclose(K.layernorm([4.0, 5.0], eps=0), [-1.0, 1.0])


def test_rmsnorm_of_0_2_is_0_root2():
    assert_allclose(K.rmsnorm([0.0, 2.0], eps=0), [0.0, np.sqrt(2.0)])


def test_adding_10_changes_rmsnorm_but_not_layernorm():
    x = np.array([3.0, 4.0])
    assert not np.allclose(K.rmsnorm(x + 10, eps=0), K.rmsnorm(x, eps=0))
    assert_allclose(K.layernorm(x + 10, eps=0), K.layernorm(x, eps=0))


def test_rmsnorm_rejects_an_all_zero_row_when_eps_is_zero():
    x = np.array([[1.0, 2.0], [0.0, 0.0]])
    with pytest.raises(ValueError, match=r"all-zero row \(row 1\)"):
        K.rmsnorm(x, eps=0)
    with pytest.raises(ValueError, match="all-zero row"):
        K.rmsnorm(np.zeros(3), eps=0.0)


def test_rmsnorm_with_eps_maps_a_zero_row_to_zeros_not_nan():
    y = K.rmsnorm(np.zeros((2, 4)))
    assert np.isfinite(y).all()
    assert_allclose(y, 0.0)


def test_layernorm_rejects_a_constant_row_when_eps_is_zero():
    with pytest.raises(ValueError, match="constant row"):
        K.layernorm(np.array([2.0, 2.0, 2.0]), eps=0)


def test_norms_reject_negative_eps_and_wrong_gain_shape():
    with pytest.raises(ValueError, match="eps >= 0"):
        K.rmsnorm([1.0, 2.0], eps=-1e-3)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        K.rmsnorm([1.0, 2.0], gain=np.ones(3))


def test_rmsnorm_gain_scales_each_coordinate_and_there_is_no_shift():
    x = np.array([[3.0, 4.0], [1.0, -1.0]])
    gain = np.array([2.0, 0.5])
    assert_allclose(K.rmsnorm(x, gain, eps=0), K.rmsnorm(x, eps=0) * gain)


def test_layernorm_gain_and_bias():
    x = np.array([1.0, 2.0, 3.0])
    assert_allclose(
        K.layernorm(x, gain=np.full(3, 2.0), bias=np.ones(3), eps=0),
        2.0 * K.layernorm(x, eps=0) + 1.0,
    )


def test_rmsnorm_keeps_batch_shapes_and_normalizes_each_row_alone():
    x = np.random.default_rng(3).standard_normal((2, 3, 4))
    y = K.rmsnorm(x)
    assert y.shape == (2, 3, 4)
    for b in range(2):
        for t in range(3):
            assert_allclose(y[b, t], K.rmsnorm(x[b, t]))


# --- section D and the chapter: rotation and RoPE ---------------------------------------


def test_quarter_turn_maps_1_0_to_0_1_and_0_1_to_minus1_0():
    assert_allclose(K.rotate([1.0, 0.0], QUARTER), [0.0, 1.0], atol=1e-15)
    assert_allclose(K.rotate([0.0, 1.0], QUARTER), [-1.0, 0.0], atol=1e-15)


@pytest.mark.parametrize(("m", "n", "score"), [(0, 0, 1.0), (0, 1, 0.0), (1, 2, 0.0), (0, 2, -1.0)])
def test_quarter_turn_table(m, n, score):
    q = k = np.array([1.0, 0.0])
    assert K.rotate(q, m * QUARTER) @ K.rotate(k, n * QUARTER) == pytest.approx(score, abs=1e-12)


def test_quarter_turns_at_positions_2_and_3_exercise_1():
    q, k = K.rotate([1.0, 0.0], 2 * QUARTER), K.rotate([1.0, 0.0], 3 * QUARTER)
    assert_allclose(q, [-1.0, 0.0], atol=1e-12)
    assert_allclose(k, [0.0, -1.0], atol=1e-12)
    assert q @ k == pytest.approx(0.0, abs=1e-12)


def test_single_rate_quarter_turn_repeats_every_4_positions():
    v = np.array([0.3, -1.2])
    assert_allclose(K.rotate(v, 4 * QUARTER), v, atol=1e-12)


def test_rope_lab_numbers_q_at_2_k_at_0_give_sin_1():
    theta = 0.5
    assert 2 * theta == 1.0  # Q5: q at position 2 turns by 1 radian
    score = K.rotate([1.0, 0.0], 2 * theta) @ K.rotate([0.0, 1.0], 0 * theta)
    assert score == pytest.approx(np.sin(1.0))
    assert round(float(score), 2) == 0.84
    both_moved = K.rotate([1.0, 0.0], 3 * theta) @ K.rotate([0.0, 1.0], 1 * theta)
    assert both_moved == pytest.approx(score)
    k_moved = K.rotate([1.0, 0.0], 2 * theta) @ K.rotate([0.0, 1.0], 1 * theta)
    assert k_moved != pytest.approx(score)


def test_c2_example_scores_agree_at_the_same_distance():
    q, k = np.array([1.0, 2.0]), np.array([3.0, -1.0])
    first = K.rotate(q, 5 * 0.5) @ K.rotate(k, 2 * 0.5)
    second = K.rotate(q, 13 * 0.5) @ K.rotate(k, 10 * 0.5)
    assert first == pytest.approx(-6.911727, abs=1e-6)
    assert second == pytest.approx(first, abs=1e-12)


def test_rope_rates_for_width_4_are_1_and_0_01():
    assert_allclose(K.rope_rates(4), [1.0, 0.01])


def test_rope_seeded_demo_gives_1_058526_at_both_distances_of_3():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(4), rng.standard_normal(4)
    assert K.rope_score(q, k, 7, 4) == pytest.approx(1.058526, abs=1e-6)
    assert K.rope_score(q, k, 107, 104) == pytest.approx(1.058526, abs=1e-6)


def rotate_half_reference(x: np.ndarray, position: float, base: float = 10000.0) -> np.ndarray:
    """Hugging Face's formula, written out: x * cos + rotate_half(x) * sin, rates repeated."""
    half = x.shape[-1] // 2
    angles = np.tile(position * base ** (-2.0 * np.arange(half) / x.shape[-1]), 2)  # [d]
    rotated_half = np.concatenate([-x[half:], x[:half]])  # [d]
    return x * np.cos(angles) + rotated_half * np.sin(angles)


def test_rope_halves_is_the_rotate_half_formula():
    x = np.random.default_rng(3).standard_normal((3, 6))
    positions = np.array([0.0, 5.0, 41.0])
    expected = np.stack(
        [rotate_half_reference(row, p) for row, p in zip(x, positions, strict=True)]
    )
    assert_allclose(K.rope_halves(x, positions), expected, atol=1e-12)
    assert_allclose(K.rope_halves(x, positions)[0], x[0])  # position 0 turns nothing


def test_rope_halves_pairs_coordinate_i_with_i_plus_half_the_width():
    y = K.rope_halves(np.array([[1.0, 0.0, 0.0, 0.0]]), positions=[3])
    assert_allclose(y[0], [np.cos(3.0), 0.0, np.sin(3.0), 0.0], atol=1e-12)
    with pytest.raises(ValueError, match="even width"):
        K.rope_halves(np.ones((1, 5)))


def test_the_other_rope_layout_gives_the_seeded_demo_minus_0_641863_at_both_distances():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal(4), rng.standard_normal(4)
    for m, n in [(7, 4), (107, 104)]:
        assert K.rope_score(q, k, m, n, layout="halves") == pytest.approx(-0.641863, abs=1e-6)
        assert K.rope_score(q, k, m, n) == pytest.approx(1.058526, abs=1e-6)
    with pytest.raises(ValueError, match="layout"):
        K.rope_score(q, k, 7, 4, layout="interleaved")


def test_rope_rotates_adjacent_pairs_at_their_own_rates():
    x = np.array([[1.0, 0.0, 1.0, 0.0]])
    y = K.rope(x, positions=[3])
    assert_allclose(y[0, :2], K.rotate([1.0, 0.0], 3 * 1.0))
    assert_allclose(y[0, 2:], K.rotate([1.0, 0.0], 3 * 0.01))


def test_rope_leaves_the_unpaired_last_coordinate_of_an_odd_width_alone():
    x = np.array([[1.0, 0.0, 5.0]])
    y = K.rope(x, positions=[2])
    assert_allclose(y[0, :2], K.rotate([1.0, 0.0], 2.0))
    assert y[0, 2] == 5.0


def test_rope_rejects_wrong_positions_and_a_width_of_zero():
    with pytest.raises(ValueError, match="positive width"):
        K.rope(np.ones((2, 0)))
    with pytest.raises(ValueError, match="positions"):
        K.rope(np.ones((2, 4)), positions=[0, 1, 2])
    with pytest.raises(ValueError, match="pair"):
        K.rotate(np.ones(3), 0.1)


# --- section E and the chapter: SiLU, SwiGLU and weight counts --------------------------


def test_silu_of_1_and_minus_1():
    assert K.silu(1.0) == pytest.approx(0.731059, abs=1e-6)
    assert K.silu(-1.0) == pytest.approx(-0.268941, abs=1e-6)
    assert round(1 / (1 + 0.37), 2) == 0.73  # Q8 with e^-1 rounded to 0.37


def test_silu_is_stable_for_large_inputs():
    z = np.array([-1000.0, -50.0, 0.0, 50.0, 1000.0])
    y = K.silu(z)
    assert np.isfinite(y).all()
    assert_allclose(y[[2, 3, 4]], [0.0, 50.0, 1000.0])
    assert y[0] == pytest.approx(0.0, abs=1e-300)


def test_gated_ffn_by_hand():
    x = np.array([1.0, -1.0])
    w_gate, w_up = np.eye(2), np.array([[2.0, 0.0], [0.0, -3.0]])
    w_down = np.array([[1.0, 0.0], [1.0, 1.0]])
    assert_allclose(x @ w_gate, [1.0, -1.0])
    assert_allclose(x @ w_up, [2.0, 3.0])
    hidden = K.silu(x @ w_gate) * (x @ w_up)
    assert_allclose(hidden, [1.462117, -0.806824], atol=1e-6)
    assert_allclose(K.swiglu_ffn(x, w_gate, w_up, w_down), [0.655293, -0.806824], atol=1e-6)
    # exercise 4: the identity as W_d returns the hidden row itself
    assert_allclose(K.swiglu_ffn(x, w_gate, w_up, np.eye(2)), [1.462117, -0.806824], atol=1e-6)


def test_c3_example_prints_1_7616_and_0():
    x = np.array([[1.0, -1.0]])
    w_gate = np.array([[2.0, 0.0, 1.0], [0.0, 2.0, 1.0]])
    w_up = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])
    w_down = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    assert_allclose(K.swiglu_ffn(x, w_gate, w_up, w_down).round(4), [[1.7616, 0.0]])


def test_ffn_weight_table():
    assert K.ffn_weight_count(12, 48, gated=False) == 1152
    assert K.ffn_weight_count(12, 48, gated=True) == 1728
    assert K.ffn_weight_count(12, 32, gated=True) == 1152


def test_exercise_5_input_24_relu_96_gated_64():
    assert K.ffn_weight_count(24, 96, gated=False) == 4608
    assert K.gated_width_for_equal_weights(96) == 64
    assert K.ffn_weight_count(24, 64, gated=True) == 4608


def test_equal_weights_shrink_the_hidden_width_to_two_thirds():
    assert round(K.gated_width_for_equal_weights(48) / 48, 2) == 0.67


def test_ffn_weight_count_with_biases():
    assert K.ffn_weight_count(12, 48, gated=False, bias=True) == 1152 + 48 + 12
    assert K.ffn_weight_count(12, 32, gated=True, bias=True) == 1152 + 2 * 32 + 12


def test_relu_ffn_matches_its_formula():
    rng = np.random.default_rng(5)
    x, w1, w2 = (rng.standard_normal(shape) for shape in ((3, 4), (4, 6), (6, 4)))
    assert_allclose(K.relu_ffn(x, w1, w2), np.maximum(x @ w1, 0) @ w2)


def test_ffn_shape_errors_name_the_matrix():
    x = np.ones((2, 3))
    with pytest.raises(ValueError, match="W_gate"):
        K.swiglu_ffn(x, np.ones((4, 5)), np.ones((4, 5)), np.ones((5, 3)))
    with pytest.raises(ValueError, match="W_up"):
        K.swiglu_ffn(x, np.ones((3, 5)), np.ones((3, 4)), np.ones((5, 3)))
    with pytest.raises(ValueError, match="W_down"):
        K.swiglu_ffn(x, np.ones((3, 5)), np.ones((3, 5)), np.ones((4, 3)))
    with pytest.raises(ValueError, match="W1"):
        K.relu_ffn(x, np.ones((4, 5)), np.ones((5, 3)))

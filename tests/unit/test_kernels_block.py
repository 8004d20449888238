"""Attention and the modern block driven by its config (gradients: test_kernels_gradients)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from labs import kernels as K

CONFIG = dict(K.MODERN_CONFIG)


def test_the_shipped_config_matches_the_block_figure():
    c = K.validate_config(CONFIG)
    assert (c.hidden_size, c.query_heads, c.head_dim, c.ffn_hidden_size) == (12, 3, 4, 32)
    assert (c.rope_theta, c.pre_norm, c.bias, c.eps) == (10000.0, True, False, 1e-6)
    assert c.max_sequence_slots == 2048


def test_config_with_heads_times_head_dim_not_hidden_size_is_rejected_naming_both():
    both = r"query_heads \* head_dim = 4 \* 4 = 16 must equal hidden_size = 12"
    with pytest.raises(ValueError, match=both):
        K.validate_config({**CONFIG, "query_heads": 4})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"hidden_size": 0}, "hidden_size must be a positive integer"),
        ({"head_dim": True}, "head_dim must be a positive integer"),
        ({"ffn_hidden_size": 3.5}, "ffn_hidden_size must be a positive integer"),
        ({"pre_norm": "yes"}, "pre_norm must be true or false"),
        ({"rope_theta": -1}, "rope_theta must be positive"),
        ({"eps": -1e-6}, "eps must be >= 0"),
        ({"kv_heads": 1}, "unknown fields kv_heads"),
    ],
)
def test_bad_config_fields_are_named(change, message):
    with pytest.raises(ValueError, match=message):
        K.validate_config({**CONFIG, **change})


def test_missing_config_fields_are_listed():
    partial = {k: v for k, v in CONFIG.items() if k not in ("eps", "bias")}
    with pytest.raises(ValueError, match="missing bias, eps"):
        K.validate_config(partial)


def test_max_sequence_slots_is_optional():
    without = {k: v for k, v in CONFIG.items() if k != "max_sequence_slots"}
    assert K.validate_config(without).max_sequence_slots is None


def test_init_params_is_seeded_and_shaped_by_the_config():
    a, b, c = K.init_params(CONFIG, 1), K.init_params(CONFIG, 1), K.init_params(CONFIG, 2)
    assert set(a) == set(K.param_shapes(CONFIG))
    assert all(np.array_equal(a[name], b[name]) for name in a)
    assert not np.array_equal(a["W_q"], c["W_q"])
    assert a["W_gate"].shape == (12, 32) and a["W_down"].shape == (32, 12)
    with_bias = K.init_params({**CONFIG, "bias": True})
    assert with_bias["b_gate"].shape == (32,) and with_bias["b_o"].shape == (12,)


def test_modern_block_step_shapes_follow_the_figure():
    x = np.random.default_rng(0).standard_normal((2, 5, 12))  # [B, T, 12]
    steps = K.modern_block_steps(x, K.init_params(CONFIG), CONFIG)
    shapes = {name: value.shape for name, value in steps}
    assert [name for name, _ in steps] == [
        "x", "attn_norm", "q", "k", "v", "q_rot", "k_rot", "scores", "weights", "heads",
        "joined", "attn_out", "residual", "ffn_norm", "gate", "up", "hidden", "ffn_out", "out",
    ]  # fmt: skip
    assert shapes["q"] == shapes["k"] == shapes["v"] == (2, 3, 5, 4)
    assert shapes["scores"] == shapes["weights"] == (2, 3, 5, 5)
    assert shapes["joined"] == shapes["attn_out"] == (2, 5, 12)
    assert shapes["gate"] == shapes["up"] == shapes["hidden"] == (2, 5, 32)
    assert shapes["out"] == (2, 5, 12)


def test_modern_block_prenorm_wiring():
    x = np.random.default_rng(1).standard_normal((4, 12))
    params = K.init_params(CONFIG, seed=3)
    s = dict(K.modern_block_steps(x, params, CONFIG))
    assert_allclose(s["attn_norm"], K.rmsnorm(x, params["attn_norm"], 1e-6))
    assert_allclose(s["residual"], x + s["attn_out"])
    assert_allclose(s["ffn_norm"], K.rmsnorm(s["residual"], params["ffn_norm"], 1e-6))
    ffn = K.swiglu_ffn(s["ffn_norm"], params["W_gate"], params["W_up"], params["W_down"])
    assert_allclose(s["ffn_out"], ffn)
    assert_allclose(s["out"], s["residual"] + ffn)
    assert_allclose(K.modern_block(x, params, CONFIG), s["out"])


def test_modern_block_rotates_q_and_k_but_never_v():
    x = np.random.default_rng(2).standard_normal((6, 12))
    s = dict(K.modern_block_steps(x, K.init_params(CONFIG), CONFIG))
    assert_allclose(s["q_rot"], K.rope(s["q"], base=10000.0))
    assert_allclose(s["k_rot"], K.rope(s["k"], base=10000.0))
    assert_allclose(s["heads"], s["weights"] @ s["v"])  # v enters unrotated


def test_modern_block_attention_matches_causal_attention():
    x = np.random.default_rng(4).standard_normal((5, 12))
    p = K.init_params(CONFIG, seed=5)
    h = K.rmsnorm(x, p["attn_norm"])
    attention = K.causal_attention(h, p["W_q"], p["W_k"], p["W_v"], p["W_o"], n_heads=3)
    assert_allclose(dict(K.modern_block_steps(x, p, CONFIG))["attn_out"], attention)


def test_causal_attention_one_head_by_hand():
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 4))
    w_q, w_k, w_v, w_o = (rng.standard_normal((4, 4)) for _ in range(4))
    q, k, v = K.rope(x @ w_q), K.rope(x @ w_k), x @ w_v
    expected = []
    for t in range(3):
        scores = np.array([q[t] @ k[s] / 2.0 for s in range(t + 1)])
        weights = np.exp(scores - scores.max()) / np.exp(scores - scores.max()).sum()
        expected.append(weights @ v[: t + 1])
    assert_allclose(K.causal_attention(x, w_q, w_k, w_v, w_o, 1), np.array(expected) @ w_o)


def test_attention_weights_are_zero_above_the_diagonal():
    rng = np.random.default_rng(7)
    q, k, v = (rng.standard_normal((2, 5, 4)) for _ in range(3))
    weights = dict(K.attention_steps(q, k, v))["weights"]
    assert (weights[..., ~K.causal_mask(5)] == 0).all()
    assert_allclose(weights.sum(axis=-1), 1.0)


def test_split_and_merge_heads_are_inverse():
    x = np.arange(2 * 3 * 12, dtype=float).reshape(2, 3, 12)
    heads = K.split_heads(x, 3)
    assert heads.shape == (2, 3, 3, 4)
    assert_allclose(heads[0, 1, 2], x[0, 2, 4:8])  # head 1 holds coordinates 4..7
    assert_allclose(K.merge_heads(heads), x)


def test_postnorm_modern_block_with_bias():
    config = {**CONFIG, "pre_norm": False, "bias": True}
    params = K.init_params(config, seed=8)
    params = {k: v + 0.1 if k.startswith("b_") else v for k, v in params.items()}
    x = np.random.default_rng(9).standard_normal((3, 12))
    s = dict(K.modern_block_steps(x, params, config))
    assert "attn_norm" not in s
    assert_allclose(s["residual"], K.rmsnorm(x + s["attn_out"], params["attn_norm"], 1e-6))
    assert_allclose(s["out"], K.rmsnorm(s["residual"] + s["ffn_out"], params["ffn_norm"], 1e-6))
    assert_allclose(s["gate"], s["residual"] @ params["W_gate"] + params["b_gate"])


def test_modern_block_rejects_wrong_widths_and_params():
    params = K.init_params(CONFIG)
    with pytest.raises(ValueError, match=r"\[\.\.\., T, 12\]"):
        K.modern_block(np.ones((3, 8)), params, CONFIG)
    with pytest.raises(ValueError, match="W_up must have shape"):
        K.modern_block(np.ones((3, 12)), {**params, "W_up": np.ones((12, 31))}, CONFIG)
    with pytest.raises(ValueError, match="missing W_o"):
        K.modern_block(np.ones((3, 12)), {k: v for k, v in params.items() if k != "W_o"}, CONFIG)


def test_modern_stack_ends_with_one_rmsnorm():
    blocks = [K.init_params(CONFIG, seed) for seed in range(3)]
    x = np.random.default_rng(10).standard_normal((4, 12))
    y = K.modern_stack(x, blocks, CONFIG)
    h = x
    for p in blocks:
        h = K.modern_block(h, p, CONFIG)
    assert_allclose(y, K.rmsnorm(h))
    assert_allclose(np.mean(y**2, axis=-1), 1.0, rtol=1e-4)

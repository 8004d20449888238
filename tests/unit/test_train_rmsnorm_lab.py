"""The train-rmsnorm experiment lab (labs/train_rmsnorm.py): a run streams and ends on the
build's state, the arithmetic per row is counted, and what the lesson says about the
defaults and about 2 blocks holds in CPython over the seeds it draws."""

from __future__ import annotations

import numpy as np

from labs import train_rmsnorm
from livelab.labs import lab_view


def test_a_run_streams_growing_curves_and_ends_on_the_builds_state():
    settings = {"depth": 2, "lr": 0.01}
    states = list(train_rmsnorm.run(**settings))
    assert [s["done"] for s in states] == list(range(2, train_rmsnorm.UPDATES + 1, 2))
    for s in states:
        assert all(len(c) == s["done"] for c in s["layernorm"] + s["rmsnorm"])
    assert states[-1] == train_rmsnorm.state(**settings)


def test_at_the_defaults_the_seeds_ranges_overlap_and_rmsnorm_counts_fewer_operations():
    first = lab_view("train_rmsnorm", {})
    assert first["params"] == {"depth": 8, "lr": 0.01}
    s = train_rmsnorm.state(**first["params"])
    assert s["low_rmsnorm"] < s["high_layernorm"] and s["low_layernorm"] < s["high_rmsnorm"]
    text = first["view"]["text"]
    assert text["range_layernorm"] == f"{s['low_layernorm']:.3f} to {s['high_layernorm']:.3f}"
    assert (text["flops_layernorm"], text["flops_rmsnorm"]) == ("98", "66")  # 6d+2, 4d+2
    # The Predict question's feedback: both start between 2.3 and 2.9 and fall near 0.1.
    for norm in ("layernorm", "rmsnorm"):
        curves = np.array(s[norm])  # [seeds, updates]
        assert np.all((curves[:, 0] > 2.25) & (curves[:, 0] < 2.95)), curves[:, 0]
        assert 0.05 < s[f"final_{norm}"] < 0.15


def test_at_two_blocks_every_rmsnorm_seed_ends_below_every_layernorm_seed():
    s = train_rmsnorm.state(depth=2, lr=0.01)
    assert s["high_rmsnorm"] < s["low_layernorm"], s

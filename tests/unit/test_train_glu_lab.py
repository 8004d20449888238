"""The train-glu experiment lab (labs/train_glu.py): a run streams and ends on the build's
state, and what the lesson says about it holds in CPython over the five seeds it draws."""

from __future__ import annotations

import numpy as np

from labs import train_glu
from labs.kernels.glu_training import init_model, weight_count
from livelab.labs import lab_view


def test_a_run_streams_growing_curves_and_ends_on_the_builds_state():
    settings = {"updates": 50, "lr": 0.01}
    states = list(train_glu.run(**settings))
    assert [s["done"] for s in states] == list(range(5, 51, 5))
    for s in states:
        assert all(len(c) == s["done"] for c in s["relu"] + s["swiglu"])
    assert states[-1] == train_glu.state(**settings)


def test_the_two_ffns_hold_almost_the_same_weights():
    def count(ffn: str) -> int:
        return weight_count({n: w[None] for n, w in init_model(0, ffn, 16, 16).items()})

    counts = {f: count(f) for f in ("relu", "swiglu")}
    assert abs(counts["swiglu"] - counts["relu"]) / counts["relu"] < 0.01


def test_at_the_defaults_swiglu_is_ahead_in_every_seed_by_a_small_margin():
    first = lab_view("train_glu", {})
    assert first["params"] == {"updates": 150, "lr": 0.01}
    s = train_glu.state(**first["params"])
    assert s["wins"] == 5 and first["view"]["text"]["wins"] == "5 of 5"
    gap = s["final_relu"] - s["final_swiglu"]
    assert 0.005 < gap < 0.02, gap  # "about 0.01 nats in the median"
    assert s["final_swiglu"] > 4 * gap  # far less than either has still to learn
    # Every curve falls: the excess loss at the end is below the one at the start.
    for ffn in ("relu", "swiglu"):
        curves = np.array(s[ffn])
        assert np.all(curves[:, -1] < curves[:, 0] / 5)


def test_with_more_updates_the_gap_narrows_and_swiglu_stays_ahead():
    at_150 = train_glu.state(updates=150, lr=0.01)
    at_300 = train_glu.state(updates=300, lr=0.01)
    gap = lambda s: s["final_relu"] - s["final_swiglu"]  # noqa: E731
    assert 0 < gap(at_300) < 0.6 * gap(at_150)
    assert at_300["wins"] == 5
    assert at_300["final_swiglu"] < at_150["final_swiglu"]

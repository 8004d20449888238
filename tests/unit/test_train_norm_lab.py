"""The train-norm experiment lab (labs/train_norm.py): a run streams cumulative curves and
ends where the build's state does; at the lab's defaults post-norm does not learn where
pre-norm does; the chunked run protocol drives it."""

from __future__ import annotations

import numpy as np

from labs import train_norm
from livelab.labs import lab_view, runs


def test_a_run_streams_growing_curves_and_ends_on_the_builds_state():
    settings = {"depth": 4, "lr": 0.01, "warmup": 0}
    states = list(train_norm.run(**settings))
    done = [s["done"] for s in states]
    assert done == list(range(train_norm.EVERY, train_norm.UPDATES + 1, train_norm.EVERY))
    for s in states:
        assert all(len(curve) == s["done"] for curve in s["pre"] + s["post"])
        assert len(s["pre"]) == len(s["post"]) == len(train_norm.SEEDS)
    assert states[-1] == train_norm.state(**settings)


def test_at_the_defaults_post_norm_ends_far_above_pre_norm():
    first = lab_view("train_norm", {})  # what the build puts on the page
    assert first["params"] == {"depth": 24, "lr": 0.01, "warmup": 0}
    s = train_norm.state(**first["params"])
    assert s["final_post"] > s["final_pre"] + 1.0, (s["final_pre"], s["final_post"])
    assert s["final_post"] > np.log(8) - 0.1  # no better than a uniform guess over 8 classes
    text = first["view"]["text"]
    assert text["final_pre"] == f"{s['final_pre']:.3f}"
    assert text["final_post"] == f"{s['final_post']:.3f}"
    assert text["progress"] == "60 of 60 updates"


def test_the_chunked_protocol_drives_the_lab_to_its_end():
    started = runs.run_start("train_norm", {"depth": 2}, budget_ms=0)
    assert started["states"] == 1
    assert started["view"]["text"]["progress"] == f"{train_norm.EVERY} of 60 updates"
    chunk = started
    while not chunk["done"]:
        chunk = runs.run_next(started["run"], budget_ms=50)
    assert chunk["view"]["text"]["progress"] == "60 of 60 updates"


def test_what_the_lesson_says_about_other_settings_holds():
    # docs/level-19/modern-blocks.md, after the lab: a warm-up over 30 updates leaves post-norm
    # near 1.8, one over all 60 near 1.4, a rate of 0.003 near 0.9; at 6 blocks both train.
    def finals(**changed) -> tuple[float, float]:
        s = train_norm.state(**({"depth": 24, "lr": 0.01, "warmup": 0} | changed))
        return s["final_pre"], s["final_post"]

    assert abs(finals(warmup=30)[1] - 1.8) < 0.05
    pre, post = finals(warmup=60)
    assert abs(post - 1.4) < 0.05 and post > pre + 1.0
    assert abs(finals(lr=0.003)[1] - 0.9) < 0.05
    assert max(finals(depth=6)) < 0.2

"""The train-rope experiment lab (labs/train_rope.py): a run streams and fills the accuracy
table at its end, learned positions cannot run past the training length, and what the lesson
says of the defaults holds in CPython over the seeds it draws."""

from __future__ import annotations

from labs import train_rope
from livelab.labs import lab_view


def test_a_run_streams_the_curves_and_ends_with_the_accuracies():
    settings = {"updates": 50, "lr": 0.01}
    states = list(train_rope.run(**settings))
    assert [s["done"] for s in states] == list(range(5, 51, 5))
    assert all(s["accuracy"] is None for s in states[:-1])
    assert states[-1]["accuracy"] is not None
    view = train_rope.view(states[0])
    assert view["text"]["acc_rope_64"] == "not yet"
    assert states[-1] == train_rope.state(**settings)


def test_at_the_defaults_what_the_lesson_says_holds():
    first = lab_view("train_rope", {})
    assert first["params"] == {"updates": 200, "lr": 0.01}
    acc = train_rope.state(**first["params"])["accuracy"]
    text = first["view"]["text"]
    for method in ("learned", "sinusoidal", "rope"):
        assert acc[method][16] == 1.0  # every method copies perfectly at the training length
    for n in (24, 32, 48, 64):
        assert acc["learned"][n] is None and text[f"acc_learned_{n}"] == "cannot run"
        assert acc["rope"][n] > acc["sinusoidal"][n], n  # RoPE keeps more at every length
        assert acc["rope"][n] < 1.0  # but not all of it
    # "0.54 against 0.40 at 64", in the table and in the labelled outputs
    assert (text["acc_rope_64"], text["acc_sinusoidal_64"]) == ("0.54", "0.40")
    assert (text["final_rope"], text["final_sinusoidal"]) == ("0.54", "0.40")
    assert text["final_learned"] == "cannot run"

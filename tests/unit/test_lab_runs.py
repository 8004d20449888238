"""Labs that run (livelab.labs.runs): a run goes in chunks of a time budget, keeps the params
it started with, stops at once, and never holds more than MAX_OPEN generators open."""

from __future__ import annotations

import time

import pytest

from livelab.labs import LABS, Lab, all_labs, register_lab, runs
from livelab.options import Option, Options

PARAMS = Options(n=Option(5, 1, 50, 1, "n", what="how many states the run yields"))
closed: list[int] = []


def count_up(*, n: int):
    """The toy run: states 1..n, each the list so far (a run's states are cumulative)."""
    try:
        for i in range(1, n + 1):
            time.sleep(0.002)
            yield {"so_far": list(range(1, i + 1))}
    finally:
        closed.append(n)


@pytest.fixture(autouse=True)
def counting_lab(monkeypatch):
    monkeypatch.setattr(LABS, "items", dict(all_labs()))
    monkeypatch.setattr(runs, "_open", type(runs._open)())
    closed.clear()
    register_lab(
        Lab(
            name="count-up",
            title="Count up",
            params=PARAMS,
            state=lambda *, n: {"so_far": list(range(1, n + 1))},
            view=lambda s: {"text": {"last": str(s["so_far"][-1])}},
            body=lambda values, marks: "",
            run=count_up,
            module="course.labs",
        )
    )


def test_a_run_goes_in_chunks_and_each_shows_its_last_state():
    first = runs.run_start("count-up", {"n": 40}, budget_ms=10)
    assert first["params"] == {"n": 40}
    assert 1 <= first["states"] < 40 and not first["done"]
    assert first["view"] == {"text": {"last": str(first["states"])}}
    reached = first["states"]
    while True:
        chunk = runs.run_next(first["run"], budget_ms=10)
        # Every chunk advances by at least one state, but the one that finds the end may not.
        assert chunk["states"] > reached or chunk["done"]
        reached = chunk["states"]
        if chunk["done"]:
            break
    assert chunk["view"] == {"text": {"last": "40"}} and reached == 40
    with pytest.raises(LookupError, match="not open"):
        runs.run_next(first["run"])  # a finished run is closed


def test_a_zero_budget_still_advances_by_one_state():
    run = runs.run_start("count-up", {"n": 3}, budget_ms=0)
    assert run["states"] == 1
    assert runs.run_next(run["run"], budget_ms=0)["states"] == 2


def test_stop_drops_the_generator_at_once():
    run = runs.run_start("count-up", {"n": 30}, budget_ms=0)
    assert runs.run_stop(run["run"]) == {"stopped": True}
    assert closed == [30]  # its finally ran: nothing of it goes on
    assert runs.run_stop(run["run"]) == {"stopped": False}
    with pytest.raises(LookupError):
        runs.run_next(run["run"])


def test_new_runs_drop_the_oldest_beyond_max_open():
    started = [runs.run_start("count-up", {"n": 30 + i}, budget_ms=0)["run"] for i in range(6)]
    assert closed == [30, 31]
    with pytest.raises(LookupError):
        runs.run_next(started[0])
    assert runs.run_next(started[-1], budget_ms=0)["states"] == 2


def test_params_are_checked_at_the_start_and_a_lab_that_does_not_run_says_so():
    with pytest.raises(ValueError, match="n"):
        runs.run_start("count-up", {"n": 500})
    register_lab(
        Lab(
            name="still",
            title="Still",
            params=PARAMS,
            state=lambda *, n: {},
            view=lambda s: {},
            body=lambda values, marks: "",
            module="course.labs",
        )
    )
    with pytest.raises(ValueError, match="does not run"):
        runs.run_start("still", {})

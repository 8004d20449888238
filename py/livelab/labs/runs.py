"""Labs that run: a lab whose module defines `run(**params)`, a generator that yields states as
its computation goes (a training run yields one every few updates), is driven in chunks.

Each chunk is an ordinary request to the page's main worker, so the requests of the page's
other labs are answered between two chunks and the rest of the page stays live while a run
goes on:

    run_start(name, params)  -> {"run": id, "params", "view", "states", "done"}
    run_next(run, budget_ms) -> {"view", "states", "done"}
    run_stop(run)            -> {"stopped": bool}

A chunk advances the generator until budget_ms has passed (at least one state, unless the run
ends) and returns the view of the last state reached (None only for a run that yields none).
A run's states are cumulative (the curve so far), so the last one is all the page needs to
draw. `states` counts the states reached so far.

- The params are read once, at the start: a change of settings during a run is for the next
  run, never mixed into this one.
- Stop drops the generator at once; what the page drew stays drawn.
- A page left behind never says stop, so at most MAX_OPEN runs stay open: a new one drops
  the oldest, and a chunk for a dropped run says so with a LookupError.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Iterator

from livelab import i18n
from livelab.labs import lab

MAX_OPEN = 4


class _Run:
    """An open run: its lab, its generator, how many states it has reached and the last."""

    def __init__(self, name: str, states: Iterator[dict]) -> None:
        self.name, self.states, self.reached = name, states, 0
        self.last: dict | None = None


_open: OrderedDict[int, _Run] = OrderedDict()
_ids = itertools.count(1)


def _chunk(run: int, budget_ms: float) -> dict:
    """Advance run until budget_ms has passed (at least one state); its last view."""
    entry = _open[run]
    deadline = time.perf_counter() + budget_ms / 1000
    done = False
    while True:
        try:
            entry.last = next(entry.states)
        except StopIteration:
            done = True
            break
        entry.reached += 1
        if time.perf_counter() >= deadline:
            break
    if done:
        run_stop(run)
    # The chunk that finds the end may reach no new state: it shows the last one again.
    view = None if entry.last is None else lab(entry.name).view(entry.last)
    return {"view": view, "states": entry.reached, "done": done}


def run_start(name: str, params: dict, budget_ms: float = 150) -> dict:
    """Check params, start the lab's run and advance it by a first chunk."""
    chosen = lab(name)
    if chosen.run is None:
        raise ValueError(f"The {name} lab does not run: it has no run(**params).")
    clean = chosen.params.coerce(params, f"lab {name!r}")
    run = next(_ids)
    _open[run] = _Run(name, iter(chosen.run(**clean)))
    while len(_open) > MAX_OPEN:
        run_stop(next(iter(_open)))
    return {"run": run, "params": clean, **_chunk(run, budget_ms)}


def run_next(run: int, budget_ms: float = 150) -> dict:
    """The next chunk of an open run; LookupError once it was stopped, ended or dropped."""
    if run not in _open:
        raise LookupError(i18n.text("markup.run_not_open", run=run))  # the page may show it
    return _chunk(run, budget_ms)


def run_stop(run: int) -> dict:
    """Drop run's generator at once; {"stopped": False} when it was not open."""
    entry = _open.pop(run, None)
    if entry is None:
        return {"stopped": False}
    close = getattr(entry.states, "close", None)
    if close is not None:
        close()
    return {"stopped": True}

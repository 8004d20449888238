"""Lab state functions: one module per lab, each with PARAMS, state(**params) and view(state).

`state` returns the lab's numbers (what tests check); `view` turns them into the text and
SVG attributes the widget shows. The build renders the first view into the page; the
browser asks the worker for later ones, so both run this same code.
"""

from __future__ import annotations

import importlib
from types import ModuleType

# Lab kind -> module. A fence names a kind; the worker only calls modules listed here.
LABS = {
    "glu": "livelab.labs.glu",
    "modern_block": "livelab.labs.modern_block",
    "norm_path": "livelab.labs.norm_path",
    "rms": "livelab.labs.rms",
    "rope": "livelab.labs.rope",
    "rope_clock": "livelab.labs.rope_clock",
}


def lab_module(kind: str) -> ModuleType:
    """The module of a lab kind; ValueError naming the known kinds for an unknown one."""
    if kind not in LABS:
        raise ValueError(f"unknown lab {kind!r}; known labs: {', '.join(sorted(LABS))}")
    return importlib.import_module(LABS[kind])


def lab_view(kind: str, params: dict) -> dict:
    """Validate params for a lab kind, compute its state and return {"params", "view"}."""
    module = lab_module(kind)
    clean = module.PARAMS.coerce(params)
    return {"params": clean, "view": module.view(module.state(**clean))}

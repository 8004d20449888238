"""Labs: each one registered object (params, state, view, markup), defined in one module.

`state` returns the lab's numbers (what tests check); `view` turns them into the text and SVG
attributes the widget shows; `body` is the lab's markup around the first view; `scratch`
writes the same numbers as Python for the scratchpad ("Open in scratchpad"). The build
renders the first view into the page; the browser asks the worker for later ones, so both run
this same code. Every module of this package is imported on first use, so adding a lab is
adding a module that calls `register_lab`; a course registers its own labs the same way from
a module it names in the plugin's `modules` setting.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from livelab.options import Option, Options
from livelab.registry import Registry

LAB_FENCE = Options(
    lab=Option(types=(str,), what="which lab: one of the registered lab names"),
    id=Option("", types=(str,), what="the lab's id on the page (default: its name, dashed)"),
    title=Option("", types=(str,), what="the title above the lab (default: the lab's own)"),
)
"""The options every lab fence takes besides its lab's params."""


class Scratch(NamedTuple):
    """What "Open in scratchpad" puts in the scratchpad for one state of a lab."""

    code: str
    """Python that rebuilds the lab's numbers from its settings with np and the kernels; its
    last line is an expression, so the scratchpad shows its value."""
    shows: str
    """The name of the view's text whose number(s) that value reproduces (tests compare)."""


@dataclass(frozen=True)
class Lab:
    """One lab: its name, its params and the functions that make it live.

    `state(**params)` gets every param (already checked, no defaults of its own);
    `view(state)` returns {"text": ..., "attrs": ..., ...} for the widget (the engine adds the
    text each slider shows beside itself); `body(values, marks)` returns the lab's HTML (a
    ValueError refuses the first view: the build names the fence);
    `scratch(state)` returns a Scratch, the state as Python (None: no "Open in scratchpad").
    """

    name: str
    title: str
    params: Options
    state: Callable[..., dict]
    view: Callable[[dict], dict]
    body: Callable[..., str]
    scratch: Callable[[dict], Scratch] | None = None
    run: Callable[..., Iterator[dict]] | None = None
    """A generator of states as a computation goes (livelab.labs.runs drives it); None: the
    lab does not run."""
    about: str = ""
    """One line for the authoring reference; the module's docstring line when empty."""
    module: str = field(default="", compare=False)

    def compute(self, **given: object) -> dict:
        """The state for the default params overlaid with given ones (checked)."""
        return self.state(**self.params.coerce(given, f"lab {self.name!r}"))

    def first_view(self, given: dict) -> dict:
        """Check given params, compute the state and return {"params", "view"}."""
        clean = self.params.coerce(given, f"lab {self.name!r}")
        view = self.view(self.state(**clean))
        shown = {
            name: spec.show(clean[name])
            for name, spec in self.params.controls().items()
            if spec.control == "range"
        }
        view["text"] = {**shown, **view.get("text", {})}
        return {"params": clean, "view": view}

    def scratch_for(self, given: dict) -> Scratch:
        """Check given params and write the lab's state for them as scratchpad code."""
        if self.scratch is None:
            from livelab import i18n  # only here: a lab's first view does not need it

            raise ValueError(i18n.text("scratch.lab_without_code", name=self.name))
        return self.scratch(self.state(**self.params.coerce(given, f"lab {self.name!r}")))


def lab_of_module(module: str, *, name: str, title: str) -> Lab:
    """The lab a module defines under the usual names: PARAMS, state, view, body and (if it
    has one) scratch. Called at the end of the module: `register_lab(lab_of_module(__name__,
    name="rope", title="..."))`."""
    found = vars(sys.modules[module])
    missing = [n for n in ("PARAMS", "state", "view", "body") if n not in found]
    if missing:
        raise ValueError(f"lab {name!r}: module {module} defines no {', '.join(missing)}")
    return Lab(
        name=name,
        title=title,
        params=found["PARAMS"],
        state=found["state"],
        view=found["view"],
        body=found["body"],
        scratch=found.get("scratch"),
        run=found.get("run"),
        module=module,
    )


LABS: Registry[Lab] = Registry("lab", __name__)
register_lab = LABS.register
all_labs = LABS.all


def lab(name: str) -> Lab:
    """The lab of that name; ValueError naming the known labs (and a close one) otherwise."""
    return LABS.get(name)


def lab_view(name: str, params: dict) -> dict:
    """Validate params for a lab, compute its state and return {"params", "view"}."""
    return lab(name).first_view(params)


def lab_scratch(name: str, params: dict) -> str:
    """The lab's numbers for these params as Python code for the scratchpad."""
    return lab(name).scratch_for(params).code

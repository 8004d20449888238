"""Figures that code run in the scratch Python made with matplotlib (issue 34): each one a PNG
image with a text alternative, taken at the end of the run that drew it, then closed.

matplotlib draws with Agg here, the backend that needs no screen: the worker has none.
`warm` imports a package the course serves, once its files are in, in a request that runs
no student code, so its modules join the worker's clean state (livelab.worker_state) and
drawing a figure leaves them as a student's later run finds them.
"""

from __future__ import annotations

import base64
import importlib
import io
import os
import sys
import warnings
from typing import Any

from livelab import i18n

os.environ.setdefault("MPLBACKEND", "Agg")
FIGURES_KEPT = 4
"""At most this many figures of one run are shown; the others are closed unseen."""
DPI = 96
PYPLOT = "matplotlib.pyplot"


def _pyplot(names: dict[str, Any]) -> Any:
    """pyplot, as this run's code may reach it: imported, or under a name of the namespace."""
    found = sys.modules.get(PYPLOT)
    if found is not None:
        return found
    return next((v for v in names.values() if getattr(v, "__name__", None) == PYPLOT), None)


def take(names: dict[str, Any]) -> tuple[list[dict[str, str]], str]:
    """The open figures as [{png, alt}], closed afterwards; and a note when some were left out."""
    plt = _pyplot(names)
    if plt is None:
        return [], ""
    numbers = list(plt.get_fignums())
    figures = []
    for number in numbers[:FIGURES_KEPT]:
        figure = plt.figure(number)
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight")
        png = base64.b64encode(buffer.getvalue()).decode("ascii")
        figures.append({"png": png, "alt": describe(figure, number)})
    plt.close("all")
    left = len(numbers) - len(figures)
    note = i18n.text("plot.more_not_shown", count=left, limit=FIGURES_KEPT) if left else ""
    return figures, note


def describe(figure: Any, number: int) -> str:
    """The figure in words, from what the code gave it: titles, axis labels, what is drawn."""
    said = []
    suptitle = getattr(figure, "_suptitle", None)
    if suptitle is not None and suptitle.get_text():
        said.append(suptitle.get_text())
    for axes in figure.get_axes():
        parts = [axes.get_title() or i18n.text("plot.untitled")]
        if axes.get_xlabel():
            parts.append(i18n.text("plot.x_label", label=axes.get_xlabel()))
        if axes.get_ylabel():
            parts.append(i18n.text("plot.y_label", label=axes.get_ylabel()))
        drawn = _drawn(axes)
        if drawn:
            parts.append(drawn)
        said.append(", ".join(parts))
    return i18n.text("plot.figure", number=number, description=". ".join(said))


def _drawn(axes: Any) -> str:
    """What an axes holds, counted: lines (with their legend labels), bars, points, images."""
    lines = [line for line in axes.get_lines() if not line.get_label().startswith("_")]
    unnamed = len(axes.get_lines()) - len(lines)
    parts = []
    if lines:
        labels = i18n.text("plot.label_separator").join(line.get_label() for line in lines)
        parts.append(i18n.text("plot.named_lines", count=len(lines), labels=labels))
    if unnamed:
        parts.append(i18n.text("plot.lines", count=unnamed))
    bars = len(axes.patches)
    if bars:
        parts.append(i18n.text("plot.bars", count=bars))
    points = sum(len(c.get_offsets()) for c in axes.collections if hasattr(c, "get_offsets"))
    if points:
        parts.append(i18n.text("plot.points", count=points))
    if axes.images:
        parts.append(i18n.text("plot.images", count=len(axes.images)))
    return ", ".join(parts)


def show(*args: Any, **kwargs: Any) -> None:
    """plt.show() here: the run's figures appear under its output once it ends (take)."""


def warm(names: list[str]) -> list[str]:
    """Import each of names (a package the course serves, its files just loaded) and, for
    matplotlib, draw and close one figure, so that what drawing sets up once is set up now,
    outside any student run. Returns the names imported."""
    done = []
    for name in names:
        importlib.import_module(name)
        done.append(name)
    if "matplotlib" in names:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            plt = importlib.import_module(PYPLOT)
            figure, axes = plt.subplots()
            axes.plot([0, 1], [0, 1], label="warm")
            axes.legend()
            figure.savefig(io.BytesIO(), format="png", dpi=DPI, bbox_inches="tight")
            plt.close("all")
            setattr(plt, "show", show)  # noqa: B010  (Agg has no window, and would say so each call)
    return done

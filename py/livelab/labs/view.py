"""Formatting shared by lab views: numbers as the page shows them, points in SVG space."""

from __future__ import annotations

import math
from collections.abc import Iterable


def fmt_number(x: float, digits: int = 2) -> str:
    """x with fixed decimals; a value that rounds to zero shows as 0, never -0."""
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def fmt_vector(values: Iterable[float], digits: int = 2) -> str:
    """A vector as [a, b, ...] with fixed decimals."""
    return "[" + ", ".join(fmt_number(v, digits) for v in values) + "]"


def svg_point(x: float, y: float, center: float, scale: float) -> dict[str, str]:
    """Math coordinates (y up) to SVG coordinates (y down) around a centre point."""
    return {"x": f"{center + scale * x:.2f}", "y": f"{center - scale * y:.2f}"}


# Tags a view may ask the widget to draw; lab.js creates exactly these and nothing else.
SVG_TAGS = ("g", "line", "polyline", "path", "rect", "circle", "text")


def shape(tag: str, attrs: dict[str, object], text: str | None = None, **more: object) -> dict:
    """One SVG element for a view's "svg" part: tag, attributes (as strings), optional text.

    Keyword arguments are extra attributes; a trailing underscore is dropped (class_=...) and
    other underscores become dashes (text_anchor -> text-anchor).
    """
    if tag not in SVG_TAGS:
        raise ValueError(f"cannot draw <{tag}>; drawable tags: {', '.join(SVG_TAGS)}")
    merged = dict(attrs)
    for key, value in more.items():
        merged[key.rstrip("_").replace("_", "-")] = value
    out: dict = {"tag": tag, "attrs": {k: _attr_text(v) for k, v in merged.items()}}
    if text is not None:
        out["text"] = text
    return out


def _attr_text(value: object) -> str:
    """Attribute text; floats (SVG coordinates) to 2 decimals without trailing zeros."""
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot draw at a non-finite coordinate {value}")
        text = f"{value:.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text
    return str(value)


# Figure text is 14 CSS px on screen at every width (livelab.css; lab.js keeps it so), so in
# viewBox units it is largest where a figure is drawn narrowest: about 286 px wide on a
# 360 px screen. Rows of text are therefore placed in em (a dy attribute), which follows the
# text's real size at every width, and margins are reserved for the largest em.
TEXT_PX = 14.0  # at least 14 px, as all text a student reads (issue 31)
NARROWEST_FIGURE_PX = 280.0
CENTRED = "0.35em"  # dy that centres a line of digits and letters vertically on its y
# Rows below a plot box, as baselines in em: x tick labels, then the x title; the title's
# descent ends above BELOW_AXES. A row is 1.15 em tall (Roboto), so rows 1.3 em apart clear.
X_TICK_ROW, X_TITLE_ROW, BELOW_AXES = 1.15, 2.45, 2.75


def largest_em(view_width: float) -> float:
    """The size of figure text in viewBox units where a figure view_width wide is narrowest."""
    return TEXT_PX * view_width / NARROWEST_FIGURE_PX


def em(rows: float) -> str:
    """A dy attribute of rows times the text's own size."""
    return f"{rows:g}em"


def tick_anchor(x: float, left: float, right: float) -> str:
    """How an x tick label is anchored: inside the box at its edges, centred elsewhere.

    Centred at the left edge, a label would run into the lowest y label (which ends just left
    of the box) once figure text keeps its size on a narrow screen.
    """
    return "start" if x == left else "end" if x == right else "middle"


class Frame:
    """A plot area: data ranges mapped onto a box of the SVG (data y up, SVG y down)."""

    def __init__(
        self,
        x_range: tuple[float, float],
        y_range: tuple[float, float],
        box: tuple[float, float, float, float],
    ) -> None:
        self.x_min, self.x_max = x_range
        self.y_min, self.y_max = y_range
        self.left, self.top, self.width, self.height = box

    def x(self, value: float) -> float:
        """SVG x of a data x."""
        return self.left + (value - self.x_min) / (self.x_max - self.x_min) * self.width

    def y(self, value: float) -> float:
        """SVG y of a data y."""
        return self.top + (self.y_max - value) / (self.y_max - self.y_min) * self.height

    def points(self, xs: Iterable[float], ys: Iterable[float]) -> str:
        """A polyline's points attribute for data points."""
        return " ".join(f"{self.x(a):.2f},{self.y(b):.2f}" for a, b in zip(xs, ys, strict=True))

    def axes(
        self,
        x_ticks: Iterable[float],
        y_ticks: Iterable[float],
        x_label: str,
        y_label: str,
        digits: int = 0,
    ) -> list[dict]:
        """Axis lines at the box edges (or through zero when it is in range), ticks and labels."""
        bottom, right = self.top + self.height, self.left + self.width
        x_axis_y = self.y(0) if self.y_min < 0 < self.y_max else bottom
        y_axis_x = self.x(0) if self.x_min < 0 < self.x_max else self.left
        out = [
            shape(
                "line",
                {"x1": self.left, "y1": x_axis_y, "x2": right, "y2": x_axis_y},
                class_="livelab-axis",
            ),
            shape(
                "line",
                {"x1": y_axis_x, "y1": self.top, "x2": y_axis_x, "y2": bottom},
                class_="livelab-axis",
            ),
        ]
        for t in x_ticks:
            out.append(self.x_tick(self.x(t), fmt_number(t, digits)))
        for t in y_ticks:
            out.append(
                shape(
                    "text",
                    {"x": self.left - 4, "y": self.y(t)},
                    fmt_number(t, digits),
                    class_="livelab-tick",
                    text_anchor="end",
                    dy=CENTRED,
                )
            )
        out.append(
            shape(
                "text",
                {"x": self.left + self.width / 2, "y": bottom},
                x_label,
                class_="livelab-axis-label",
                text_anchor="middle",
                dy=em(X_TITLE_ROW),
            )
        )
        out.append(
            shape(
                "text",
                {"x": self.left, "y": self.top},
                y_label,
                class_="livelab-axis-label",
                text_anchor="start",
                dy="-0.45em",  # its descent ends just above the box
            )
        )
        return out

    def x_tick(self, x: float, label: str) -> dict:
        """A label in the x tick row under the box at SVG x (anchored inside at the edges)."""
        right = self.left + self.width
        return shape(
            "text",
            {"x": x, "y": self.top + self.height},
            label,
            class_="livelab-tick",
            text_anchor=tick_anchor(x, self.left, right),
            dy=em(X_TICK_ROW),
        )

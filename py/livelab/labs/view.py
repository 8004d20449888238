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
            x = self.x(t)
            out.append(
                shape(
                    "text",
                    {"x": x, "y": bottom + 14},
                    fmt_number(t, digits),
                    class_="livelab-tick",
                    text_anchor=tick_anchor(x, self.left, right),
                )
            )
        for t in y_ticks:
            out.append(
                shape(
                    "text",
                    {"x": self.left - 4, "y": self.y(t) + 4},
                    fmt_number(t, digits),
                    class_="livelab-tick",
                    text_anchor="end",
                )
            )
        out.append(
            shape(
                "text",
                {"x": self.left + self.width / 2, "y": bottom + 30},
                x_label,
                class_="livelab-axis-label",
                text_anchor="middle",
            )
        )
        out.append(
            shape(
                "text",
                {"x": self.left, "y": self.top - 8},
                y_label,
                class_="livelab-axis-label",
                text_anchor="start",
            )
        )
        return out

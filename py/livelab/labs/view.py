"""Formatting shared by lab views: numbers as the page shows them, points in SVG space."""

from __future__ import annotations

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

"""RoPE lab: one pair q and one pair k, each turned by its position times theta.

The score q·k after rotation depends only on the offset q_pos - k_pos; the lab lets a
student move either position, or both at once, and watch that happen.
"""

from __future__ import annotations

import numpy as np

from labs.kernels import rope, rotate
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr, controls_html, set_button, strip
from livelab.labs.view import fmt_number, fmt_vector
from livelab.options import Option, Options

PARAMS = Options(
    q_pos=Option(0, 0, 20, 1, "q position", what="position m of q"),
    k_pos=Option(0, 0, 20, 1, "k position", what="position n of k"),
    theta=Option(0.5, 0.0, 3.14, 0.01, "θ (radians per position)", what="turn per position"),
    q=Option((1.0, 0.0), what="the query pair before rotation"),
    k=Option((0.0, 1.0), what="the key pair before rotation"),
)

# The drawing: a circle of radius 1 around (CENTER, CENTER) in a square SVG of side 2 * CENTER,
# with room outside the circle for the q and k labels.
CENTER = 110.0
SCALE = 78.0
HEAD = 11.0  # arrowhead length, in SVG units
ARC = 26.0  # radius of the arc that marks the angle between q and k


def state(
    *, q_pos: int, k_pos: int, theta: float, q: tuple[float, ...], k: tuple[float, ...]
) -> dict:
    """Turn q by q_pos * theta and k by k_pos * theta; both pairs, their angle and score."""
    q_angle, k_angle = q_pos * theta, k_pos * theta
    q_rot = rotate(np.asarray(q, dtype=float), q_angle)  # [2]
    k_rot = rotate(np.asarray(k, dtype=float), k_angle)  # [2]
    # The turn from k to q, counter-clockwise positive, in (-pi, pi].
    between = float(np.arctan2(q_rot[1], q_rot[0]) - np.arctan2(k_rot[1], k_rot[0]))
    between = float(np.pi - (np.pi - between) % (2 * np.pi))
    return {
        "q_pos": q_pos,
        "k_pos": k_pos,
        "theta": theta,
        "q": list(q),
        "k": list(k),
        "q_angle": q_angle,
        "k_angle": k_angle,
        "offset": q_pos - k_pos,
        "q_rot": q_rot.tolist(),
        "k_rot": k_rot.tolist(),
        "between": between,
        "score": float(q_rot @ k_rot),
    }


def view(s: dict) -> dict:
    """What the widget shows for a state: text fields, and arrows, labels and arc in SVG space."""
    between = fmt_number(abs(s["between"]))
    return {
        "text": {
            "q_angle": fmt_number(s["q_angle"]),
            "k_angle": fmt_number(s["k_angle"]),
            "offset": str(s["offset"]),
            "q_rot": fmt_vector(s["q_rot"]),
            "k_rot": fmt_vector(s["k_rot"]),
            "between": between,
            "between_label": f"{between} rad",
            "score": fmt_number(s["score"]),
            "drawing": (
                f"q and k drawn as arrows on the unit circle after rotation; the angle between "
                f"them is {between} rad"
            ),
        },
        "attrs": {
            "q_arrow": _shaft(s["q_rot"]),
            "k_arrow": _shaft(s["k_rot"]),
            "q_head": {"d": _head(s["q_rot"])},
            "k_head": {"d": _head(s["k_rot"])},
            "q_label": _label(s["q_rot"]),
            "k_label": _label(s["k_rot"]),
            "arc": {"d": _arc(s["k_rot"], s["between"])},
            "between_label": _between_label(s["k_rot"], s["between"]),
        },
    }


def body(values: dict, marks: Marks) -> str:
    """Controls, drawing and readouts of one RoPE lab instance."""
    size = 2 * CENTER
    c, r = CENTER, SCALE
    score_id = attr(marks.dom_id("score"))
    drawing_id = attr(marks.dom_id("drawing"))
    start = {name: values[name] for name in ("q_pos", "k_pos", "theta")}
    return (
        strip(
            '<div class="livelab-controls">'
            + controls_html(PARAMS, values, marks)
            + '<div class="livelab-buttons">'
            '<button type="button" class="livelab-button" data-step="q_pos k_pos" data-by="-1" '
            "disabled>Both −1</button>"
            '<button type="button" class="livelab-button" data-step="q_pos k_pos" data-by="1" '
            "disabled>Both +1</button>" + set_button("Reset", start) + "</div>"
            "</div>"
        )
        + '<div class="livelab-rope">'
        f'<svg class="livelab-plot" viewBox="0 0 {size:g} {size:g}" role="img" '
        f'aria-labelledby="{drawing_id}">'
        + marks.text("drawing", tag="title", extra=f' id="{drawing_id}"')
        + f'<circle class="livelab-axis" cx="{c:g}" cy="{c:g}" r="{r:g}"/>'
        f'<line class="livelab-axis" x1="{c - r:g}" y1="{c:g}" x2="{c + r:g}" y2="{c:g}"/>'
        f'<line class="livelab-axis" x1="{c:g}" y1="{c - r:g}" x2="{c:g}" y2="{c + r:g}"/>'
        f'<path class="livelab-angle" {marks.attrs("arc")}/>'
        + marks.text(
            "between_label",
            tag="text",
            extra=' class="livelab-angle-label" text-anchor="middle" '
            + marks.attrs("between_label"),
        )
        + "".join(
            f'<line class="livelab-arrow livelab-arrow--{n}" x1="{c:g}" y1="{c:g}" '
            f"{marks.attrs(f'{n}_arrow')}/>"
            f'<path class="livelab-arrowhead livelab-arrow--{n}" {marks.attrs(f"{n}_head")}/>'
            f'<text class="livelab-arrow-label" text-anchor="middle" '
            f"{marks.attrs(f'{n}_label')}>{n}</text>"
            for n in ("k", "q")
        )
        + "</svg>"
        '<dl class="livelab-readout">'
        f'<dt><span class="livelab-key livelab-key--q">q</span> turned by</dt>'
        f"<dd>{marks.text('q_angle')} rad → {marks.text('q_rot')}</dd>"
        f'<dt><span class="livelab-key livelab-key--k">k</span> turned by</dt>'
        f"<dd>{marks.text('k_angle')} rad → {marks.text('k_rot')}</dd>"
        f"<dt>angle between q and k</dt><dd>{marks.text('between')} rad</dd>"
        f"<dt>offset m − n</dt><dd>{marks.text('offset')}</dd>"
        "</dl>"
        "</div>"
        '<p class="livelab-score">'
        f'<label for="{score_id}">score q·k</label> '
        # <output> is a polite live region already (role status); aria-live says it for old readers.
         + marks.text("score", tag="output", extra=f' id="{score_id}" aria-live="polite"') + "</p>"
    )


def _unit(pair: list[float]) -> tuple[float, float]:
    """The pair's direction as a unit vector (math axes, y up); along x for a zero pair."""
    length = float(np.hypot(pair[0], pair[1]))
    return (pair[0] / length, pair[1] / length) if length else (1.0, 0.0)


def _at(radius: float, ux: float, uy: float) -> tuple[float, float]:
    """SVG coordinates of the point at radius (SVG units) along a math-axes direction."""
    return CENTER + radius * ux, CENTER - radius * uy


def _shaft(pair: list[float]) -> dict[str, str]:
    """End point (x2, y2) of an arrow's shaft: it stops where its head begins."""
    x, y = _at(SCALE - HEAD + 1, *_unit(pair))
    return {"x2": f"{x:.2f}", "y2": f"{y:.2f}"}


def _head(pair: list[float]) -> str:
    """A triangle whose tip sits on the circle, pointing along the pair."""
    ux, uy = _unit(pair)
    tip = _at(SCALE, ux, uy)
    bx, by = _at(SCALE - HEAD, ux, uy)
    wing = HEAD * 0.45  # half the base; (uy, ux) is across the shaft in SVG's y-down axes
    left = (bx - wing * uy, by - wing * ux)
    right = (bx + wing * uy, by + wing * ux)
    return "M" + " L".join(f"{x:.2f} {y:.2f}" for x, y in (tip, left, right)) + " Z"


def _label(pair: list[float]) -> dict[str, str]:
    """Where the arrow's letter goes: just beyond its tip (baseline lowered to centre it)."""
    x, y = _at(SCALE + 14, *_unit(pair))
    return {"x": f"{x:.2f}", "y": f"{y + 5:.2f}"}


def _arc(k_pair: list[float], between: float) -> str:
    """An arc of radius ARC from k's direction, turning by `between` (counter-clockwise > 0)."""
    start = float(np.arctan2(k_pair[1], k_pair[0]))
    x0, y0 = _at(ARC, np.cos(start), np.sin(start))
    x1, y1 = _at(ARC, np.cos(start + between), np.sin(start + between))
    sweep = 0 if between > 0 else 1  # SVG's y points down: counter-clockwise is sweep 0
    return f"M{x0:.2f} {y0:.2f} A{ARC:g} {ARC:g} 0 0 {sweep} {x1:.2f} {y1:.2f}"


def _between_label(k_pair: list[float], between: float) -> dict[str, str]:
    """The angle's value, placed on the bisector of the arc, outside it."""
    middle = float(np.arctan2(k_pair[1], k_pair[0])) + between / 2
    x, y = _at(ARC + 22, np.cos(middle), np.sin(middle))
    return {"x": f"{x:.2f}", "y": f"{y + 4:.2f}"}


def scratch(s: dict) -> Scratch:
    """The lab's q, k, positions and θ as Python, ending on the score it shows."""
    code = f"""# RoPE lab: q and k turned by their positions times theta, then multiplied.
q = np.array({s["q"]!r})  # the query pair before it is turned
k = np.array({s["k"]!r})  # the key pair before it is turned
q_pos, k_pos = {s["q_pos"]!r}, {s["k_pos"]!r}  # positions m and n
theta = {s["theta"]!r}  # radians per position
q_rot = rotate(q, q_pos * theta)  # q turned by m * theta
k_rot = rotate(k, k_pos * theta)  # k turned by n * theta
score = float(q_rot @ k_rot)  # the lab shows it to 2 decimals
score
"""
    return Scratch(code, "score")


LAB = register_lab(
    lab_of_module(
        __name__, name="rope", title="RoPE: turn q and k by their positions, then score them"
    )
)


def seeded_demo(
    seed: int = 0,
    width: int = 4,
    positions: tuple[tuple[int, int], ...] = ((7, 4), (107, 104)),
    base: float = 10000.0,
) -> dict:
    """Random q and k of one width (q drawn first), scored at several (q_pos, k_pos) pairs.

    Every pair of coordinates turns at its own rate base ** (-2 i / width); equal offsets
    still give equal scores.
    """
    rng = np.random.default_rng(seed)
    q = rng.standard_normal(width)  # [width]
    k = rng.standard_normal(width)  # [width]
    scores = []
    for q_pos, k_pos in positions:
        q_rot = rope(q[None, :], positions=[q_pos], base=base)[0]  # [width]
        k_rot = rope(k[None, :], positions=[k_pos], base=base)[0]  # [width]
        scores.append(float(q_rot @ k_rot))
    return {
        "q": q.tolist(),
        "k": k.tolist(),
        "positions": [list(p) for p in positions],
        "scores": scores,
    }

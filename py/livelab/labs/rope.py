"""RoPE lab: one pair q and one pair k, each turned by its position times theta.

The score q·k after rotation depends only on the distance q_pos - k_pos; the lab lets a
student move either position, or both at once, and watch that happen.
"""

from __future__ import annotations

import numpy as np

from livelab.kernels import rope, rotate
from livelab.labs import Lab, register_lab
from livelab.labs.markup import Marks, attr, controls_html
from livelab.labs.view import fmt_number, fmt_vector, svg_point
from livelab.options import Option, Options

PARAMS = Options(
    q_pos=Option(0, 0, 20, 1, "q position", what="position m of q"),
    k_pos=Option(0, 0, 20, 1, "k position", what="position n of k"),
    theta=Option(0.5, 0.0, 3.14, 0.01, "θ (radians per position)", what="turn per position"),
    q=Option((1.0, 0.0), what="the query pair before rotation"),
    k=Option((0.0, 1.0), what="the key pair before rotation"),
)

# The drawing: a circle of radius 1 around (CENTER, CENTER) in a square SVG of side 2 * CENTER.
CENTER = 100.0
SCALE = 80.0


def state(
    *, q_pos: int, k_pos: int, theta: float, q: tuple[float, ...], k: tuple[float, ...]
) -> dict:
    """Rotate q by q_pos * theta and k by k_pos * theta; return both pairs and their score."""
    q_angle, k_angle = q_pos * theta, k_pos * theta
    q_rot = rotate(np.asarray(q, dtype=float), q_angle)  # [2]
    k_rot = rotate(np.asarray(k, dtype=float), k_angle)  # [2]
    return {
        "q_pos": q_pos,
        "k_pos": k_pos,
        "theta": theta,
        "q_angle": q_angle,
        "k_angle": k_angle,
        "distance": q_pos - k_pos,
        "q_rot": q_rot.tolist(),
        "k_rot": k_rot.tolist(),
        "score": float(q_rot @ k_rot),
    }


def view(s: dict) -> dict:
    """What the widget shows for a state: text fields and the arrow tips in SVG space."""
    return {
        "text": {
            "q_angle": fmt_number(s["q_angle"]),
            "k_angle": fmt_number(s["k_angle"]),
            "distance": str(s["distance"]),
            "q_rot": fmt_vector(s["q_rot"]),
            "k_rot": fmt_vector(s["k_rot"]),
            "score": fmt_number(s["score"]),
        },
        "attrs": {
            "q_arrow": _tip(s["q_rot"]),
            "k_arrow": _tip(s["k_rot"]),
        },
    }


def body(values: dict, marks: Marks) -> str:
    """Controls, drawing and readouts of one RoPE lab instance."""
    size = 2 * CENTER
    c, r = CENTER, SCALE
    score_id = attr(marks.dom_id("score"))
    return (
        '<div class="livelab-controls">'
        + controls_html(PARAMS, values, marks)
        + '<button type="button" class="livelab-button" data-step="q_pos k_pos" data-by="1" '
        "disabled>Both +1</button>"
        "</div>"
        '<div class="livelab-rope">'
        f'<svg class="livelab-plot" viewBox="0 0 {size:g} {size:g}" role="img" '
        f'aria-labelledby="{attr(marks.dom_id("drawing"))}">'
        f'<title id="{attr(marks.dom_id("drawing"))}">q and k drawn as arrows on the unit '
        "circle after rotation</title>"
        f'<circle class="livelab-axis" cx="{c:g}" cy="{c:g}" r="{r:g}"/>'
        f'<line class="livelab-axis" x1="{c - r:g}" y1="{c:g}" x2="{c + r:g}" y2="{c:g}"/>'
        f'<line class="livelab-axis" x1="{c:g}" y1="{c - r:g}" x2="{c:g}" y2="{c + r:g}"/>'
        f'<line class="livelab-arrow livelab-arrow--q" x1="{c:g}" y1="{c:g}" '
        f"{marks.attrs('q_arrow')}/>"
        f'<line class="livelab-arrow livelab-arrow--k" x1="{c:g}" y1="{c:g}" '
        f"{marks.attrs('k_arrow')}/>"
        "</svg>"
        '<dl class="livelab-readout">'
        f'<dt><span class="livelab-key livelab-key--q">q</span> turned by</dt>'
        f"<dd>{marks.text('q_angle')} rad → {marks.text('q_rot')}</dd>"
        f'<dt><span class="livelab-key livelab-key--k">k</span> turned by</dt>'
        f"<dd>{marks.text('k_angle')} rad → {marks.text('k_rot')}</dd>"
        f"<dt>distance m − n</dt><dd>{marks.text('distance')}</dd>"
        "</dl>"
        "</div>"
        '<p class="livelab-score">'
        f'<label for="{score_id}">score q·k</label> '
        # <output> is a polite live region already (role status); aria-live says it for old readers.
         + marks.text("score", tag="output", extra=f' id="{score_id}" aria-live="polite"') + "</p>"
    )


def _tip(pair: list[float]) -> dict[str, str]:
    """SVG end point (x2, y2) of an arrow from the centre to a pair scaled to the circle."""
    length = float(np.hypot(pair[0], pair[1])) or 1.0
    point = svg_point(pair[0] / length, pair[1] / length, CENTER, SCALE)
    return {"x2": point["x"], "y2": point["y"]}


LAB = register_lab(
    Lab(
        name="rope",
        title="RoPE: turn q and k by their positions, then score them",
        params=PARAMS,
        state=state,
        view=view,
        body=body,
        module=__name__,
    )
)


def seeded_demo(
    seed: int = 0,
    width: int = 4,
    positions: tuple[tuple[int, int], ...] = ((7, 4), (107, 104)),
    base: float = 10000.0,
) -> dict:
    """Random q and k of one width (q drawn first), scored at several (q_pos, k_pos) pairs.

    Every pair of coordinates turns at its own rate base ** (-2 i / width); equal distances
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

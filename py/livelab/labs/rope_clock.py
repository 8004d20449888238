"""RoPE clock lab: a head of width d_k as d_k / 2 clock hands turning at different rates.

Pair i of a vector turns by position * base ** (-2 i / d_k) radians. Seeded random q and k
(q drawn first, as in rope.seeded_demo) are put at two positions; every pair becomes a
clock with a q hand and a k hand. The score q·k is shown live, and plotted against the
distance m - n, on which alone it depends.
"""

from __future__ import annotations

import math

import numpy as np

from livelab.kernels import rope, rope_rates, rotate
from livelab.labs import Lab, register_lab
from livelab.labs.markup import Marks, attr, control_html, set_button
from livelab.labs.rope import seeded_demo
from livelab.labs.view import Frame, fmt_number, shape
from livelab.options import Option, Options

PARAMS = Options(
    d_k=Option(4, 2, 16, 2, "d_k (head width)", what="head width d_k, an even number"),
    q_pos=Option(7, 0, 2048, 1, "position of q", what="position m of q"),
    k_pos=Option(4, 0, 2048, 1, "position of k", what="position n of k"),
    seed=Option(
        0, 0, 9999, 1, "seed for q and k", control="number", what="seed of the random q and k"
    ),
    base=Option(10000.0, 2.0, 1e6, what="RoPE base: pair i turns at base ** (-2 i / d_k)"),
)

DISTANCES = np.arange(-64, 65)  # the score plot's distances m - n
CLOCKS_PER_ROW = 4
CELL_WIDTH, CELL_HEIGHT, RADIUS = 85.0, 126.0, 30.0
PLOT_WIDTH, PLOT_HEIGHT = 340.0, 230.0
PLOT_BOX = (40.0, 30.0, 286.0, 150.0)


def state(*, d_k: int, q_pos: int, k_pos: int, seed: int, base: float) -> dict:
    """Seeded q and k of width d_k at q_pos and k_pos: per-pair hands, score, score by distance."""
    demo = seeded_demo(seed, d_k, positions=((q_pos, k_pos),), base=base)
    q, k = np.array(demo["q"]), np.array(demo["k"])  # [d_k] each
    rates = rope_rates(d_k, base)  # [d_k / 2]
    q_pairs = rotate(q.reshape(-1, 2), q_pos * rates)  # [d_k / 2, 2]
    k_pairs = rotate(k.reshape(-1, 2), k_pos * rates)  # [d_k / 2, 2]
    q_at = rope(np.tile(q, (len(DISTANCES), 1)), positions=DISTANCES, base=base)  # [D, d_k]
    k_at_zero = rope(k[None, :], positions=np.array([0]), base=base)[0]  # [d_k]
    return {
        "d_k": d_k,
        "q_pos": q_pos,
        "k_pos": k_pos,
        "seed": seed,
        "base": base,
        "q": q.tolist(),
        "k": k.tolist(),
        "rates": rates.tolist(),
        "q_pairs": q_pairs.tolist(),
        "k_pairs": k_pairs.tolist(),
        "pair_scores": np.sum(q_pairs * k_pairs, axis=-1).tolist(),
        "score": demo["scores"][0],
        "distance": q_pos - k_pos,
        "distances": DISTANCES.tolist(),
        "scores_by_distance": (q_at @ k_at_zero).tolist(),
    }


def view(s: dict) -> dict:
    """Score and rates as text; the clocks and the score curve as shapes."""
    n_pairs = s["d_k"] // 2
    rows = math.ceil(n_pairs / CLOCKS_PER_ROW)
    width = CELL_WIDTH * CLOCKS_PER_ROW  # fixed, so text keeps its size whatever d_k is
    in_plot = DISTANCES[0] <= s["distance"] <= DISTANCES[-1]
    return {
        "text": {
            "pairs": str(n_pairs),
            "rates": ", ".join(_rate(r) for r in s["rates"]),
            "distance": str(s["distance"]),
            "score": fmt_number(s["score"], 6),
            "q": "[" + ", ".join(fmt_number(v, 4) for v in s["q"]) + "]",
            "k": "[" + ", ".join(fmt_number(v, 4) for v in s["k"]) + "]",
            "plot_note": (
                ""
                if in_plot
                else f"The distance {s['distance']} lies outside the plotted range "
                f"{DISTANCES[0]} to {DISTANCES[-1]}."
            ),
            "clocks_title": (
                f"{n_pairs} clocks, one per pair of coordinates; the q hand is turned by "
                f"{s['q_pos']} and the k hand by {s['k_pos']} times the pair's rate"
            ),
        },
        "attrs": {"clocks": {"viewBox": f"0 0 {width:g} {rows * CELL_HEIGHT:g}"}},
        "svg": {"clocks": clock_shapes(s), "scores": score_shapes(s)},
    }


def body(values: dict, marks: Marks) -> str:
    """Controls, the clocks, the score and its plot for one RoPE clock lab instance."""
    score_id = attr(marks.dom_id("score"))
    clocks_title = attr(marks.dom_id("clocks-title"))
    plot_title = attr(marks.dom_id("plot-title"))
    return (
        '<div class="livelab-controls">'
        + control_html(PARAMS, "d_k", values, marks)
        + control_html(PARAMS, "q_pos", values, marks)
        + control_html(PARAMS, "k_pos", values, marks)
        + control_html(PARAMS, "seed", values, marks)
        + "</div>"
        '<div class="livelab-buttons">'
        '<button type="button" class="livelab-button" data-step="q_pos k_pos" data-by="100" '
        "disabled>Move both by 100</button>"
        + set_button("q at 7, k at 4", {"q_pos": 7, "k_pos": 4})
        + set_button("q at 107, k at 104", {"q_pos": 107, "k_pos": 104})
        + "</div>"
        '<p class="livelab-score">'
        f'<label for="{score_id}">q·k summed over all pairs</label> '
        + marks.text("score", tag="output", extra=f' id="{score_id}" aria-live="polite"')
        + "</p>"
        '<dl class="livelab-readout">'
        f"<dt>distance m − n</dt><dd>{marks.text('distance')}</dd>"
        f"<dt>pairs and their rates θ</dt><dd>{marks.text('pairs')} pairs: "
        f"{marks.text('rates')} rad per position</dd>"
        f'<dt><span class="livelab-key livelab-key--q">q</span> before turning</dt>'
        f"<dd>{marks.text('q')}</dd>"
        f'<dt><span class="livelab-key livelab-key--k">k</span> before turning</dt>'
        f"<dd>{marks.text('k')}</dd>"
        "</dl>"
        f'<svg class="livelab-figure livelab-figure--clocks" {marks.attrs("clocks")} role="img" '
        f'aria-labelledby="{clocks_title}">'
        + marks.text("clocks_title", tag="title", extra=f' id="{clocks_title}"')
        + marks.shapes("clocks")
        + "</svg>"
        f'<svg class="livelab-figure" viewBox="0 0 {PLOT_WIDTH:g} '
        f'{PLOT_HEIGHT:g}" role="img" aria-labelledby="{plot_title}">'
        f'<title id="{plot_title}">q·k for every distance from −64 to 64, the '
        "current distance marked</title>"
        + marks.shapes("scores")
        + "</svg>"
        + marks.text("plot_note", tag="p", extra=' class="livelab-note"')
        + marks.error()
    )


def _rate(rate: float) -> str:
    return f"{rate:.3g}"


def clock_shapes(s: dict) -> list[dict]:
    """One clock per pair: a circle, the q hand and the k hand, the rate written below."""
    q_pairs, k_pairs = np.array(s["q_pairs"]), np.array(s["k_pairs"])
    longest = float(max(np.max(np.hypot(*q_pairs.T)), np.max(np.hypot(*k_pairs.T)), 1e-12))
    out: list[dict] = []
    for i, rate in enumerate(s["rates"]):
        cx = CELL_WIDTH * (i % CLOCKS_PER_ROW) + CELL_WIDTH / 2
        cy = CELL_HEIGHT * (i // CLOCKS_PER_ROW) + 8 + RADIUS
        out.append(shape("circle", {"cx": cx, "cy": cy, "r": RADIUS}, class_="livelab-axis"))
        for name, pair in (("k", k_pairs[i]), ("q", q_pairs[i])):
            scale = RADIUS / longest
            out.append(
                shape(
                    "line",
                    {"x1": cx, "y1": cy, "x2": cx + scale * pair[0], "y2": cy - scale * pair[1]},
                    class_=f"livelab-hand livelab-arrow--{name}",
                )
            )
        captions = (f"pair {i}", f"θ = {_rate(rate)}", f"q·k: {fmt_number(s['pair_scores'][i], 3)}")
        for line, caption in enumerate(captions):
            out.append(
                shape(
                    "text",
                    {"x": cx, "y": cy + RADIUS + 18 + 14 * line},
                    caption,
                    class_="livelab-tick",
                    text_anchor="middle",
                )
            )
    return out


def score_shapes(s: dict) -> list[dict]:
    """The score q·k against the distance m - n, the current distance marked."""
    scores = s["scores_by_distance"]
    bound = max(1.0, math.ceil(max(abs(v) for v in scores)))
    frame = Frame((float(DISTANCES[0]), float(DISTANCES[-1])), (-bound, bound), PLOT_BOX)
    out = frame.axes([-64, -32, 0, 32, 64], [-bound, 0, bound], "distance m − n", "q·k")
    out.append(
        shape(
            "polyline",
            {"points": frame.points(s["distances"], scores)},
            class_="livelab-series livelab-series--score",
        )
    )
    if DISTANCES[0] <= s["distance"] <= DISTANCES[-1]:
        x, y = frame.x(s["distance"]), frame.y(s["score"])
        out.append(
            shape(
                "line",
                {"x1": x, "y1": PLOT_BOX[1], "x2": x, "y2": PLOT_BOX[1] + PLOT_BOX[3]},
                class_="livelab-guide",
            )
        )
        out.append(
            shape("circle", {"cx": x, "cy": y, "r": 4.5}, class_="livelab-dot livelab-dot--score")
        )
    return out


LAB = register_lab(
    Lab(
        name="rope_clock",
        title="RoPE with many rates: every pair of a head is a clock hand",
        params=PARAMS,
        state=state,
        view=view,
        body=body,
        module=__name__,
    )
)

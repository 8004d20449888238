"""RoPE clock lab: a head of width d_k as d_k / 2 hands on one clock face, turning at their rates.

Pair i of a vector turns by position * base ** (-2 i / d_k) radians. Seeded random q and k
(q drawn first, as in rope.seeded_demo) are put at two positions m and n. Hand i of the clock
shows how far pair i of q is turned beyond pair i of k, (m - n) * theta_i: moving both
positions leaves every hand, and so the score, where it was. The score q·k is shown live,
and plotted against the offset m - n, on which alone it depends. The slowest pair's rate and
its period 2π / rate (positions per full turn) are shown for the chosen d_k and base.

Up to 16 pairs the face draws every hand; a wider head (up to d_k = 128) gets 16 of its hands,
pair 0 and the slowest among them (see rope_clock_face.shown_pairs), and the table lists
every pair in a region of its own that scrolls.
"""

from __future__ import annotations

import html
import math

import numpy as np

from labs.kernels import rope, rope_rates, rotate
from labs.rope import seeded_demo
from labs.rope_clock_face import FACE_RADIUS, FACE_SIZE, clock_shapes, shown_pairs
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr, control_html, set_button, strip
from livelab.labs.view import Frame, fmt_number, shape
from livelab.options import Option, Options

PARAMS = Options(
    d_k=Option(4, 2, 128, 2, "d_k (head width)", what="head width d_k, an even number"),
    q_pos=Option(7, 0, 2048, 1, "position of q", what="position m of q"),
    k_pos=Option(4, 0, 2048, 1, "position of k", what="position n of k"),
    seed=Option(
        0, 0, 9999, 1, "seed for q and k", control="number", what="seed of the random q and k"
    ),
    base=Option(
        10000.0,
        2.0,
        1e7,
        "any",
        "RoPE base",
        control="number",
        what="RoPE base (rope_theta): pair i turns at base ** (-2 i / d_k) rad per position",
    ),
)

OFFSETS = np.arange(-64, 65)  # the score plot's offsets m - n
PLOT_WIDTH, PLOT_HEIGHT = 340.0, 230.0
PLOT_BOX = (46.0, 30.0, 280.0, 150.0)  # room on the left for a y label such as -200
LISTED = 16  # a list of numbers longer than this is shown as its start and its end


def state(*, d_k: int, q_pos: int, k_pos: int, seed: int, base: float) -> dict:
    """Seeded q and k of width d_k at q_pos and k_pos: per-pair hands, score, score by offset."""
    demo = seeded_demo(seed, d_k, positions=((q_pos, k_pos),), base=base)
    q, k = np.array(demo["q"]), np.array(demo["k"])  # [d_k] each
    rates = rope_rates(d_k, base)  # [d_k / 2]
    q_pairs = rotate(q.reshape(-1, 2), q_pos * rates)  # [d_k / 2, 2]
    k_pairs = rotate(k.reshape(-1, 2), k_pos * rates)  # [d_k / 2, 2]
    q_at = rope(np.tile(q, (len(OFFSETS), 1)), positions=OFFSETS, base=base)  # [D, d_k]
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
        # How far pair i of q is turned beyond pair i of k, within one turn: the clock's hands.
        "hands": np.mod((q_pos - k_pos) * rates, 2 * np.pi).tolist(),
        "score": demo["scores"][0],
        "offset": q_pos - k_pos,
        "offsets": OFFSETS.tolist(),
        "scores_by_offset": (q_at @ k_at_zero).tolist(),
        # The last pair turns slowest; 2π / rate positions make one full turn of its hand.
        "slowest_rate": float(rates[-1]),
        "slowest_period": float(2 * np.pi / rates[-1]),
    }


def _listed(texts: list[str]) -> str:
    """Numbers joined by commas; a long list as its first few and its last two."""
    if len(texts) <= LISTED:
        return ", ".join(texts)
    return ", ".join([*texts[:5], "…", *texts[-2:]])


def _vector(values: list[float]) -> str:
    texts = [fmt_number(v, 4) for v in values]
    more = f" ({len(texts)} numbers)" if len(texts) > LISTED else ""
    return f"[{_listed(texts)}]{more}"


def _clock_title(s: dict) -> str:
    n_pairs, drawn = s["d_k"] // 2, len(shown_pairs(s["d_k"] // 2))
    hands = (
        f"A clock with {n_pairs} hands"
        if drawn == n_pairs
        else f"A clock with {drawn} of the {n_pairs} hands (pair 0, the slowest pair "
        "and pairs spread between them; the table lists all)"
    )
    return (
        f"{hands}, one per pair of coordinates: hand i stands at "
        f"(m − n) × θ_i = {s['offset']} × θ_i radians, counter-clockwise from the top"
    )


def view(s: dict) -> dict:
    """Score and rates as text, a table row per pair, the clock and the score curve as shapes."""
    n_pairs = s["d_k"] // 2
    in_plot = OFFSETS[0] <= s["offset"] <= OFFSETS[-1]
    return {
        "text": {
            "pairs": str(n_pairs),
            "rates": _listed([_rate(r) for r in s["rates"]]),
            "offset": str(s["offset"]),
            "score": fmt_number(s["score"], 6),
            "q": _vector(s["q"]),
            "k": _vector(s["k"]),
            "slowest_pair": f"pair {n_pairs - 1}",
            "slowest_rate": f"{s['slowest_rate']:.4g}",
            "slowest_period": f"{s['slowest_period']:,.1f}",
            "plot_note": (
                ""
                if in_plot
                else f"The offset {s['offset']} lies outside the plotted range "
                f"{OFFSETS[0]} to {OFFSETS[-1]}."
            ),
            "clocks_title": _clock_title(s),
        },
        "rows": {
            "pairs": [
                [f"pair {i}", _rate(rate), fmt_number(hand), fmt_number(score, 3)]
                for i, (rate, hand, score) in enumerate(
                    zip(s["rates"], s["hands"], s["pair_scores"], strict=True)
                )
            ]
        },
        "svg": {"clocks": clock_shapes(s), "scores": score_shapes(s)},
    }


def body(values: dict, marks: Marks) -> str:
    """Controls, the clock, its table, the score and its plot for one RoPE clock lab instance."""
    score_id = attr(marks.dom_id("score"))
    clocks_title = attr(marks.dom_id("clocks-title"))
    plot_title = attr(marks.dom_id("plot-title"))
    pairs_caption = attr(marks.dom_id("pairs-caption"))
    c = FACE_SIZE / 2
    return (
        # On a phone the sliders stick below the header, beside the clock and the plot below.
        strip(
            '<div class="livelab-controls">'
            + control_html(PARAMS, "d_k", values, marks)
            + position_control("q_pos", "q", values, marks)
            + position_control("k_pos", "k", values, marks)
            + "</div>"
        )
        + '<div class="livelab-controls livelab-controls--more">'
        + control_html(PARAMS, "seed", values, marks)
        + control_html(PARAMS, "base", values, marks)
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
        f"<dt>offset m − n</dt><dd>{marks.text('offset')}</dd>"
        f"<dt>pairs and their rates θ</dt><dd>{marks.text('pairs')} pairs: "
        f"{marks.text('rates')} rad per position</dd>"
        f"<dt>the slowest pair</dt><dd>{marks.text('slowest_pair')}, θ = "
        f"{marks.text('slowest_rate')} rad per position</dd>"
        f"<dt>its period 2π / θ</dt><dd>{marks.text('slowest_period')} positions "
        "for one full turn</dd>"
        f'<dt><span class="livelab-key livelab-key--q">q</span> before turning</dt>'
        f"<dd>{marks.text('q')}</dd>"
        f'<dt><span class="livelab-key livelab-key--k">k</span> before turning</dt>'
        f"<dd>{marks.text('k')}</dd>"
        "</dl>"
        '<div class="livelab-clock">'
        f'<svg class="livelab-figure livelab-figure--clock-face" '
        f'viewBox="0 0 {FACE_SIZE:g} {FACE_SIZE:g}" role="img" aria-labelledby="{clocks_title}">'
        + marks.text("clocks_title", tag="title", extra=f' id="{clocks_title}"')
        + f'<circle class="livelab-axis" cx="{c:g}" cy="{c:g}" r="{FACE_RADIUS:g}"/>'
        + marks.shapes("clocks")
        + "</svg>"
        # Up to 64 rows: the table scrolls in a region of its own, reachable by keyboard.
        f'<div class="livelab-table-wrap livelab-table-wrap--pairs" tabindex="0" role="region" '
        f'aria-labelledby="{pairs_caption}"><table class="livelab-table">'
        f'<caption id="{pairs_caption}">The clock\'s hands, one per pair</caption>'
        '<thead><tr><th scope="col">pair</th><th scope="col">rate θ_i</th>'
        '<th scope="col">hand at (m − n)θ_i, rad</th><th scope="col">q·k of the pair</th>'
        "</tr></thead>" + marks.rows("pairs") + "</table></div>"
        "</div>"
        '<p class="livelab-panel__title livelab-plot-heading">The score q·k against the offset '
        "m − n</p>"
        f'<svg class="livelab-figure" viewBox="0 0 {PLOT_WIDTH:g} '
        f'{PLOT_HEIGHT:g}" role="img" aria-labelledby="{plot_title}">'
        f'<title id="{plot_title}">The score q·k against the offset m − n, for every '
        "offset from −64 to 64, the current offset marked</title>"
        + marks.shapes("scores")
        + "</svg>"
        + marks.text("plot_note", tag="p", extra=' class="livelab-note"')
        + marks.error()
    )


def position_control(name: str, letter: str, values: dict, marks: Marks) -> str:
    """A position as a number field (exact, the value sent) beside a slider that mirrors it."""
    spec = PARAMS[name]
    dom_id = attr(marks.dom_id(name))
    limits = f'min="{spec.minimum}" max="{spec.maximum}" step="{spec.step}"'
    common = f'data-param="{attr(name)}" {limits} value="{attr(values[name])}"'
    return (
        '<div class="livelab-control livelab-control--position">'
        f'<label for="{dom_id}">{html.escape(spec.label)}</label>'
        f'<input type="range" {common} data-mirror aria-label="slider for {letter}\'s '
        'position" disabled>'
        f'<input type="number" id="{dom_id}" {common} inputmode="numeric" disabled>'
        "</div>"
    )


def _rate(rate: float) -> str:
    return f"{rate:.3g}"


def score_shapes(s: dict) -> list[dict]:
    """The score q·k against the offset m - n, the current offset marked."""
    scores = s["scores_by_offset"]
    bound = max(1.0, math.ceil(max(abs(v) for v in scores)))
    # Room above and below the curve, so the lowest y tick stays clear of the first x tick.
    pad = 0.2 * bound
    frame = Frame((float(OFFSETS[0]), float(OFFSETS[-1])), (-bound - pad, bound + pad), PLOT_BOX)
    out = frame.axes([-64, -32, 0, 32, 64], [-bound, 0, bound], "offset m − n", "q·k")
    out.append(
        shape(
            "polyline",
            {"points": frame.points(s["offsets"], scores)},
            class_="livelab-series livelab-series--score",
        )
    )
    if OFFSETS[0] <= s["offset"] <= OFFSETS[-1]:
        x, y = frame.x(s["offset"]), frame.y(s["score"])
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


def scratch(s: dict) -> Scratch:
    """The lab's seeded q and k, positions and base as Python, ending on the score it shows."""
    code = f"""# RoPE clock lab: seeded q and k of width d_k, put at positions m and n by RoPE.
d_k, seed, base = {s["d_k"]!r}, {s["seed"]!r}, {s["base"]!r}
q_pos, k_pos = {s["q_pos"]!r}, {s["k_pos"]!r}  # positions m and n
rng = np.random.default_rng(seed)
q = rng.standard_normal(d_k)  # [d_k], drawn first
k = rng.standard_normal(d_k)  # [d_k]
rates = rope_rates(d_k, base)  # [d_k / 2]: radians per position, pair by pair
print("hands (m - n) * rates:", (q_pos - k_pos) * rates % (2 * np.pi))
q_rot = rope(q[None, :], positions=[q_pos], base=base)[0]  # [d_k]
k_rot = rope(k[None, :], positions=[k_pos], base=base)[0]  # [d_k]
score = float(q_rot @ k_rot)  # the lab shows it to 6 decimals
score
"""
    return Scratch(code, "score")


LAB = register_lab(
    lab_of_module(
        __name__,
        name="rope_clock",
        title="RoPE with many rates: every pair of a head is a clock hand",
    )
)

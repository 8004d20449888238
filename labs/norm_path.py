"""Norm path lab: where the norms sit, post-norm against pre-norm, for a stack of n layers.

Post-norm, x = LN(x + f(x)), puts one norm on the straight residual path in every layer.
Pre-norm, x = x + f(LN(x)), moves it into the branch and adds one final norm after the
last layer. The lab draws the path, counts the norms on it, repeats the worked numbers of
the lesson and plots how large each layer's weight gradient is at initialisation in toy
transformers built like those of Xiong et al. (2020): attention and FFN layers in turn, a
softmax loss on random targets at the top, Xavier init (see labs.kernels.gradients). Each
point is the median over STACKS random stacks of the chosen depth, on a log scale.
"""

from __future__ import annotations

import html

import numpy as np

from labs.kernels import postnorm_block, prenorm_block, weight_gradient_sizes
from labs.norm_path_drawing import (
    PATH_HEIGHT,
    PATH_WIDTH,
    PLACEMENT_NAMES,
    PLOT_HEIGHT,
    PLOT_WIDTH,
    gradient_shapes,
    path_legend,
    path_shapes,
)
from livelab.labs import Scratch, lab_of_module, register_lab
from livelab.labs.markup import Marks, attr, controls_html, shapes_svg, strip
from livelab.labs.view import fmt_number, fmt_vector
from livelab.options import Option, Options

MAX_LAYERS = 48

PARAMS = Options(
    placement=Option(
        "post",
        label="Where the norm sits",
        control="radio",
        choices=(
            ("post", "Post-norm: x = LN(x + f(x))"),
            ("pre", "Pre-norm: x = x + f(LN(x))"),
        ),
        what="where each layer's norm sits: post (on the residual path) or pre (in the branch)",
    ),
    layers=Option(24, 1, MAX_LAYERS, 1, "Number of layers", what="how many layers the stack has"),
    seed=Option(0, 0, 10_000, 1, what="seed of the random stacks behind the gradient chart"),
)

# The lesson's worked example: one input and one sublayer output, fixed numbers.
WORKED_X = (1.0, -1.0, 0.5, -0.5)
WORKED_F = (3.0, 3.0, -3.0, -3.0)

# Random stacks behind every point of the gradient chart (each point is their median).
STACKS = 32
# What the lesson says the chart shows, as numbers: the chart's caption prints them and the
# unit tests check them on CLAIM_SEEDS, so the words and the kernel cannot drift apart.
CLAIM_SEEDS = 20  # seeds 0 .. 19; each claim must hold for all but at most one of them
GAP_FROM, OUTPUT_GAP = 6, 1.4  # last layer: post-norm's gradient over pre-norm's, at least
RISE_FROM, POST_RISE = 24, 1.2  # post-norm: its last layer's gradient over its first's, at least
FALL_FROM, PRE_BAND = 12, (0.2, 0.75)  # pre-norm: its last layer's over its first's, within


def claim_sentence() -> str:
    """The chart's reading in numbers, as the caption under the chart prints it."""
    low, high = PRE_BAND
    return (
        f"Checked on seeds 0 to {CLAIM_SEEDS - 1} (each claim holds for at least "
        f"{CLAIM_SEEDS - 1} of them): from {RISE_FROM} layers on, post-norm's last layer gets "
        f"more than {POST_RISE:g} times the gradient of its first layer; from {FALL_FROM} "
        f"layers on, pre-norm's last layer gets between {low:g} and {high:g} times its first "
        f"layer's; from {GAP_FROM} layers on, post-norm's last layer gets more than "
        f"{OUTPUT_GAP:g} times pre-norm's last layer."
    )


def typical_sizes(sizes: np.ndarray) -> np.ndarray:
    """Median over the stacks: sizes [stacks, n_layers] -> [n_layers]."""
    return np.median(sizes, axis=0)


def state(*, placement: str, layers: int, seed: int) -> dict:
    """Norm counts on the residual path, the worked numbers and weight-gradient sizes."""
    x, fx = np.array(WORKED_X), np.array(WORKED_F)
    post_out = postnorm_block(x, lambda _: fx)  # LN(x + f(x))
    pre_out = prenorm_block(x, lambda _: fx)  # x + f(...): the branch output is the given f(x)
    sizes = weight_gradient_sizes(layers, seed, stacks=STACKS)
    post = placement == "post"
    return {
        "placement": placement,
        "layers": layers,
        "seed": seed,
        "path_norms": layers if post else 0,
        "branch_norms": 0 if post else layers,
        "final_norms": 0 if post else 1,
        "worked_x": list(WORKED_X),
        "worked_f": list(WORKED_F),
        "post_out": post_out.tolist(),
        "pre_out": pre_out.tolist(),
        "gradients": {p: typical_sizes(sizes[p]).tolist() for p in PLACEMENT_NAMES},
    }


def view(s: dict) -> dict:
    """Counts as text, the path and the gradient plot as shapes, the chosen row highlighted."""
    post = s["placement"] == "post"
    grads = s["gradients"]
    return {
        "text": {
            "count": _count_sentence(s),
            "path_norms": str(s["path_norms"]),
            "branch_norms": str(s["branch_norms"]),
            "final_norms": str(s["final_norms"]),
            "path_title": (
                f"Residual path of a {s['layers']}-layer {PLACEMENT_NAMES[s['placement']]} "
                f"stack; LayerNorms on it: {_count_sentence(s)}"
            ),
            "worked_x": fmt_vector(s["worked_x"]),
            "worked_f": fmt_vector(s["worked_f"]),
            "post_out": fmt_vector(s["post_out"]),
            "pre_out": fmt_vector(s["pre_out"]),
            "grad_post": _grad_summary(grads["post"]),
            "grad_pre": _grad_summary(grads["pre"]),
            "grad_gap": (
                f"At layer {s['layers']}, post-norm's gradient is "
                f"{fmt_number(grads['post'][-1] / grads['pre'][-1])} times pre-norm's."
            ),
        },
        "attrs": {
            "post_row": {"class": "livelab-chosen" if post else ""},
            "pre_row": {"class": "" if post else "livelab-chosen"},
        },
        "svg": {
            "path": path_shapes(s["placement"], s["layers"]),
            "gradients": gradient_shapes(grads, s["placement"], STACKS),
        },
    }


def _count_sentence(s: dict) -> str:
    if s["placement"] == "post":
        return f"{s['path_norms']}, one in every layer"
    return "0 between the layers, then 1 final norm after the last one"


def _grad_summary(values: list[float]) -> str:
    first, last = values[0], values[-1]
    if len(values) == 1:
        return f"{fmt_number(first, 1)} at layer 1, the only layer."
    return (
        f"{fmt_number(first, 1)} at layer 1 and {fmt_number(last, 1)} at layer {len(values)}: "
        f"the last gets {fmt_number(last / first)} times the first."
    )


def body(values: dict, marks: Marks) -> str:
    """Controls, the path drawing, counts, the worked example and the weight-gradient chart."""
    count_id = attr(marks.dom_id("count"))
    path_title = attr(marks.dom_id("path-title"))
    grad_title = attr(marks.dom_id("grad-title"))
    grad_note = attr(marks.dom_id("grad-note"))
    return (
        strip('<div class="livelab-controls">' + controls_html(PARAMS, values, marks) + "</div>")
        + '<p class="livelab-score">'
        f'<label for="{count_id}">LayerNorms on the residual path</label> '
        + marks.text("count", tag="output", extra=f' id="{count_id}" aria-live="polite"')
        + "</p>"
        f'<svg class="livelab-figure" viewBox="0 0 '
        f'{PATH_WIDTH:g} {PATH_HEIGHT:g}" role="img" '
        f'aria-labelledby="{path_title}">'
        + marks.text("path_title", tag="title", extra=f' id="{path_title}"')
        + marks.shapes("path")
        + f"<g>{shapes_svg(path_legend())}</g>"
        + "</svg>"
        '<dl class="livelab-readout">'
        f"<dt>norms on the path between layers</dt><dd>{marks.text('path_norms')}</dd>"
        f"<dt>norms inside the branches</dt><dd>{marks.text('branch_norms')}</dd>"
        f"<dt>final norm after the last layer</dt><dd>{marks.text('final_norms')}</dd>"
        "</dl>"
        '<div class="livelab-table-wrap"><table class="livelab-table">'
        "<caption>The lesson's example with both placements</caption>"
        "<tbody>"
        f'<tr><th scope="row">x</th><td>{marks.text("worked_x")}</td></tr>'
        f'<tr><th scope="row">f(x)</th><td>{marks.text("worked_f")}</td></tr>'
        f'<tr {marks.attrs("post_row")}><th scope="row">post-norm keeps LN(x + f(x))</th>'
        f"<td>{marks.text('post_out')}</td></tr>"
        f'<tr {marks.attrs("pre_row")}><th scope="row">pre-norm keeps x + f(x)</th>'
        f"<td>{marks.text('pre_out')}</td></tr>"
        "</tbody></table></div>"
        f'<svg class="livelab-figure" viewBox="0 0 '
        f'{PLOT_WIDTH:g} {PLOT_HEIGHT:g}" role="img" '
        f'aria-labelledby="{grad_title}" aria-describedby="{grad_note}">'
        f'<title id="{grad_title}">Size of each layer\'s weight gradient at initialisation, '
        f"post-norm and pre-norm, median of {STACKS} random toy transformers, "
        "log scale</title>" + marks.shapes("gradients") + "</svg>"
        f'<p class="livelab-note" id="{grad_note}">Each point is the size (Frobenius norm) of '
        "the gradient of the loss with respect to one layer's output matrix, W_O in an "
        "attention layer and W2 in an FFN layer, at initialisation: the median over "
        f"{STACKS} random toy transformers of this depth. The layers alternate, attention "
        "first: single-head causal attention, then a ReLU FFN four times wider inside. Width "
        "16, 8 tokens, Xavier-uniform weights, and at the top a linear readout with a softmax "
        "cross-entropy loss on random targets: the setting of Xiong et al. (2020), far "
        "smaller. "
        f"{html.escape(claim_sentence())}</p>"
        '<dl class="livelab-readout">'
        f"<dt>weight gradient, post-norm</dt><dd>{marks.text('grad_post')}</dd>"
        f"<dt>weight gradient, pre-norm</dt><dd>{marks.text('grad_pre')}</dd>"
        f"<dt>at the last layer</dt><dd>{marks.text('grad_gap')}</dd>"
        "</dl>"
    )


def scratch(s: dict) -> Scratch:
    """The lesson's worked numbers and the lab's gradient sizes as Python."""
    code = f"""# Norm path lab: post-norm LN(x + f(x)) against pre-norm x + f(LN(x)).
x = np.array({s["worked_x"]!r})  # the lesson's input
f_x = np.array({s["worked_f"]!r})  # what the sublayer gives for it
print("post-norm:", postnorm_block(x, lambda _: f_x))
print("pre-norm: ", prenorm_block(x, lambda _: f_x))
layers, seed = {s["layers"]!r}, {s["seed"]!r}
sizes = weight_gradient_sizes(layers, seed, stacks={STACKS})  # each [stacks, layers]
typical = {{p: np.median(sizes[p], axis=0) for p in ("post", "pre")}}  # median of the stacks
print("typical gradient per layer:", typical)
float(typical["post"][-1] / typical["pre"][-1])  # last layer, post over pre
"""
    return Scratch(code, "grad_gap")


LAB = register_lab(
    lab_of_module(
        __name__,
        name="norm_path",
        title="Norm path: count the norms a gradient must pass on the way down",
    )
)

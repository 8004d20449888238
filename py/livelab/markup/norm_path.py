"""Markup of the norm path lab: placement and depth, the drawn path, worked numbers, gradients."""

from __future__ import annotations

import html

from livelab.labs import norm_path
from livelab.markup import Marks, attr, controls_html

TITLE = "Norm path: count the norms a gradient must pass on the way down"


def body(values: dict, marks: Marks) -> str:
    """Controls, the path drawing, counts, the worked example and the weight-gradient chart."""
    count_id = attr(marks.dom_id("count"))
    path_title = attr(marks.dom_id("path-title"))
    grad_title = attr(marks.dom_id("grad-title"))
    grad_note = attr(marks.dom_id("grad-note"))
    return (
        '<div class="livelab-controls">' + controls_html(norm_path.PARAMS, values, marks) + "</div>"
        '<p class="livelab-score">'
        f'<label for="{count_id}">LayerNorms on the residual path</label> '
        + marks.text("count", tag="output", extra=f' id="{count_id}" aria-live="polite"')
        + "</p>"
        f'<svg class="livelab-figure" viewBox="0 0 '
        f'{norm_path.PATH_WIDTH:g} {norm_path.PATH_HEIGHT:g}" role="img" '
        f'aria-labelledby="{path_title}">'
        + marks.text("path_title", tag="title", extra=f' id="{path_title}"')
        + marks.shapes("path")
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
        f'{norm_path.PLOT_WIDTH:g} {norm_path.PLOT_HEIGHT:g}" role="img" '
        f'aria-labelledby="{grad_title}" aria-describedby="{grad_note}">'
        f'<title id="{grad_title}">Size of each layer\'s weight gradient at initialisation, '
        f"post-norm and pre-norm, geometric mean of {norm_path.STACKS} random stacks, "
        "log scale</title>" + marks.shapes("gradients") + "</svg>"
        f'<p class="livelab-note" id="{grad_note}">Each point is the size of the gradient of '
        "the loss with respect to one layer's FFN output matrix W2 at initialisation, in "
        f"{norm_path.STACKS} random stacks of this depth, averaged on the log scale. "
        f"{html.escape(norm_path.claim_sentence())}</p>"
        '<dl class="livelab-readout">'
        f"<dt>weight gradient, post-norm</dt><dd>{marks.text('grad_post')}</dd>"
        f"<dt>weight gradient, pre-norm</dt><dd>{marks.text('grad_pre')}</dd>"
        f"<dt>at the last layer</dt><dd>{marks.text('grad_gap')}</dd>"
        "</dl>"
    )

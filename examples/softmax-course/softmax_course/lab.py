"""Temperature lab: one slider for T, the probabilities softmax gives four fixed logits."""

from __future__ import annotations

from livelab.labs import Lab, register_lab
from livelab.labs.markup import Marks, attr, controls_html
from livelab.labs.view import fmt_number, fmt_vector
from livelab.options import Option, Options
from softmax_course.kernel import softmax

PARAMS = Options(
    t=Option(1.0, 0.1, 3.0, 0.1, "temperature T", what="the temperature the logits are divided by"),
    logits=Option((2.0, 1.0, 0.0, -1.0), what="the four logits, largest first"),
)


def state(*, t: float, logits: tuple[float, ...]) -> dict:
    """The probabilities of the logits at temperature t, and the largest one."""
    probs = softmax(list(logits), t)  # [n]
    return {"t": t, "logits": list(logits), "probs": probs.tolist(), "top": float(probs.max())}


def view(s: dict) -> dict:
    """What the widget shows: the logits, all probabilities and the top token's share."""
    return {
        "text": {
            "logits": fmt_vector(s["logits"]),
            "probs": fmt_vector(s["probs"]),
            "top": fmt_number(s["top"]),
        }
    }


def body(values: dict, marks: Marks) -> str:
    """The slider, then the logits, the probabilities and the top share."""
    top_id = attr(marks.dom_id("top"))
    return (
        '<div class="livelab-controls">' + controls_html(PARAMS, values, marks) + "</div>"
        '<dl class="livelab-readout">'
        f"<dt>logits</dt><dd>{marks.text('logits')}</dd>"
        f"<dt>probabilities</dt><dd>{marks.text('probs')}</dd>"
        "</dl>"
        f'<p class="livelab-score"><label for="{top_id}">top token share</label> '
        + marks.text("top", tag="output", extra=f' id="{top_id}" aria-live="polite"')
        + "</p>"
    )


LAB = register_lab(
    Lab(
        "temperature",
        "Temperature: the same logits, sharper or flatter",
        PARAMS,
        state,
        view,
        body,
        module=__name__,
    )
)

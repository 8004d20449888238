"""Build-time HTML of the widgets: inert markup with data-* attributes, filled with a first view.

Everything a widget later updates is marked: `data-text="name"` elements take
view["text"][name] as text, `data-attrs="name"` elements take view["attrs"][name] as
attributes, `input[data-param]` are the controls. The browser code finds them by those
marks only, so the markup lives here once.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from livelab.labs.params import Params


def attr(value: object) -> str:
    """Escape a value for a double-quoted HTML attribute."""
    return html.escape(str(value), quote=True)


@dataclass(frozen=True)
class Marks:
    """Helpers that render marked elements of one lab instance from its first view."""

    lab_id: str
    view: dict

    def dom_id(self, name: str) -> str:
        return f"{self.lab_id}-{name}"

    def text(self, name: str, tag: str = "span", extra: str = "") -> str:
        value = html.escape(self.view["text"][name])
        return f'<{tag} data-text="{attr(name)}"{extra}>{value}</{tag}>'

    def attrs(self, name: str) -> str:
        pairs = self.view["attrs"][name].items()
        return f'data-attrs="{attr(name)}" ' + " ".join(f'{k}="{attr(v)}"' for k, v in pairs)


def controls_html(params: Params, values: dict, marks: Marks) -> str:
    """A labelled range input per slider param, disabled until the widget takes over."""
    rows = []
    value_marks = ' class="livelab-value" aria-hidden="true"'
    for name, spec in params.controls().items():
        dom_id = marks.dom_id(name)
        rows.append(
            '<div class="livelab-control">'
            f'<label for="{attr(dom_id)}">{html.escape(spec.label or name)}</label>'
            f'<input type="range" id="{attr(dom_id)}" data-param="{attr(name)}" '
            f'min="{spec.minimum}" max="{spec.maximum}" step="{spec.step}" '
            f'value="{values[name]}" disabled>' + marks.text(name, extra=value_marks) + "</div>"
        )
    return "".join(rows)


def lab_html(kind: str, lab_id: str, title: str, values: dict, body: str) -> str:
    """The lab's container: identity, settings and a status line around its body."""
    settings = attr(json.dumps(values, separators=(",", ":")))
    return (
        f'<div class="livelab livelab-lab" data-livelab="lab" data-lab="{attr(lab_id)}" '
        f'data-lab-kind="{attr(kind)}" data-params="{settings}" role="group" '
        f'aria-labelledby="{attr(lab_id)}-title">'
        f'<p class="livelab-lab__title" id="{attr(lab_id)}-title">{html.escape(title)}</p>'
        f"{body}"
        '<p class="livelab-status" data-status aria-live="polite">'
        "Numbers computed when the page was built. Python starts in your browser to make "
        "the controls live.</p>"
        "</div>"
    )

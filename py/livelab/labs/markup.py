"""Build-time HTML of the widgets: inert markup with data-* attributes, filled with a first view.

Everything a widget later updates is marked: `data-text="name"` elements take
view["text"][name] as text, `data-attrs="name"` elements take view["attrs"][name] as
attributes, `g[data-shapes="name"]` is redrawn from view["svg"][name], `tbody[data-rows=
"name"]` from view["rows"][name], `[data-hide="name"]` is hidden when view["hidden"][name]
is true and `[data-error]` shows view["error"]. The controls are `[data-param]` inputs (a
vector entry adds `data-index`; a second control of the same value is `data-mirror`);
buttons move controls with `data-step`/`data-by` or set them with `data-set`, and a lab
with scratchpad code gets `button[data-scratch]` ("Open in scratchpad"). On a narrow screen
a lab's `strip` (its main controls, or its key result) sticks to an edge of the screen while
the rest of the lab scrolls past (livelab.css). The browser code finds everything by those
marks only, so the markup lives here once.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass

from livelab import i18n
from livelab.labs.lab_text import run_buttons as run_buttons  # for labs that run
from livelab.labs.lab_text import scratch_button, status_line
from livelab.labs.view import SVG_TAGS
from livelab.options import Option, Options


def attr(value: object) -> str:
    """Escape a value for a double-quoted HTML attribute."""
    return html.escape(str(value), quote=True)


def label_html(text: str) -> str:
    """A control's label as HTML: escaped, and free to wrap after each underscore only.

    Config names such as max_sequence_slots are one long word to the browser, which on a
    phone would otherwise break them anywhere (max_sequence_sl / ots).
    """
    return html.escape(text).replace("_", "_<wbr>")


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

    def shapes(self, name: str, extra: str = "") -> str:
        """A group redrawn from view["svg"][name], drawn now from the first view."""
        inner = shapes_svg(self.view["svg"][name])
        return f'<g data-shapes="{attr(name)}"{extra}>{inner}</g>'

    def hide(self, name: str) -> str:
        """The attributes of an element shown or hidden by view["hidden"][name]."""
        hidden = " hidden" if self.view["hidden"][name] else ""
        return f'data-hide="{attr(name)}"{hidden}'

    def rows(self, name: str) -> str:
        """A table body rebuilt from view["rows"][name]: the first cell of a row is its header."""
        return f'<tbody data-rows="{attr(name)}">{rows_html(self.view["rows"][name])}</tbody>'

    def error(self) -> str:
        """The lab's message line for settings it cannot use (empty when all is well)."""
        message = html.escape(self.view.get("error", ""))
        return f'<p class="livelab-error" data-error aria-live="polite">{message}</p>'


def shapes_svg(shapes: list[dict]) -> str:
    """SVG markup of a view's shape list, as lab.js would create it."""
    out = []
    for item in shapes:
        tag = item["tag"]
        if tag not in SVG_TAGS:
            raise ValueError(f"cannot draw <{tag}>")
        attrs = "".join(f' {k}="{attr(v)}"' for k, v in item["attrs"].items())
        inner = html.escape(item.get("text", "")) + shapes_svg(item.get("children", []))
        out.append(f"<{tag}{attrs}>{inner}</{tag}>")
    return "".join(out)


def rows_html(rows: list[list[str]]) -> str:
    """Table rows from lists of cell texts; the first cell is the row's header."""
    out = []
    for row in rows:
        head, *cells = row
        out.append(
            f'<tr><th scope="row">{html.escape(head)}</th>'
            + "".join(f"<td>{html.escape(cell)}</td>" for cell in cells)
            + "</tr>"
        )
    return "".join(out)


def _limits(spec: Option) -> str:
    parts = []
    for key, value in (("min", spec.minimum), ("max", spec.maximum), ("step", spec.step)):
        if value is not None:
            parts.append(f'{key}="{attr(_number_text(value))}"')
    return " ".join(parts)


def _number_text(value: object) -> str:
    """A number as a number field shows it: 10000 rather than 10000.0."""
    return f"{value:.12g}" if isinstance(value, float) else str(value)


def range_control(name: str, spec: Option, value: object, marks: Marks) -> str:
    """A labelled slider with its value shown beside it (view["text"][name])."""
    dom_id = marks.dom_id(name)
    value_marks = ' class="livelab-value" aria-hidden="true"'
    return (
        '<div class="livelab-control">'
        f'<label for="{attr(dom_id)}">{label_html(spec.label or name)}</label>'
        f'<input type="range" id="{attr(dom_id)}" data-param="{attr(name)}" '
        f'{_limits(spec)} value="{attr(value)}" disabled>'
        + marks.text(name, extra=value_marks)
        + "</div>"
    )


def sign_button(field_id: str, name: str = "") -> str:
    """A "±" button beside a number field, for the minus sign that a phone's decimal keypad
    (iOS's) lacks; web/widgets/sign.js makes it work. Its name: "Change sign" by default."""
    name = name or i18n.text("markup.change_sign")
    return (
        '<button type="button" class="livelab-button livelab-sign" data-sign '
        f'aria-label="{attr(name)}" aria-controls="{attr(field_id)}" disabled>±</button>'
    )


def _signed(field: str, field_id: str, spec: Option, label: str) -> str:
    """The field, with a sign button beside it when its range takes negative values."""
    if spec.minimum is not None and spec.minimum >= 0:
        return field
    button = sign_button(field_id, i18n.text("markup.change_sign_of", label=label))
    return f'<span class="livelab-signed">{field}{button}</span>'


def number_control(name: str, spec: Option, value: object, marks: Marks) -> str:
    """A labelled number field (with a sign button if it takes negative values)."""
    dom_id = marks.dom_id(name)
    field = (
        f'<input type="number" id="{attr(dom_id)}" data-param="{attr(name)}" '
        f'{_limits(spec)} value="{attr(_number_text(value))}" inputmode="decimal" disabled>'
    )
    return (
        '<div class="livelab-control livelab-control--number">'
        f'<label for="{attr(dom_id)}">{label_html(spec.label or name)}</label>'
        + _signed(field, dom_id, spec, spec.label or name)
        + "</div>"
    )


def checkbox_control(name: str, spec: Option, value: object, marks: Marks) -> str:
    """A labelled checkbox for a true/false param."""
    dom_id = marks.dom_id(name)
    checked = " checked" if value else ""
    return (
        '<div class="livelab-control livelab-control--check">'
        f'<input type="checkbox" id="{attr(dom_id)}" data-param="{attr(name)}"{checked} disabled>'
        f'<label for="{attr(dom_id)}">{label_html(spec.label or name)}</label>'
        "</div>"
    )


def radio_control(name: str, spec: Option, value: object, marks: Marks) -> str:
    """A fieldset of radio buttons, one per choice, with the param's label as its legend."""
    options = []
    for choice, label in spec.choices:
        dom_id = marks.dom_id(f"{name}-{choice}")
        checked = " checked" if choice == value else ""
        options.append(
            '<span class="livelab-choice">'
            f'<input type="radio" id="{attr(dom_id)}" name="{attr(marks.dom_id(name))}" '
            f'data-param="{attr(name)}" value="{attr(choice)}"{checked} disabled>'
            f'<label for="{attr(dom_id)}">{label_html(label)}</label></span>'
        )
    return (
        '<fieldset class="livelab-control livelab-control--radio">'
        f"<legend>{label_html(spec.label or name)}</legend>" + "".join(options) + "</fieldset>"
    )


CONTROL_HTML = {
    "range": range_control,
    "number": number_control,
    "checkbox": checkbox_control,
    "radio": radio_control,
}


def control_html(params: Options, name: str, values: dict, marks: Marks) -> str:
    """The control of one labelled param, of the kind its spec names."""
    spec = params[name]
    return CONTROL_HTML[spec.control](name, spec, values[name], marks)


def controls_html(params: Options, values: dict, marks: Marks) -> str:
    """A labelled control per labelled param, disabled until the widget takes over."""
    return "".join(control_html(params, name, values, marks) for name in params.controls())


def vector_entry_html(name: str, index: int, spec: Option, value: float, label: str, marks: Marks):
    """One vector entry as a number field (the value sent) and a slider that mirrors it."""
    return mirrored_number_html(name, spec, value, label, marks, index)


def mirrored_number_html(
    name: str, spec: Option, value: float, label: str, marks: Marks, index: int | None = None
) -> str:
    """A labelled number field (exact: the value sent; with a sign button if it takes negative
    values) and a slider that mirrors it; with an index, for one entry of a vector param."""
    dom_id = marks.dom_id(name if index is None else f"{name}-{index}")
    entry = "" if index is None else f' data-index="{index}"'
    common = f'data-param="{attr(name)}"{entry} {_limits(spec)} value="{value:g}"'
    field = f'<input type="number" id="{attr(dom_id)}" {common} inputmode="decimal" disabled>'
    return (
        f'<label for="{attr(dom_id)}">{html.escape(label)}</label>'
        + _signed(field, dom_id, spec, label)
        + f'<input type="range" {common} data-mirror '
        f'aria-label="{attr(i18n.text("markup.slider_name", label=label))}" disabled>'
    )


STRIP_EDGES = ("top", "bottom")


def strip(inner: str, edge: str = "top") -> str:
    """What of a lab must stay on a phone's screen while the rest of the lab scrolls past.

    On a narrow screen (livelab.css) the strip sticks below the site's header (edge "top": a
    lab's main controls, so the result they move can be scrolled into view beside them) or
    to the screen's bottom (edge "bottom": a key result, for a lab whose controls are too many
    to stick). On a wide screen it is an ordinary block. Each lab has at most one strip.
    """
    if edge not in STRIP_EDGES:
        raise ValueError(f"a strip sticks to the top or the bottom, not {edge!r}")
    return f'<div class="livelab-strip livelab-strip--{edge}">{inner}</div>'


def set_button(label: str, params: dict, extra: str = "") -> str:
    """A button that puts the controls at the given param values (then the lab updates)."""
    settings = attr(json.dumps(params, separators=(",", ":")))
    return (
        f'<button type="button" class="livelab-button" data-set="{settings}"{extra} disabled>'
        f"{html.escape(label)}</button>"
    )


def lab_html(kind: str, lab_id: str, title: str, values: dict, body: str) -> str:
    """The lab's container: identity, settings and a status line around its body."""
    from livelab.labs import lab  # the registry imports lab modules, which import this one

    settings = attr(json.dumps(values, separators=(",", ":")))
    runs = " data-lab-runs" if lab(kind).run is not None else ""
    return (
        # An <article>, not a <div>: Material's search skips a data-search-exclude element only
        # until the first closing tag of the same name, and a lab is full of divs. (A custom
        # element would not do: Markdown wraps what it does not know as a block in a <p>.)
        f'<article class="livelab livelab-lab" data-livelab="lab" data-lab="{attr(lab_id)}" '
        f'id="{attr(lab_id)}" '
        f'data-lab-kind="{attr(kind)}" data-params="{settings}"{runs} role="region" '
        f'aria-labelledby="{attr(lab_id)}-title" data-search-exclude>'
        f'<p class="livelab-lab__title" id="{attr(lab_id)}-title">{html.escape(title)}</p>'
        f"{body}"
        + (scratch_button() if lab(kind).scratch is not None else "")
        + status_line()
        + "</article>"
    )

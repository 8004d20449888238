"""The authoring reference, written from the registries at build time (never copied by hand).

A `reference` fence names one part: `labs` (every registered lab and its params), `lab-fence`
(the options every lab fence takes), `questions` (every question kind's fence options) or
`code-questions` (every registered code question) or `code-question-fields` (what a
CodeQuestion is made of); `name` narrows a part to one entry. A
course that registers its own labs or code questions gets them listed too. Nothing here
prints an answer: code questions are listed by name, function and checks, never by their
reference blank or hint.
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterable

from livelab.labs import LAB_FENCE, all_labs
from livelab.options import Option, Options, did_you_mean

PARTS = ("labs", "lab-fence", "questions", "code-questions", "code-question-fields")


def _code(text: object) -> str:
    return f"<code>{html.escape(str(text))}</code>"


def _table(head: Iterable[str], rows: Iterable[Iterable[str]]) -> str:
    """An HTML table; cells are HTML already."""
    top = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{top}</tr></thead><tbody>{body}</tbody></table>"


def _value(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(f"{v:g}" for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _accepts(spec: Option) -> str:
    """Type and limits in words: "whole number, 0 to 20 in steps of 1"."""
    text = spec.type_name()
    low, high = spec.minimum, spec.maximum
    if low is not None or high is not None:
        text += f", {_value(low) if low is not None else 'no limit'} to "
        text += _value(high) if high is not None else "no limit"
        if spec.step not in (None, "any", 1):
            text += f" in steps of {spec.step}"
    return html.escape(text)


def _shown_as(spec: Option) -> str:
    if not spec.label:
        return "fixed by the fence"
    kind = {"range": "slider", "number": "number field", "radio": "radio buttons"}
    return html.escape(f'{kind.get(spec.control, spec.control)} "{spec.label}"')


def options_table(options: Options, with_controls: bool = False) -> str:
    """One row per option: name, required or default, what it accepts, what it is."""
    head = ["option", "default", "accepts", "what it is"]
    if with_controls:
        head.insert(3, "on the page")
    rows = []
    for name, spec in options.items():
        default = "required" if spec.required else _code(_value(spec.default))
        if not spec.required and (spec.default in ("", None) or spec.default == []):
            default = "optional"
        row = [_code(name), default, _accepts(spec), html.escape(spec.what)]
        if with_controls:
            row.insert(3, _shown_as(spec))
        rows.append(row)
    return _table(head, rows)


def _pick(registry: dict, name: str | None, what: str) -> dict:
    """The registry, or only the named entry of it (ValueError naming the known ones)."""
    if name is None:
        return registry
    if name not in registry:
        raise ValueError(f"no {what} {name!r}{did_you_mean(name, list(registry))}")
    return {name: registry[name]}


def labs_reference(name: str | None = None) -> str:
    """A section per registered lab (or the named one): title, what it shows, its params."""
    out = []
    for key, lab in _pick(all_labs(), name, "lab").items():
        about = lab.about or _first_line(lab.module or lab.state.__module__)
        head = f'<h3 id="lab-{html.escape(key)}">{_code(key)}: {html.escape(lab.title)}</h3>'
        out.append(
            (head if name is None else "")
            + f"<p>{html.escape(about)}</p>"
            + options_table(lab.params, with_controls=True)
        )
    return "".join(out)


def _first_line(module_name: str) -> str:
    import sys

    doc = (sys.modules[module_name].__doc__ or "").strip()
    return doc.splitlines()[0] if doc else ""


def lab_fence_reference(name: str | None = None) -> str:
    """The options of every lab fence (its lab's params come on top)."""
    return options_table(LAB_FENCE)


def questions_reference(name: str | None = None) -> str:
    """A section per question kind (or the named one): the options of its fence."""
    from livelab.builder.kinds import all_kinds

    out = []
    for key, kind in _pick(all_kinds(), name, "question kind").items():
        head = f'<h3 id="kind-{html.escape(key)}">{_code(key)} fences</h3>'
        out.append((head if name is None else "") + options_table(kind.options))
    return "".join(out)


def code_questions_reference(name: str | None = None) -> str:
    """Every registered code question: name, the function the student completes, its checks."""
    from livelab.questions import all_code_questions

    rows = []
    for key, q in _pick(all_code_questions(), name, "code question").items():
        checks = f"{len(q.example_cases)} shown, {len(q.cases()) - len(q.example_cases)} hidden"
        blank = "a whole line" if q.blank_is_whole_line else "part of a line"
        rows.append(
            [
                _code(key),
                _code(q.function_name),
                blank,
                html.escape(checks),
                f"{q.time_budget:g} s",
            ]
        )
    head = ["question", "the student completes", "the blank is", "cases", "time budget"]
    return _table(head, rows)


def code_question_fields_reference(name: str | None = None) -> str:
    """The fields of a CodeQuestion: name, default (or required) and what each one is."""
    import dataclasses

    from livelab.questions import CodeQuestion

    rows = []
    for f in dataclasses.fields(CodeQuestion):
        if f.default is not dataclasses.MISSING:
            default = _code(_value(f.default) if f.default != "" else '""')
        elif f.default_factory is not dataclasses.MISSING:
            default = _code(_value(f.default_factory()))
        else:
            default = "required"
        rows.append([_code(f.name), default, html.escape(f.metadata.get("what", ""))])
    return _table(["field", "default", "what it is"], rows)


RENDER: dict[str, Callable[[str | None], str]] = {
    "labs": labs_reference,
    "lab-fence": lab_fence_reference,
    "questions": questions_reference,
    "code-questions": code_questions_reference,
    "code-question-fields": code_question_fields_reference,
}


def reference_html(part: str, name: str | None = None) -> str:
    """The HTML of one part of the reference, or of one named entry of it.

    ValueError for an unknown part or name.
    """
    if part not in RENDER:
        raise ValueError(f"`part` must be one of {', '.join(PARTS)}; got {part!r}")
    return f'<div class="livelab-reference">{RENDER[part](name)}</div>'

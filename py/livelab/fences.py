"""Custom fences: a YAML body in, inert widget HTML out, or an authoring error naming page and id.

pymdownx.superfences swallows ordinary exceptions from a formatter and falls back to a code
block, which would hide an authoring mistake. So a formatter never raises: it records the
error on the FenceErrors it was given and returns a visible error box; the plugin turns the
recorded errors into a PluginError once the page is converted, which fails the build.
"""

from __future__ import annotations

import html
import importlib
import re
from dataclasses import dataclass, field

import yaml

from livelab.labs import LABS, lab_view
from livelab.markup import Marks, lab_html

ID_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")
LAB_KEYS = {"lab", "id", "title"}


class FenceError(ValueError):
    """An authoring mistake in one fence."""


@dataclass
class FenceErrors:
    """Errors found in the page being converted, and the ids it has used so far."""

    page: str = "?"
    errors: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)

    def start(self, page: str) -> None:
        self.page, self.errors, self.ids = page, [], set()

    def claim(self, item_id: str) -> None:
        if item_id in self.ids:
            raise FenceError(f"id {item_id!r} is used twice on this page")
        self.ids.add(item_id)


def parse_body(source: str) -> dict:
    """The fence body as a mapping, or FenceError saying why it is not one."""
    try:
        data = yaml.safe_load(source)
    except yaml.YAMLError as exc:
        raise FenceError(f"the fence body is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise FenceError("the fence body must be YAML settings such as `lab: rope`")
    return data


def _lab_id(data: dict) -> str:
    item_id = data.get("id", data.get("lab"))
    if not isinstance(item_id, str) or not ID_PATTERN.match(item_id):
        raise FenceError(f"id must be lowercase letters, digits and dashes, got {item_id!r}")
    return item_id


def lab_fence_html(data: dict, errors: FenceErrors) -> str:
    """Validate a lab fence and render its lab with the state computed now, in CPython."""
    kind = data.get("lab")
    if kind not in LABS:
        raise FenceError(f"`lab` must name one of: {', '.join(sorted(LABS))}; got {kind!r}")
    lab_id = _lab_id(data)
    errors.claim(lab_id)
    markup = importlib.import_module(f"livelab.markup.{kind}")
    title = data.get("title", markup.TITLE)
    if not isinstance(title, str):
        raise FenceError(f"title must be text, got {title!r}")
    params = {k: v for k, v in data.items() if k not in LAB_KEYS}
    try:
        first = lab_view(kind, params)
    except ValueError as exc:
        raise FenceError(str(exc)) from None
    marks = Marks(lab_id, first["view"])
    return lab_html(kind, lab_id, title, first["params"], markup.body(first["params"], marks))


def fence_formatter(render, errors: FenceErrors):
    """A superfences formatter around render(data, errors) that records errors, never raises."""

    def format_fence(source, language, css_class, options, md, **kwargs):
        data: dict = {}
        try:
            data = parse_body(source)
            return render(data, errors)
        except FenceError as exc:
            where = data.get("id", data.get("lab", "?"))
            errors.errors.append(f"{errors.page}: {language} fence id {where!r}: {exc}")
            return (
                '<div class="livelab-authoring-error" role="alert">'
                f"Authoring error in this {html.escape(language)} fence: "
                f"{html.escape(str(exc))}</div>"
            )

    return format_fence


def custom_fences(errors: FenceErrors) -> list[dict]:
    """The superfences entries of our fences, all reporting into errors."""
    return [
        {"name": "lab", "class": "livelab", "format": fence_formatter(lab_fence_html, errors)},
    ]

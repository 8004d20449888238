"""Custom fences: a YAML body in, inert widget HTML out, or an authoring error naming page and id.

pymdownx.superfences swallows ordinary exceptions from a formatter and falls back to a code
block, which would hide an authoring mistake. So a formatter never raises: it records the
error on the FenceContext it was given and returns a visible error box; the plugin turns
the recorded errors into a PluginError once the page is converted, which fails the build.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import yaml

from livelab.builder import fence_yaml, runnable
from livelab.builder.kinds import Question, QuestionKind, all_kinds, question_title
from livelab.builder.progress import progress_placeholder
from livelab.builder.question_markup import with_title
from livelab.builder.reference import PARTS, reference_html
from livelab.builder.runnable import runnable_html
from livelab.labs import LAB_FENCE, lab
from livelab.labs.markup import Marks, lab_html
from livelab.options import Option, Options

ID_PATTERN = re.compile(r"^[a-z][a-z0-9-]*$")
REFERENCE_FENCE = Options(
    part=Option(types=(str,), what=f"one of {', '.join(PARTS)}"),
    name=Option(None, types=(str,), what="one lab, question kind or code question of the part"),
)


class FenceError(ValueError):
    """An authoring mistake in one fence."""


@dataclass
class FenceContext:
    """The page being converted: its errors, the ids it used and the questions it declared."""

    render_markdown: Callable[[str], str] = html.escape
    page: str = "?"
    errors: list[str] = field(default_factory=list)
    ids: set[str] = field(default_factory=set)
    labs: set[str] = field(default_factory=set)
    questions: dict[str, list[Question]] = field(default_factory=dict)
    """The question objects of each page (each kind's own), in page order."""
    titles: dict[str, str] = field(default_factory=dict)
    """This page's question titles by id (kinds.question_title)."""
    runnable: int = 0
    """Runnable code blocks on this page so far (their ids are run-1, run-2, ...)."""

    def start(self, page: str) -> None:
        self.page, self.errors, self.ids, self.labs = page, [], set(), set()
        self.titles = {}
        self.runnable = 0
        self.questions[page] = []

    def claim(self, item_id: object) -> str:
        if not isinstance(item_id, str) or not ID_PATTERN.match(item_id):
            raise FenceError(f"id must be lowercase letters, digits and dashes, got {item_id!r}")
        if item_id in self.ids:
            raise FenceError(f"id {item_id!r} is used twice on this page")
        self.ids.add(item_id)
        return item_id


def parse_body(source: str) -> dict:
    """The fence body as a mapping, or FenceError saying why it is not one."""
    try:
        data = fence_yaml.load(source) if source.strip() else {}
    except yaml.YAMLError as exc:
        raise FenceError(f"the fence body is not valid YAML: {exc}") from None
    if not isinstance(data, dict):
        raise FenceError("the fence body must be YAML settings such as `id: q1`")
    return data


def lab_names(chosen: Any, fence: dict) -> tuple[str, str]:
    """A lab fence's id and title: the fence's own, else from the lab's name and title."""
    return fence["id"] or chosen.name.replace("_", "-"), fence["title"] or chosen.title


def lab_fence_html(data: dict, context: FenceContext) -> str:
    """Validate a lab fence and render its lab with the state computed now, in CPython."""
    try:
        chosen = lab(data.get("lab"))  # type: ignore[arg-type]
        fence = LAB_FENCE.coerce({k: v for k, v in data.items() if k in LAB_FENCE}, "a lab fence")
        default_id, title = lab_names(chosen, fence)
        lab_id = context.claim(default_id)
        params = {k: v for k, v in data.items() if k not in LAB_FENCE}
        first = chosen.first_view(params)
        # A lab's markup may refuse its first view too (a ValueError, like its params).
        body = chosen.body(first["params"], Marks(lab_id, first["view"]))
    except ValueError as exc:
        raise FenceError(str(exc)) from None
    context.labs.add(lab_id)
    return lab_html(chosen.name, lab_id, title, first["params"], body)


def question_fence(kind: QuestionKind) -> Callable[[dict, FenceContext], str]:
    """The renderer of one question kind: validate, remember for progress and checks, render."""

    def render(data: dict, context: FenceContext) -> str:
        context.claim(data.get("id"))
        try:
            question = kind.question(data)
            number = len(context.questions[context.page]) + 1
            title = question_title(data.get("title", ""), number)
        except ValueError as exc:
            raise FenceError(str(exc)) from None
        context.questions[context.page].append(question)
        context.titles[question.id] = title
        return with_title(kind.markup(question, context.render_markdown), question.id, title)

    return render


def check_lab_links(context: FenceContext) -> None:
    """Once a page is read: every question's `lab` names a lab on that page."""
    for question in context.questions.get(context.page, []):
        if question.lab and question.lab not in context.labs:
            known = ", ".join(sorted(context.labs)) or "none"
            context.errors.append(
                f"{context.page}: {question.kind} fence id {question.id!r}: lab "
                f"{question.lab!r} is not a lab on this page (labs here: {known})"
            )


def progress_fence(data: dict, context: FenceContext) -> str:
    """Where the home page lists progress per page; the plugin fills it once all pages are read."""
    if data:
        raise FenceError("the progress fence takes no settings")
    return progress_placeholder()


def reference_fence(data: dict, context: FenceContext) -> str:
    """A part of the authoring reference, written from the registries (builder/reference.py)."""
    try:
        given = REFERENCE_FENCE.coerce(data, "a reference fence")
        return reference_html(given["part"], given["name"])
    except ValueError as exc:
        raise FenceError(str(exc)) from None


def fence_formatter(language: str, render, context: FenceContext):
    """A superfences formatter around render(data, context) that records errors, never raises."""

    def format_fence(source, language_, css_class, options, md, **kwargs):
        data: dict = {}
        try:
            data = parse_body(source)
            return render(data, context)
        except FenceError as exc:
            where = data.get("id", data.get("lab", "?"))
            context.errors.append(f"{context.page}: {language} fence id {where!r}: {exc}")
            return (
                '<div class="livelab-authoring-error" role="alert">'
                f"Authoring error in this {html.escape(language)} fence: "
                f"{html.escape(str(exc))}</div>"
            )

    return format_fence


def runnable_formatter(context: FenceContext):
    """A python fence marked run="on": a runnable block, or an error box saying what to write."""

    def format_fence(source, language_, css_class, options, md, **kwargs):
        context.runnable += 1
        block_id = f"run-{context.runnable}"
        try:
            runnable.check_options(options)
            return runnable_html(source, context.claim(block_id), context.runnable)
        except (runnable.RunnableError, FenceError) as exc:
            context.errors.append(f"{context.page}: python fence {block_id!r}: {exc}")
            return (
                '<div class="livelab-authoring-error" role="alert">'
                f"Authoring error in this python fence: {html.escape(str(exc))}</div>"
            )

    return format_fence


def custom_fences(context: FenceContext) -> list[dict]:
    """The superfences entries of our fences, all reporting into context (a `validator`, when
    an entry has one, decides which fences of its name it takes)."""
    renderers = {
        "lab": lab_fence_html,
        **{name: question_fence(kind) for name, kind in all_kinds().items()},
        "progress": progress_fence,
        "reference": reference_fence,
    }
    return [
        {"name": name, "class": "livelab", "format": fence_formatter(name, render, context)}
        for name, render in renderers.items()
    ] + [
        {
            "name": runnable.NAME,
            "class": "livelab",
            "format": runnable_formatter(context),
            "validator": runnable.run_validator,
        }
    ]

"""The Markdown extension `livelab.builder.extension`: our fences in any Python-Markdown build.

Put `livelab.builder.extension` after `pymdownx.superfences` in `markdown_extensions` and every
livelab fence (lab, the question kinds, progress) renders, under MkDocs and under Zensical.
Zensical ignores MkDocs plugins and pickles the Markdown configuration, so nothing here
lives in a closure that the configuration holds: the extension adds its fences to
superfences itself, each pointing at the top-level function `fence`, which can also be named
in a configuration as `!!python/name:livelab.builder.extension.fence`.

The page being converted is found through Zensical's rendering context or, under MkDocs, set
by the livelab plugin (`SESSION.page`). Errors name the page's file and line of the fence.
They fail a build (raised from here, or by the plugin) and are only logged under `serve`,
where each broken fence shows an error box on its page instead.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import markdown
from markdown.extensions import Extension
from markdown.postprocessors import Postprocessor
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from pymdownx import superfences

from livelab import i18n
from livelab.builder import course_pages
from livelab.builder.course import CourseModuleError, import_course_modules
from livelab.builder.course_pages import fence_bodies
from livelab.builder.fences import FenceContext, FenceError, check_lab_links, custom_fences
from livelab.builder.page_links import link_errors
from livelab.builder.progress import (
    page_progress_html,
    page_questions,
    page_summary_html,
    progress_placeholder,
    progress_table,
)
from livelab.builder.zensical_check import missing_runtime

if TYPE_CHECKING:
    from livelab.builder.kinds import Question

NAME = "livelab.builder.extension"
SUPERFENCES = "pymdownx.superfences"
MODULES = "livelab_modules"
MODULE_ERROR = "livelab_module_error"
"""The Markdown instance's attributes: the course modules named to this extension, and why
they could not be imported (None: they were)."""
ZENSICAL_CONTEXT = "rendering_context"
"""Name of the preprocessor by which Zensical hands the page and its configuration over."""
log = logging.getLogger("mkdocs.plugins.livelab")


class AuthoringError(Exception):
    """One or more fences of a page are wrong; the message names page, line and id."""


@dataclass
class PageRef:
    """A page as the builder knows it: its path in docs, its file, its URL."""

    name: str
    file: Path | None = None
    url: str = ""


@dataclass
class Session:
    """What one build shares across pages.

    collect: errors are left in `errors` for the plugin to raise or log (MkDocs); otherwise
    this extension raises them, or only logs them when serving.
    """

    questions: dict[str, list[Question]] = field(default_factory=dict)
    errors: dict[str, list[str]] = field(default_factory=dict)
    page: PageRef | None = None
    site: course_pages.Site | None = None
    render_markdown: Callable[[str], str] | None = None
    collect: bool = False
    serving: bool = False
    missing: str | None = None  # under Zensical: what the build lacks to run the widgets


SESSION = Session()


def start_session(**settings: Any) -> Session:
    """A fresh session for one build (the MkDocs plugin calls this from on_config)."""
    global SESSION
    SESSION = Session(**settings)
    if SESSION.site is not None:
        i18n.use(SESSION.site.language)
    return SESSION


def markdown_renderer(extensions: list, configs: dict) -> Callable[[str], str]:
    """Markdown for text inside fences (prompts, options): the site's extensions but ours."""
    kept = [e for e in extensions if e != NAME and not isinstance(e, LiveLabExtension)]

    def render(text: str) -> str:
        return markdown.Markdown(extensions=kept, extension_configs=configs).convert(text)

    return render


@dataclass
class PageState:
    """One page's conversion: its fences' context and where in its file each fence stands."""

    ref: PageRef
    context: FenceContext
    formatters: dict[str, Callable[..., str]]
    lines: list[str]
    used: set[int] = field(default_factory=set)
    id_lines: dict[str, int] = field(default_factory=dict)
    whole_page: bool = False

    def line_of(self, language: str, source: str) -> int:
        """1-based line of the fence in the page's file: the first unused one with this body."""
        openers = [
            (n, body) for n, body in fence_bodies(self.lines, language) if n not in self.used
        ]
        same = [n for n, body in openers if body.strip() == source.strip()]
        candidates = same or [n for n, _ in openers]
        if not candidates:
            return 0
        self.used.add(candidates[0])
        return candidates[0] + 1

    def place(self, message: str, line: int) -> str:
        """The message with the page's line: `page.md:12: ...`."""
        prefix = f"{self.ref.name}: "
        rest = message.removeprefix(prefix)
        return f"{self.ref.name}:{line}: {rest}" if line else f"{self.ref.name}: {rest}"


STATE = "livelab_page"
"""Attribute of the Markdown instance that holds its PageState."""


def fence(source: str, language: str, css_class: str, options: dict, md: Any, **kwargs: Any) -> str:
    """The superfences formatter of every livelab fence (a top-level function: picklable)."""
    state: PageState | None = getattr(md, STATE, None)
    if state is None or language not in state.formatters:
        return (
            '<div class="livelab-authoring-error" role="alert">This fence needs the Markdown '
            f"extension {NAME} in the site's configuration.</div>"
        )
    line = state.line_of(language, source)
    errors = state.context.errors
    before = len(errors)
    html = state.formatters[language](source, language, css_class, options, md, **kwargs)
    errors[before:] = [state.place(message, line) for message in errors[before:]]
    try:
        from livelab.builder.fences import parse_body

        item_id = parse_body(source).get("id") if language != "python" else None
    except FenceError:
        item_id = None
    if isinstance(item_id, str) and line:
        state.id_lines.setdefault(item_id, line)
    return html


def _superfences_format(src: str = "", language: str = "", options=None, md=None, **kwargs):
    """How superfences calls a formatter it was handed directly (keyword arguments)."""
    return fence(src, language, "livelab", options or {}, md, **kwargs)


def _no_reset(md: Any) -> None:
    """Nothing of ours is kept on superfences' side between pages."""


def _zensical_context(md: Any) -> Any:
    try:  # a Registry of processors: no .get()
        return md.preprocessors[ZENSICAL_CONTEXT]
    except KeyError:
        return None


def _zensical_serving() -> bool:
    return any(arg == "serve" for arg in sys.argv[1:2])


class _BeginPage(Preprocessor):
    """Before superfences reads the page: whose page it is, and its file's lines."""

    def run(self, lines: list[str]) -> list[str]:
        if getattr(self.md, MODULE_ERROR, None) and not SESSION.collect:
            raise AuthoringError(getattr(self.md, MODULE_ERROR))
        zensical = _zensical_context(self.md)
        render = SESSION.render_markdown
        if zensical is not None:
            config = zensical.config
            docs = Path(config["docs_dir"])
            ref = PageRef(zensical.page.path, docs / zensical.page.path, zensical.page.url)
            if SESSION.site is None or SESSION.site.docs_dir != docs:
                SESSION.site = course_pages.Site.from_zensical(config)
                i18n.use(SESSION.site.language)
                for warning in i18n.warnings(SESSION.site.language):
                    log.warning(warning)
                SESSION.serving = _zensical_serving()
                SESSION.missing = missing_runtime(config, getattr(self.md, MODULES, []))
                if SESSION.missing and SESSION.serving:
                    log.warning(SESSION.missing)
            render = markdown_renderer(config["markdown_extensions"], config["mdx_configs"])
        else:
            ref = SESSION.page or PageRef("?")
        context = FenceContext(render_markdown=render or FenceContext.render_markdown)
        context.questions = SESSION.questions
        context.start(ref.name)
        file_lines = lines
        if ref.file is not None and ref.file.is_file():
            file_lines = ref.file.read_text(encoding="utf-8").splitlines()
        formatters = {f["name"]: f["format"] for f in custom_fences(context)}
        setattr(self.md, STATE, PageState(ref, context, formatters, file_lines))
        return lines


class _TreeDone(Treeprocessor):
    """Marks that the whole page is a tree: postprocessors now see the page, not a heading.

    The toc extension runs every postprocessor on each heading's HTML while the tree is built.
    """

    def run(self, root: Any) -> None:
        state: PageState | None = getattr(self.md, STATE, None)
        if state is not None:
            state.whole_page = True


class _FinishPage(Postprocessor):
    """After the page is HTML: lab links checked, errors reported, progress lists added."""

    def run(self, text: str) -> str:
        state: PageState | None = getattr(self.md, STATE, None)
        if state is None or not state.whole_page:
            return text
        state.whole_page = False  # once per page
        context = state.context
        before = len(context.errors)
        check_lab_links(context)
        for at in range(before, len(context.errors)):
            found = re.search(r"fence id '([^']*)'", context.errors[at])
            line = state.id_lines.get(found.group(1), 0) if found else 0
            context.errors[at] = state.place(context.errors[at], line)
        for message, line in link_errors(state.ref.name, text, state.lines):
            context.errors.append(state.place(message, line))
        SESSION.errors[state.ref.name] = list(context.errors)
        if context.errors and not SESSION.collect:
            if not SESSION.serving:
                raise AuthoringError("\n".join(context.errors))
            for message in context.errors:
                log.warning("livelab authoring error: %s", message)
        if SESSION.missing and not SESSION.serving:  # after the page's own errors
            raise AuthoringError(SESSION.missing)
        questions = context.questions.get(state.ref.name, [])
        text = _with_page_progress(text, questions, context.titles)
        marker = progress_placeholder()
        if marker in text and SESSION.site is not None:
            rows = SESSION.site.progress_rows(state.ref.url)
            text = text.replace(marker, progress_table(rows))
        return text


def _with_page_progress(html: str, questions: list[Question], titles: dict[str, str]) -> str:
    """The progress line right under the page's title and the summary at its end."""
    if not questions:
        return html
    listed = page_questions(html, [(q.id, titles.get(q.id, q.id), q.lab) for q in questions])
    head, title_end, body = html.partition("</h1>")
    top = page_progress_html(listed)
    html = head + title_end + top + body if title_end else top + html
    return html + page_summary_html(listed)


class LiveLabExtension(Extension):
    """Registers the livelab fences with superfences and the page hooks around them."""

    def __init__(self, **kwargs: Any) -> None:
        # Under Zensical no plugin imports a course's own modules, so the extension takes
        # the same list as the plugin's `modules` setting (paths relative to the working folder).
        self.config = {"modules": [[], "the course's own Python modules (labs, code questions)"]}
        super().__init__(**kwargs)

    def extendMarkdown(self, md: Any) -> None:
        setattr(md, MODULES, self.getConfig("modules"))
        # Relative to the working folder, as Zensical runs. MkDocs also builds this while it
        # checks its configuration, from wherever it was started; its livelab plugin imports
        # them from the folder of mkdocs.yml. So a failure here stops only a page that is
        # converted outside the plugin (_BeginPage).
        try:
            import_course_modules(self.getConfig("modules"), Path.cwd())
            setattr(md, MODULE_ERROR, None)
        except CourseModuleError as exc:
            setattr(md, MODULE_ERROR, str(exc))
        fences = next(
            (
                e
                for e in md.registeredExtensions
                if isinstance(e, superfences.SuperFencesCodeExtension)
            ),
            None,
        )
        if fences is None:
            raise AuthoringError(
                f"The Markdown extension {NAME} needs {SUPERFENCES}, listed before it in "
                "markdown_extensions."
            )
        present = {entry["name"] for entry in fences.superfences}
        for entry in custom_fences(FenceContext()):
            if entry["name"] not in present:
                validator = entry.get("validator", superfences.default_validator)
                fences.extend_super_fences(entry["name"], _superfences_format, validator, _no_reset)
        md.registerExtension(self)
        md.preprocessors.register(_BeginPage(md), "livelab_begin", 28)
        # After the raw-HTML postprocessor (30) put the fences' HTML back into the page.
        md.treeprocessors.register(_TreeDone(md), "livelab_tree_done", -1)  # after all others
        md.postprocessors.register(_FinishPage(md), "livelab_finish", 1)


def makeExtension(**kwargs: Any) -> LiveLabExtension:
    return LiveLabExtension(**kwargs)

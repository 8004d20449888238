"""Question kinds: each one registered object (options, parse, markup, replays), one module each.

A kind turns a fence body into a frozen question object (`parse`), renders it as inert HTML
for its widget (`markup`), and lists the answers the author check tries with the verdicts
they must get (`replays`). `grade` says how CPython grades one of them; `browser` how the
page does, so `livelab check --browser` can ask the page the same thing (None: the kind is
replayed in CPython only). Every module of this package is imported on first use, so adding
a kind is adding a module that calls `register_kind` (plus its widget and its tests).
Build-time only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from livelab import i18n
from livelab.options import Option, Options
from livelab.registry import Registry

Render = Callable[[str], str]
"""Markdown to HTML, as the page being built renders it."""


class Question(Protocol):
    """What every kind's question object has: its id, its lab and its kind's name."""

    @property
    def id(self) -> str: ...
    @property
    def lab(self) -> str: ...
    @property
    def kind(self) -> str: ...


class QuestionError(ValueError):
    """An authoring mistake in a question fence."""


LAB_OPTION = Option("", types=(str,), what="the id of a lab on this page that helps answer it")
"""The option every kind takes: the lab the question sits beside."""

HINTS_OPTION = Option(
    (),
    types=(list,),
    what="hints, each Markdown, shown one at a time on request after a wrong check",
)
"""The option every kind takes: a ladder of hints, each earned before the next."""


def hint_texts(raw: list) -> tuple[str, ...]:
    """A fence's hints in order; QuestionError naming the first that is not Markdown text."""
    for number, hint in enumerate(raw, start=1):
        if not isinstance(hint, str) or not hint.strip():
            raise QuestionError(f"hint {number} must be a line of Markdown text, got {hint!r}")
    return tuple(hint.strip() for hint in raw)


TITLE_OPTION = Option(
    "",
    types=(str,),
    what='how the page and every progress list name it, e.g. "E3" (default: "Question 4", '
    "by its place among the page's questions)",
)
"""The option every kind takes, before `prompt`: the question's one title (issue 31)."""
TITLE_LIMIT = 40


def question_title(given: object, number: int) -> str:
    """The title of the page's number-th question: the author's, else "Question <number>"
    in the site's language.

    ValueError when the author's is not one short line of text.
    """
    title = TITLE_OPTION.coerce("title", given)
    if title != title.strip() or "\n" in title or len(title) > TITLE_LIMIT:
        raise ValueError(
            f"option 'title' must be one line of at most {TITLE_LIMIT} characters with no "
            f"space at either end; got {title!r}"
        )
    return title or i18n.text("markup.question_title", number=number)


@dataclass(frozen=True)
class Replay:
    """One answer to try and what it must give: verdict, and text the message must contain."""

    answer: str | list[str]
    verdict: str
    message: str = ""


@dataclass(frozen=True)
class BrowserReplay:
    """How the page grades an answer: `call` exported by `module` (under assets/livelab/).

    `call` may be a dotted path into the module ("runtime.call"); `args(question, answer)`
    gives its arguments as JSON data. It must resolve to {verdict, message}.
    """

    where: str
    """Where that runs, for the check's report, e.g. "the page's JavaScript"."""
    module: str
    call: str
    args: Callable[[Any, Any], list]


@dataclass(frozen=True)
class QuestionKind:
    """One kind of question fence, named as the fence's language (```numeric)."""

    name: str
    options: Options
    parse: Callable[[dict], Any]
    """Checked fence options -> question object (with .id, .lab, .kind); QuestionError."""
    markup: Callable[[Any, Render], str]
    replays: Callable[[Any], Iterable[Replay]]
    grade: Callable[[Any, Any], dict]
    """(question, answer) -> {verdict, message}, graded in CPython."""
    browser: BrowserReplay | None = None
    module: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # Every kind takes `title`, listed before `prompt` as authors write it.
        if "title" in self.options:
            return
        items = list(self.options.items())
        at = next((i for i, (name, _) in enumerate(items) if name == "prompt"), len(items))
        items.insert(at, ("title", TITLE_OPTION))
        self.options.clear()
        self.options.update(items)

    def question(self, data: dict) -> Any:
        """A fence body as this kind's question, or QuestionError saying what is wrong."""
        try:
            return self.parse(self.options.coerce(data, f"a {self.name} question"))
        except QuestionError:
            raise
        except ValueError as exc:
            raise QuestionError(str(exc)) from None


KINDS: Registry[QuestionKind] = Registry("question kind", __name__)
register_kind = KINDS.register
all_kinds = KINDS.all


def question_kind(name: str) -> QuestionKind:
    """The question kind of that name; ValueError naming the known kinds otherwise."""
    return KINDS.get(name)


def judge(replay: Replay, result: dict) -> str | None:
    """None if a grader's result is what the replay expects, else what went wrong."""
    got_right = result["verdict"] == "correct"
    if replay.verdict == "correct" and not got_right:
        return f"{replay.answer!r} should be right, got: {result['message']}"
    if replay.verdict != "correct" and got_right:
        return f"{replay.answer!r} should be wrong, but passed"
    if replay.message not in result["message"]:
        return f"{replay.answer!r} should say {replay.message!r}, said {result['message']!r}"
    return None

"""Every page of a course and its question ids, read from the Markdown in docs_dir.

The home page's progress table lists each page with questions. Zensical renders one page at a
time with no hook after the last, so the table cannot wait for the other pages to be built:
it reads their Markdown instead (the same in both builders). A page's fences are checked
when that page itself is built; here a fence that does not parse is just skipped.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from livelab.builder.fences import FenceError, lab_names, parse_body
from livelab.builder.kinds import all_kinds, question_title
from livelab.labs import LAB_FENCE, lab

_FRONT_MATTER = re.compile(r"\A---\n(.*?)\n---\n", re.S)
_TITLE = re.compile(r"^title:\s*(.+)$", re.M)
_HEADING = re.compile(r"^#\s+(.+?)\s*#*\s*$", re.M)


_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>`{3,}|~{3,})[ \t]*(?P<info>[^`]*)$")


def fence_bodies(lines: list[str], language: str) -> list[tuple[int, str]]:
    """(0-based line, dedented body) of each fence opened with `language`, not nested in
    another fence (the authoring guide shows fences inside longer ones)."""
    found: list[tuple[int, str]] = []
    at = 0
    while at < len(lines):
        opener = _FENCE.match(lines[at])
        if not opener:
            at += 1
            continue
        marker, indent = opener.group("marker"), len(opener.group("indent"))
        end = at + 1
        while end < len(lines) and not _closes(lines[end], marker):
            end += 1
        words = opener.group("info").replace("{", " ").replace(".", " ", 1).split()
        if words and words[0] == language:
            found.append((at, "\n".join(line[indent:] for line in lines[at + 1 : end])))
        at = end + 1
    return found


def _closes(line: str, marker: str) -> bool:
    stripped = line.strip()
    return stripped.startswith(marker) and not stripped.strip(marker[0])


def question_kinds() -> list[str]:
    """The fence names that declare questions."""
    return list(all_kinds())


def nav_titles(nav: Any) -> Iterator[tuple[str, str | None]]:
    """(source path, title or None) in nav order, from MkDocs' nav or Zensical's converted one."""
    for item in nav or []:
        if isinstance(item, str):
            yield item, None
        elif isinstance(item, list):
            yield from nav_titles(item)
        elif isinstance(item, dict) and "children" in item and "url" in item:  # Zensical
            if item["url"]:
                yield item["url"], item.get("title")
            yield from nav_titles(item["children"])
        elif isinstance(item, dict):
            for title, value in item.items():
                if isinstance(value, str):
                    yield value, str(title)
                else:
                    yield from nav_titles(value)


def page_url(src: str, directory_urls: bool = True) -> str:
    """The URL of a page as MkDocs and Zensical give it: `a/b.md` -> `a/b/`, `index.md` -> ``."""
    stem = src[: -len(".md")] if src.endswith(".md") else src
    if not directory_urls:
        return stem + ".html"
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return stem + "/"


def relative_url(url: str, from_url: str) -> str:
    """url as a link from the page at from_url (mkdocs.utils.get_relative_url's rule)."""
    base = from_url
    head, tail = posixpath.split(from_url)
    if "." in tail:
        base = head
    rel = posixpath.relpath("/" + url, "/" + base)
    return rel + "/" if url.endswith("/") else rel


def page_title(text: str, src: str) -> str:
    """The front matter's title, else the first level-one heading, else the file name."""
    front = _FRONT_MATTER.match(text)
    if front and (found := _TITLE.search(front.group(1))):
        return found.group(1).strip().strip("\"'")
    if found := _HEADING.search(text):
        return found.group(1)
    return Path(src).stem.replace("-", " ").capitalize()


def question_titles(text: str, kinds: list[str]) -> dict[str, str]:
    """{id: title} of the page's question fences, in page order (kinds.question_title)."""
    lines = text.splitlines()
    found = sorted(at for kind in kinds for at in fence_bodies(lines, kind))
    titles: dict[str, str] = {}
    for _, body in found:
        try:
            data = parse_body(body)
            item_id = data.get("id")
            if isinstance(item_id, str):
                titles[item_id] = question_title(data.get("title", ""), len(titles) + 1)
        except (FenceError, ValueError):
            continue
    return titles


def lab_titles(text: str) -> dict[str, str]:
    """{id: title} of the page's labs, in page order."""
    titles: dict[str, str] = {}
    for _, body in fence_bodies(text.splitlines(), "lab"):
        try:
            data = parse_body(body)
            fence = LAB_FENCE.coerce({k: v for k, v in data.items() if k in LAB_FENCE})
            lab_id, title = lab_names(lab(data.get("lab")), fence)  # type: ignore[arg-type]
        except ValueError:
            continue
        titles[lab_id] = title
    return titles


@dataclass(frozen=True)
class ProgressRow:
    """A page with questions, as the home page's table lists it."""

    url: str
    href: str
    """The link to it from the page that holds the table."""
    title: str
    questions: dict[str, str]
    """{id: title}, in page order."""
    labs: dict[str, str]


def theme_language(theme: Any) -> str:
    """The `language` of a theme (MkDocs' Theme object, or Zensical's mapping); "en" if unset."""
    try:
        value = theme["language"] if theme is not None else None
    except (KeyError, TypeError):
        value = None
    return str(value or "en")


@dataclass
class Site:
    """Where the pages are, how their URLs look and what the nav calls them."""

    docs_dir: Path
    directory_urls: bool = True
    titles: dict[str, str | None] = field(default_factory=dict)  # nav order
    language: str = "en"  # the theme's `language`: the widgets' sentences (livelab.i18n)

    @classmethod
    def from_mkdocs(cls, config: Any) -> Site:
        return cls(
            Path(config["docs_dir"]),
            bool(config["use_directory_urls"]),
            dict(nav_titles(config["nav"])),
            theme_language(config["theme"]),
        )

    @classmethod
    def from_zensical(cls, config: dict) -> Site:
        return cls(
            Path(config["docs_dir"]),
            bool(config.get("use_directory_urls", True)),
            dict(nav_titles(config.get("nav"))),
            theme_language(config.get("theme")),
        )

    def sources(self) -> list[str]:
        """Every page, those in the nav first in nav order, then the rest by name."""
        found = sorted(p.relative_to(self.docs_dir).as_posix() for p in self.docs_dir.rglob("*.md"))
        listed = [src for src in self.titles if src in found]
        return listed + [src for src in found if src not in self.titles]

    def progress_rows(self, from_url: str) -> list[ProgressRow]:
        """Each page with questions: its URL, its link from from_url, titles of it and its parts."""
        kinds = question_kinds()
        rows = []
        for src in self.sources():
            text = (self.docs_dir / src).read_text(encoding="utf-8")
            questions = question_titles(text, kinds)
            if not questions:
                continue
            url = page_url(src, self.directory_urls)
            title = self.titles.get(src) or page_title(text, src)
            href = relative_url(url, from_url)
            rows.append(ProgressRow(url, href, title, questions, lab_titles(text)))
        return rows

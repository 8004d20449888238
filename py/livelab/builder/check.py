"""The author check: build the site, then replay every question it declares.

Each question kind says what to try (`replays`: a numeric question's answer and listed wrong
answers, a choice question's options, a code question's reference blank and the blanks of
its data file) and how CPython grades it; one judge compares. With --browser the same
replays run again in headless Chromium where students run them, as the kind's `browser`
says: a numeric question through the page's JavaScript grader (the module the numeric
widget imports), a code question through the page's Pyodide worker.
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from livelab.builder.kinds import Question, judge, question_kind


@dataclass(frozen=True)
class Course:
    """A built site: its pages (url -> title) and the questions of each page, in page order."""

    pages: dict[str, str]
    questions: dict[str, list[Question]]


def build_course(config_file: Path, site_dir: Path, site_url: str | None = None) -> Course:
    """Build the site strictly into site_dir; return its pages and their questions."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from livelab.builder.plugin import LiveLabPlugin

    overrides = {"site_url": site_url} if site_url else {}
    config = load_config(str(config_file), site_dir=str(site_dir), strict=True, **overrides)
    # As `mkdocs build` does. MkDocs keeps a plugin with on_startup for the whole process, so
    # without this a build after a `serve` startup in the same process would build for serve.
    config.plugins.on_startup(command="build", dirty=False)
    try:
        build(config)
    finally:
        config.plugins.on_shutdown()
    plugin = config.plugins["livelab"]
    assert isinstance(plugin, LiveLabPlugin)
    questions = {
        plugin.pages[src][0]: found
        for src, found in plugin.fences.questions.items()
        if src in plugin.pages and found
    }
    return Course(dict(plugin.pages.values()), questions)


def replay_in_python(q: Question) -> list[str]:
    """Problems found replaying one question in CPython (empty when all is well)."""
    kind = question_kind(q.kind)
    return [p for r in kind.replays(q) if (p := judge(r, kind.grade(q, r.answer)))]


BROWSER_GRADE = """async ([url, call, args]) => {
    try {
        const names = call.split(".");
        const last = names.pop();
        let target = await import(url);
        for (const name of names) target = target[name];
        return await target[last](...args);
    } catch (err) {
        return { verdict: "error", message: `${err.type ?? err.name}: ${err.message}` };
    }
}"""
"""Import a module of the page and call one of its functions (a dotted path for a method)."""


def replay_in_browser(page, assets_url: str, q: Question) -> list[str]:
    """Problems found replaying a question as the page grades it (none for a kind without).

    assets_url is the served site's assets/livelab/ folder, ending in a slash.
    """
    kind = question_kind(q.kind)
    if kind.browser is None:
        return []
    grader = kind.browser
    problems = []
    for r in kind.replays(q):
        args = json.loads(json.dumps(grader.args(q, r.answer)))  # as the page carries it
        result = page.evaluate(BROWSER_GRADE, [assets_url + grader.module, grader.call, args])
        if problem := judge(r, result):
            problems.append(problem)
    return problems


def _browser_pass(
    site_dir: Path, course: dict[str, list[Question]]
) -> dict[tuple[str, str], list[str]]:
    from playwright.sync_api import sync_playwright

    from livelab.builder.browser import launch_chromium
    from livelab.builder.serve import make_server, serve_in_thread

    server = make_server(site_dir, port=0)
    serve_in_thread(server)
    origin = f"http://127.0.0.1:{server.server_port}"
    problems = {}
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright)
            page = browser.new_page()
            page.goto(origin + "/")
            assets_url = origin + "/assets/livelab/"
            for url, questions in course.items():
                for q in questions:
                    if question_kind(q.kind).browser is not None:
                        problems[(url, q.id)] = replay_in_browser(page, assets_url, q)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return problems


def _show_build_messages() -> None:
    """Let MkDocs' warnings and errors reach the terminal, as `mkdocs build` would print them."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(levelname)-7s -  %(message)s"))
    log = logging.getLogger("mkdocs")
    log.addHandler(handler)
    log.setLevel(logging.WARNING)


def main(config_file: Path, browser: bool) -> int:
    """Build, replay and print a line per question; 1 if any question misbehaves."""
    from mkdocs.exceptions import Abort

    _show_build_messages()
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        try:
            course = build_course(config_file, Path(tmp)).questions
        except Abort as exc:
            print(
                f"livelab check: the site does not build ({exc}); see the errors above",
                file=sys.stderr,
            )
            return 1
        in_browser = _browser_pass(Path(tmp), course) if browser else {}
    for url, questions in course.items():
        for q in questions:
            problems = replay_in_python(q) + in_browser.get((url, q.id), [])
            grader = question_kind(q.kind).browser
            tried = grader is not None and (url, q.id) in in_browser
            where = f"CPython and {grader.where}" if grader and tried else "CPython"
            status = "FAIL" if problems else "ok  "
            print(f"{status} {url} {q.id} ({q.kind}, {where})")
            for problem in problems:
                print(f"     {problem}")
            failed += bool(problems)
    total = sum(map(len, course.values()))
    print(json.dumps({"questions": total, "failed": failed}))
    return 1 if failed else 0

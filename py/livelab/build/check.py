"""The author check: build the site, then replay every question it declares.

In CPython: a numeric question's answer must pass and each listed wrong answer must fail
with its own message; a choice question's correct option must be the one marked; a code
question's reference blank, its listed correct blanks and its listed wrong blanks must
behave as its data file says. With --browser they are replayed again in headless Chromium
where students run them: a numeric question through the page's JavaScript grader (the
module the numeric widget imports), a code question through the page's Pyodide worker.
"""

from __future__ import annotations

import json
import logging
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from livelab.build.quiz import ChoiceQuestion, CodeQuestionRef, NumericQuestion, Question


@dataclass(frozen=True)
class Course:
    """A built site: its pages (url -> title) and the questions of each page, in page order."""

    pages: dict[str, str]
    questions: dict[str, list[Question]]


def build_course(config_file: Path, site_dir: Path, site_url: str | None = None) -> Course:
    """Build the site strictly into site_dir; return its pages and their questions."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    from livelab.build.plugin import LiveLabPlugin

    overrides = {"site_url": site_url} if site_url else {}
    config = load_config(str(config_file), site_dir=str(site_dir), strict=True, **overrides)
    build(config)
    plugin = config.plugins["livelab"]
    assert isinstance(plugin, LiveLabPlugin)
    questions = {
        plugin.pages[src][0]: found
        for src, found in plugin.fences.questions.items()
        if src in plugin.pages and found
    }
    return Course(dict(plugin.pages.values()), questions)


@dataclass(frozen=True)
class Replay:
    """One answer to try and what it must give: verdict, and text the message must contain."""

    answer: str
    verdict: str
    message: str = ""


def numeric_replays(q: NumericQuestion) -> Iterator[Replay]:
    yield Replay(q.answer_text, "correct")
    for value, message in q.spec.wrong:
        text = ", ".join(map(repr, value)) if isinstance(value, tuple) else repr(value)
        yield Replay(text, "wrong", message)


def code_replays(q: CodeQuestionRef) -> Iterator[Replay]:
    from livelab.questions import load_blanks

    data = load_blanks(q.question)
    for blank in [q.reference_blank, *data["correct"]]:
        yield Replay(blank, "correct")
    for entry in data["wrong"]:
        yield Replay(entry["blank"], "wrong", entry["message"])


def judge(replay: Replay, result: dict) -> str | None:
    """None if the result is what the replay expects, else what went wrong."""
    got_right = result["verdict"] == "correct"
    if replay.verdict == "correct" and not got_right:
        return f"{replay.answer!r} should be right, got: {result['message']}"
    if replay.verdict != "correct" and got_right:
        return f"{replay.answer!r} should be wrong, but passed"
    if replay.message not in result["message"]:
        return f"{replay.answer!r} should say {replay.message!r}, said {result['message']!r}"
    return None


def replay_in_python(q: Question) -> list[str]:
    """Problems found replaying one question in CPython (empty when all is well)."""
    if isinstance(q, ChoiceQuestion):
        marked = [i for i, option in enumerate(q.options) if option.correct]
        return [] if marked == [q.correct_index] else ["the correct option is not unique"]
    if isinstance(q, NumericQuestion):
        return [p for r in numeric_replays(q) if (p := judge(r, q.grade(r.answer)))]
    from livelab import grading

    return [p for r in code_replays(q) if (p := judge(r, grading.check(q.question, r.answer)))]


CLIENT = "runtime/client.js"
"""The page's runtime, relative to the site's assets/livelab/."""
NUMERIC_GRADER = "grading/numeric.js"
"""The page's numeric grader, relative to assets/livelab/: what the numeric widget runs."""
BROWSER_CALL = """async ([client, name, args]) => {
    const { runtime } = await import(client);
    try { return await runtime.call(name, args, { timeoutMs: 20000 }); }
    catch (err) { return { verdict: "error", message: `${err.type}: ${err.message}` }; }
}"""
BROWSER_GRADE = """async ([grader, spec, text]) => {
    try { return (await import(grader)).gradeNumeric(spec, text); }
    catch (err) { return { verdict: "error", message: `${err.name}: ${err.message}` }; }
}"""
WHERE = {"numeric": "CPython and the page's JavaScript", "code": "CPython and Pyodide"}
"""Where each kind is replayed with --browser (a choice question only in CPython)."""


def replay_in_browser(page, assets_url: str, q: Question) -> list[str]:
    """Problems found replaying a numeric or code question as the page runs it.

    assets_url is the served site's assets/livelab/ folder, ending in a slash.
    """
    if isinstance(q, NumericQuestion):
        grader = assets_url + NUMERIC_GRADER
        spec = json.loads(json.dumps(q.spec.to_json()))  # as the page carries it
        return [
            p
            for r in numeric_replays(q)
            if (p := judge(r, page.evaluate(BROWSER_GRADE, [grader, spec, r.answer])))
        ]
    if not isinstance(q, CodeQuestionRef):
        return []
    problems = []
    for r in code_replays(q):
        args = {"question": q.question, "blank": r.answer}
        result = page.evaluate(BROWSER_CALL, [assets_url + CLIENT, "code_check", args])
        if problem := judge(r, result):
            problems.append(problem)
    return problems


def _browser_pass(
    site_dir: Path, course: dict[str, list[Question]]
) -> dict[tuple[str, str], list[str]]:
    from playwright.sync_api import sync_playwright

    from livelab.build.browser import launch_chromium
    from livelab.build.serve import make_server, serve_in_thread

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
                    if not isinstance(q, ChoiceQuestion):
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
            where = WHERE[q.kind] if (url, q.id) in in_browser else "CPython"
            status = "FAIL" if problems else "ok  "
            print(f"{status} {url} {q.id} ({q.kind}, {where})")
            for problem in problems:
                print(f"     {problem}")
            failed += bool(problems)
    total = sum(map(len, course.values()))
    print(json.dumps({"questions": total, "failed": failed}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(Path("mkdocs.yml"), "--browser" in sys.argv))

"""The lesson page built by MkDocs and by Zensical: a lab goes live and each question kind grades.

Zensical runs no MkDocs plugin; the course builds there through the Markdown extension and the
`livelab assets` / `livelab finish` steps (zensical.yml, make site-zensical). Zensical keeps
its output inside the project folder, so the course is copied into a temporary one first.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import markdown
import pytest
from playwright.sync_api import expect

from livelab.builder import extension
from livelab.builder.kinds import all_kinds
from livelab.builder.serve import make_server, serve_in_thread
from tests.browser.test_runtime import open_with_the_client_held_back
from tests.harness import ROOT, Site, serve_site

LESSON_SRC = "level-19/modern-blocks.md"
LESSON = "level-19/modern-blocks/"
LAB = "rope"
LIVE = re.compile("^Live:")


def lesson_questions() -> list:
    """The lesson's questions as the build reads them (the fences of its Markdown)."""
    session = extension.start_session()
    session.serving = True  # a broken fence would fail the build itself, not this helper
    session.page = extension.PageRef(LESSON_SRC, ROOT / "docs" / LESSON_SRC, LESSON)
    md = markdown.Markdown(extensions=["md_in_html", "pymdownx.superfences", extension.NAME])
    md.convert((ROOT / "docs" / LESSON_SRC).read_text(encoding="utf-8"))
    return session.questions[LESSON_SRC]


def run(args: list[str], cwd: Path, env: dict[str, str]) -> None:
    result = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


def serve_zensical(folder: Path) -> Site:
    """The course copied into folder and built by Zensical as `make site-zensical` does."""
    for name in ("mkdocs.yml", "zensical.yml"):
        shutil.copyfile(ROOT / name, folder / name)
    shutil.copytree(ROOT / "docs", folder / "docs", ignore=shutil.ignore_patterns("livelab"))
    shutil.copytree(ROOT / "labs", folder / "labs", ignore=shutil.ignore_patterns("__pycache__"))
    server = make_server(folder / "site-zensical", port=0, isolated=True)
    site = Site(server, folder / "site-zensical", isolated=True)
    env = {**os.environ, "LIVELAB_SITE_URL": site.url()}
    bin_dir = Path(sys.executable).parent
    assets = ["assets", "docs/assets/livelab", "--math", "--module", "labs"]
    run([str(bin_dir / "livelab"), *assets], folder, env)
    run([str(bin_dir / "zensical"), "build", "--clean", "-f", "zensical.yml"], folder, env)
    run([str(bin_dir / "livelab"), "finish", "site-zensical"], folder, env)
    serve_in_thread(server)
    return site


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def built(request, tmp_path_factory) -> Iterator[Site]:
    folder = tmp_path_factory.mktemp(request.param)
    served = serve_site(folder) if request.param == "mkdocs" else serve_zensical(folder)
    yield served
    served.close()


def test_a_lab_goes_live(page, built):
    page.goto(built.url(LESSON))
    lab = page.locator(f'[data-lab="{LAB}"]')
    expect(lab.get_by_text(LIVE)).to_be_visible(timeout=30_000)
    assert page.log.errors == []  # type: ignore[attr-defined]


def test_python_starts_from_the_page_head(page, built):
    open_with_the_client_held_back(page, built.url(LESSON))
    assert len(page.log.python_workers()) == 1, page.log.workers


RIGHT_ANSWER = {
    "numeric": lambda box, q: box.get_by_label("Your answer").fill(q.reveal),
    "choice": lambda box, q: box.get_by_role("radio", name=q.options[q.correct_index].text).check(),
    "code": lambda box, q: box.get_by_role("textbox", name=re.compile("blank")).fill(
        q.reference_blank
    ),
}
"""How a student gives the right answer to each question kind."""


ELSEWHERE = {"exercise": "tests/browser/test_example_french.py"}
"""Kinds the lesson does not use, and the test that grades one under both builders."""


def test_every_question_kind_is_graded_under_both_builders():
    on_lesson = {q.kind for q in lesson_questions()}
    assert set(all_kinds()) == set(RIGHT_ANSWER) | set(ELSEWHERE), "a new kind needs a test"
    assert on_lesson == set(RIGHT_ANSWER)
    for kind, test in ELSEWHERE.items():
        assert "zensical" in (ROOT / test).read_text(encoding="utf-8"), f"{kind}: {test}"


@pytest.mark.parametrize("kind", sorted(RIGHT_ANSWER))
def test_each_question_kind_grades(page, built, kind):
    q = next(q for q in lesson_questions() if q.kind == kind)
    page.goto(built.url(LESSON))
    box = page.locator(f'[data-question="{q.id}"]')
    RIGHT_ANSWER[kind](box, q)
    box.get_by_role("button", name="Check").click()
    expect(box.get_by_role("status")).to_have_text(re.compile("^Correct"), timeout=30_000)


def footer_link(page, direction: str):
    """The footer's "Previous" or "Next" link, by its accessible name."""
    name = re.compile(rf"^{direction}\b")
    return page.get_by_role("contentinfo").get_by_role("link", name=name)


def test_next_walks_every_page_and_the_last_one_leads_home(page, built):
    page.goto(built.url(""))
    visited: list[str] = []
    home = ""  # the "Previous" link's name on the first page after home
    while not visited or visited[-1] != "":
        assert len(visited) < 20, f"Next never led home: {visited}"
        before = page.url
        expect(footer_link(page, "Next"), f"no way on from {before}").to_be_visible()
        footer_link(page, "Next").click()
        expect(page).not_to_have_url(before)
        visited.append(page.url.removeprefix(built.url("")))
        if len(visited) == 1:
            home = footer_link(page, "Previous").get_attribute("aria-label") or ""
    assert LESSON in visited and len(visited) >= 3
    page.goto(built.url(visited[-2]))  # the last page, as a student arrives on it
    expect(footer_link(page, "Next")).to_have_accessible_name(home.replace("Previous", "Next"))

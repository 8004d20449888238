"""The example course, used as another course would use livelab.

livelab is built into a wheel and installed (not editable) into a fresh venv together with
the exact versions of requirements.lock; that venv's mkdocs builds examples/softmax-course
from outside this repository, and Chromium drives the result: the course's own lab goes
live and answers a slider, and its own code question grades a right and a wrong answer.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from livelab.builder import fetch
from tests.harness import ROOT, Site, serve_site
from tests.packaging import build_wheel, install_wheel, run

EXAMPLE = ROOT / "examples" / "softmax-course"
MODULE = "softmax_course"
LIVE = re.compile("^Live:")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """A wheel of livelab (its contents: tests/sitebuild/test_package.py)."""
    return build_wheel(tmp_path_factory.mktemp("source"), tmp_path_factory.mktemp("wheel"))


@pytest.fixture(scope="module")
def example(wheel, tmp_path_factory) -> Iterator[tuple[Site, Path]]:
    """The example course built by a fresh venv's mkdocs and served isolated."""
    work = tmp_path_factory.mktemp("example")
    env_dir = work / "venv"
    started = time.perf_counter()
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    # Never editable, so the plugin runs from site-packages.
    install_wheel(python, wheel, work)
    installed = time.perf_counter()
    course = work / "course"
    shutil.copytree(EXAMPLE, course, ignore=shutil.ignore_patterns("__pycache__"))
    env = {
        **os.environ,
        fetch.CACHE_ENV: str(fetch.cache_root()),  # the runtime files this machine has
        "NO_MKDOCS_2_WARNING": "1",
    }
    site_dir = work / "site"
    run(env_dir / "bin" / "mkdocs", "build", "--strict", "-d", site_dir, cwd=course, env=env)
    built = time.perf_counter()
    print(
        f"\nexample course: venv + install {installed - started:.1f} s, "
        f"mkdocs build {built - installed:.1f} s"
    )
    site = serve_site(site_dir, isolated=True, build_it=False)
    yield site, course
    site.close()


def in_venv(course: Path, code: str) -> object:
    """What the course's own Python, in the example's venv, returns (as JSON)."""
    python = course.parent / "venv" / "bin" / "python"
    return json.loads(run(python, "-c", f"import json; print(json.dumps({code}))", cwd=course))


def test_the_plugin_runs_from_the_installed_wheel(example):
    _, course = example
    where = in_venv(course, "__import__('livelab.builder.plugin').__file__")
    assert "site-packages" in str(where)
    assert not str(where).startswith(str(ROOT))


def top_share(course: Path, **params: float) -> str:
    """The top token share the course's temperature lab shows for these params."""
    lab = f"__import__('{MODULE}').lab"
    return str(in_venv(course, f"{lab}.view({lab}.LAB.compute(**{params!r}))['text']['top']"))


def test_the_course_lab_goes_live_and_answers_the_slider(example, page):
    site, course = example
    page.goto(site.url())
    lab = page.locator('[data-lab="temperature"]')
    expect(lab.get_by_text(LIVE)).to_be_visible(timeout=60_000)
    top = lab.get_by_role("status", name=re.compile("top token share"))
    first, sharper = top_share(course), top_share(course, t=0.5)
    assert first != sharper
    expect(top).to_have_text(first)
    lab.get_by_label("temperature T").fill("0.5")
    expect(top).to_have_text(sharper)


def test_the_course_code_question_grades_a_right_and_a_wrong_answer(example, page):
    site, course = example
    cases = json.loads((course / MODULE / "softmax.cases.json").read_text(encoding="utf-8"))
    reference = in_venv(course, f"__import__('{MODULE}').question.QUESTION.reference_blank")
    page.goto(site.url())
    box = page.locator('[data-question="s1"]')
    blank = box.get_by_role("textbox", name=re.compile("blank"))
    verdict = box.get_by_role("status")
    blank.fill(str(reference))
    box.get_by_role("button", name="Check").click()
    expect(verdict).to_have_text(re.compile("^Correct"), timeout=60_000)
    wrong = cases["wrong"][0]
    blank.fill(wrong["blank"])
    box.get_by_role("button", name="Check").click()
    expect(verdict).to_contain_text("Not yet")
    expect(verdict).to_contain_text(wrong["message"])

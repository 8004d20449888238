"""`mkdocs serve` as an author runs it: isolated pages, and a Python edit taken up for real.

The example course is copied and served by `mkdocs serve` on a free port. Its pages carry
the cross-origin-isolation headers (so Stop interrupts in place, as for students); when the
author edits the course's own lab module, the rebuilt page shows the edit without a restart.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from livelab.builder import fetch
from livelab.builder.serve import ISOLATION_HEADERS
from tests.harness import ROOT

EXAMPLE = ROOT / "examples" / "softmax-course"
TITLE = "Temperature: the same logits, sharper or flatter"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(url: str) -> tuple[dict[str, str], str] | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return dict(response.headers), response.read().decode("utf-8")
    except OSError:
        return None


def _wait_for(url: str, text: str, seconds: float = 90) -> tuple[dict[str, str], str]:
    """The first response from url whose body contains text; fails after seconds."""
    deadline = time.monotonic() + seconds
    last = None
    while time.monotonic() < deadline:
        last = _get(url)
        if last and text in last[1]:
            return last
        time.sleep(0.5)
    raise AssertionError(f"{url} never showed {text!r}; last body: {last and last[1][:300]!r}")


def test_mkdocs_serve_isolates_pages_and_reloads_an_edited_course_lab(tmp_path: Path):
    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course, ignore=shutil.ignore_patterns("__pycache__"))
    lab_module = course / "softmax_course" / "lab.py"
    source = lab_module.read_text(encoding="utf-8")
    assert TITLE in source, "the example lab's title changed; update TITLE here"
    port = _free_port()
    env = {**os.environ, fetch.CACHE_ENV: str(fetch.cache_root()), "PYTHONDONTWRITEBYTECODE": "1"}
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
        cwd=course,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = f"http://127.0.0.1:{port}/"
        headers, _ = _wait_for(url, TITLE)
        for name, value in ISOLATION_HEADERS.items():
            assert headers.get(name) == value, f"{name} missing under mkdocs serve"
        lab_module.write_text(source.replace(TITLE, "Temperature, edited"), encoding="utf-8")
        _, body = _wait_for(url, "Temperature, edited")
        assert TITLE not in body
    finally:
        server.terminate()
        log = server.communicate(timeout=30)[0]
    assert "reloaded the course module softmax_course" in log

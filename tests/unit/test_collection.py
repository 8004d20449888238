"""Every test file under tests/ is collected by the pytest commands that `make test` runs.

pytest passes over folders by name (by default `build`, `dist`, `venv` and others): a third of
the suite once sat in tests/build/ and never ran. This test reads the commands from the
Makefile's `test` recipe, asks each what it collects, and names every test file left out.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def make_test_pytest_args() -> list[list[str]]:
    """The arguments of each `python -m pytest` line in the Makefile's `test:` recipe."""
    makefile = (ROOT / "Makefile").read_text()
    recipe = re.search(r"^test:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe, "the Makefile has no `test:` target with a recipe"
    commands = [
        shlex.split(line.split("-m pytest", 1)[1])
        for line in recipe.group(1).splitlines()
        if "-m pytest" in line
    ]
    assert commands, "the Makefile's `test:` recipe runs no pytest"
    return commands


def collected_files(args: list[str]) -> set[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    assert result.returncode == 0, f"pytest {shlex.join(args)} --collect-only failed:\n" + (
        result.stdout[-3000:] + result.stderr[-3000:]
    )
    return {line.split("::", 1)[0] for line in result.stdout.splitlines() if "::" in line}


def test_the_makefile_collects_every_test_file_under_tests():
    on_disk = {
        path.relative_to(ROOT).as_posix()
        for pattern in ("test_*.py", "*_test.py")
        for path in (ROOT / "tests").rglob(pattern)
        if "__pycache__" not in path.parts
    }
    assert len(on_disk) > 60, sorted(on_disk)
    collected: set[str] = set()
    for args in make_test_pytest_args():
        collected |= collected_files(args)
    assert on_disk - collected == set(), "test files `make test` never collects"
    assert collected <= on_disk


def test_a_folder_named_build_is_collected(tmp_path):
    """The trap itself: pytest's default `norecursedirs` skips `build/`; ours does not."""
    config = (ROOT / "pyproject.toml").read_text()
    folder = tmp_path / "tests" / "build"
    folder.mkdir(parents=True)
    (folder / "test_here.py").write_text("def test_here():\n    pass\n")
    (tmp_path / "pyproject.toml").write_text(config)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
        timeout=120,
    )
    assert "tests/build/test_here.py::test_here" in result.stdout, result.stdout + result.stderr

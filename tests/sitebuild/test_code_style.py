"""The code stays as STYLE.md asks: ruff-clean and mypy-clean, checked with every test run."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_ruff_finds_nothing():
    result = run("ruff", "check", "py", "labs", "tests", "bench", "examples")
    assert result.returncode == 0, result.stdout


def test_mypy_finds_nothing():
    result = run("mypy")
    assert result.returncode == 0, result.stdout

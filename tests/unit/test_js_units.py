"""The JavaScript unit tests (tests/js/*.test.mjs) pass under Node's built-in test runner.

They hold the page's numeric grader to the vectors the Python grader wrote, so a change to
either side that makes them part fails here too.
"""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.answer_vectors import load

ROOT = Path(__file__).resolve().parents[2]
JS_TESTS = sorted((ROOT / "tests/js").glob("*.test.mjs"))


def test_node_runs_the_javascript_tests_and_they_pass():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; the JavaScript tests in tests/js/ need Node 20")
    assert JS_TESTS, "no tests/js/*.test.mjs found"
    result = subprocess.run(
        [node, "--test", "--test-reporter=tap", *map(str, JS_TESTS)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=300,
    )
    failures = [line for line in result.stdout.splitlines() if line.startswith("not ok")]
    assert result.returncode == 0, "\n".join(failures) or result.stdout[-3000:] + result.stderr
    passed = re.search(r"^# pass (\d+)$", result.stdout, re.MULTILINE)
    assert passed and int(passed.group(1)) > len(load()["cases"]), result.stdout[-3000:]

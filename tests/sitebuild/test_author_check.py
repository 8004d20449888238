"""`livelab check`: every question of the course replays as its fence and data file say."""

import os
import subprocess
import sys
from pathlib import Path

from livelab.builder.answers import NumericSpec
from livelab.builder.check import replay_in_python
from livelab.builder.kinds.numeric import KIND as NUMERIC
from tests.harness import config_for_docs

ROOT = Path(__file__).resolve().parents[2]


def test_the_author_check_passes_on_the_course_and_names_every_question():
    result = subprocess.run(
        [sys.executable, "-m", "livelab.builder.cli", "check"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    lines = [line for line in result.stdout.splitlines() if line.startswith(("ok", "FAIL"))]
    assert lines and all(line.startswith("ok") for line in lines)
    assert {"q5", "q6", "q7", "c2"} <= {line.split()[2] for line in lines}


def test_a_listed_wrong_answer_shadowed_by_another_is_reported():
    q = NUMERIC.question(
        {
            "id": "q1",
            "prompt": "P",
            "answer": 1,
            "wrong": [{"answer": 0.5, "message": "first"}, {"answer": 0.5, "message": "second"}],
        }
    )
    problems = replay_in_python(q)
    assert problems == ["'0.5' should say 'second', said 'first'"]


def test_a_correct_numeric_question_replays_clean():
    q = NUMERIC.question({"id": "q1", "prompt": "P", "answer": "sqrt(2)", "decimals": 2})
    assert q.spec == NumericSpec(2**0.5, 2)
    assert replay_in_python(q) == []


def test_the_author_check_says_why_when_the_site_does_not_build(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "index.md").write_text("# Home\n\n```numeric\nid: q1\nprompt: P\n```\n")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "livelab.builder.cli",
            "check",
            "--config-file",
            str(config_for_docs(docs)),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert result.returncode == 1
    assert "index.md:3: numeric fence id 'q1': missing option 'answer'" in result.stderr
    assert "the site does not build" in result.stderr

"""`livelab check`: every question of the course replays as its fence and data file say."""

import os
import subprocess
import sys
from pathlib import Path

from livelab.answers import NumericSpec
from livelab.check import replay_in_python
from livelab.quiz import numeric_question

ROOT = Path(__file__).resolve().parents[2]


def test_the_author_check_passes_on_the_course_and_names_every_question():
    result = subprocess.run(
        [sys.executable, "-m", "livelab.cli", "check"],
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
    q = numeric_question(
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
    q = numeric_question({"id": "q1", "prompt": "P", "answer": "sqrt(2)", "decimals": 2})
    assert q.spec == NumericSpec(2**0.5, 2)
    assert replay_in_python(q) == []

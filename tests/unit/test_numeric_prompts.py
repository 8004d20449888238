"""Every numeric question's wording agrees with how it is graded, read from the course pages."""

import re
from pathlib import Path

import pytest
import yaml

from livelab.builder.answers import grade_numeric
from livelab.builder.kinds.numeric import KIND as NUMERIC
from livelab.builder.kinds.numeric import NumericQuestion

DOCS = Path(__file__).resolve().parents[2] / "docs"
FENCE = re.compile(r"^```numeric\n(.*?)^```", re.MULTILINE | re.DOTALL)


def numeric_fences() -> list[tuple[str, dict]]:
    found = []
    for page in sorted(DOCS.rglob("*.md")):
        for body in FENCE.findall(page.read_text(encoding="utf-8")):
            data = yaml.safe_load(body)
            found.append((f"{page.relative_to(DOCS)}:{data['id']}", data))
    return found


FENCES = numeric_fences()


def question(fence_id: str) -> NumericQuestion:
    return NUMERIC.question(next(data for name, data in FENCES if name.endswith(f":{fence_id}")))


def test_the_course_pages_have_numeric_questions():
    assert {"q4", "q7", "e2", "e4"} <= {data["id"] for _, data in FENCES}


@pytest.mark.parametrize(("name", "data"), FENCES, ids=[name for name, _ in FENCES])
def test_the_decimals_a_prompt_asks_for_are_the_decimals_it_grades(name, data):
    asked = re.findall(r"(\d+)\s+decimals?\b", data["prompt"])  # "1 decimal" too
    assert [int(n) for n in asked] == ([data["decimals"]] if "decimals" in data else []), name
    assert not re.search(r"at most \d+ decimals", data["prompt"]), (
        f"{name}: 'at most' invites fewer decimals than the tolerance accepts"
    )


def test_e4_accepts_the_output_built_from_section_3s_rounded_numbers():
    e4 = question("e4")
    assert grade_numeric(e4.spec, "[2 * 0.731059, -3 * 0.268941]")["verdict"] == "correct"
    assert grade_numeric(e4.spec, "[1.462, -0.807]")["verdict"] == "correct"


def test_e4_calls_an_answer_rounded_to_2_decimals_close():
    e4 = question("e4")
    result = grade_numeric(e4.spec, "[1.46, -0.81]")
    assert result == {
        "verdict": "wrong",
        "message": (
            f"Entries 1 and 2 are close. Work with unrounded values and give {e4.spec.decimals} "
            "decimals."
        ),
    }

"""An exercise fence (a code question written wholly in its fence) graded on every engine:
level 19 has none, so this page of one two-blank exercise is built apart. A student fills both
blanks, gets a known wrong answer's own feedback, then fills them right and reads Correct."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from livelab.builder import fence_yaml
from livelab.builder.kinds import question_kind
from tests.engines.engines import serve_probed
from tests.engines.tab import Role, Tab
from tests.engines.test_every_engine import CORRECT, question_box, wait_graded
from tests.harness import Site, serve_page
from tests.sitebuild.test_exercise_fence import TWO_BLANKS


@pytest.fixture(scope="session")
def exercise_page(tmp_path_factory) -> Iterator[Site]:
    """The two-blank exercise's page, served cross-origin isolated."""
    site = serve_page(tmp_path_factory.mktemp("exercise-engines"), TWO_BLANKS)
    yield site
    site.close()


@pytest.fixture(scope="session")
def exercise_probed(exercise_page) -> Iterator[Site]:
    served = serve_probed(exercise_page)
    yield served
    served.close()


@pytest.fixture
def exercise_site(engine, request) -> Site:
    """The page as this engine is served it (WebKit's pages carry the error probe)."""
    return request.getfixturevalue(
        "exercise_probed" if engine.name == "webkit" else "exercise_page"
    )


def answer_blanks(tab: Tab, qid: str, texts: list[str]) -> None:
    for number, text in enumerate(texts, 1):
        name = f"blank {number} of {len(texts)}: rms_norm"
        tab.fill(Role("textbox", name, within=question_box(qid), exact=True), text)
    tab.click(Role("button", "Check", within=question_box(qid), exact=True))


def test_an_exercise_of_two_blanks_grades_a_wrong_answer_with_its_feedback_then_a_right_one(
    tab, exercise_site
):
    kind = question_kind("exercise")
    q = kind.question(fence_yaml.load(TWO_BLANKS.split("```exercise\n")[1].split("```")[0]))
    right, wrong = list(kind.replays(q))
    tab.goto(exercise_site.url(""))
    answer_blanks(tab, q.id, wrong.answer)
    shown = wait_graded(tab, q, "Not yet")
    assert shown == f"Not yet. {wrong.message}", (tab.engine, shown)
    answer_blanks(tab, q.id, right.answer)
    wait_graded(tab, q, CORRECT)
    assert tab.errors == []

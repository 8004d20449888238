"""Fence markup against golden files: tests/sitebuild/golden/<case>.md -> <case>.html.

Set LIVELAB_UPDATE_GOLDEN=1 to rewrite the .html files after an intended markup change,
then read the diff before committing it.
"""

import os
from pathlib import Path

import markdown
import pytest

from livelab.builder.fences import FenceContext, custom_fences
from livelab.builder.kinds import all_kinds

GOLDEN = Path(__file__).parent / "golden"
CASES = sorted(p.stem for p in GOLDEN.glob("*.md"))


MATH = {"pymdownx.arithmatex": {"generic": True}}


def render_text(text: str) -> str:
    """Markdown inside fences (prompts, options), with math as the site configures it."""
    return markdown.Markdown(extensions=list(MATH), extension_configs=MATH).convert(text)


def render(source: str) -> tuple[str, FenceContext]:
    context = FenceContext(render_markdown=render_text)
    context.start("golden.md")
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={"pymdownx.superfences": {"custom_fences": custom_fences(context)}},
    )
    return md.convert(source), context


@pytest.mark.parametrize("case", CASES)
def test_fence_markup_matches_its_golden_file(case):
    html, context = render((GOLDEN / f"{case}.md").read_text(encoding="utf-8"))
    assert context.errors == []
    expected = GOLDEN / f"{case}.html"
    if os.environ.get("LIVELAB_UPDATE_GOLDEN") == "1":
        expected.write_text(html + "\n", encoding="utf-8")
    assert html + "\n" == expected.read_text(encoding="utf-8")


def test_there_is_a_golden_case_per_question_kind():
    assert set(all_kinds()) <= set(CASES)

"""The authoring reference is written from the registries, and gives nothing away."""

import html
import re

import pytest

from livelab.builder.kinds import all_kinds
from livelab.builder.reference import PARTS, reference_html
from livelab.labs import LAB_FENCE, all_labs
from livelab.questions import all_code_questions


def _text(markup: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))


def _rows(markup: str) -> list[str]:
    return [_text(row) for row in re.findall(r"<tr>(.*?)</tr>", markup)]


def test_every_lab_and_every_param_is_listed_with_its_default():
    text = reference_html("labs")
    for name, lab in all_labs().items():
        assert f'id="lab-{name}"' in text
        assert lab.title in _text(text)
        section = text.split(f'id="lab-{name}"')[1].split("<h3")[0]
        rows = _rows(section)[1:]  # after the header row
        assert [row.split()[0] for row in rows] == list(lab.params)
        for row, spec in zip(rows, lab.params.values(), strict=True):
            if spec.label:
                assert spec.label in row
            if spec.what:
                assert spec.what in row


def test_fence_options_of_labs_and_every_question_kind_are_listed():
    assert [r.split()[0] for r in _rows(reference_html("lab-fence"))[1:]] == list(LAB_FENCE)
    text = reference_html("questions")
    for name, kind in all_kinds().items():
        section = text.split(f'id="kind-{name}"')[1].split("<h3")[0]
        rows = _rows(section)[1:]
        assert [row.split()[0] for row in rows] == list(kind.options)
        required = [row.split()[0] for row in rows if row.split()[1] == "required"]
        assert required == [n for n, spec in kind.options.items() if spec.required]


def test_code_questions_are_listed_without_their_answers_or_hints():
    text = _text(reference_html("code-questions"))
    for name, question in all_code_questions().items():
        assert name in text
        assert question.function_name in text
        assert question.reference_blank.strip() not in text
        assert not question.hint or question.hint not in text


def test_an_unknown_part_names_the_parts():
    with pytest.raises(ValueError, match="must be one of") as info:
        reference_html("lab")
    for part in PARTS:
        assert part in str(info.value)


def test_the_authoring_guide_takes_every_table_from_the_registries():
    from pathlib import Path

    guide = (Path(__file__).resolve().parents[2] / "docs" / "authoring.md").read_text()
    fences = re.findall(r"```reference\n\s*part: (\S+)\n(?:\s*name: (\S+)\n)?\s*```", guide)
    assert ("lab-fence", "") in fences
    assert ("code-question-fields", "") in fences
    assert {name for part, name in fences if part == "labs"} == set(all_labs())
    assert {name for part, name in fences if part == "questions"} == set(all_kinds())


def test_every_code_question_field_is_described():
    import dataclasses

    from livelab.questions import CodeQuestion

    rows = _rows(reference_html("code-question-fields"))[1:]
    fields = dataclasses.fields(CodeQuestion)
    assert [row.split()[0] for row in rows] == [f.name for f in fields]
    for row, f in zip(rows, fields, strict=True):
        assert f.metadata["what"] in row
    assert "required" in rows[0]  # name has no default

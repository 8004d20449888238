"""The course as the spec requires it: every question and lab present, and level 19 walkable."""

import re

from playwright.sync_api import expect

from livelab.builder.kinds.choice import ChoiceQuestion
from livelab.builder.kinds.code import CodeQuestionRef
from livelab.builder.kinds.numeric import NumericQuestion

LESSON = "level-19/modern-blocks/"
CHAPTER = "level-19/worked-examples/"
# COURSE-SPEC section 4: the ids each page must carry.
LESSON_QUESTIONS = {f"q{i}" for i in range(1, 10)} | {"c1", "c2", "c3", "try-f"}
# Issue 29: the misconceptions, RMSNorm's geometry and the RoPE clock, each graded.
LESSON_QUESTIONS |= {"m-rope-v", "m-rope-cache", "m-rope-theta", "m-silu-gate", "rms-agree"}
LESSON_QUESTIONS |= {"clock-slowest", "clock-base"}
EXERCISES = range(1, 7)  # E1..E6
# A part's title is its exercise's name: "E1, part 2", or "E3" when alone.
EXERCISE_TAG = re.compile(r"^E(\d+)(?:, part (\d+))?$")
TITLE = re.compile(r'data-question="([^"]+)".*?class="livelab-question__title">([^<]*)<', re.S)
LESSON_LABS = {"norm-path", "rms", "rope", "rope-clock", "glu", "modern-block"}


def ids(site, url):
    return {q.id for q in site.questions.get(url, [])}


def test_every_question_of_the_spec_is_on_its_page(site):
    assert ids(site, LESSON) >= LESSON_QUESTIONS


def test_every_exercise_has_all_the_parts_its_prompts_declare(site):
    parts: dict[int, dict[int, str]] = {}
    chapter = (site.site_dir / CHAPTER / "index.html").read_text(encoding="utf-8")
    titles = dict(TITLE.findall(chapter))
    for q in site.questions[CHAPTER]:
        tag = EXERCISE_TAG.match(titles.get(q.id, ""))
        assert tag, f"{q.id}: its title does not name the exercise it belongs to"
        exercise, part = int(tag[1]), int(tag[2] or 1)
        assert q.id.startswith(f"e{exercise}"), f"{q.id} is a part of E{exercise}"
        assert part not in parts.setdefault(exercise, {}), f"E{exercise} has two parts {part}"
        parts[exercise][part] = q.id
    assert sorted(parts) == list(EXERCISES)
    for exercise, numbered in parts.items():
        # Parts are numbered 1..n with none missing; the one unnumbered part stands alone.
        assert sorted(numbered) == list(range(1, len(numbered) + 1)), f"E{exercise}: {numbered}"
        assert f"e{exercise}" in numbered.values(), f"E{exercise} keeps its spec id e{exercise}"


def test_every_lab_of_the_spec_is_on_the_lesson(site):
    html = (site.site_dir / LESSON / "index.html").read_text(encoding="utf-8")
    assert set(re.findall(r'data-livelab="lab" data-lab="([^"]+)"', html)) >= LESSON_LABS
    chapter = (site.site_dir / CHAPTER / "index.html").read_text(encoding="utf-8")
    assert 'data-lab="modern-block"' in chapter


def answer(page, q):
    box = page.locator(f'[data-question="{q.id}"]')
    if isinstance(q, NumericQuestion):
        box.get_by_label("Your answer").fill(q.answer_text)
    elif isinstance(q, ChoiceQuestion):
        # Options stand in this student's own order; each keeps its author's index as value.
        right = box.locator(f'input[value="{q.correct_index}"]')
        box.get_by_role("radio").and_(right).check()
    elif isinstance(q, CodeQuestionRef):
        box.get_by_role("textbox", name=re.compile("blank")).fill(q.reference_blank)
    box.get_by_role("button", name="Check").click()
    expect(box.get_by_role("status")).to_have_text(re.compile("^Correct"), timeout=20_000)


def test_a_student_who_answers_level_19_right_sees_it_complete_on_home(page, site):
    for url in (LESSON, CHAPTER):
        page.goto(site.url(url))
        for q in site.questions[url]:
            answer(page, q)
    page.goto(site.url(""))
    for url in (LESSON, CHAPTER):
        row = page.locator(f'tr[data-page="{url}"]')
        total = len(site.questions[url])
        expect(row).to_contain_text(f"{total} of {total}")
        expect(row).to_contain_text("complete")

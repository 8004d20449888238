"""The RoPE clock lab as a student uses it: exact positions, one hand per pair (issue 13)."""

import re

import pytest
from playwright.sync_api import expect

from labs import rope_clock, rope_clock_face

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"


def open_clock(page, site):
    page.goto(site.url(LESSON))
    el = page.locator('[data-lab="rope-clock"]')
    expect(el.get_by_text(re.compile("^Live:"))).to_be_visible(timeout=30_000)
    return el


def expected(**params):
    return rope_clock.view(rope_clock.LAB.compute(**params))


def test_a_position_can_be_typed_exactly_and_the_slider_follows(page, site):
    el = open_clock(page, site)
    el.get_by_label("position of q").fill("1500")
    expect(el.get_by_label("slider for q's position")).to_have_value("1500")
    el.get_by_label("position of q").fill("7")  # one step of a 2048-wide slider is too coarse
    el.get_by_label("position of k").fill("3")
    score = el.get_by_role("status", name="q·k summed over all pairs")
    expect(score).to_have_text(expected(q_pos=7, k_pos=3)["text"]["score"])
    expect(el.get_by_label("slider for k's position")).to_have_value("3")


def test_the_slider_moves_the_number_field(page, site):
    el = open_clock(page, site)
    slider = el.get_by_label("slider for k's position")
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(el.get_by_label("position of k")).to_have_value("5")
    score = el.get_by_role("status", name="q·k summed over all pairs")
    expect(score).to_have_text(expected(q_pos=7, k_pos=5)["text"]["score"])


def test_one_face_one_hand_per_pair_and_a_row_per_pair(page, site):
    el = open_clock(page, site)
    el.get_by_label("d_k (head width)").fill("16")
    clock = el.get_by_role("img", name=re.compile("one per pair of coordinates"))
    expect(clock.locator("line.livelab-clock-hand")).to_have_count(8)
    expect(clock.locator("text")).to_have_text([str(i) for i in range(8)])
    rows = el.get_by_role("table", name="The clock's hands, one per pair").locator("tbody tr")
    view = expected(d_k=16)
    expect(rows).to_have_count(8)
    for i, row in enumerate(view["rows"]["pairs"]):
        expect(rows.nth(i)).to_have_text("".join(row))
    # Moving both positions turns no hand: the clock shows the gap.
    before = clock.locator("line.livelab-clock-hand").first.get_attribute("x2")
    el.get_by_role("button", name="Move both by 100").click()
    expect(el.get_by_label("position of k")).to_have_value("104")
    expect(clock.locator("line.livelab-clock-hand").first).to_have_attribute("x2", before)


def test_no_hand_is_a_stub_and_no_two_labels_touch_on_screen(page, site):
    el = open_clock(page, site)
    el.get_by_label("d_k (head width)").fill("16")
    el.get_by_label("position of k").fill("7")  # gap 0: every hand points to the top
    clock = el.get_by_role("img", name=re.compile("one per pair of coordinates"))
    expect(clock).to_have_accessible_name(re.compile(r"= 0 × θ_i"))
    lengths = clock.locator("line.livelab-clock-hand").evaluate_all(
        "hands => hands.map((h) => { const r = h.getBoundingClientRect(); "
        "return Math.hypot(r.width, r.height); })"
    )
    face = clock.evaluate("svg => svg.getBoundingClientRect().width")
    radius = face * rope_clock_face.FACE_RADIUS / rope_clock_face.FACE_SIZE
    assert min(lengths) >= 0.45 * radius, (lengths, radius)
    boxes = clock.locator("text").evaluate_all(
        "labels => labels.map((t) => { const r = t.getBoundingClientRect(); "
        "return [r.left, r.top, r.right, r.bottom]; })"
    )
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            apart = a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
            assert apart, (a, b)


def test_the_base_is_typed_exactly_and_moves_the_slowest_pair_of_a_wide_head(page, site):
    el = open_clock(page, site)
    el.get_by_label("d_k (head width)").fill("128")
    base = el.get_by_label("RoPE base")
    expect(base).to_have_value("10000")
    period = el.locator('[data-text="slowest_period"]')
    expect(period).to_have_text(expected(d_k=128)["text"]["slowest_period"])
    base.fill("500000")
    expect(period).to_have_text(expected(d_k=128, base=500000.0)["text"]["slowest_period"])
    expect(base).to_have_value("500000")
    rows = el.get_by_role("table", name="The clock's hands, one per pair").locator("tbody tr")
    expect(rows).to_have_count(64)
    clock = el.get_by_role("img", name=re.compile("one per pair of coordinates"))
    expect(clock.locator("line.livelab-clock-hand")).to_have_count(rope_clock_face.MOST_HANDS)
    scores = el.get_by_role("img", name=re.compile("against the offset m − n"))
    expect(scores.get_by_text("offset m − n", exact=True)).to_have_count(1)

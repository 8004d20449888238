"""The RoPE lab, driven as a student would: sliders, the "Both +1" button, the score."""

import re

import pytest
from playwright.sync_api import expect

from labs import rope

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
LIVE = re.compile("^Live:")


def score(page):
    return page.get_by_role("status", name=re.compile("score"))


def lab(page):
    return page.locator('[data-lab="rope"]')


def open_live_lab(page, site):
    page.goto(site.url(LESSON))
    expect(lab(page).get_by_text(LIVE)).to_be_visible(timeout=30_000)


def spec_score(**params):
    return rope.view(rope.LAB.compute(**params))["text"]["score"]


def test_q_at_two_and_k_at_zero_scores_point_eight_four(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("2")
    page.get_by_label("k position").fill("0")
    expect(score(page)).to_have_text(spec_score(q_pos=2, k_pos=0))
    expect(score(page)).to_have_text("0.84")


def test_both_plus_one_three_times_keeps_the_score(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("2")
    expect(score(page)).to_have_text("0.84")
    both = page.get_by_role("button", name="Both +1")
    for _ in range(3):
        both.click()
    expect(page.get_by_label("q position")).to_have_value("5")
    expect(page.get_by_label("k position")).to_have_value("3")
    expect(lab(page).locator('[data-text="offset"]')).to_have_text("2")
    expect(score(page)).to_have_text("0.84")


def test_moving_only_k_changes_the_score_with_the_offset(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("2")
    expect(score(page)).to_have_text("0.84")
    page.get_by_label("k position").fill("5")
    expect(score(page)).to_have_text(spec_score(q_pos=2, k_pos=5))
    assert spec_score(q_pos=2, k_pos=5) != "0.84"


def test_the_sliders_and_button_work_from_the_keyboard(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(score(page)).to_have_text(spec_score(q_pos=2, k_pos=0))
    page.get_by_role("button", name="Both +1").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_label("k position")).to_have_value("1")
    expect(score(page)).to_have_text("0.84")


def test_theta_changes_the_turn_per_position(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("2")
    page.get_by_label("θ (radians per position)").fill("0.25")
    expect(score(page)).to_have_text(spec_score(q_pos=2, theta=0.25))


def test_both_plus_one_is_disabled_at_the_end_of_the_range(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("20")
    expect(page.get_by_role("button", name="Both +1")).to_be_disabled()


def test_the_score_is_a_polite_live_region(page, site):
    open_live_lab(page, site)
    expect(score(page)).to_have_attribute("aria-live", "polite")


def test_with_javascript_off_the_build_time_numbers_show(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url(LESSON))
    expect(score(page)).to_have_text(spec_score(**rope.PARAMS.coerce({})))
    expect(page.get_by_label("q position")).to_be_disabled()
    context.close()


def test_lab_positions_survive_a_reload(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("2")
    page.get_by_role("button", name="Both +1").click()
    expect(page.get_by_label("k position")).to_have_value("1")
    expect(score(page)).to_have_text("0.84")
    page.reload()
    expect(lab(page).get_by_text(LIVE)).to_be_visible(timeout=30_000)
    expect(page.get_by_label("q position")).to_have_value("3")
    expect(page.get_by_label("k position")).to_have_value("1")
    expect(score(page)).to_have_text("0.84")


def test_saved_positions_that_no_longer_fit_are_ignored(page, site):
    page.goto(site.url(LESSON))
    key = "livelab-progress:/"
    saved = {
        "version": 1,
        "pages": {
            LESSON: {
                "labs": {
                    "rope": {"params": {"q_pos": "two", "k_pos": 99, "speed": 3, "q": [1, 2, 3]}}
                }
            }
        },
    }
    page.evaluate("([k, v]) => localStorage.setItem(k, JSON.stringify(v))", [key, saved])
    page.reload()
    expect(lab(page).get_by_text(LIVE)).to_be_visible(timeout=30_000)
    expect(page.get_by_label("q position")).to_have_value("0")
    page.get_by_label("q position").fill("2")
    expect(score(page)).to_have_text(spec_score(q_pos=2, k_pos=20))


def drawing(page):
    return lab(page).get_by_role("img", name=re.compile("angle between them"))


def spec_text(name, **params):
    return rope.view(rope.LAB.compute(**params))["text"][name]


def test_the_drawing_labels_both_arrows_and_the_angle_between_them(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("2")
    expect(score(page)).to_have_text("0.84")
    picture = drawing(page)
    expect(picture).to_have_accessible_name(spec_text("drawing", q_pos=2))
    expect(picture.locator("text.livelab-arrow-label")).to_have_text(["k", "q"])
    expect(picture.locator("path.livelab-arrowhead")).to_have_count(2)
    expect(picture.locator("text.livelab-angle-label")).to_have_text("0.57 rad")
    expect(picture.locator("path.livelab-angle")).to_have_attribute(
        "d", rope.view(rope.LAB.compute(q_pos=2))["attrs"]["arc"]["d"]
    )
    # Each arrowhead is drawn in its own arrow's colour.
    for name in ("q", "k"):
        shaft = picture.locator(f"line.livelab-arrow--{name}")
        head = picture.locator(f"path.livelab-arrow--{name}")
        assert head.evaluate("e => getComputedStyle(e).fill") == shaft.evaluate(
            "e => getComputedStyle(e).stroke"
        )


def test_both_minus_one_undoes_both_plus_one_and_keeps_the_score(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("4")
    page.get_by_label("k position").fill("2")
    expect(score(page)).to_have_text("0.84")
    back = page.get_by_role("button", name="Both −1")
    back.click()
    back.click()
    expect(page.get_by_label("q position")).to_have_value("2")
    expect(page.get_by_label("k position")).to_have_value("0")
    expect(score(page)).to_have_text("0.84")
    expect(back).to_be_disabled()  # k is at 0, the start of its range
    page.get_by_role("button", name="Both +1").click()
    expect(back).to_be_enabled()


def test_reset_puts_back_the_positions_and_theta_the_page_started_with(page, site):
    open_live_lab(page, site)
    page.get_by_label("q position").fill("7")
    page.get_by_label("θ (radians per position)").fill("1.5")
    expect(score(page)).to_have_text(spec_score(q_pos=7, theta=1.5))
    page.get_by_role("button", name="Reset").click()
    expect(page.get_by_label("q position")).to_have_value("0")
    expect(page.get_by_label("θ (radians per position)")).to_have_value("0.5")
    expect(score(page)).to_have_text(spec_score())


def test_with_javascript_off_the_picture_is_drawn(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url(LESSON))
    picture = drawing(page)
    expect(picture).to_be_visible()
    expect(picture.locator("text.livelab-arrow-label")).to_have_text(["k", "q"])
    expect(picture.locator("path.livelab-arrowhead")).to_have_count(2)
    expect(picture.locator("text.livelab-angle-label")).to_have_text(
        spec_text("between_label", **rope.PARAMS.coerce({}))
    )
    expect(page.get_by_role("button", name="Both −1").first).to_be_disabled()
    context.close()

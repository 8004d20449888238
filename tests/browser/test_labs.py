"""The labs of issue 5, driven as a student would: controls, buttons, the numbers shown.

Expected texts come from the same Python view functions the worker runs, and the spec's
worked numbers are asserted as they appear on the page.
"""

import re

import pytest
from playwright.sync_api import expect

from labs import glu, modern_block, norm_path, rms, rms_geometry, rope_clock
from labs.modern_block_figure import COLUMNS, STEP_ROWS
from livelab.labs import all_labs

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
LIVE = re.compile("^Live:")


def lab(page, lab_id):
    return page.locator(f'[data-lab="{lab_id}"]')


def open_live(page, site, lab_id):
    page.goto(site.url(LESSON))
    el = lab(page, lab_id)
    expect(el.get_by_text(LIVE)).to_be_visible(timeout=30_000)
    return el


def text(el, name):
    return el.locator(f'[data-text="{name}"]')


def every_lab(page):
    """Every lab on the page; the lesson shows each registered lab at least once."""
    labs = page.locator("[data-lab]").all()
    assert {el.get_attribute("data-lab-kind") for el in labs} == set(all_labs())
    return labs


# ---- norm path ----------------------------------------------------------------------------


def test_norm_path_counts_twelve_norms_for_twelve_post_norm_layers(page, site):
    el = open_live(page, site, "norm-path")
    el.get_by_label("Number of layers").fill("12")
    count = el.get_by_role("status", name="LayerNorms on the residual path")
    expect(count).to_have_text("12, one in every layer")
    expect(el.locator('[data-shapes="path"] rect.livelab-node--norm')).to_have_count(12)
    el.get_by_label("Pre-norm: x = x + f(LN(x))").check()
    expect(count).to_have_text("0 between the layers, then 1 final norm after the last one")
    expect(text(el, "final_norms")).to_have_text("1")
    expect(el.locator('[data-shapes="path"] rect.livelab-node--norm')).to_have_count(13)


def test_norm_path_shows_the_worked_numbers_for_both_placements(page, site):
    el = open_live(page, site, "norm-path")
    expect(text(el, "post_out")).to_have_text("[1.29, 0.64, -0.81, -1.13]")
    expect(text(el, "pre_out")).to_have_text("[4.00, 2.00, -2.50, -3.50]")
    expect(el.locator("tr.livelab-chosen")).to_contain_text("post-norm keeps")
    el.get_by_label("Pre-norm: x = x + f(LN(x))").check()
    expect(el.locator("tr.livelab-chosen")).to_contain_text("pre-norm keeps")


def test_norm_path_charts_every_layers_weight_gradient_from_python(page, site):
    el = open_live(page, site, "norm-path")
    el.get_by_label("Number of layers").fill("9")
    expected = norm_path.view(norm_path.LAB.compute(layers=9))["text"]
    for name in ("grad_pre", "grad_post", "grad_gap"):
        expect(text(el, name)).to_have_text(expected[name])
    chart = el.get_by_role("img", name=re.compile("weight gradient"))
    post = chart.locator("rect.livelab-marker--post")
    pre = chart.locator("circle.livelab-marker--pre")
    expect(post).to_have_count(9 + 1)  # one per layer and one in the legend
    expect(pre).to_have_count(9 + 1)
    for words in ("log scale", "layer 1 … 9", "post-norm (squares)", "pre-norm (circles)"):
        expect(chart).to_contain_text(words)
    expect(el.get_by_text(norm_path.claim_sentence())).to_be_visible()
    post_line = chart.locator("polyline.livelab-series--post")
    pre_line = chart.locator("polyline.livelab-series--pre")
    assert colour(post.first, "fill") == colour(post_line, "stroke")
    assert colour(pre.first, "fill") == colour(pre_line, "stroke")
    assert colour(post.first, "fill") != colour(pre.first, "fill")  # each in its own colour


def colour(locator, prop):
    return locator.evaluate(f"e => getComputedStyle(e).{prop}")


def test_norm_path_works_from_the_keyboard(page, site):
    el = open_live(page, site, "norm-path")
    el.get_by_label("Post-norm: x = LN(x + f(x))").focus()
    page.keyboard.press("ArrowRight")  # moves to and selects the next radio button
    expect(el.get_by_label("Pre-norm: x = x + f(LN(x))")).to_be_checked()
    el.get_by_label("Number of layers").focus()
    page.keyboard.press("ArrowRight")
    expect(text(el, "branch_norms")).to_have_text(str(norm_path.PARAMS["layers"].default + 1))


# ---- RMS ----------------------------------------------------------------------------------


def test_rms_of_three_four_and_the_steps(page, site):
    el = open_live(page, site, "rms")
    expect(el.get_by_role("status", name="RMS of x + c")).to_have_text("3.5355")
    expect(text(el, "squares")).to_have_text("[9.0000, 16.0000]")
    expect(text(el, "mean_square")).to_have_text("12.5000")
    expect(text(el, "rms_out")).to_have_text("[0.8485, 1.1314]")
    expect(text(el, "rms_out_mean_square")).to_have_text("1.0000")
    expect(text(el, "ln_out")).to_have_text("[-1.0000, 1.0000]")


def test_rms_entries_are_editable_as_numbers(page, site):
    el = open_live(page, site, "rms")
    el.get_by_label("Number of entries").fill("4")
    expect(el.get_by_label("entry 4", exact=True)).to_be_visible()
    for i, value in enumerate(["1", "1", "3", "5"], start=1):
        el.get_by_label(f"entry {i}", exact=True).fill(value)
    expect(el.get_by_role("status", name="RMS of x + c")).to_have_text("3.0000")
    expect(text(el, "rms_out")).to_have_text("[0.3333, 0.3333, 1.0000, 1.6667]")
    expect(el.get_by_label("entry 5", exact=True)).to_be_hidden()


def test_rms_entry_slider_and_number_field_follow_each_other(page, site):
    el = open_live(page, site, "rms")
    el.get_by_label("entry 1, slider").focus()
    page.keyboard.press("ArrowRight")
    expect(el.get_by_label("entry 1", exact=True)).to_have_value("3.1")
    expect(text(el, "row")).to_have_text("[3.1000, 4.0000]")
    el.get_by_label("entry 2", exact=True).fill("2")
    expect(el.get_by_label("entry 2, slider")).to_have_value("2")


def test_shifting_every_entry_changes_rmsnorm_and_not_layernorm(page, site):
    el = open_live(page, site, "rms")
    el.get_by_label("Shift every entry by c").fill("1")
    expect(text(el, "row")).to_have_text("[4.0000, 5.0000]")
    expect(text(el, "rms_out")).to_have_text("[0.8835, 1.1043]")
    expect(text(el, "ln_out")).to_have_text("[-1.0000, 1.0000]")
    expect(text(el, "rms_shift")).to_contain_text("changed by the shift")
    expect(text(el, "ln_shift")).to_have_text("LayerNorm: the same as without the shift")


def test_an_all_zero_row_with_eps_zero_shows_the_kernels_error(page, site):
    el = open_live(page, site, "rms")
    el.get_by_role("button", name="Try an all-zero row with eps = 0").click()
    expect(text(el, "rms_error")).to_contain_text("RMSNorm with eps=0 is undefined")
    expect(text(el, "rms_out")).to_have_text("—")
    expect(el).not_to_contain_text("NaN")
    expect(el).not_to_contain_text("nan,")
    el.get_by_label("eps (added inside the square root)").fill("0.000001")
    expect(text(el, "rms_error")).to_have_text("")
    expect(text(el, "rms_out")).to_have_text("[0.0000, 0.0000, 0.0000, 0.0000]")


def test_an_empty_entry_is_explained_and_the_lab_recovers(page, site):
    el = open_live(page, site, "rms")
    el.get_by_label("entry 1", exact=True).fill("")
    expect(el.locator("[data-error]")).to_have_text(re.compile(r"x\[0\] needs a number"))
    expect(el).to_have_attribute("data-stale", "")
    el.get_by_label("entry 1", exact=True).fill("6")
    expect(el.locator("[data-error]")).to_have_text("")
    expect(el.get_by_role("status", name="RMS of x + c")).to_have_text(
        rms.view(rms.LAB.compute(x=(6.0, 4.0, -2.0, 1.0, 0.5, -1.5)))["text"]["rms"]
    )
    expect(el).not_to_have_attribute("data-stale", "")


# ---- GLU ----------------------------------------------------------------------------------


def test_glu_gate_one_value_one_gives_silu_of_one(page, site):
    el = open_live(page, site, "glu")
    el.get_by_label("gate input").fill("1")
    el.get_by_label("value input").fill("1")
    expect(el.get_by_role("status", name="SiLU(gate) × value")).to_have_text("0.7311")
    expect(text(el, "silu_gate")).to_have_text("0.7311")
    expect(text(el, "relu_gate")).to_have_text("1.0000")


def test_glu_marks_the_gate_on_both_curves(page, site):
    el = open_live(page, site, "glu")
    dot = el.locator('[data-shapes="curves"] circle.livelab-dot--silu').first  # then the legend's
    before = dot.get_attribute("cx")
    el.get_by_label("gate input").fill("2.5")
    expected = glu.view(glu.LAB.compute(gate=2.5))["svg"]["curves"]
    cx = next(
        s["attrs"]["cx"] for s in expected if "livelab-dot--silu" in s["attrs"].get("class", "")
    )
    expect(dot).to_have_attribute("cx", cx)
    assert cx != before
    expect(el.locator('[data-shapes="curves"] polyline')).to_have_count(2)


def test_glu_weight_calculator_lets_the_student_find_the_equal_width(page, site):
    el = open_live(page, site, "glu")
    balance = el.get_by_role("status", name="Weight counts compared")
    expect(balance).to_have_text(glu.view(glu.LAB.compute())["text"]["balance"])
    expect(text(el, "relu_weights")).to_have_text("1,152")
    expect(text(el, "swiglu_weights")).to_have_text("1,728")
    el.get_by_label("d_ff′ (hidden width of the SwiGLU FFN)").fill("32")
    expect(text(el, "swiglu_weights")).to_have_text("1,152")
    expect(balance).to_have_text("Both FFNs hold the same number of weights.")
    el.get_by_label("d_model (model width)").fill("24")
    el.get_by_label("d_ff (hidden width of the ReLU FFN)").fill("96")
    el.get_by_label("d_ff′ (hidden width of the SwiGLU FFN)").fill("64")
    expect(text(el, "relu_weights")).to_have_text("4,608")
    expect(text(el, "swiglu_weights")).to_have_text("4,608")
    expect(balance).to_have_text("Both FFNs hold the same number of weights.")


# ---- RMS geometry (issue 29) ----------------------------------------------------------------


def test_rms_geometry_puts_the_row_on_the_circle_and_names_the_undefined_cases(page, site):
    el = open_live(page, site, "rms-geometry")
    rms_out = el.get_by_role("status", name="RMSNorm(x)")
    ln_out = el.get_by_role("status", name="LayerNorm(x)")
    expect(rms_out).to_have_text("[1.342, 0.447]")  # x = [3, 1]: the two norms differ
    expect(ln_out).to_have_text("[1.000, -1.000]")
    el.get_by_label("x1", exact=True).fill("2")
    el.get_by_label("x2", exact=True).fill("2")
    expect(ln_out).to_have_text("not defined")
    expect(text(el, "ln_error")).to_contain_text("x1 = x2")
    expect(rms_out).to_have_text("[1.000, 1.000]")
    expect(el.get_by_label("x1, slider")).to_have_value("2")
    plane = el.get_by_role("img", name=re.compile("circle of radius √2"))
    expect(plane.locator(".livelab-geo-point--ln")).to_have_count(1)  # the legend's only
    el.get_by_role("button", name="Try the zero row").click()
    expect(rms_out).to_have_text("not defined")
    expect(text(el, "rms_error")).to_contain_text("no direction")
    expect(plane.locator('[data-shapes="plane"] .livelab-geo-point--rms')).to_have_count(0)
    el.get_by_role("button", name="Back to [3, 1]").click()
    expect(rms_out).to_have_text("[1.342, 0.447]")


# ---- RoPE clock ---------------------------------------------------------------------------


def open_clock(page, site):
    page.goto(site.url(LESSON))
    el = lab(page, "rope-clock")
    expect(el.get_by_text(LIVE)).to_be_visible(timeout=30_000)
    return el


def test_the_seeded_demo_scores_the_same_at_seven_four_and_a_hundred_later(page, site):
    el = open_clock(page, site)
    score = el.get_by_role("status", name="q·k summed over all pairs")
    expect(score).to_have_text("1.058526")
    el.get_by_role("button", name="q at 107, k at 104").click()
    expect(el.get_by_label("position of q")).to_have_value("107")
    expect(el.get_by_label("position of k")).to_have_value("104")
    expect(score).to_have_text("1.058526")
    el.get_by_role("button", name="Move both by 100").click()
    expect(el.get_by_label("position of k")).to_have_value("204")
    expect(score).to_have_text("1.058526")
    el.get_by_label("position of k").fill("200")
    expected = rope_clock.view(rope_clock.LAB.compute(q_pos=207, k_pos=200))["text"]["score"]
    expect(score).to_have_text(expected)
    assert expected != "1.058526"


def test_every_pair_is_a_clock_turning_at_its_rate(page, site):
    el = open_clock(page, site)
    expect(text(el, "rates")).to_have_text("1, 0.01")
    expect(el.locator('[data-shapes="clocks"] line.livelab-clock-hand')).to_have_count(2)
    el.get_by_label("d_k (head width)").fill("8")
    expect(el.locator('[data-shapes="clocks"] line.livelab-clock-hand')).to_have_count(4)
    expect(text(el, "rates")).to_have_text(
        rope_clock.view(rope_clock.LAB.compute(d_k=8))["text"]["rates"]
    )


def test_the_score_by_offset_plot_marks_the_current_offset(page, site):
    el = open_clock(page, site)
    marker = el.locator('[data-shapes="scores"] circle')
    expect(marker).to_have_count(1)
    el.get_by_label("position of q").fill("300")
    expect(marker).to_have_count(0)
    expect(text(el, "plot_note")).to_contain_text("outside the plotted range")


# ---- modern block -------------------------------------------------------------------------


def block_view(**changes):
    return modern_block.view(modern_block.LAB.compute(**changes))


def row_text(view, i):
    """What row i of the figure reads: its cells' texts, one after the other."""
    return "".join(view["text"][f"step-{i}-{column}"] for column in COLUMNS)


def block_figure(el):
    """The block's figure: a table of steps, each row drawn as a box."""
    return el.get_by_role("table", name="The block, one box per step with its shape")


def step_rows(el):
    return block_figure(el).locator("tbody").get_by_role("row")


def test_the_block_figure_is_drawn_from_the_config(page, site):
    el = open_live(page, site, "modern-block")
    figure = block_figure(el)
    expect(figure.get_by_text("X, the input")).to_be_visible()
    expect(step_rows(el).first.get_by_role("cell").first).to_have_text("[B, T, 12]")
    expect(step_rows(el).last.get_by_role("cell").first).to_have_text("[B, T, 12]")
    expect(figure.get_by_text("gate [12, 32] and up [12, 32]")).to_be_visible()
    expect(el.get_by_role("status", name="Forward pass")).to_have_text(
        "Not run yet: press Run the block."
    )


def test_run_the_block_shows_the_numbers_of_every_step(page, site):
    el = open_live(page, site, "modern-block")
    el.get_by_role("button", name="Run the block", exact=True).click()
    expected = block_view(run=True)
    expect(el.get_by_role("status", name="Forward pass")).to_have_text(expected["text"]["summary"])
    rows = step_rows(el)
    expect(rows).to_have_count(STEP_ROWS)
    for i in range(STEP_ROWS):
        expect(rows.nth(i)).to_have_text(row_text(expected, i))


def test_editing_the_config_redraws_and_reruns(page, site):
    el = open_live(page, site, "modern-block")
    el.get_by_role("button", name="Run the block", exact=True).click()
    expect(el.get_by_role("status", name="Forward pass")).to_contain_text("Ran one block")
    el.get_by_label("query_heads").fill("4")
    el.get_by_label("head_dim").fill("3")  # the example: 4 heads of 3 (one unturned)
    figure = block_figure(el)
    expect(figure.get_by_text("Q, K, V: 4 heads × 3")).to_be_visible()
    expected = block_view(run=True, query_heads=4, head_dim=3)
    expect(step_rows(el).nth(2)).to_have_text(row_text(expected, 2))
    expect(el.get_by_role("status", name="Forward pass")).to_have_text(expected["text"]["summary"])
    el.get_by_label("pre_norm").uncheck()
    expect(figure.get_by_text("+ X", exact=True)).to_be_visible()


def test_an_inconsistent_config_gets_a_message_and_keeps_the_figure(page, site):
    el = open_live(page, site, "modern-block")
    boxes = step_rows(el)
    expect(boxes).to_have_count(14)
    el.get_by_label("query_heads").fill("4")
    message = el.locator("[data-error]")
    expect(message).to_contain_text(
        "query_heads * head_dim = 4 * 4 = 16 must equal hidden_size = 12"
    )
    expect(message).to_have_attribute("aria-live", "polite")
    expect(el).to_have_attribute("data-stale", "")
    expect(boxes).to_have_count(14)
    el.get_by_label("head_dim").fill("5")
    expect(message).to_contain_text("4 * 5 = 20 must equal hidden_size = 12")
    el.get_by_role("button", name="Restore the shipped config").click()
    expect(message).to_have_text("")
    expect(el.get_by_label("query_heads")).to_have_value("3")
    expect(el).not_to_have_attribute("data-stale", "")


def test_the_pre_norm_checkbox_works_from_the_keyboard(page, site):
    el = open_live(page, site, "modern-block")
    el.get_by_label("pre_norm").focus()
    page.keyboard.press("Space")
    expect(block_figure(el).get_by_text("+ R", exact=True)).to_be_visible()
    el.get_by_role("button", name="Run the block", exact=True).focus()
    page.keyboard.press("Enter")
    expect(el.get_by_role("status", name="Forward pass")).to_have_text(
        block_view(run=True, pre_norm=False)["text"]["summary"]
    )


# ---- every lab ----------------------------------------------------------------------------


def test_every_lab_has_a_polite_labelled_result(page, site):
    open_clock(page, site)  # the clock lab sits in a collapsed note
    for el in every_lab(page):
        outputs = el.locator("output")
        assert outputs.count() >= 1, el.get_attribute("id")
        for i in range(outputs.count()):
            expect(outputs.nth(i)).to_have_attribute("aria-live", "polite")
            expect(outputs.nth(i)).to_have_accessible_name(re.compile(r"\S"))


def test_with_javascript_off_every_lab_shows_its_build_time_numbers(browser, site):
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    page.goto(site.url(LESSON))
    expect(lab(page, "rms").locator('output[data-text="rms"]')).to_have_text("3.5355")
    expect(lab(page, "rope-clock").locator('output[data-text="score"]')).to_have_text("1.058526")
    expect(lab(page, "rms-geometry").locator('output[data-text="rms_out"]')).to_have_text(
        rms_geometry.view(rms_geometry.LAB.compute())["text"]["rms_out"]
    )
    expect(lab(page, "glu").locator('output[data-text="balance"]')).to_have_text(
        glu.view(glu.LAB.compute())["text"]["balance"]
    )
    expect(text(lab(page, "norm-path"), "post_out")).to_have_text("[1.29, 0.64, -0.81, -1.13]")
    expect(step_rows(lab(page, "modern-block"))).to_have_count(14)
    expect(lab(page, "glu").get_by_label("gate input")).to_be_disabled()
    context.close()


HEIGHTS = "els => els.map((el) => Math.round(el.getBoundingClientRect().height))"


def lab_heights(browser, site, width, state):
    """Each lab's height at a width, as built (no JS), while Python starts, or once live."""
    context = browser.new_context(
        viewport={"width": width, "height": 900}, java_script_enabled=state != "built"
    )
    if state == "starting":  # hold the runtime's first request, so Python never gets ready
        context.route("**/assets/livelab/manifest.json", lambda route: None)
    page = context.new_page()
    page.goto(site.url(LESSON))
    labs = page.locator("[data-lab]")
    if state == "starting":  # the page's loading line is up, and floats over the page
        loading = page.get_by_role("status").filter(has_text=re.compile("^Starting Python"))
        expect(loading).to_be_visible()
    elif state == "live":
        for el in every_lab(page):
            expect(el.get_by_text(LIVE)).to_be_attached(timeout=30_000)
    heights = labs.evaluate_all(HEIGHTS)
    context.close()
    return heights


@pytest.mark.parametrize("width", [360, 768, 1200])
def test_no_layout_shift_when_python_takes_over(browser, site, width):
    built = lab_heights(browser, site, width, "built")
    assert lab_heights(browser, site, width, "starting") == built
    assert lab_heights(browser, site, width, "live") == built


def test_at_360_px_nothing_is_wider_than_the_screen(browser, site):
    context = browser.new_context(viewport={"width": 360, "height": 800})
    page = context.new_page()
    page.goto(site.url(LESSON))
    expect(lab(page, "modern-block").get_by_text(LIVE)).to_be_attached(timeout=30_000)
    lab(page, "modern-block").get_by_role("button", name="Run the block", exact=True).click()
    expect(lab(page, "modern-block").get_by_role("status", name="Forward pass")).to_contain_text(
        "Ran"
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for el in every_lab(page):
        box = el.bounding_box()
        assert box is None or box["x"] + box["width"] <= 360, el.get_attribute("id")
    context.close()


CONTRAST = """(el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = rgb(c).map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  let node = el, bg = "rgba(0, 0, 0, 0)";
  while (node && (bg === "rgba(0, 0, 0, 0)" || bg === "transparent")) {
    bg = getComputedStyle(node).backgroundColor;
    node = node.parentElement;
  }
  const ratios = [];
  for (const t of el.querySelectorAll("svg text, output, dd, label")) {
    const style = getComputedStyle(t);
    const fg = t instanceof SVGElement ? style.fill : style.color;
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    ratios.push((a + 0.05) / (b + 0.05));
  }
  return Math.min(...ratios);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_lab_text_is_readable_in_both_palettes(browser, site, scheme):
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    page.goto(site.url(LESSON))
    expected = "slate" if scheme == "dark" else "default"
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", expected)
    for el in every_lab(page):
        assert el.evaluate(CONTRAST) >= 4.5, (scheme, el.get_attribute("id"))
    context.close()


BURST = """async ([selector, values]) => {
  const slider = document.querySelector(selector);
  const el = slider.closest("[data-lab]");
  let views = 0;
  el.addEventListener("livelab:view", () => views++);
  for (const v of values) {  // one task: as fast as any drag can go
    slider.value = String(v);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
  }
  const last = String(values[values.length - 1]);
  const shown = el.querySelector('[data-text="layers"]');
  while (shown.textContent !== last) {
    await new Promise((r) => el.addEventListener("livelab:view", r, { once: true }));
  }
  return views;
}"""


def test_a_fast_drag_is_coalesced_and_ends_on_the_last_value(page, site):
    el = open_live(page, site, "norm-path")
    values = [1 + (i * 7) % 24 for i in range(120)] + [17]
    views = page.evaluate(BURST, ['[data-lab="norm-path"] input[data-param="layers"]', values])
    expect(el.get_by_role("status", name="LayerNorms on the residual path")).to_have_text(
        "17, one in every layer"
    )
    assert views <= 2, views  # the first input is sent, the newest one follows; none between

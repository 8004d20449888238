"""Labs that run (train-norm, train-rmsnorm, train-glu, train-rope): Run streams the training
curves from the page's Python, Stop ends a run at once and keeps what was drawn, Run again
starts over, a change of settings is for the next run, the page's other labs answer while a
run goes on, scrolling away keeps it going and leaving the page stops it, and a run in the
browser draws what the build's CPython run drew (issue 33)."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
LAB = "Pre-norm against post-norm, trained"
OTHER_LAB = "The modern block, drawn from its config and run in your browser"
PROGRESS = re.compile(r"^(\d+) of 60 updates$")


def progress_of(lab) -> int:
    return int(PROGRESS.match(lab.get_by_text(PROGRESS).text_content()).group(1))


def final(lab, placement: str) -> float:
    return float(lab.get_by_role("status", name=f"final loss, {placement}").text_content())


def test_run_streams_stop_keeps_run_again_starts_over_and_matches_the_build(page, site):
    page.goto(site.url(LESSON))
    lab = page.get_by_role("region", name=LAB)
    expect(lab.get_by_text("Computed when the page was built.")).to_be_visible()
    built = {p: final(lab, p) for p in ("pre-norm", "post-norm")}
    assert built["post-norm"] > built["pre-norm"] + 1.0  # the build's run, to its end
    run = lab.get_by_role("button", name="Run")
    stop = lab.get_by_role("button", name="Stop")
    expect(run).to_be_enabled(timeout=60_000)
    run.click()
    # The curves grow as Python trains: several different counts go by before the end.
    seen = set()
    while len(seen) < 3:
        expect(lab.get_by_text(PROGRESS)).not_to_have_text("60 of 60 updates", timeout=60_000)
        seen.add(progress_of(lab))
        page.wait_for_timeout(100)
    # A change of settings during the run is for the next one.
    lab.get_by_role("slider", name="depth (residual blocks)").fill("6")
    expect(lab.get_by_text(re.compile("the new ones are for the next run"))).to_be_visible()
    stop.click()
    status = lab.get_by_text(re.compile(r"^Stopped after (\d+) of 60 updates"))
    expect(status).to_be_visible()
    stopped_at = progress_of(lab)
    assert stopped_at < 60
    page.wait_for_timeout(1_000)
    assert progress_of(lab) == stopped_at  # nothing more is drawn after Stop
    expect(stop).to_be_disabled()
    # Run again, back at the build's settings: it starts over and ends where the build did.
    lab.get_by_role("slider", name="depth (residual blocks)").fill("24")
    run.click()
    expect(lab.get_by_text(re.compile("^Finished: 60 of 60 updates"))).to_be_visible(
        timeout=120_000
    )
    for placement, value in built.items():
        assert final(lab, placement) == pytest.approx(value, abs=2e-3), placement


# Every running lab on the lesson, by its accessible name, and its outputs.
RUNNING = {
    "Pre-norm against post-norm, trained": ("final loss, pre-norm", "final loss, post-norm"),
    "LayerNorm against RMSNorm, trained": ("final loss, LayerNorm", "final loss, RMSNorm"),
    "A ReLU FFN against a SwiGLU FFN, trained": (
        "loss above best, ReLU FFN (64 wide)",
        "loss above best, SwiGLU FFN (43 wide)",
    ),
    "Positions that travel, trained": (
        "accuracy at length 64, RoPE",
        "accuracy at length 64, sinusoids",
    ),
}
# CPython (the build) and Pyodide run the same NumPy on the same seeds; their floating point
# may differ in the last bits (BLAS builds), which Adam can grow over a run. Outputs must
# agree within 2e-3 nats, and every point of every curve within half a unit of the figure's
# 340-unit-wide viewBox (about half a pixel on a 360 px phone).
OUTPUT_TOLERANCE = 2e-3
POINT_TOLERANCE = 0.5
CURVES = """(lab) => [...lab.querySelectorAll("polyline.livelab-series")]
    .map((line) => line.getAttribute("points").split(" ").map((p) => p.split(",").map(Number)))"""


@pytest.mark.parametrize("name", list(RUNNING))
def test_a_run_in_the_browser_draws_what_the_build_drew(page, site, name):
    page.goto(site.url(LESSON))
    lab = page.get_by_role("region", name=name)
    outputs = RUNNING[name]
    expect(lab.get_by_text("Computed when the page was built.")).to_be_visible()
    built = [float(lab.get_by_role("status", name=o).text_content()) for o in outputs]
    built_curves = lab.element_handle().evaluate(CURVES)
    assert len(built_curves) >= 6  # every seed of both models
    run = lab.get_by_role("button", name="Run")
    expect(run).to_be_enabled(timeout=60_000)
    run.click()
    expect(lab.get_by_text(re.compile("^Finished: "))).to_be_visible(timeout=120_000)
    for output, value in zip(outputs, built, strict=True):
        shown = float(lab.get_by_role("status", name=output).text_content())
        assert shown == pytest.approx(value, abs=OUTPUT_TOLERANCE), output
    curves = lab.element_handle().evaluate(CURVES)
    assert len(curves) == len(built_curves)
    for drawn, first in zip(curves, built_curves, strict=True):
        assert len(drawn) == len(first)
        pairs = zip(drawn, first, strict=True)
        gap = max(abs(a - b) for p, q in pairs for a, b in zip(p, q, strict=True))
        assert gap <= POINT_TOLERANCE, (name, gap)


def test_the_page_stays_live_while_a_lab_runs(page, site):
    page.goto(site.url(LESSON))
    lab = page.get_by_role("region", name=LAB)
    run = lab.get_by_role("button", name="Run")
    expect(run).to_be_enabled(timeout=60_000)
    run.click()
    expect(lab.get_by_text("Running in your browser…")).to_be_visible()
    # Another lab answers between two chunks of the run.
    page.get_by_label("q position").fill("2")
    expect(page.get_by_role("status", name=re.compile("score"))).to_have_text("0.84")
    expect(lab.get_by_text("Running in your browser…")).to_be_visible()  # still running
    lab.get_by_role("button", name="Stop").click()


# Counts the page's requests to its Python worker that advance a run, in the tab's own clock;
# Material's instant navigation keeps the document, so the count spans a change of page.
COUNT_RUN_CHUNKS = """() => {
  window.runChunks = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message, ...rest) {
    try {
      if (JSON.stringify(message).includes('"lab_run_next"')) window.runChunks += 1;
    } catch {}
    return post.call(this, message, ...rest);
  };
}"""


# In one turn of the page's event loop: is the lab still running, then a click on the link to
# the next page (so the run cannot end between the look and the click).
LEAVE_WHILE_RUNNING = """([lab, link]) => {
  const line = lab.querySelector("[data-run-status]").textContent;
  link.click();
  return line;
}"""


def test_scrolling_away_keeps_a_run_going_and_leaving_the_page_stops_it(page, site):
    page.add_init_script(f"({COUNT_RUN_CHUNKS})()")
    page.goto(site.url(LESSON))
    lab = page.get_by_role("region", name="A ReLU FFN against a SwiGLU FFN, trained")
    lab.get_by_role("slider", name="updates").fill("400")  # the longest run it offers
    run = lab.get_by_role("button", name="Run")
    expect(run).to_be_enabled(timeout=60_000)
    run.click()
    progress = lab.get_by_text(re.compile(r"^\d+ of 400 updates$"))
    expect(progress).to_be_visible(timeout=30_000)
    # Out of sight, the run goes on: more updates are drawn while the student reads elsewhere.
    page.keyboard.press("End")
    expect(lab).not_to_be_in_viewport()
    before = progress.text_content()
    expect(progress).not_to_have_text(before)
    # A link to the next page ends the run: the worker gets no more of its chunks, and that
    # page's lab answers the student.
    link = page.get_by_role("link", name="Worked examples and exercises").first
    line = page.evaluate(LEAVE_WHILE_RUNNING, [lab.element_handle(), link.element_handle()])
    assert line == "Running in your browser…"
    expect(page).to_have_url(re.compile(r"/level-19/worked-examples/$"))
    other = page.get_by_role("region", name=OTHER_LAB)
    expect(other.get_by_text(re.compile("^Live:"))).to_be_visible(timeout=60_000)
    page.wait_for_timeout(500)  # a chunk asked for before the click may still come back
    asked = page.evaluate("window.runChunks")
    assert asked > 0
    page.wait_for_timeout(1_500)
    assert page.evaluate("window.runChunks") == asked, "the run went on after the page changed"

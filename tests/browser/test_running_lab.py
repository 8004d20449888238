"""A lab that runs (train-norm): Run streams the training curves from the page's Python, Stop
ends a run at once and keeps what was drawn, Run again starts over, a change of settings is
for the next run, and the page's other labs answer while a run goes on (issue 33)."""

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
LAB = "Pre-norm against post-norm, trained"
PROGRESS = re.compile(r"^(\d+) of 120 updates$")


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
        expect(lab.get_by_text(PROGRESS)).not_to_have_text("120 of 120 updates", timeout=60_000)
        seen.add(progress_of(lab))
        page.wait_for_timeout(100)
    # A change of settings during the run is for the next one.
    lab.get_by_role("slider", name="depth (residual blocks)").fill("6")
    expect(lab.get_by_text(re.compile("the new ones are for the next run"))).to_be_visible()
    stop.click()
    status = lab.get_by_text(re.compile(r"^Stopped after (\d+) of 120 updates"))
    expect(status).to_be_visible()
    stopped_at = progress_of(lab)
    assert stopped_at < 120
    page.wait_for_timeout(1_000)
    assert progress_of(lab) == stopped_at  # nothing more is drawn after Stop
    expect(stop).to_be_disabled()
    # Run again, back at the build's settings: it starts over and ends where the build did.
    lab.get_by_role("slider", name="depth (residual blocks)").fill("24")
    run.click()
    expect(lab.get_by_text(re.compile("^Finished: 120 of 120 updates"))).to_be_visible(
        timeout=120_000
    )
    for placement, value in built.items():
        assert final(lab, placement) == pytest.approx(value, abs=2e-3), placement


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

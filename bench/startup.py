"""Start-up and cost of the course against a bare Pyodide + NumPy worker, side by side in one run.

Start-up (--rounds, fresh profiles in one browser): the bare worker page (bench/bare/, served
from the same site) and the lesson, each opened cold (empty cache) and reloaded 1 s, or 10 s,
after its first result, then once more SETTLE_S after the first visit's stores. Printed: a
table of medians, ratios and the issue's targets, how each reload booted (the boot
report's steps, runtime/page/report.js), then the cost table (bench/cost.py, --cost-rounds:
CPU seconds, peak memory and interpreters of a cold visit and a reload, each in a browser of
its own), then JSON with every sample, the bytes of a cold visit and any file downloaded twice.

  bare         navigation -> NumPy's first result in the bare worker
  ours         navigation -> first lab view computed by Python (the RoPE lab live)
  link         from the lesson, Home, then its link back -> first lab view (the views of the
               lesson's labs are remembered by the tab, runtime/page/views.js)
  link_new_*   a click on the worked examples' link -> the first result of an input its lab
               has not seen (T of the modern block, set as soon as the field is enabled),
               right after a first visit's first view ("first") and after a settled visit
               ("settled"). Link rows count from when the page gets the click.
  *_after_ready_ms   the worker's "ready" -> first lab view (the first lab call's own time)

Run: make bench  (or .venv/bin/python bench/startup.py [--rounds N] [--cost-rounds N]
[--throttle-mbit 1.5])
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from bench.cost import cost_round, cost_table
from bench.latency import FIRST_VIEW_PROBE, LESSON, first_view_ms, page_change_by_link_ms
from bench.network import Transfers, throttle
from bench.page_change import NEW_INPUT_PROBE, field_enabled_ms, link_to_new_input_ms
from bench.startup_table import SETTLE_S, table
from livelab.builder.assets import install_runtime
from livelab.builder.compress import precompress
from livelab.builder.fetch import cache_root, fetch_runtime
from tests.harness import launch_chromium, serve_site

BARE = "bench-bare/"


def install_bare(site_dir: Path) -> None:
    """bench/bare/ into the site at BARE, with Pyodide's files and NumPy's wheel as npm and
    PyPI ship them (verified) and their .gz copies, as the site's are served. Not the site's
    own: its python_stdlib.zip carries the bytecode our build made (livelab.builder.stdlib_pyc)."""
    shutil.copytree(Path(__file__).parent / "bare", site_dir / BARE)
    install_runtime(fetch_runtime(cache_root()), site_dir / BARE / "pyodide")
    precompress(site_dir / BARE)


# null for a build from before the boot report (no runtime/page/, or no report()).
REPORT = """async () => {
  let runtime;
  try {
    ({ runtime } = await import("/assets/livelab/runtime/page/client.js"));
  } catch {
    return null;
  }
  return runtime.report ? runtime.report() : null;
}"""
# A build from before the boot report (bench/reload_ab.py may compare one): is what its
# first visit stores stored?
LEGACY_SETTLED = """async () => {
  const { runtime } = await import("/assets/livelab/runtime/client.js");
  const phases = runtime.bootPhases || {};
  const helped = phases.snapshot === "deferred" && !(runtime.snapshotStore || {}).error;
  return Boolean((runtime.snapshotStore || phases.snapshot !== "deferred")
    && (runtime.pycStore || phases.pycs) && (runtime.numpyStore || phases.wheel === "stored")
    && (!("warmup" in runtime) || runtime.warmup || !helped));
}"""


def boot_facts(page, wait_for_store: bool = False) -> dict | None:
    """The boot report (runtime/page/report.js): how the worker booted and what the tab did
    after; waiting first, when asked, until the work it started has settled (the snapshot,
    .pyc files and NumPy files stored), so that a reload uses them. None for a build from
    before the report."""
    deadline = time.monotonic() + 60
    while wait_for_store and time.monotonic() < deadline:
        report = page.evaluate(REPORT)
        if report["settled"] if report else page.evaluate(LEGACY_SETTLED):
            break
        time.sleep(0.2)
    return page.evaluate(REPORT)


def first_result_ms(page) -> float:
    page.wait_for_function("window.__firstResultMs !== undefined", timeout=120_000)
    return page.evaluate("window.__firstResultMs")


def after_ready_ms(first_view: float, boot: dict) -> float:
    """From the page receiving the worker's "ready" to the first lab view."""
    return round(first_view - boot["readyAt"])


def reload_after(page, first, wait_s: float) -> float:
    """Open the page (first(page) waits for its first result), reload wait_s after that result;
    the reload's time to its first result."""
    page.wait_for_timeout(wait_s * 1000)
    page.reload()
    return first(page)


def bare_round(browser, site) -> dict:
    out: dict = {"bare_cold_ms": [], "bare_reload_1s_ms": [], "bare_reload_10s_ms": []}
    for wait_s in (1, 10):
        context = browser.new_context()
        page = context.new_page()
        page.goto(site.url(BARE))
        out["bare_cold_ms"].append(first_result_ms(page))
        out[f"bare_reload_{wait_s}s_ms"] = reload_after(page, first_result_ms, wait_s)
        if wait_s == 10:
            time.sleep(SETTLE_S)
            page.reload()
            out["bare_again_ms"] = first_result_ms(page)
        context.close()
    return out


def ours_context(browser):
    context = browser.new_context()
    context.add_init_script(FIRST_VIEW_PROBE)
    context.add_init_script(NEW_INPUT_PROBE)
    return context, context.new_page()


def ours_round(browser, site) -> dict:
    out: dict = {"ours_cold_ms": []}
    # A reload 1 s after a first visit, while its background work runs.
    context, page = ours_context(browser)
    page.goto(site.url(LESSON))
    out["ours_cold_ms"].append(first_view_ms(page))
    out["ours_reload_1s_ms"] = reload_after(page, first_view_ms, 1)
    context.close()
    # A page change right after a first visit.
    context, page = ours_context(browser)
    transfers = Transfers(page, site.origin)
    page.goto(site.url(LESSON))
    cold = first_view_ms(page)
    out["ours_cold_ms"].append(cold)
    out["cold_visit"] = transfers.report()
    out["cold_after_ready_ms"] = after_ready_ms(cold, boot_facts(page))
    out["link_new_first_ms"] = link_to_new_input_ms(page, 7)
    out["field_first_ms"] = field_enabled_ms(page)
    context.close()
    # A reload 10 s after a first visit; once its stores are made, again; then page changes.
    context, page = ours_context(browser)
    page.goto(site.url(LESSON))
    out["ours_cold_ms"].append(first_view_ms(page))
    out["ours_reload_10s_ms"] = reload_after(page, first_view_ms, 10)
    out["reload_10s_boot"] = boot_facts(page)
    out["reload_after_ready_ms"] = after_ready_ms(out["ours_reload_10s_ms"], out["reload_10s_boot"])
    out["stores"] = boot_facts(page, wait_for_store=True)  # the reload's helper, if any
    time.sleep(SETTLE_S)
    page.reload()
    out["ours_again_ms"] = first_view_ms(page)
    out["reload_boot"] = boot_facts(page)
    out["link_ms"] = page_change_by_link_ms(page, site)
    out["link_new_settled_ms"] = link_to_new_input_ms(page, 9)
    out["field_settled_ms"] = field_enabled_ms(page)
    context.close()
    return out


def one_round(browser, site, round_: int) -> dict:
    """The bare worker's visits and ours, in turn (the order swaps every round)."""
    parts = (bare_round, ours_round) if round_ % 2 == 0 else (ours_round, bare_round)
    out: dict = {}
    for part in parts:
        out.update(part(browser, site))
    return out


def throttled_cold(browser, site, mbit: float) -> dict:
    """One cold visit of the lesson at mbit Mbit/s: time to the first live lab, and bytes."""
    context = browser.new_context()
    context.add_init_script(FIRST_VIEW_PROBE)
    page = context.new_page()
    throttle(page, mbit)
    transfers = Transfers(page, site.origin)
    page.goto(site.url(LESSON), timeout=300_000)
    page.wait_for_function("window.__firstViewMs !== undefined", timeout=300_000)
    live = page.evaluate("window.__firstViewMs")
    status = page.locator('[data-lab="rope"] [data-status]').text_content()
    boot = boot_facts(page)
    transferred = transfers.report()
    context.close()
    bytes_in = boot["startedAt"] + boot["marks"]["downloaded"]
    return {
        "mbit": mbit,
        "live_ms": round(live),
        "bytes_in_ms": round(bytes_in),
        "live_after_bytes_ms": round(live - bytes_in),
        "status": status,
        **transferred,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cost-rounds", type=int, default=3, help="cost table rounds (0: none)")
    parser.add_argument("--throttle-mbit", type=float, default=0, help="also one throttled visit")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        site = serve_site(Path(tmp))
        install_bare(site.site_dir)
        browser = launch_chromium(playwright)
        rounds = [one_round(browser, site, i) for i in range(args.rounds)]
        slow = throttled_cold(browser, site, args.throttle_mbit) if args.throttle_mbit else None
        browser.close()
        urls = {"bare": site.url(BARE), "ours": site.url(LESSON)}
        costs = [cost_round(playwright, urls, i) for i in range(args.cost_rounds)]
        site.close()
    print(table(rounds))
    if slow:
        print(
            f"{slow['mbit']} Mbit/s cold: live at {slow['live_ms'] / 1000:.1f} s, "
            f"{slow['live_after_bytes_ms'] / 1000:.1f} s after the last byte"
        )
    if costs:
        print(cost_table(costs))
    print(json.dumps({"rounds": rounds, "throttled": slow, "costs": costs}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

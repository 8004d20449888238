"""Start-up of the course against a bare Pyodide + NumPy worker, side by side in one run.

For each round, a fresh browser profile opens the bare worker page (bench/bare/, served from
the same site and server) and then the lesson; each is loaded cold (empty cache), once more
(reload), and again a few seconds later (again). Printed: a table of medians and ratios,
then the same as JSON with every sample, the bytes of a cold visit (as transferred, so
compressed where the server compressed) and any file that was downloaded twice; under the
table, how each reload's worker booted (the boot report's steps, runtime/page/report.js: the
interpreter from the "snapshot" the cold visit's helper worker stored, or "fresh"; NumPy's
files "stored" by the cold visit, or from the "wheel") and that snapshot's size and the
helper's time to store it.

  bare      navigation -> NumPy's first result in the bare worker
  ours      navigation -> first lab view computed by Python (the RoPE lab live)
  link      click on a link to the lesson -> first lab view (the worker kept running; the
            lesson's labs were shown before in this tab, so their views come from the tab's
            memory of views Python made: runtime/page/views.js). Both link rows count from when
            the page gets the click, not from the driver's call (its checks before clicking
            take tens of ms that no student waits for)
  link_new  click on a link to a page not yet shown in this tab (the worked examples) -> its
            first lab view; the same as link when a view for its lab's params was made before
  *_after_ready_ms   the worker's "ready" -> first lab view (the first lab call's own time)
  *_again   the same as reload, SETTLE_S after it, as any later visit. Both of ours start
            from the compiled code of the service worker's copy of pyodide.asm.wasm, which the
            cold visit's snapshot helper made (sw.js); the bare worker's copy is revalidated
            on each load, which loses what Chromium compiled from it

Run: make bench  (or .venv/bin/python bench/startup.py [--rounds N] [--throttle-mbit 1.5])
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from bench.latency import (
    FIRST_VIEW_PROBE,
    LESSON,
    click_to_first_view_ms,
    first_view_ms,
    page_change_by_link_ms,
)
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


SETTLE_S = 5  # reload again after this long (see *_again above)


REPORT = """async () => {
  const { runtime } = await import("/assets/livelab/runtime/page/client.js");
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
    .pyc files and NumPy files stored, the warm-up done), so that a reload uses them. None
    for a build from before the report."""
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


class Transfers:
    """Bytes received per URL on one page, as the network delivered them, until report()."""

    def __init__(self, page, origin: str) -> None:
        self.bytes: Counter[str] = Counter()
        self.full: Counter[str] = Counter()  # 200 responses with a body, per URL
        self.page = page
        self.listener = lambda request: self._add(request, origin)
        page.on("requestfinished", self.listener)

    def _add(self, request, origin: str) -> None:
        if not request.url.startswith(origin):
            return
        response = request.response()
        size = request.sizes()["responseBodySize"]
        self.bytes[request.url] += size
        if response is not None and response.status == 200 and size > 0:
            self.full[request.url] += 1

    def report(self) -> dict:
        # Later requests are not counted: a listener still asking about a request when the
        # round closes its browser context raised TargetClosedError into the printed output.
        self.page.remove_listener("requestfinished", self.listener)
        return {
            "bytes": sum(self.bytes.values()),
            "files": len(self.bytes),
            "downloaded_twice": sorted(url for url, n in self.full.items() if n > 1),
        }


def throttle(page, mbit: float) -> None:
    """Chromium's network emulation: this many megabits per second down, 40 ms latency."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    rate = mbit * 1_000_000 / 8
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 40, "downloadThroughput": rate, "uploadThroughput": rate},
    )


def after_ready_ms(first_view: float, boot: dict) -> float:
    """From the page receiving the worker's "ready" to the first lab view."""
    return round(first_view - boot["readyAt"])


def link_to_new_page_ms(page) -> float:
    """From the lesson, a click on the worked examples' link -> that page's first lab view."""
    return click_to_first_view_ms(page, "Worked examples and exercises")


def one_round(browser, site) -> dict:
    context = browser.new_context()
    page = context.new_page()
    page.goto(site.url(BARE))
    bare_cold = first_result_ms(page)
    page.reload()
    bare_reload = first_result_ms(page)
    time.sleep(SETTLE_S)
    page.reload()
    bare_again = first_result_ms(page)
    context.close()

    context = browser.new_context()
    context.add_init_script(FIRST_VIEW_PROBE)
    page = context.new_page()
    transfers = Transfers(page, site.origin)
    page.goto(site.url(LESSON))
    ours_cold = first_view_ms(page)
    cold_visit = transfers.report()
    cold_boot = boot_facts(page, wait_for_store=True)
    page.reload()
    ours_reload = first_view_ms(page)
    reload_boot = boot_facts(page)
    time.sleep(SETTLE_S)
    page.reload()
    ours_again = first_view_ms(page)
    link = page_change_by_link_ms(page, site)
    link_new = link_to_new_page_ms(page)
    context.close()
    return {
        "cold_after_ready_ms": after_ready_ms(ours_cold, cold_boot),
        "reload_after_ready_ms": after_ready_ms(ours_reload, reload_boot),
        "bare_cold_ms": bare_cold,
        "bare_reload_ms": bare_reload,
        "bare_again_ms": bare_again,
        "ours_cold_ms": ours_cold,
        "ours_reload_ms": ours_reload,
        "ours_again_ms": ours_again,
        "link_ms": link,
        "link_new_ms": link_new,
        "cold_visit": cold_visit,
        "cold_boot": cold_boot,
        "reload_boot": reload_boot,
    }


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


def table(rounds: list[dict]) -> str:
    times = [key for key in rounds[0] if key.endswith("_ms")]
    med = {key: statistics.median(r[key] for r in rounds) for key in times}
    rows = [
        ("cold (empty cache)", med["bare_cold_ms"], med["ours_cold_ms"]),
        ("reload (cache warm)", med["bare_reload_ms"], med["ours_reload_ms"]),
        (f"reload again, {SETTLE_S} s later", med["bare_again_ms"], med["ours_again_ms"]),
    ]
    lines = [
        f"medians of {len(rounds)} rounds",
        "| | bare Pyodide + NumPy worker | our lesson (RoPE lab live) | ratio |",
        "|---|---|---|---|",
    ]
    for name, bare, ours in rows:
        lines.append(f"| {name} | {bare / 1000:.2f} s | {ours / 1000:.2f} s | {ours / bare:.2f}× |")
    lines.append(f"| page change by link | – | {med['link_ms'] / 1000:.2f} s | – |")
    lines.append(f"| link to a page not shown yet | – | {med['link_new_ms'] / 1000:.2f} s | – |")
    lines.append(
        f"first lab view after ready: cold {med['cold_after_ready_ms']:.0f} ms, "
        f"reload {med['reload_after_ready_ms']:.0f} ms (median)"
    )
    modes = Counter(r["reload_boot"]["steps"]["interpreter"]["from"] for r in rounds)
    stored = [r["cold_boot"]["later"]["snapshot"] for r in rounds]
    pycs = statistics.median(r["reload_boot"]["steps"]["bytecode"]["files"] for r in rounds)
    wheels = Counter(r["reload_boot"]["steps"]["numpy"]["from"] for r in rounds)
    lines.append(f"reload boots: {dict(modes)}, .pyc files written back: {pycs:.0f} (median)")
    lines.append(f"reload NumPy files from: {dict(wheels)}")
    if stored and all("bytes" in s for s in stored):
        size = statistics.median(s["bytes"] for s in stored) / 1e6
        kept = statistics.median(s.get("stored", s["bytes"]) for s in stored) / 1e6
        store_ms = statistics.median(s["ms"] for s in stored)
        lines.append(
            f"snapshot: {size:.1f} MB, stored without its zero pages as {kept:.1f} MB; "
            f"helper stored it in {store_ms:.0f} ms (median)"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--throttle-mbit", type=float, default=0, help="also one throttled visit")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        site = serve_site(Path(tmp))
        install_bare(site.site_dir)
        browser = launch_chromium(playwright)
        rounds = [one_round(browser, site) for _ in range(args.rounds)]
        slow = throttled_cold(browser, site, args.throttle_mbit) if args.throttle_mbit else None
        browser.close()
        site.close()
    print(table(rounds))
    if slow:
        print(
            f"{slow['mbit']} Mbit/s cold: live at {slow['live_ms'] / 1000:.1f} s, "
            f"{slow['live_after_bytes_ms'] / 1000:.1f} s after the last byte"
        )
    print(json.dumps({"rounds": rounds, "throttled": slow}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The lesson's start-up with and without `packages: [matplotlib]`, beside a bare Pyodide +
NumPy worker, in one run; then what a first plot costs.

The course is built twice from the same pages, once naming matplotlib in the plugin's
`packages`. Each round opens, in fresh profiles and in turn (the order swaps every round),
the bare worker page and the lesson of each build: cold, then reloaded once the first
visit's service worker is active (its precache complete). Printed: the medians of each, the
ratio with/without, the bytes each build's service worker precaches, and, on the build
with matplotlib, the time from Run on a block that plots to its figure on the page, cold
(matplotlib downloaded and imported) and again (drawn only).

Run: make bench  (or .venv/bin/python bench/packages.py [--rounds N])
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import expect, sync_playwright

from bench.latency import FIRST_VIEW_PROBE, LESSON, first_view_ms
from bench.startup import BARE, first_result_ms, install_bare
from livelab.builder.check import build_course
from livelab.builder.serve import make_server, serve_in_thread
from tests.browser.test_offline import precached
from tests.browser.test_plots import ALT, PAGE
from tests.harness import ROOT, Site, config_for_docs, launch_chromium, serve_page

BUILDS = {"without": (), "with": ("matplotlib",)}


def serve_course(folder: Path, packages: tuple[str, ...]) -> Site:
    """The whole course built with those packages, served isolated from folder."""
    docs = folder / "docs"
    shutil.copytree(ROOT / "docs", docs)
    server = make_server(folder / "site", port=0, isolated=True)
    site = Site(server, folder / "site", isolated=True)
    build_course(config_for_docs(docs, packages), site.site_dir, site.url())
    serve_in_thread(server)
    return site


def visit(browser, url: str, first) -> dict:
    """A cold visit and a reload once the site's service worker has precached everything."""
    context = browser.new_context()
    context.add_init_script(FIRST_VIEW_PROBE)
    page = context.new_page()
    page.goto(url)
    cold = first(page)
    if "bench-bare" not in url:
        precached(page)
    page.reload()
    out = {"cold_ms": cold, "reload_ms": first(page)}
    context.close()
    return out


def precache_bytes(site: Site) -> int:
    head = (site.site_dir / "sw.js").read_text(encoding="utf-8").partition(";\n\n")[0]
    entries = json.loads(head.removeprefix("const BUILD = "))["precache"]
    return sum((site.site_dir / e["url"].split("?")[0]).stat().st_size for e in entries if e["url"])


def first_plot(browser, site: Site) -> dict:
    """Run on the block that plots, on a live page: to its figure, cold, then again."""
    context = browser.new_context()
    page = context.new_page()
    page.goto(site.url(""))
    times = {}
    for name in ("first_plot_ms", "again_ms"):
        block = page.get_by_role("region", name="Runnable Python, block 2")
        if name == "first_plot_ms":  # Python up and block 1's x defined: only the plot is left
            first = page.get_by_role("region", name="Runnable Python, block 1")
            first.get_by_role("button", name="Run").click()
            expect(first.get_by_role("status")).to_have_text("Done.", timeout=120_000)
        started = time.monotonic()
        block.get_by_role("button", name="Run").click()
        expect(block.get_by_role("status")).to_have_text("Done.", timeout=120_000)
        expect(block.get_by_role("img", name=ALT)).to_be_visible()
        times[name] = round((time.monotonic() - started) * 1000)
    context.close()
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    samples: dict[str, list[dict]] = {"bare": [], **{name: [] for name in BUILDS}}
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        sites = {name: serve_course(Path(tmp) / name, pkgs) for name, pkgs in BUILDS.items()}
        install_bare(sites["without"].site_dir)
        (Path(tmp) / "plots").mkdir()
        plots = serve_page(Path(tmp) / "plots", PAGE, packages=("matplotlib",))
        browser = launch_chromium(playwright)
        for round_ in range(args.rounds):
            order = ["bare", *BUILDS] if round_ % 2 == 0 else [*reversed(BUILDS), "bare"]
            for name in order:
                if name == "bare":
                    samples[name].append(
                        visit(browser, sites["without"].url(BARE), first_result_ms)
                    )
                else:
                    samples[name].append(visit(browser, sites[name].url(LESSON), first_view_ms))
        plot = [first_plot(browser, plots) for _ in range(args.rounds)]
        browser.close()
        precache = {name: precache_bytes(site) for name, site in sites.items()}
        for site in [*sites.values(), plots]:
            site.close()
    median = {
        name: {key: statistics.median(s[key] for s in runs) for key in ("cold_ms", "reload_ms")}
        for name, runs in samples.items()
    }
    print("visit        cold ms   reload ms")
    for name, m in median.items():
        print(f"{name:<10} {m['cold_ms']:>9.0f} {m['reload_ms']:>11.0f}")
    for key in ("cold_ms", "reload_ms"):
        ratio = median["with"][key] / median["without"][key]
        print(f"with / without, {key[:-3]}: {ratio:.2f}")
    for name, size in precache.items():
        print(f"precache {name}: {size / 2**20:.1f} MiB")
    for key in ("first_plot_ms", "again_ms"):
        print(f"{key}: median {statistics.median(p[key] for p in plot):.0f}")
    print(json.dumps({"samples": samples, "plots": plot, "precache": precache}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

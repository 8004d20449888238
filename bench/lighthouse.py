"""Lighthouse's mobile preset on every page of the course: the page itself on a phone.

Builds and serves the course as bench/startup.py does (tests.harness.serve_site), then runs
Lighthouse (npm `lighthouse`, pinned in package-lock.json, from node_modules: `npm ci`) with
its default mobile preset: a phone's screen, simulated slow 4G and a 4x slower CPU. Lighthouse
drives Debian's Chromium (CHROME_PATH=/usr/bin/chromium, headless, a fresh profile per run);
it never downloads a browser. Each page is run --runs times; printed: a table of medians per
page (performance and accessibility scores, total blocking time, largest contentful paint, DOM
elements) with the ids of the accessibility audits any run failed, then the same as JSON with
every run. The issue's bar: performance >= 90 and accessibility 100 on every page.

Lighthouse simulates the slow CPU by multiplying the main-thread time it observed by 4, so TBT
and the performance score follow how busy this machine was: the heading gives the median of
Lighthouse's benchmark index over the runs (higher is a faster or quieter machine); compare
builds only side by side in one run, never against figures from another time.

Run: make bench  (or .venv/bin/python bench/lighthouse.py [--runs N] [--page level-19/...])
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.harness import serve_site  # noqa: E402

CHROME = "/usr/bin/chromium"
CHROME_FLAGS = "--headless=new --no-sandbox --disable-dev-shm-usage"
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
INSTALLED = ROOT / "node_modules" / "lighthouse" / "package.json"
PERFORMANCE_BAR, ACCESSIBILITY_BAR = 90, 100


def check_installed() -> None:
    """Stop with what to do unless node_modules holds the Lighthouse the lock pins."""
    lock = json.loads((ROOT / "package-lock.json").read_text(encoding="utf-8"))
    pinned = lock["packages"]["node_modules/lighthouse"]["version"]
    have = json.loads(INSTALLED.read_text())["version"] if INSTALLED.exists() else None
    if have != pinned:
        sys.exit(f"bench/lighthouse.py needs lighthouse {pinned} in node_modules: run `npm ci`")
    if not Path(os.environ.get("CHROME_PATH", CHROME)).exists():
        sys.exit(f"bench/lighthouse.py needs Debian's Chromium at {CHROME} (make test installs it)")


def run_lighthouse(url: str) -> dict:
    """One Lighthouse run of url (mobile preset), reduced to the figures the table shows."""
    env = {**os.environ, "CHROME_PATH": os.environ.get("CHROME_PATH", CHROME)}
    cmd = [
        str(LIGHTHOUSE),
        url,
        "--only-categories=performance,accessibility",
        "--output=json",
        "--output-path=stdout",
        f"--chrome-flags={CHROME_FLAGS}",
        "--quiet",
    ]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"lighthouse {url} failed ({done.returncode}):\n{done.stderr[-2000:]}")
    report = json.loads(done.stdout)
    return reduced(report)


def reduced(report: dict) -> dict:
    """Scores (0-100), TBT and LCP (ms), DOM elements and the failed accessibility audits."""
    audits, categories = report["audits"], report["categories"]
    refs = categories["accessibility"]["auditRefs"]
    failed = sorted(
        ref["id"]
        for ref in refs
        if ref.get("weight", 0) > 0 and audits[ref["id"]].get("score") not in (None, 1)
    )
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse: {report['runtimeError']}")
    return {
        "performance": round(100 * (categories["performance"]["score"] or 0)),
        "accessibility": round(100 * (categories["accessibility"]["score"] or 0)),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "fcp_ms": round(audits["first-contentful-paint"]["numericValue"]),
        "dom_elements": round(audits["dom-size"]["numericValue"]),
        "failed_accessibility": failed,
        "benchmark_index": report["environment"]["benchmarkIndex"],
    }


def page_summary(runs: list[dict]) -> dict:
    """Medians of one page's runs, and every accessibility audit any of them failed."""
    med = {
        key: statistics.median(run[key] for run in runs)
        for key in ("performance", "accessibility", "tbt_ms", "lcp_ms", "fcp_ms", "dom_elements")
    }
    med["failed_accessibility"] = sorted({a for run in runs for a in run["failed_accessibility"]})
    return med


def table(pages: dict[str, dict], runs: int, index: float) -> str:
    version = json.loads(INSTALLED.read_text(encoding="utf-8"))["version"]
    lines = [
        f"Lighthouse {version} mobile preset (slow 4G, 4x CPU, simulated), "
        f"medians of {runs} runs per page; this machine's benchmark index {index:.0f}",
        "| page | performance | accessibility | TBT | LCP | DOM elements "
        "| failed accessibility audits |",
        "|---|---|---|---|---|---|---|",
    ]
    for url, s in pages.items():
        failed = ", ".join(s["failed_accessibility"]) or "none"
        lines.append(
            f"| {url or '/'} | {s['performance']:.0f} | {s['accessibility']:.0f} | "
            f"{s['tbt_ms'] / 1000:.2f} s | {s['lcp_ms'] / 1000:.2f} s | "
            f"{s['dom_elements']:,.0f} | {failed} |"
        )
    short = [
        url or "/"
        for url, s in pages.items()
        if s["performance"] < PERFORMANCE_BAR or s["accessibility"] < ACCESSIBILITY_BAR
    ]
    bar = f"performance >= {PERFORMANCE_BAR} and accessibility {ACCESSIBILITY_BAR}"
    lines.append(f"below the bar ({bar}): {', '.join(short)}" if short else f"every page: {bar}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page")
    parser.add_argument("--page", action="append", help="only this page (its url), repeatable")
    args = parser.parse_args()
    check_installed()
    with tempfile.TemporaryDirectory() as tmp:
        site = serve_site(Path(tmp))
        try:
            urls = args.page or list(site.pages)
            every = {url: [run_lighthouse(site.url(url)) for _ in range(args.runs)] for url in urls}
        finally:
            site.close()
    pages = {url: page_summary(runs) for url, runs in every.items()}
    index = statistics.median(run["benchmark_index"] for runs in every.values() for run in runs)
    print(table(pages, args.runs, index))
    print(json.dumps({"pages": pages, "runs": every}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

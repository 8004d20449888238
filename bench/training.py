"""The labs that run (issue 33), in headless Chromium; prints a table and JSON.

For every lab on the lesson that runs (train-norm, train-rmsnorm, train-glu), at its default
settings, with Python already live:

  browser_s     a click on Run -> the lab says "Finished" (the whole training in Pyodide)
  frames_per_s  how often the drawing changed while it ran (the page must show at least 5)
  updates_per_s training updates per second in the browser
  cpython_s     the same run in CPython, in this process (the build computes it this way)

Absolute times on a shared machine are noise; the ratio browser_s / cpython_s is what to
compare between runs. Run: make bench  (or .venv/bin/python bench/training.py [--runs N])
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

import labs as level_19  # noqa: F401  (level 19 registers its labs with livelab)
from livelab.labs import all_labs, lab
from tests.harness import launch_chromium, serve_site

LESSON = "level-19/modern-blocks/"
# Times every change of the lab's progress line ("12 of 60 updates") from the click on Run
# to the run's end, in the page's clock; resolves to [ms to the end, changes, updates].
TIMED_RUN = """async (labId) => {
  const el = document.querySelector(`[data-lab="${labId}"]`);
  const progress = el.querySelector('[data-text="progress"]');
  const line = el.querySelector("[data-run-status]");
  let changes = 0;
  const seen = new MutationObserver(() => changes++);
  seen.observe(progress, { childList: true, characterData: true, subtree: true });
  const start = performance.now();
  el.querySelector("button[data-run]").click();
  while (!line.textContent.startsWith("Finished")) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const ms = performance.now() - start;
  seen.disconnect();
  return [ms, changes, Number(progress.textContent.split(" ")[0])];
}"""


def running_labs() -> list[str]:
    return [name for name, chosen in all_labs().items() if chosen.run is not None]


def on_page(page) -> dict[str, str]:
    """Lab kind -> the id of its first lab on the lesson."""
    pairs = page.evaluate(
        """() => [...document.querySelectorAll("[data-lab-runs]")]
            .map((el) => [el.dataset.labKind, el.dataset.lab])"""
    )
    return dict(reversed(pairs))


def cpython_seconds(kind: str) -> float:
    chosen = lab(kind)
    start = time.perf_counter()
    for _ in chosen.run(**chosen.params.defaults()):
        pass
    return time.perf_counter() - start


def measure(browser, site) -> dict[str, dict]:
    page = browser.new_page()
    page.goto(site.url(LESSON))
    ids = on_page(page)
    out = {}
    for kind in running_labs():
        run = page.locator(f'[data-lab="{ids[kind]}"] button[data-run]')
        run.wait_for(state="attached")
        page.wait_for_function("(b) => !b.disabled", arg=run.element_handle(), timeout=120_000)
        ms, changes, updates = page.evaluate(TIMED_RUN, ids[kind])
        out[kind] = {
            "browser_s": ms / 1000,
            "frames_per_s": changes / (ms / 1000),
            "updates_per_s": updates / (ms / 1000),
            "cpython_s": cpython_seconds(kind),
        }
    page.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of every lab, each measured")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        site = serve_site(Path(tmp))
        browser = launch_chromium(playwright)
        rounds = [measure(browser, site) for _ in range(args.runs)]
        browser.close()
        site.close()
    report = {
        kind: {
            key: round(statistics.median(r[kind][key] for r in rounds), 2)
            for key in rounds[0][kind]
        }
        for kind in rounds[0]
    }
    print(f"{'lab':<16}{'browser':>10}{'CPython':>10}{'ratio':>8}{'frames/s':>10}{'updates/s':>11}")
    for kind, m in report.items():
        ratio = m["browser_s"] / m["cpython_s"]
        print(
            f"{kind:<16}{m['browser_s']:>9.2f}s{m['cpython_s']:>9.2f}s{ratio:>7.2f}x"
            f"{m['frames_per_s']:>10.1f}{m['updates_per_s']:>11.1f}"
        )
    print(json.dumps({"runs": args.runs, "median": report}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

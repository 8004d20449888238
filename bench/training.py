"""The labs that run (issue 33), in headless Chromium; prints a table and JSON.

For every lab on the lesson that runs (train-norm, train-rmsnorm, train-glu, train-rope), at
its default settings, with Python already live:

  browser_s     a click on Run -> the lab says "Finished" (the whole training in Pyodide)
  first_s       a click on Run -> the first new drawing (the first run of a lab also imports
                its module)
  frames_per_s  new drawings a second from the first to the last (the page must show at
                least 5)
  updates_per_s training updates per second in the browser, over the whole run
  cpython_s     the same run in CPython, in this process (the build computes it this way)

Each lab is run twice on one page and both runs are measured: the first includes importing
the lab's module, as a student's first Run does.

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
# to the run's end, in the page's clock; resolves to {ms, first, last, changes, updates}.
TIMED_RUN = """async (labId) => {
  const el = document.querySelector(`[data-lab="${labId}"]`);
  const progress = el.querySelector('[data-text="progress"]');
  const line = el.querySelector("[data-run-status]");
  const times = [];
  const seen = new MutationObserver(() => times.push(performance.now() - start));
  seen.observe(progress, { childList: true, characterData: true, subtree: true });
  const start = performance.now();
  el.querySelector("button[data-run]").click();
  while (!line.textContent.startsWith("Finished")) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const ms = performance.now() - start;
  seen.disconnect();
  const updates = Number(progress.textContent.split(" ")[0]);
  return { ms, first: times[0], last: times.at(-1), changes: times.length, updates };
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
        for which in ("first run", "second run"):
            t = page.evaluate(TIMED_RUN, ids[kind])
            drawing_s = (t["last"] - t["first"]) / 1000
            out[f"{kind}, {which}"] = {
                "browser_s": t["ms"] / 1000,
                "first_s": t["first"] / 1000,
                "frames_per_s": (t["changes"] - 1) / drawing_s if drawing_s > 0 else 0.0,
                "updates_per_s": t["updates"] / (t["ms"] / 1000),
                "cpython_s": cpython_seconds(kind),
            }
    page.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--runs", type=int, default=3, help="fresh pages, each running every lab twice"
    )
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
    heads = ("browser", "CPython", "ratio", "first drawing", "drawings/s", "updates/s")
    print(
        f"{'lab, run (median of ' + str(args.runs) + ' pages)':<30}"
        + "".join(f"{h:>14}" for h in heads)
    )
    for kind, m in report.items():
        ratio = m["browser_s"] / m["cpython_s"]
        cells = (
            f"{m['browser_s']:.2f} s", f"{m['cpython_s']:.2f} s", f"{ratio:.2f}x",
            f"{m['first_s']:.2f} s", f"{m['frames_per_s']:.1f}", f"{m['updates_per_s']:.1f}",
        )  # fmt: skip
        print(f"{kind:<30}" + "".join(f"{c:>14}" for c in cells))
    print(json.dumps({"runs": args.runs, "median": report}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

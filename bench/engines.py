"""Time to the first live lab on Chromium, Firefox and WebKit, side by side in one run.

Each engine in turn (one at a time, so they do not compete for the CPU) opens the lesson in a
fresh tab (empty cache and storage) and then reloads it, for a few rounds. Measured on the
page's own clock, from navigation start: when the first lab view lands (the RoPE lab live),
and the worker's boot phases (the boot report's marks, runtime/page/report.js: ms after the
worker started), so the table says where each engine spends its time:

  downloaded   the large files are in (network, or the HTTP cache on a reload)
  pyodide      the interpreter is up: pyodide.asm.wasm compiled and instantiated, the
               standard library unpacked (or the memory snapshot restored)
  numpy        NumPy imported (its files unpacked from the wheel or read from the store)
  livelab      our package imported (from .py, or from stored .pyc files)

Each round also opens bench/bare/ (Pyodide and NumPy in a worker, nothing of ours) in a
fresh tab: its time to NumPy's first result is what the engine itself needs, so the ratio of
ours to bare says how much of an engine's time is spent in our code.

Pages are served with a small script first in <head> that records the first lab view (the
same probe bench/latency.py adds through Playwright), since classic WebDriver (WebKit) cannot
add a script before a page's own.

Run: make bench  (or .venv/bin/python bench/engines.py [--rounds N] [--engines chromium,webkit])
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.latency import FIRST_VIEW_PROBE, LESSON
from bench.startup import BARE, install_bare
from tests.engines.engines import ENGINES, launched, serve_probed
from tests.engines.tab import EngineError
from tests.harness import serve_site

BOOT = """async () => {
  const { runtime } = await import("/assets/livelab/runtime/page/client.js");
  return { firstView: self.__firstViewMs ?? null, report: runtime.report() };
}"""
# As bench/startup.py's boot_facts: the work the first visit started has settled.
STORED = """async () => {
  const { runtime } = await import("/assets/livelab/runtime/page/client.js");
  return runtime.report().settled;
}"""
PHASES = ("downloaded", "pyodide", "numpy", "livelab")


def visit(tab) -> dict:
    """The first lab view and the boot phases of the page just loaded."""
    tab.wait_for("() => self.__firstViewMs !== undefined", timeout=180)
    boot = tab.evaluate(BOOT)
    report, marks = boot["report"], boot["report"]["marks"]
    steps = report["steps"]
    return {
        "live_ms": round(boot["firstView"]),
        "worker_started_ms": round(report["startedAt"]),
        "ready_ms": round(report["readyAt"]),
        **{f"{name}_ms": marks[name] for name in PHASES if name in marks},
        "interpreter": steps["interpreter"]["from"],
        "numpy": steps["numpy"]["from"],
        "pycs": steps["bytecode"]["files"],
    }


def bare_ms(engine, site) -> float:
    """A fresh tab's time from navigation to NumPy's first result in the bare worker."""
    tab = engine.tab()
    try:
        tab.goto(site.url(BARE))
        return round(tab.wait_for("() => window.__firstResultMs", timeout=180))
    finally:
        tab.close()


def rounds_on(name: str, site, rounds: int) -> list[dict]:
    results = []
    with launched(name) as engine:
        for _ in range(rounds):
            bare = bare_ms(engine, site)
            tab = engine.tab()
            try:
                tab.goto(site.url(LESSON))
                cold = visit(tab)
                # Let the cold visit store what a reload uses (snapshot, NumPy files, .pycs);
                # an engine that stores nothing in 2 minutes reloads without.
                try:
                    tab.wait_for(STORED, timeout=120)
                except EngineError:
                    cold["stored"] = False
                tab.reload()
                results.append({"bare": {"live_ms": bare}, "cold": cold, "reload": visit(tab)})
            finally:
                tab.close()
    return results


def median(samples: list[dict], visit_name: str, key: str) -> float | None:
    values = [s[visit_name][key] for s in samples if s[visit_name].get(key) is not None]
    return statistics.median(values) if values else None


def table(results: dict[str, list[dict]]) -> str:
    rounds = len(next(iter(results.values())))
    lines = [
        f"time to the first live lab (RoPE), medians of {rounds} rounds, seconds",
        "| | " + " | ".join(results) + " |",
        "|---|" + "---|" * len(results),
    ]
    base = results.get("chromium")
    bare = [median(samples, "bare", "live_ms") or 0 for samples in results.values()]
    lines.append(
        "| bare Pyodide + NumPy (cold) | " + " | ".join(f"{b / 1000:.2f}" for b in bare) + " |"
    )
    ours = [median(samples, "cold", "live_ms") or 0 for samples in results.values()]
    lines.append(
        "| cold: ours / bare | "
        + " | ".join(f"{o / b:.2f}×" for o, b in zip(ours, bare, strict=True))
        + " |"
    )
    for visit_name in ("cold", "reload"):
        cells = []
        for samples in results.values():
            live = median(samples, visit_name, "live_ms") or 0
            ratio = ""
            if base and samples is not base:
                ratio = f" ({live / median(base, visit_name, 'live_ms'):.2f}×)"  # type: ignore[operator]
            cells.append(f"{live / 1000:.2f}{ratio}")
        lines.append(f"| {visit_name}: live | " + " | ".join(cells) + " |")
        for key in ("worker_started", *PHASES, "ready"):
            cells = []
            for samples in results.values():
                value = median(samples, visit_name, f"{key}_ms")
                cells.append("–" if value is None else f"{value / 1000:.2f}")
            where = "after the worker started" if key in PHASES else "after navigation"
            lines.append(f"| {visit_name}: {key} ({where}) | " + " | ".join(cells) + " |")
    for name, samples in results.items():
        last = samples[-1]["reload"]
        lines.append(
            f"{name} reload: interpreter from {last['interpreter']}, NumPy from {last['numpy']}, "
            f".pyc files {last['pycs']}"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engines", default=",".join(ENGINES))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        built = serve_site(Path(tmp))
        install_bare(built.site_dir)
        site = serve_probed(built, f"<script>{FIRST_VIEW_PROBE}</script>")
        try:
            results = {name: rounds_on(name, site, args.rounds) for name in args.engines.split(",")}
        finally:
            site.close()
            built.close()
    print(table(results))
    print(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

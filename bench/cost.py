"""What a visit costs the student's machine, beside the bare Pyodide + NumPy worker, in one run.

Each visit runs in a browser process of its own, read from outside (bench/meter.py: every
process of that browser, from /proc): CPU seconds, and the peak of the sum of their resident
memory (RSS). A visit counts from the browser's launch until the work it started has
settled: at least HOLD_S after its first live result (the lab's first view, or the bare
worker's NumPy result), and then until the browser used less than QUIET_CPU_S CPU seconds in
QUIET_S (at most CAP_S after the first result).

  cold    a fresh profile: the first visit
  reload  a new browser on the cold visit's profile (its HTTP cache, service worker, stored
          Python and Chromium's compiled code kept): the page opened again

Also measured, the same way: the browser alone (about:blank, a cold and a reload visit held
as long as ours and until quiet), which every visit's figures include. The table prints it so
that a ratio can be read as what the page itself adds: the ratio of our lesson's figure less
the browser's to the bare worker's less the browser's is in the last column.

Also counted, from outside: the interpreters a visit boots, i.e. the requests for
pyodide.asm.wasm from the page and its workers (each boot asks for it once), and which
workers had pyodide.asm.js loaded (its global `_createPyodideModule`) while they ran.
"""

from __future__ import annotations

import statistics
import tempfile
import time

from bench.latency import FIRST_VIEW_PROBE
from bench.meter import Meter
from livelab.builder.browser import CHROMIUM, CHROMIUM_ARGS

HOLD_S = {"cold": 20.0, "reload": 10.0}
QUIET_S = 2.0
QUIET_CPU_S = 0.1  # 5 % of one core
CAP_S = 90.0
LOADED = "typeof globalThis._createPyodideModule === 'function'"
FIRST = "window.__firstViewMs ?? window.__firstResultMs"


BLANK = "about:blank"


def visit(playwright, url: str, profile: str, kind: str) -> dict:
    """One visit of url in a new browser on profile (see the module's docstring); url BLANK
    is the browser alone (no result to wait for: it is held from the page's load)."""
    meter = Meter().start()
    launched = time.monotonic()
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
    )
    try:
        context.add_init_script(FIRST_VIEW_PROBE)
        page = context.pages[0] if context.pages else context.new_page()
        workers: list = []
        page.on("worker", lambda worker: workers.append(worker))
        wasm = []
        context.on(
            "request",
            lambda r: (
                r.url.endswith("/pyodide.asm.wasm")
                and r.service_worker is None
                and wasm.append(r.url)
            ),
        )
        page.goto(url)
        if url != BLANK:
            page.wait_for_function(f"({FIRST}) !== undefined", timeout=120_000)
        first = time.monotonic()
        booted: set[str] = set()
        while True:
            for worker in workers:
                name = worker.url.rsplit("/", 1)[-1]
                if name not in booted:
                    try:
                        if worker.evaluate(LOADED):
                            booted.add(name)
                    except Exception:  # ended: what it loaded was seen while it ran, or not
                        pass
            now = time.monotonic()
            if now - first >= CAP_S:
                ended = "cap"
                break
            if now - first >= HOLD_S[kind] and meter.quiet_for(QUIET_S, QUIET_CPU_S):
                ended = "quiet"
                break
            page.wait_for_timeout(200)
        settled = time.monotonic()
    finally:
        context.close()
        meter.stop()
    return {
        "cpu_s": round(meter.cpu_s(), 2),
        "peak_mb": round(meter.peak_mb()),
        "processes": meter.processes(),
        "first_result_s": round(first - launched, 2),
        "settled_s": round(settled - launched, 1),
        "ended": ended,
        "interpreters": len(wasm),
        "workers": sorted({w.url.rsplit("/", 1)[-1] for w in workers}),
        "pyodide_in": sorted(booted),
    }


def cost_round(playwright, urls: dict[str, str], round_: int) -> dict:
    """A cold visit and a reload of each of urls ({"bare": ..., "ours": ...}), in turn (the
    order swaps every round), then the browser alone (about:blank) twice, as "blank"."""
    result = {}
    names = list(urls) if round_ % 2 == 0 else list(reversed(urls))
    for name in names:
        with tempfile.TemporaryDirectory() as profile:
            result[name] = {
                kind: visit(playwright, urls[name], profile, kind) for kind in ("cold", "reload")
            }
    with tempfile.TemporaryDirectory() as profile:
        result["blank"] = {
            kind: visit(playwright, BLANK, profile, kind) for kind in ("cold", "reload")
        }
    return result


# (row, visit kind, figure, unit, format, target ratio)
COST_ROWS = [
    ("cold visit, CPU", "cold", "cpu_s", "s", "{:.1f}", 1.3),
    ("cold visit, peak memory (all processes' RSS)", "cold", "peak_mb", "MB", "{:,.0f}", 1.1),
    ("reload, CPU", "reload", "cpu_s", "s", "{:.1f}", 0.7),
    ("reload, peak memory", "reload", "peak_mb", "MB", "{:,.0f}", 1.1),
]


def cost_table(rounds: list[dict]) -> str:
    def med(name: str, kind: str, key: str) -> float:
        return statistics.median(r[name][kind][key] for r in rounds)

    lines = [
        f"cost of a visit, medians of {len(rounds)} rounds (a new browser per visit, from launch "
        f"until settled: >= {HOLD_S['cold']:.0f} s (cold) / {HOLD_S['reload']:.0f} s (reload) "
        f"after the first result and < {QUIET_CPU_S} CPU s in {QUIET_S:.0f} s)",
        "| | bare Pyodide + NumPy worker | our lesson | ratio | target | met "
        "| the browser alone | ratio less the browser |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for label, kind, key, unit, fmt, target in COST_ROWS:
        bare, ours = med("bare", kind, key), med("ours", kind, key)
        ratio = ours / bare
        blank = med("blank", kind, key)
        less = "–" if bare <= blank else f"{(ours - blank) / (bare - blank):.2f}×"
        lines.append(
            f"| {label} | {fmt.format(bare)} {unit} | {fmt.format(ours)} {unit} | {ratio:.2f}× "
            f"| ≤ {target}× | {'yes' if ratio <= target else 'no'} "
            f"| {fmt.format(blank)} {unit} | {less} |"
        )
    for kind, most in (("cold", 2), ("reload", 1)):
        counts = [r["ours"][kind]["interpreters"] for r in rounds]
        bare = [r["bare"][kind]["interpreters"] for r in rounds]
        where = sorted({name for r in rounds for name in r["ours"][kind]["pyodide_in"]})
        lines.append(
            f"interpreters booted, {kind}: ours {counts} (at most {most}: "
            f"{'met' if max(counts) <= most else 'not met'}; pyodide.asm.js loaded in "
            f"{', '.join(where)}), bare {bare}"
        )
    ended = [v["ended"] for r in rounds for side in r.values() for v in side.values()]
    settled = {
        name: statistics.median(r[name]["cold"]["settled_s"] for r in rounds)
        for name in rounds[0]
        if name != "blank"
    }
    lines.append(
        f"visits ended by: {ended.count('quiet')} quiet, {ended.count('cap')} at the cap; "
        f"cold visits settled after (median, from launch): "
        + ", ".join(f"{name} {s:.0f} s" for name, s in settled.items())
    )
    return "\n".join(lines)

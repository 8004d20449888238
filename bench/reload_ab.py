"""Paired A/B of the lesson's reload: two builds of the course served side by side.

Each round gives each build a fresh browser profile (in turn, A B, then B A, ...): the lesson
is visited cold, the tab waits until that visit has stored what a first visit stores (the
memory snapshot, NumPy's files), then it is reloaded `--reloads` times, each timed from
navigation to its first lab view as bench/startup.py times "reload" (the first of them is
that row's reload; the others are later visits).

The machine's cost is read from outside as well (bench/meter.py: all the browser's processes,
from /proc): per profile, the CPU seconds and peak memory (sum of RSS) of the cold visit (from
navigation until the tab has stored what a first visit stores, the warm-up included) and of
its reloads (from the first reload until SETTLE_S after the last). One browser serves every
profile, so the memory figures include its own processes: compare them between A and B only.

Why this shape: on these shared two-core machines a reload's time moves by about 10 % from
one run to the next, and a profile keeps a bias of its own for all its reloads (up to about
100 ms: the compiled code Chromium stored for pyodide.asm.wasm differs from one first visit
to the next). So one profile per build says little, however many reloads it makes; rounds of
fresh profiles, taken in turn, share the machine's state and spread that bias.

  .venv/bin/python bench/reload_ab.py A B [--rounds 8] [--reloads 3]

A and B are git commits of this repository (each built from a temporary worktree, with its
own code) or source directories. Printed: each round's median reload per build, each
build's median over all reloads, the median and mean of the rounds' differences (B - A), and
in how many rounds B was the faster; then the same differences for the cold visit's time
and for the CPU and memory figures, with their quartiles. Run it with A = B first to see
the noise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

from bench.latency import FIRST_VIEW_PROBE, LESSON, first_view_ms
from bench.meter import Meter
from bench.startup import boot_facts
from livelab.builder.serve import make_server, serve_in_thread
from tests.harness import Site, launch_chromium

ROOT = Path(__file__).resolve().parents[1]
SETTLE_S = 1.5  # between reloads: the last one's background work (tier-up, stores) settles

# Run in the tree being built, with that tree's own code on the path.
BUILD = """
import sys
from pathlib import Path
root, out, url = sys.argv[1:4]
sys.path[:0] = [root, root + "/py"]
from livelab.builder.check import build_course
build_course(Path(root) / "mkdocs.yml", Path(out), url)
"""


def source_tree(ref: str, stack: ExitStack, scratch: Path) -> Path:
    """ref as a directory to build: itself when it is one, else a worktree of that commit."""
    if Path(ref).is_dir():
        return Path(ref).resolve()
    tree = scratch / f"tree-{len(list(scratch.iterdir()))}"
    subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), ref],
        check=True,
        capture_output=True,
    )
    stack.callback(
        subprocess.run,
        ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
        capture_output=True,
    )
    return tree


def served_build(tree: Path, out: Path, stack: ExitStack) -> Site:
    """Build tree's course into out, for the port it is served on, and serve it."""
    server = make_server(out, port=0, isolated=True)
    site = Site(server, out, True)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    subprocess.run(
        [sys.executable, "-c", BUILD, str(tree), str(out), site.url()],
        check=True,
        env=env,
        capture_output=True,
    )
    serve_in_thread(server)
    stack.callback(server.shutdown)
    return site


def profile_reloads(browser, site: Site, reloads: int, meter: Meter) -> dict:
    """A fresh profile: a cold visit, its stores, then `reloads` timed reloads; the times, and
    the CPU and memory of both parts (see the module's docstring)."""
    context = browser.new_context()
    try:
        context.add_init_script(FIRST_VIEW_PROBE)
        page = context.new_page()
        start = time.monotonic()
        page.goto(site.url(LESSON))
        cold = first_view_ms(page)
        boot_facts(page, wait_for_store=True)
        stored = time.monotonic()
        times = []
        for _ in range(reloads):
            page.reload()
            times.append(first_view_ms(page))
            time.sleep(SETTLE_S)
        cold_cpu, cold_mb = meter.between(start, stored)
        reload_cpu, reload_mb = meter.between(stored, time.monotonic())
        return {
            "reload_ms": statistics.median(times),
            "reloads": times,
            "cold_ms": cold,
            "cold_cpu_s": cold_cpu,
            "cold_peak_mb": cold_mb,
            "reload_cpu_s": reload_cpu,
            "reload_peak_mb": reload_mb,
        }
    finally:
        context.close()


# Each figure compared by round: (key, label, unit, format)
FIGURES = [
    ("cold_ms", "cold visit, first lab view", "ms", "{:+.0f}"),
    ("cold_cpu_s", "cold visit + its stores, CPU", "s", "{:+.2f}"),
    ("cold_peak_mb", "cold visit + its stores, peak memory", "MB", "{:+.0f}"),
    ("reload_cpu_s", "reloads, CPU", "s", "{:+.2f}"),
    ("reload_peak_mb", "reloads, peak memory", "MB", "{:+.0f}"),
]


def quartiles(values: list[float]) -> tuple[float, float]:
    if len(values) < 2:
        return values[0], values[0]
    q = statistics.quantiles(values, n=4)
    return q[0], q[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("a", help="a commit or a source directory")
    parser.add_argument("b", help="a commit or a source directory")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--reloads", type=int, default=3)
    args = parser.parse_args()
    refs = (args.a, args.b)
    samples: list[list[float]] = [[], []]
    results: list[list[dict]] = [[], []]
    diffs = []
    with ExitStack() as stack:
        scratch = Path(stack.enter_context(tempfile.TemporaryDirectory()))
        (scratch / "trees").mkdir()
        sites = [
            served_build(source_tree(ref, stack, scratch / "trees"), scratch / f"site-{i}", stack)
            for i, ref in enumerate(refs)
        ]
        browser = launch_chromium(stack.enter_context(sync_playwright()))
        stack.callback(browser.close)
        meter = Meter().start()
        stack.callback(meter.stop)
        for round_ in range(args.rounds):
            got: list[dict] = [{}, {}]
            for i in (0, 1) if round_ % 2 == 0 else (1, 0):
                got[i] = profile_reloads(browser, sites[i], args.reloads, meter)
                samples[i] += got[i]["reloads"]
                results[i].append(got[i])
            diffs.append(got[1]["reload_ms"] - got[0]["reload_ms"])
            print(
                f"round {round_ + 1:2d}: A {got[0]['reload_ms']:6.0f} ms  "
                f"B {got[1]['reload_ms']:6.0f} ms  B - A {diffs[-1]:+5.0f} ms  "
                f"(cold CPU A {got[0]['cold_cpu_s']:.1f} s B {got[1]['cold_cpu_s']:.1f} s, "
                f"reload CPU A {got[0]['reload_cpu_s']:.1f} s B {got[1]['reload_cpu_s']:.1f} s)",
                flush=True,
            )
    for name, ref, times in zip("AB", refs, samples, strict=True):
        print(f"{name} {ref}: median reload {statistics.median(times):.0f} ms")
    print(
        f"B - A by round: median {statistics.median(diffs):+.0f} ms, mean "
        f"{statistics.mean(diffs):+.0f} ms; B faster in {sum(d < 0 for d in diffs)} of "
        f"{len(diffs)} rounds"
    )
    print("| figure | A median | B median | B - A by round: median | quartiles | B lower in |")
    print("|---|---|---|---|---|---|")
    for key, label, unit, fmt in FIGURES:
        a = [r[key] for r in results[0]]
        b = [r[key] for r in results[1]]
        d = [y - x for x, y in zip(a, b, strict=True)]
        low, high = quartiles(d)
        plain = fmt.replace("+", "")
        print(
            f"| {label} | {plain.format(statistics.median(a))} {unit} | "
            f"{plain.format(statistics.median(b))} {unit} | {fmt.format(statistics.median(d))} "
            f"{unit} | {fmt.format(low)} to {fmt.format(high)} | "
            f"{sum(x < 0 for x in d)} of {len(d)} |"
        )


if __name__ == "__main__":
    main()

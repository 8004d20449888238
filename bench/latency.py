"""Speed of the live labs in headless Chromium; prints JSON.

  cold_ms          navigation -> first lab view computed in Pyodide, fresh profile (empty cache)
  warm_reload_ms   the same after a reload (HTTP cache warm, worker booted anew)
  warm_instant_ms  click on a link -> first lab view, worker already running (instant navigation)
  slider_ms        per input: input event -> new score in the DOM ("view") and -> the next
                   animation frame after it ("paint"), p50/p95 over a 200-step drag
  drag_60hz        200 inputs 16 ms apart: requests actually sent, lag of the last input
  lab_ms           the same input -> view / -> paint timings for each registered lab's first
                   slider, and for a few controls a slider misses (LAB_INPUTS)
  scratch_ms       the Python scratchpad: a click on Run -> the output of a trivial program
                   in the panel ("output") and -> the next animation frame ("paint"), p50/p95

Run: make bench  (or .venv/bin/python bench/latency.py [--runs N])
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from playwright.sync_api import sync_playwright

import labs as level_19  # noqa: F401  (level 19 registers its labs with livelab)
from livelab.labs import all_labs
from livelab.options import Option
from tests.harness import launch_chromium, serve_site

LESSON = "level-19/modern-blocks/"
# Records when the first lab view lands, relative to the page's time origin (navigation start),
# and when the last click reached the page (the student's click, not the driver's call).
FIRST_VIEW_PROBE = """
document.addEventListener("livelab:view", () => {
  if (window.__firstViewMs === undefined) window.__firstViewMs = performance.now();
});
document.addEventListener("click", (event) => { window.__clickMs = event.timeStamp; }, true);
"""
DRAG_60HZ = """async (steps) => {
  const slider = document.querySelector('[data-lab="rope"] input[data-param="k_pos"]');
  const lab = slider.closest("[data-lab]");
  let views = 0;
  lab.addEventListener("livelab:view", () => views++);
  let last = 0;
  for (let i = 0; i < steps; i++) {
    slider.value = String(i % 21);
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    last = performance.now();
    await new Promise((resolve) => setTimeout(resolve, 16));
  }
  const expected = String((steps - 1) % 21);
  const shown = lab.querySelector('input[data-param="k_pos"]').closest(".livelab-control")
    .querySelector('[data-text="k_pos"]');
  while (shown.textContent !== expected) {
    await new Promise((resolve) => lab.addEventListener("livelab:view", resolve, { once: true }));
  }
  return { inputs: steps, views, last_input_lag_ms: performance.now() - last };
}"""


def sweep(spec: Option) -> list[float]:
    """Five values across a slider's range on its step grid, and its default if not among them.

    No two neighbours are equal, also when the list starts over: each input must change the view.
    """
    low, high = float(spec.minimum or 0), float(spec.maximum or 0)
    step = float(spec.step) if isinstance(spec.step, (int, float)) else 0.0
    values = []
    for i in range(5):
        value = low + (high - low) * i / 4
        if step:
            value = low + round((value - low) / step) * step
        values.append(int(value) if spec.is_int else round(value, 6))
    return values if spec.default in values else [*values, spec.default]


def slider_inputs() -> dict[str, tuple[str, str, list | None]]:
    """Per registered lab with a slider: its first slider, moved across its range."""
    inputs = {}
    for kind, chosen in all_labs().items():
        if chosen.run is not None:  # a lab that runs answers Run, not a slider (bench/training.py)
            continue
        sliders = [n for n, s in chosen.params.controls().items() if s.control == "range"]
        if sliders:
            name = sliders[0]
            selector = f'input[data-param="{name}"]'
            inputs[f"{kind} ({name} slider)"] = (kind, selector, sweep(chosen.params[name]))
    return inputs


# What a slider sweep misses: an entry field, and the modern block (no slider) measured
# twice, its Run button and its seed field once the block runs, where every change re-runs
# the forward pass. None: a button that is clicked each time.
SCENARIOS = {
    "rms (entry field)": (
        "rms",
        'input[data-param="x"][data-index="0"]:not([data-mirror])',
        [3, -2.5, 7, 0.5],
    ),
    "modern_block (Run the block)": ("modern_block", 'button[data-set*="run"]', None),
    "modern_block (seed field, running)": (
        "modern_block",
        'input[data-param="seed"]',
        [1, 2, 3, 4, 5],
    ),
}
LAB_INPUTS = {**slider_inputs(), **SCENARIOS}
"""Measured input -> (lab name, control selector, values); the lesson's first lab of each name."""

LAB_STEPS = """async ([kind, selector, values, steps]) => {
  const lab = document.querySelector(`[data-lab-kind="${kind}"]`);
  const control = lab.querySelector(selector);
  const out = [];
  for (let i = 0; i < steps; i++) {
    const viewed = new Promise(
      (resolve) => lab.addEventListener("livelab:view", resolve, { once: true }));
    const start = performance.now();
    if (values === null) {
      control.click();
    } else {
      control.value = String(values[i % values.length]);
      control.dispatchEvent(new Event("input", { bubbles: true }));
    }
    await viewed;
    const shown = performance.now();
    const painted = await new Promise((resolve) => requestAnimationFrame(resolve));
    out.push([shown - start, painted - start]);
  }
  return out;
}"""


# The scratchpad's trivial program prints a number one higher each run, so each output is new.
SCRATCH_PROGRAM = "n = globals().get('n', 0) + 1\nn"
SCRATCH_RUNS = """async (runs) => {
  const panel = document.getElementById("livelab-scratchpad");
  const run = [...panel.querySelectorAll("button")].find((b) => b.textContent === "Run");
  const output = panel.querySelector('[role="log"]');
  const out = [];
  for (let i = 0; i < runs; i++) {
    const before = Number(output.textContent || 0);
    const shown = new Promise((resolve) => {
      const watch = new MutationObserver(() => {
        if (Number(output.textContent) === before + 1) {
          watch.disconnect();
          resolve(performance.now());
        }
      });
      watch.observe(output, { childList: true, characterData: true, subtree: true });
    });
    const start = performance.now();
    run.click();
    const seen = await shown;
    // The time the frame callback runs, not the frame's start (which may precede `seen`).
    const painted = await new Promise((resolve) =>
      requestAnimationFrame(() => resolve(performance.now())));
    out.push([seen - start, painted - start]);
    await new Promise((resolve) => setTimeout(resolve, 0)); // Run is enabled again after the reply
  }
  return out;
}"""


BOOT_PHASES = """async () => {
  const { runtime } = await import("/assets/livelab/runtime/page/client.js");
  const report = runtime.report();
  return { worker_created: Math.round(report.startedAt), ...report.marks };
}"""


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def summary(values: list[float]) -> dict:
    return {
        "samples": len(values),
        "p50": round(statistics.median(values), 2),
        "p95": round(pct(values, 0.95), 2),
        "max": round(max(values), 2),
    }


def first_view_ms(page) -> float:
    page.wait_for_function("window.__firstViewMs !== undefined", timeout=60_000)
    return page.evaluate("window.__firstViewMs")


def click_to_first_view_ms(page, link: str) -> float:
    """A click on the link named `link` (from when the page gets it) -> the next first lab view."""
    page.evaluate("delete window.__firstViewMs; delete window.__clickMs")
    page.get_by_role("link", name=link).first.click()
    return first_view_ms(page) - page.evaluate("window.__clickMs")


def page_change_by_link_ms(page, site) -> float:
    """From the lesson: Home, then a click on the lesson's link -> its first lab view."""
    page.get_by_role("link", name="Home").first.click()
    page.wait_for_url(site.url(""))
    return click_to_first_view_ms(page, "Modern blocks")


def measure_labs(page, steps: int) -> dict[str, list]:
    """Input -> view and -> paint for the main control of every lab (see LAB_INPUTS)."""
    return {
        name: page.evaluate(LAB_STEPS, [lab_id, selector, values, steps])
        for name, (lab_id, selector, values) in LAB_INPUTS.items()
    }


def measure_scratchpad(page, runs: int) -> list:
    """Open the scratchpad, type the trivial program, run it once to warm up, then time runs."""
    page.get_by_role("button", name="Python scratchpad").click()
    code = page.get_by_role("textbox", name="Python code")
    code.click()
    page.keyboard.type(SCRATCH_PROGRAM)
    page.keyboard.press("Control+Enter")
    page.get_by_role("log", name="Output").filter(has_text="1").wait_for(timeout=60_000)
    return page.evaluate(SCRATCH_RUNS, runs)


def measure(browser, site, steps: int, lab_steps: int, scratch_runs: int = 30) -> dict:
    context = browser.new_context()
    context.add_init_script(FIRST_VIEW_PROBE)
    page = context.new_page()
    page.goto(site.url(LESSON))
    cold = first_view_ms(page)
    phases = page.evaluate(BOOT_PHASES)
    page.reload()
    warm_reload = first_view_ms(page)
    warm_instant = page_change_by_link_ms(page, site)
    rope_values = [3, 7, 12, 17, 20, 15, 9, 4, 0, 1]
    slider = page.evaluate(LAB_STEPS, ["rope", 'input[data-param="q_pos"]', rope_values, steps])
    drag = page.evaluate(DRAG_60HZ, steps)
    labs = measure_labs(page, lab_steps)
    scratch = measure_scratchpad(page, scratch_runs)
    context.close()
    return {
        "cold_ms": cold,
        "boot_phases_ms": phases,
        "warm_reload_ms": warm_reload,
        "warm_instant_ms": warm_instant,
        "slider": slider,
        "drag_60hz": drag,
        "labs": labs,
        "scratch": scratch,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="fresh profiles to measure")
    parser.add_argument("--steps", type=int, default=200, help="slider inputs per drag")
    parser.add_argument("--lab-steps", type=int, default=50, help="inputs per lab control")
    parser.add_argument("--scratch-runs", type=int, default=30, help="scratchpad runs timed")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        site = serve_site(Path(tmp))
        browser = launch_chromium(playwright)
        runs = [
            measure(browser, site, args.steps, args.lab_steps, args.scratch_runs)
            for _ in range(args.runs)
        ]
        browser.close()
        site.close()
    view = [pair[0] for run in runs for pair in run["slider"]]
    paint = [pair[1] for run in runs for pair in run["slider"]]
    report = {
        "runs": args.runs,
        "cold_ms": [round(r["cold_ms"]) for r in runs],
        "cold_boot_phases_ms": [r["boot_phases_ms"] for r in runs],
        "warm_reload_ms": [round(r["warm_reload_ms"]) for r in runs],
        "warm_instant_ms": [round(r["warm_instant_ms"]) for r in runs],
        "slider_ms": {name: summary(values) for name, values in (("view", view), ("paint", paint))},
        "drag_60hz": [r["drag_60hz"] for r in runs],
        "lab_ms": {
            name: {
                part: summary([pair[i] for run in runs for pair in run["labs"][name]])
                for i, part in enumerate(("view", "paint"))
            }
            for name in LAB_INPUTS
        },
        "scratch_ms": {
            part: summary([pair[i] for run in runs for pair in run["scratch"]])
            for i, part in enumerate(("output", "paint"))
        },
    }
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())

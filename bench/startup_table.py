"""The start-up table of bench/startup.py: medians, ratios to the bare worker, the targets."""

from __future__ import annotations

import statistics
from collections import Counter

SETTLE_S = 5  # the last reload: this long after the first visit's stores are made

# (row, bare key, our key, target ratio or None)
STARTUP_ROWS = [
    ("cold (empty cache)", "bare_cold_ms", "ours_cold_ms", 0.8),
    ("reload 1 s after a first visit", "bare_reload_1s_ms", "ours_reload_1s_ms", 0.4),
    ("reload 10 s after a first visit", "bare_reload_10s_ms", "ours_reload_10s_ms", 0.4),
    (f"reload once stored, {SETTLE_S} s later", "bare_again_ms", "ours_again_ms", None),
]
# (row, key, target seconds or None)
LINK_ROWS = [
    ("page change by link (views remembered)", "link_ms", None),
    ("link -> a new input's result, right after a first visit", "link_new_first_ms", 0.2),
    ("link -> a new input's result, after a settled visit", "link_new_settled_ms", 0.2),
]


def median_of(rounds: list[dict], key: str) -> float:
    """The median of every sample of key (a round holds one, or a list)."""
    values = [v for r in rounds for v in (r[key] if isinstance(r[key], list) else [r[key]])]
    return statistics.median(values)


def table(rounds: list[dict]) -> str:
    lines = [
        f"start-up, medians of {len(rounds)} rounds",
        "| | bare Pyodide + NumPy worker | our lesson (RoPE lab live) | ratio | target | met |",
        "|---|---|---|---|---|---|",
    ]
    for name, bare_key, ours_key, target in STARTUP_ROWS:
        bare, ours = median_of(rounds, bare_key), median_of(rounds, ours_key)
        ratio = ours / bare
        goal = f"≤ {target}× | {'yes' if ratio <= target else 'no'}" if target else "– | –"
        lines.append(
            f"| {name} | {bare / 1000:.2f} s | {ours / 1000:.2f} s | {ratio:.2f}× | {goal} |"
        )
    for name, key, target in LINK_ROWS:
        ours = median_of(rounds, key) / 1000
        goal = f"≤ {target} s | {'yes' if ours <= target else 'no'}" if target else "– | –"
        lines.append(f"| {name} | – | {ours:.2f} s | – | {goal} |")
    lines.append(
        "after those links, the lab's T field enabled: right after a first visit "
        f"{median_of(rounds, 'field_first_ms'):.0f} ms, after a settled visit "
        f"{median_of(rounds, 'field_settled_ms'):.0f} ms from the click (median)"
    )
    lines.append(
        f"first lab view after ready: cold {median_of(rounds, 'cold_after_ready_ms'):.0f} ms, "
        f"reload {median_of(rounds, 'reload_after_ready_ms'):.0f} ms (median)"
    )
    for label, key in (("reload 10 s after", "reload_10s_boot"), ("once stored", "reload_boot")):
        modes = Counter(r[key]["steps"]["interpreter"]["from"] for r in rounds)
        wheels = Counter(r[key]["steps"]["numpy"]["from"] for r in rounds)
        lines.append(f"{label}: interpreter from {dict(modes)}, NumPy from {dict(wheels)}")
    stored = [r["stores"]["later"]["snapshot"] for r in rounds]
    if stored and all("bytes" in s for s in stored):
        size = statistics.median(s["bytes"] for s in stored) / 1e6
        kept = statistics.median(s.get("stored", s["bytes"]) for s in stored) / 1e6
        store_ms = statistics.median(s["ms"] for s in stored)
        lines.append(
            f"snapshot: {size:.1f} MB, stored without its zero pages as {kept:.1f} MB; "
            f"helper stored it in {store_ms:.0f} ms (median)"
        )
    return "\n".join(lines)

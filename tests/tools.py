"""Test-only npm tools (axe-core), fetched and verified as the runtime's packages are."""

from __future__ import annotations

import json
from pathlib import Path

from livelab.builder import fetch

LOCK_FILE = Path(__file__).with_name("tools.lock.json")


def tool_dir(name: str) -> Path:
    """The unpacked npm package `name` pinned in tools.lock.json, from the shared cache."""
    entry = json.loads(LOCK_FILE.read_text(encoding="utf-8"))["npm"][name]
    pin = fetch.Pin(name, entry["version"], entry["integrity"])
    return fetch.unpacked(pin, fetch.cache_root(), f"tests/{LOCK_FILE.name}")


def axe_source() -> str:
    """axe-core's browser build, to inject into a page."""
    return (tool_dir("axe-core") / "axe.min.js").read_text(encoding="utf-8")

"""Headless Chromium (Debian's build, under Playwright) for the check, the tests and bench."""

from __future__ import annotations

import os
from pathlib import Path

CHROMIUM = Path(os.environ.get("LIVELAB_CHROMIUM", "/usr/bin/chromium"))
# Headless Chromium as root, with the background services that phone home switched off.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def launch_chromium(playwright):
    """Debian's Chromium under Playwright; never a browser downloaded by a tool."""
    if not CHROMIUM.is_file():
        raise RuntimeError(
            f"{CHROMIUM} is missing: install Debian's chromium (`make test` does) "
            "or point LIVELAB_CHROMIUM at a Chromium binary"
        )
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)

"""Material's own chrome gets accessible names: its search dialog and its progress bar.

mkdocs-material writes `<div class="md-search" ... role="dialog">` (the search overlay) and
`<div class="md-progress" ... role="progressbar">` (instant navigation's progress bar) with no
name, which a screen reader announces as a bare "dialog" and "progress bar" and which axe and
Lighthouse fail (aria-dialog-name, aria-progressbar-name). Students meet that chrome on every
page, so `livelab finish` names both on the built HTML, under either builder, as footer.py and
early.py change it. Instant navigation swaps in parts of pages built the same way, and leaves
these two elements in place, so the names stay after a page change.
"""

from __future__ import annotations

import re
from pathlib import Path

from livelab.builder.built_pages import rewrite_pages

# Material's element (the opening tag, up to its role) -> the name it gets.
NAMES = {
    "search": (
        re.compile(r'<div class="md-search"[^>]*\brole="dialog"(?![^>]*aria-label)'),
        "Search",
    ),
    "progress": (
        re.compile(r'<div class="md-progress"[^>]*\brole="progressbar"(?![^>]*aria-label)'),
        "Loading the next page",
    ),
}


def with_chrome_names(page: str) -> str:
    """The page with an aria-label on each of Material's unnamed chrome elements it has."""
    for pattern, name in NAMES.values():
        page = pattern.sub(rf'\g<0> aria-label="{name}"', page, count=1)
    return page


def name_material_chrome(site_dir: Path) -> int:
    """Name the search dialog and progress bar on every built page; return how many changed."""
    return rewrite_pages(site_dir, with_chrome_names)

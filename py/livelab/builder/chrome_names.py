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

import html
import re
from pathlib import Path

from livelab import i18n
from livelab.builder.built_pages import rewrite_pages

# Material's elements (the opening tag, up to its role), each named in with_chrome_names.
SEARCH = re.compile(r'<div class="md-search"[^>]*\brole="dialog"(?![^>]*aria-label)')
PROGRESS = re.compile(r'<div class="md-progress"[^>]*\brole="progressbar"(?![^>]*aria-label)')


def with_chrome_names(page: str) -> str:
    """The page with an aria-label on each of Material's unnamed chrome elements it has, in
    the site's language (livelab.i18n)."""
    for pattern, name in (
        (SEARCH, i18n.text("chrome.search")),
        (PROGRESS, i18n.text("chrome.progress")),
    ):
        named = f' aria-label="{html.escape(name)}"'
        page = pattern.sub(lambda found: found.group(0) + named, page, count=1)  # noqa: B023
    return page


def name_material_chrome(site_dir: Path) -> int:
    """Name the search dialog and progress bar on every built page; return how many changed."""
    return rewrite_pages(site_dir, with_chrome_names)

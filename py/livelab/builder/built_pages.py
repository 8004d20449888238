"""Rewriting every page of a built site: the one loop behind `livelab finish`'s page steps."""

from collections.abc import Callable
from pathlib import Path


def rewrite_pages(site_dir: Path, transform: Callable[[str], str]) -> int:
    """Write transform(page) over every built .html page it changes; return how many changed."""
    changed = 0
    for path in sorted(site_dir.rglob("*.html")):
        page = path.read_text(encoding="utf-8")
        new = transform(page)
        if new != page:
            path.write_text(new, encoding="utf-8")
            changed += 1
    return changed

"""Every address of a page is that page: the rule of livelab/web/address.js, put where it acts.

A page can be reached at addresses other than its own: with a query (`?ref=…`), as its
folder's `index.html`, or with a doubled slash (`//level-19/modern-blocks/`,
`level-19//modern-blocks/`). The browser resolves the page's relative links from the address
it shows, so at a doubled slash the page's styles and scripts were asked for in the wrong
folder, and its saved progress and service worker scope were keyed by the odd address.

web/address.js holds the rule once (`canonicalPath`). The build puts it in two places besides
the module saved progress imports:
- `canonical_addresses` gives every built page an inline script right after its charset,
  before anything the page loads: at an odd address it replaces the address with the page's
  own (history.replaceState), so what follows resolves from there. Before the script that
  starts Python early (livelab.builder.early), whose worker address is relative too.
- `classic_source` is the function as a classic script, which offline.py writes in front of
  the service worker: it redirects navigations to odd addresses of a precached page.
"""

from __future__ import annotations

import re
from pathlib import Path

from livelab.builder.built_pages import rewrite_pages

ADDRESS_JS = Path(__file__).resolve().parents[1] / "web" / "address.js"
MARK = 'id="livelab-address"'
CHARSET = re.compile(r"<meta\s+charset=[^>]*>", re.I)
HEAD = re.compile(r"<head\b[^>]*>", re.I)
# Where a script that must follow this one goes: right after it (livelab.builder.early).
AFTER = re.compile(r'<script id="livelab-address">.*?</script>', re.S)
# A page opened from disk (file:) may not change its path: it stays where it is.
REPLACE = (
    "const path = canonicalPath(location.pathname);"
    "if (path !== location.pathname && location.protocol !== 'file:') "
    "history.replaceState(history.state, '', path + location.search + location.hash);"
)


def classic_source() -> str:
    """address.js without its opening comment and `export`, for a classic script."""
    text = ADDRESS_JS.read_text(encoding="utf-8")
    code = "\n".join(line for line in text.splitlines() if not line.startswith("//"))
    return code.strip().replace("export function ", "function ") + "\n"


def address_script() -> str:
    """The inline script that moves a page at an odd address to its own."""
    return f"<script {MARK}>(() => {{\n{classic_source()}{REPLACE}\n}})();</script>"


def with_address_script(page: str) -> str:
    """The page with the address script right after its charset (or <head>), once."""
    if MARK in page:
        return page
    anchor = CHARSET.search(page) or HEAD.search(page)
    if anchor is None:
        return page
    return page[: anchor.end()] + address_script() + page[anchor.end() :]


def canonical_addresses(site_dir: Path) -> int:
    """Give every built page the address script; return how many pages changed."""
    return rewrite_pages(site_dir, with_address_script)

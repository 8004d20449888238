"""The last page of a built course leads back home: its footer gets a "Next" link to the home page.

A student who reaches the end of the course's pages should find the way back in the footer
rather than a dead end. MkDocs could set this in the navigation, but Zensical runs no MkDocs
plugin, so it is done on the built HTML, which both builders write with Material's footer:
`livelab finish` (and the plugin, which runs the same step) finds the one page whose footer
has a "Previous" link and no "Next" link, and gives it a copy of the builder's own "Next"
link from another page, pointed at the home page and titled as the navigation titles it. Its
name says "Next" in the word the builder wrote on that link, so in the site's language.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

FOOTER_NAV = re.compile(r'(<nav class="md-footer__inner[^"]*"[^>]*>)(.*?)(</nav>)', re.S)
LINK = re.compile(r"<a\b([^>]*)>(.*?)</a>", re.S)
TITLE = re.compile(r'(<div class="md-ellipsis">)(.*?)(</div>)', re.S)
HREF = re.compile(r'\bhref="([^"]*)"')
LABEL = re.compile(r'\baria-label="[^"]*"')
DIRECTION = re.compile(r'<span class="md-footer__direction">\s*(.*?)\s*</span>', re.S)


@dataclass(frozen=True)
class FooterLink:
    """One link of a page's footer: where it leads, the page title it shows, its markup."""

    href: str
    title: str
    markup: str


def footer_links(page: str) -> dict[str, FooterLink]:
    """The footer's "prev" and "next" links of a built page (either may be missing)."""
    nav = FOOTER_NAV.search(page)
    if nav is None:
        return {}
    out = {}
    for link in LINK.finditer(nav.group(2)):
        attrs = link.group(1)
        href, title = HREF.search(attrs), TITLE.search(link.group(2))
        for direction in ("prev", "next"):
            if f"md-footer__link--{direction}" in attrs and href and title:
                out[direction] = FooterLink(href.group(1), title.group(2).strip(), link.group(0))
    return out


def _leads_home(page_file: Path, href: str, site_dir: Path) -> bool:
    target = (page_file.parent / href.split("#")[0]).resolve()
    return target in (site_dir.resolve(), (site_dir / "index.html").resolve())


def lead_last_page_home(site_dir: Path) -> Path | None:
    """Give the course's last page a footer link to the home page; return that page's file.

    Nothing changes when every page that has a "Previous" link also has a "Next" one (the
    step already ran, or the site has a single page) or when the home page cannot be named.
    """
    pages = {path: path.read_text(encoding="utf-8") for path in sorted(site_dir.rglob("*.html"))}
    links = {path: footer_links(text) for path, text in pages.items()}
    home = site_dir / "index.html"
    # The home page's title as the navigation gives it: the "Previous" link of the page after it.
    home_titles = [
        found["prev"].title
        for path, found in links.items()
        if "prev" in found and _leads_home(path, found["prev"].href, site_dir)
    ]
    templates = [found["next"] for found in links.values() if "next" in found]
    last = [path for path, found in links.items() if "prev" in found and "next" not in found]
    if len(last) != 1 or last[0] == home or not home_titles or not templates:
        return None
    page_file, title = last[0], home_titles[0]
    href = Path(os.path.relpath(site_dir, page_file.parent)).as_posix() + "/"
    link = HREF.sub(f'href="{href}"', templates[0].markup, count=1)
    direction = DIRECTION.search(link)  # "Next", as the theme's language says it
    word = direction.group(1) if direction else "Next"
    link = LABEL.sub(f'aria-label="{word}: {title}"', link, count=1)
    link = TITLE.sub(lambda m: f"{m.group(1)}\n{title}\n{m.group(3)}", link, count=1)
    text = FOOTER_NAV.sub(
        lambda m: m.group(1) + m.group(2) + link + m.group(3), pages[page_file], count=1
    )
    page_file.write_text(text, encoding="utf-8")
    return page_file

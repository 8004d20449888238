"""A rewritten or damaged cache cannot change what the site serves, and is repaired (issue 30,
§1 and §5): the service worker checks every precached body against the build's hash before it
serves it (sw.js), downloads a bad one again, and offline answers with an error that names it.

Each test is a fresh profile (`page` outside a `warm` file): a first visit, then the damage."""

import hashlib
import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import OTHER_LESSON, lab_live, precached
from tests.browser.test_runtime import LESSON, wait_live
from tests.browser.test_startup import stored_snapshot

LIVELAB_JS = "/assets/livelab/livelab.js"
PWNED = re.compile("PWNED")
# Exactly the snippet (§1), run from the page: the lead's own test shows the scratchpad
# can no longer reach Cache Storage; this one shows a write that does get there changes nothing.
REWRITE_LIVELAB_JS = """async () => {
    let rewritten = 0;
    for (const n of await caches.keys()) { if (!n.startsWith('workbox-precache')) continue;
      const c = await caches.open(n); for (const r of await c.keys()) {
        if (!r.url.includes('/assets/livelab/livelab.js')) continue;
        const res = await c.match(r);
        await c.put(r, new Response("document.title='PWNED by a scratchpad run';"
          + await res.text(), {headers: res.headers}));
        rewritten += 1; } }
    return rewritten;
}"""
# Flip one byte in the middle of the precached copy of the file at a path (keeping its
# headers); resolves to how many entries were damaged.
DAMAGE = """async (path) => {
    let damaged = 0;
    for (const name of await caches.keys()) {
        if (!name.startsWith('workbox-precache')) continue;
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (new URL(request.url).pathname !== path) continue;
            const response = await cache.match(request);
            const bytes = new Uint8Array(await response.arrayBuffer());
            bytes[bytes.length >> 1] ^= 0xff;
            await cache.put(request, new Response(bytes, { headers: response.headers }));
            damaged += 1;
        }
    }
    return damaged;
}"""
# The SHA-256 (hex) of the first `size` bytes of the precached copy of a path (the precache's
# pyodide.asm.wasm has a custom section after the served bytes), or null if there is none.
PRECACHED_SHA256 = """async ([path, size]) => {
    for (const name of await caches.keys()) {
        if (!name.startsWith('workbox-precache')) continue;
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (new URL(request.url).pathname !== path) continue;
            const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
            const digest = await crypto.subtle.digest('SHA-256', bytes.slice(0, size));
            return Array.from(new Uint8Array(digest),
                (b) => b.toString(16).padStart(2, '0')).join('');
        }
    }
    return null;
}"""


def labs_work(page) -> None:
    page.get_by_label("q position").fill("2")
    expect(page.get_by_role("status", name=re.compile("score"))).to_have_text("0.84")


def not_pwned(page) -> None:
    """livelab.js ran (a lab is live, it mounts them) and it was the build's."""
    assert not PWNED.search(page.title()), page.title()


def built_file(site, path: str):
    target = site.site_dir / path.lstrip("/")
    return target / "index.html" if target.is_dir() else target


def assert_repaired(page, site, path: str) -> None:
    """The precache holds the build's bytes of path again."""
    data = built_file(site, path).read_bytes()
    sha = page.evaluate(PRECACHED_SHA256, [path, len(data)])
    assert sha == hashlib.sha256(data).hexdigest(), path


@pytest.mark.parametrize("host", ["site", "plain_site"])
def test_a_rewritten_precached_livelab_js_is_never_served(page, request, host):
    served = request.getfixturevalue(host)
    page.goto(served.url(LESSON))
    wait_live(page)
    precached(page)
    # Reload.
    assert page.evaluate(REWRITE_LIVELAB_JS) == 1
    page.reload()
    wait_live(page)
    not_pwned(page)
    labs_work(page)
    assert_repaired(page, served, LIVELAB_JS)
    # Another page.
    assert page.evaluate(REWRITE_LIVELAB_JS) == 1
    page.goto(served.url(OTHER_LESSON))
    lab_live(page, "modern-block")
    not_pwned(page)
    # A new tab.
    assert page.evaluate(REWRITE_LIVELAB_JS) == 1
    tab = page.context.new_page()
    tab.goto(served.url(LESSON))
    wait_live(tab)
    not_pwned(tab)
    labs_work(tab)
    assert_repaired(tab, served, LIVELAB_JS)
    tab.close()


def course_zip(site) -> str:
    manifest = json.loads((site.site_dir / "assets/livelab/manifest.json").read_text("utf-8"))
    return f"/assets/livelab/{manifest['archive']}"


DAMAGED = "the copy this browser kept for offline use is damaged"
# Each damaged file, and what names it offline: the lab's status line (Python's boot) or the
# alert at the top of the page (sw.js `unavailable`, livelab.builder.early).
FILES = {
    "pyodide.asm.wasm": "/assets/livelab/pyodide/pyodide.asm.wasm",
    "pyodide.asm.js": "/assets/livelab/pyodide/pyodide.asm.js",
    "python_stdlib.zip": "/assets/livelab/pyodide/python_stdlib.zip",
    "the course zip": None,  # named by the build: course_zip
    "client.js": "/assets/livelab/runtime/page/client.js",
    "a page": f"/{LESSON}",
}


def offline_message(page, name: str, path: str):
    """Where the page names the damaged file offline, and the words that must be there."""
    file = path.rstrip("/").rsplit("/", 1)[-1]
    status = page.locator('[data-lab="rope"] [data-status]')
    retry = "Check your connection, then press Retry."
    if name == "pyodide.asm.js":  # a script import: the boot cannot tell why it failed
        return status, f"Missing: {file}. {retry}"
    if name in ("pyodide.asm.wasm", "python_stdlib.zip", "the course zip"):
        return status, f"Missing: {file} ({DAMAGED}). {retry}"
    return page.get_by_role("alert"), (
        f"The site's file {path} could not be loaded: its copy kept for offline use is damaged, "
        "and a new copy could not be downloaded. Connect to the internet, then reload the page."
    )


@pytest.mark.parametrize(
    ("name", "host"), [(name, "site") for name in FILES] + [("pyodide.asm.wasm", "plain_site")]
)
def test_a_damaged_cached_file_is_fetched_again_and_offline_named(page, request, name, host):
    site = request.getfixturevalue(host)
    path = FILES[name] or course_zip(site)
    page.goto(site.url(LESSON))
    wait_live(page)
    precached(page)
    # A returning student's reload restores the snapshot, which needs less of the runtime
    # (Pyodide goes on without a standard library that did not come: boot.js must not).
    stored_snapshot(page)
    # Online: the page comes live, and the precache holds the build's copy again.
    assert page.evaluate(DAMAGE, path) == 1
    page.reload()
    wait_live(page)
    labs_work(page)
    assert_repaired(page, site, path)
    # Offline: the message names the file; back online, Retry (or a reload) brings it back.
    assert page.evaluate(DAMAGE, path) == 1
    page.context.set_offline(True)
    page.reload()
    where, text = offline_message(page, name, path)
    expect(where).to_contain_text(text, timeout=30_000)
    page.context.set_offline(False)
    if "Retry" in text:
        where.get_by_role("button", name="Retry").click()
    else:
        page.reload()
    wait_live(page)
    labs_work(page)
    assert_repaired(page, site, path)


# A sitemap.xml that sends instant navigation elsewhere: its copy in the precache lists a
# page of another site.
FORGE_SITEMAP = """async () => {
    for (const name of await caches.keys()) {
        if (!name.startsWith('workbox-precache')) continue;
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
            if (new URL(request.url).pathname !== '/sitemap.xml') continue;
            const response = await cache.match(request);
            const xml = (await response.text()).replace('</urlset>',
                '<url><loc>https://elsewhere.example/</loc></url></urlset>');
            await cache.put(request, new Response(xml, { headers: response.headers }));
            return true;
        }
    }
    return false;
}"""


def test_a_rewritten_precached_sitemap_is_not_served(page, site):
    # livelab serve moves the sitemap's addresses to where it is reached (serve.rewrite_sitemap),
    # so its copy is checked with them relative (sw.js `relocated`).
    page.goto(site.url(LESSON))
    wait_live(page)
    precached(page)
    assert page.evaluate(FORGE_SITEMAP)
    sitemap = page.evaluate("fetch('/sitemap.xml').then((r) => r.text())")
    assert "elsewhere.example" not in sitemap
    assert f"<loc>{site.url(LESSON)}</loc>" in sitemap
    page.context.set_offline(True)  # the build's copy was put back: served from the precache
    assert page.evaluate("fetch('/sitemap.xml').then((r) => r.text())") == sitemap

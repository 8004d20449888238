"""The service worker's precache list (livelab.builder.offline) and the sitemap rewrite."""

import base64
import hashlib
import json
from pathlib import Path

import pytest

from livelab.builder import offline
from livelab.builder.serve import rewrite_sitemap

TEMPLATE = "// the service worker's code\nself.addEventListener('fetch', () => {});\n"
SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc>http://127.0.0.1:8000/</loc></url>
    <url><loc>http://127.0.0.1:8000/level-19/modern-blocks/</loc></url>
</urlset>
"""
ASKED_FOR = {
    "index.html": "<h1>Home</h1>",
    "level-19/modern-blocks/index.html": "<h1>Lesson</h1>",
    "assets/livelab/pyodide/pyodide.asm.wasm": "\0asm",
    "assets/livelab/katex/fonts/KaTeX_Main-Regular.woff2": "woff2",
    "search/search_index.json": "{}",
    "sitemap.xml": SITEMAP,
}
NEVER_ASKED_FOR = {
    "404.html": "<h1>Not found</h1>",
    "sw.js": "an older service worker",
    "index.html.gz": "gzip",
    "assets/javascripts/bundle.js.map": "{}",
    "assets/javascripts/lunr/min/lunr.de.min.js": "German stemmer",
    "assets/livelab/katex/fonts/KaTeX_Main-Regular.ttf": "ttf",
    "assets/livelab/katex/fonts/KaTeX_Main-Regular.woff": "woff",
    "assets/livelab/workbox/workbox-sw.js": "loader",
}


def write_site(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def built(sw: Path) -> dict:
    """The BUILD object that sw.js starts with."""
    text = sw.read_text(encoding="utf-8")
    head, sep, _ = text.partition(";\n\n")
    assert sep and head.startswith("const BUILD = ")
    return json.loads(head.removeprefix("const BUILD = "))


@pytest.fixture
def site(tmp_path) -> Path:
    return write_site(tmp_path / "site", {**ASKED_FOR, **NEVER_ASKED_FOR})


def test_the_precache_lists_each_asked_for_file_once_pages_by_their_folder(site):
    urls = [entry.url for entry in offline.precache_entries(site)]
    assert sorted(urls) == sorted(
        [
            "./",
            "level-19/modern-blocks/",
            "assets/livelab/pyodide/pyodide.asm.wasm",
            "assets/livelab/katex/fonts/KaTeX_Main-Regular.woff2",
            "search/search_index.json",
            "sitemap.xml",
        ]
    )


def test_each_entry_carries_the_sha256_of_its_file(site):
    for entry in offline.precache_entries(site):
        rel = "index.html" if entry.url == "./" else entry.url
        rel = rel + "index.html" if rel.endswith("/") else rel
        digest = hashlib.sha256((site / rel).read_bytes())
        assert digest.hexdigest().startswith(entry.revision)
        assert len(entry.revision) == offline.REVISION_DIGITS
        if entry.url == "sitemap.xml":  # livelab serve rewrites it, so no fixed bytes
            assert entry.integrity is None
        else:
            assert entry.integrity == "sha256-" + base64.b64encode(digest.digest()).decode()


def test_the_service_worker_is_the_build_line_then_the_template(site, tmp_path):
    template = write_site(tmp_path, {"sw-template.js": TEMPLATE}) / "sw-template.js"
    sw = offline.write_service_worker(site, template, "http://127.0.0.1:8000/", "wb/")
    assert sw == site / "sw.js"
    assert sw.read_text(encoding="utf-8").endswith(TEMPLATE)
    build = built(sw)
    assert build["siteUrl"] == "http://127.0.0.1:8000/"
    assert build["workbox"] == "wb/"
    entries = offline.precache_entries(site)
    assert [e["url"] for e in build["precache"]] == [e.url for e in entries]
    sitemap = next(e for e in build["precache"] if e["url"] == "sitemap.xml")
    assert "integrity" not in sitemap
    assert build["sitemap"] == offline.sitemap_integrity(site)


def test_every_precached_file_but_the_sitemap_has_an_integrity_the_worker_checks(site):
    entries = offline.precache_entries(site)
    assert {e.url for e in entries if e.integrity is None} == {"sitemap.xml"}
    assert all(e.integrity.startswith("sha256-") for e in entries if e.integrity)


def test_the_sitemap_hash_holds_wherever_a_server_moved_its_addresses(site):
    expected = offline.sitemap_integrity(site)
    relative = rewrite_sitemap(SITEMAP, "")
    assert "<loc>level-19/modern-blocks/</loc>" in relative
    assert expected == offline.integrity_of(relative.encode())
    served = rewrite_sitemap(SITEMAP, "http://localhost:41234/")
    assert offline.integrity_of(rewrite_sitemap(served, "").encode()) == expected
    forged = SITEMAP.replace("modern-blocks/", "elsewhere/")
    assert offline.integrity_of(rewrite_sitemap(forged, "").encode()) != expected


def test_a_site_without_a_sitemap_has_no_sitemap_hash(site):
    (site / "sitemap.xml").unlink()
    assert offline.sitemap_integrity(site) is None


def test_an_integrity_is_the_base64_sha256_the_browser_checks():
    digest = base64.b64encode(hashlib.sha256(b"abc").digest()).decode()
    assert offline.integrity_of(b"abc") == f"sha256-{digest}"


def test_the_service_worker_changes_exactly_when_a_precached_file_does(site, tmp_path):
    template = write_site(tmp_path, {"sw-template.js": TEMPLATE}) / "sw-template.js"

    def written() -> str:
        return offline.write_service_worker(site, template, None, "wb/").read_text()

    first = written()
    assert written() == first
    (site / "404.html").write_text("<h1>Lost</h1>", encoding="utf-8")  # not precached
    assert written() == first
    (site / "level-19/modern-blocks/index.html").write_text("<h1>Lesson, v2</h1>")
    assert written() != first


def test_under_mkdocs_serve_the_service_worker_keeps_nothing(site, tmp_path):
    template = write_site(tmp_path, {"sw-template.js": TEMPLATE}) / "sw-template.js"
    sw = offline.write_service_worker(site, template, "http://127.0.0.1:8000/", "wb/", retire=True)
    assert built(sw) == {"retire": True}
    assert sw.read_text(encoding="utf-8").endswith(TEMPLATE)


def test_a_missing_service_worker_source_fails_the_build(site, tmp_path):
    with pytest.raises(offline.OfflineError, match="service worker source"):
        offline.write_service_worker(site, tmp_path / "nowhere.js", None, "wb/")


def test_workbox_builds_are_copied_and_a_missing_one_is_named(tmp_path):
    modules = tmp_path / "npm"
    for name, file in offline.WORKBOX_BUILDS.items():
        write_site(modules, {f"{name}-7/build/{file}": f"// {name}"})
    packages = {name: modules / f"{name}-7" for name in offline.WORKBOX_BUILDS}
    written = offline.install_workbox(packages, tmp_path / "out")
    assert sorted(p.name for p in written) == sorted(offline.WORKBOX_BUILDS.values())
    assert (tmp_path / "out/workbox-routing.prod.js").read_text() == "// workbox-routing"
    (modules / "workbox-routing-7/build/workbox-routing.prod.js").unlink()
    with pytest.raises(offline.OfflineError, match=r"workbox-routing\.prod\.js.*fetch-runtime"):
        offline.install_workbox(packages, tmp_path / "out")


def test_the_sitemap_lists_the_pages_at_the_address_it_is_served_at():
    moved = rewrite_sitemap(SITEMAP, "http://127.0.0.1:41234/")
    assert "<loc>http://127.0.0.1:41234/</loc>" in moved
    assert "<loc>http://127.0.0.1:41234/level-19/modern-blocks/</loc>" in moved
    assert "8000" not in moved
    assert moved.replace("41234", "8000") == SITEMAP


def test_a_site_built_under_a_folder_moves_to_the_root_it_is_served_at():
    xml = SITEMAP.replace("8000/", "8000/course/")
    moved = rewrite_sitemap(xml, "http://localhost:9000/")
    assert "<loc>http://localhost:9000/level-19/modern-blocks/</loc>" in moved


def test_a_sitemap_without_a_common_home_is_left_as_it_is():
    xml = SITEMAP.replace("http://127.0.0.1:8000/</loc>", "http://other.example/</loc>")
    assert rewrite_sitemap(xml, "http://127.0.0.1:41234/") == xml
    assert rewrite_sitemap("<urlset></urlset>", "http://x/") == "<urlset></urlset>"

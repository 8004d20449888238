"""The real build's service worker: at the site root, precaching every page and runtime file."""

import base64
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config

from livelab.builder import offline
from livelab.builder.check import build_course

ROOT = Path(__file__).resolve().parents[2]
SITE_URL = "http://127.0.0.1:41999/course/"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The course built for an address given by LIVELAB_SITE_URL, as the README says."""
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "LIVELAB_SITE_URL": SITE_URL}
    args = [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)]
    result = subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert result.returncode == 0, result.stderr
    return out


def service_worker_build(site: Path) -> dict:
    head = (site / "sw.js").read_text(encoding="utf-8").partition(";\n\n")[0]
    return json.loads(head.removeprefix("const BUILD = "))


def test_livelab_site_url_sets_the_sitemap_and_the_worker_rewrites_from_it(site):
    assert f"<loc>{SITE_URL}level-19/modern-blocks/</loc>" in (site / "sitemap.xml").read_text()
    assert service_worker_build(site)["siteUrl"] == SITE_URL


def test_the_worker_precaches_every_page_by_the_address_links_use(site):
    urls = {entry["url"] for entry in service_worker_build(site)["precache"]}
    for page in site.rglob("index.html"):
        folder = page.parent.relative_to(site).as_posix()
        assert ("./" if folder == "." else folder + "/") in urls


def test_the_worker_precaches_the_runtime_with_the_hash_of_each_file(site):
    runtime = site / "assets/livelab"
    manifest = json.loads((runtime / "manifest.json").read_text())
    wanted = [
        "manifest.json",
        manifest["archive"],
        "runtime/worker/worker.js",
        "runtime/page/client.js",
    ]
    wanted += [f"pyodide/{name}" for name in ("pyodide.asm.wasm", "python_stdlib.zip")]
    wanted += [f"pyodide/{manifest['numpy']}"]
    entries = {entry["url"]: entry for entry in service_worker_build(site)["precache"]}
    for rel in wanted:
        digest = hashlib.sha256((runtime / rel).read_bytes()).digest()
        entry = entries[f"assets/livelab/{rel}"]
        assert entry["integrity"] == "sha256-" + base64.b64encode(digest).decode()


def test_one_service_worker_at_the_root_with_its_workbox_builds(site):
    assert not (site / "assets/livelab" / offline.SW_NAME).exists()
    sw = (site / offline.SW_NAME).read_text(encoding="utf-8")
    assert "importScripts(`${BUILD.workbox}workbox-sw.js`)" in sw
    workbox = site / service_worker_build(site)["workbox"]
    assert sorted(p.name for p in workbox.glob("*.js")) == sorted(offline.WORKBOX_BUILDS.values())


def test_a_build_after_a_serve_startup_in_the_same_process_precaches(tmp_path):
    # MkDocs keeps a plugin that has on_startup for the whole process: once a `serve` startup
    # had set it to retire its service worker, every later build in that process did too.
    config = tmp_path / "mkdocs.yml"
    config.write_text(
        "site_name: Two builds\nmarkdown_extensions:\n  - pymdownx.superfences\n"
        "plugins:\n  - livelab\n",
        encoding="utf-8",
    )
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# One page\n\nSome prose.\n", encoding="utf-8")
    served = load_config(str(config), site_dir=str(tmp_path / "served"))
    served.plugins.on_startup(command="serve", dirty=False)
    build(served)
    assert service_worker_build(tmp_path / "served") == {"retire": True}

    build_course(config, tmp_path / "built", SITE_URL)
    built = service_worker_build(tmp_path / "built")
    assert "retire" not in built
    assert "./" in {entry["url"] for entry in built["precache"]}

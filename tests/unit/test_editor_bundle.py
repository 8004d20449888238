"""CodeMirror reaches the site as one committed ES module (livelab/web/editor/
codemirror.bundle.js), bundled by esbuild from the packages package-lock.json pins: rebuilt
from node_modules it is byte for byte the committed file, it exports exactly what editor.js
uses, it stays small, and the service worker precaches it (and not its licences)."""

from __future__ import annotations

import gzip
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from livelab.builder import offline
from livelab.builder.site_assets import ASSET_DIR, WEB_DIR

ROOT = Path(__file__).resolve().parents[2]
EDITOR = WEB_DIR / "editor"
BUNDLE = "codemirror.bundle.js"
LICENCES = "codemirror.bundle.licenses.txt"
ENTRY = ROOT / "tools/codemirror-entry.mjs"
GZIP_BUDGET = 160_000


def test_rebuilt_from_node_modules_the_bundle_and_its_licences_are_the_committed_files(tmp_path):
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed; rebuilding the editor bundle needs Node 20")
    if not (ROOT / "node_modules/esbuild").is_dir():
        pytest.skip("node_modules/ is absent: run `npm ci` (make test does) to check the bundle")
    result = subprocess.run(
        [node, "tools/bundle-editor.mjs", str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for name in (BUNDLE, LICENCES):
        assert (tmp_path / name).read_bytes() == (EDITOR / name).read_bytes(), (
            f"{name} differs from a fresh build: run `npm run bundle-editor` and commit it"
        )


def names(pattern: str, text: str) -> set[str]:
    """The names inside every {...} the pattern finds, `a: b` and `a as b` read as a."""
    found = set()
    for group in re.findall(pattern, text):
        for part in group.split(","):
            if part.strip():
                found.add(re.split(r"\s*:\s*|\s+as\s+", part.strip())[0])
    return found


def test_the_bundle_exports_exactly_what_the_editor_uses():
    editor = (EDITOR / "editor.js").read_text(encoding="utf-8")
    used = names(r"const \{([^}]*)\} = cm;", editor)
    exported = names(r"export \{([^}]*)\} from", ENTRY.read_text(encoding="utf-8"))
    assert used == exported
    assert "python" in used and "EditorView" in used
    assert re.findall(r"""import\(\s*["']([^"']+)""", editor) == [f"./{BUNDLE}"]
    assert not re.search(r"^import ", editor, re.MULTILINE)


def test_the_bundle_is_one_small_module_with_its_licences_beside_it():
    bundle = (EDITOR / BUNDLE).read_bytes()
    assert len(gzip.compress(bundle, compresslevel=9, mtime=0)) < GZIP_BUDGET
    head = bundle[:1000].decode("utf-8")
    licences = (EDITOR / LICENCES).read_text(encoding="utf-8")
    for package in ("@codemirror/view", "@lezer/python", "crelt", "style-mod"):
        assert f"{package}@" in head
        assert f"{package}@" in licences
    assert licences.count("Permission is hereby granted") >= 10


def test_the_bundle_is_precached_and_its_licences_are_not():
    assert not offline.skipped(f"{ASSET_DIR}/editor/{BUNDLE}")
    assert not offline.skipped(f"{ASSET_DIR}/editor/editor.js")
    assert offline.skipped(f"{ASSET_DIR}/editor/{LICENCES}")

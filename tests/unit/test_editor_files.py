"""The editor's npm packages: pinned as a consistent set, and copied into the site with each
bare import rewritten to a relative path, or the build stops saying which import it cannot
serve."""

from __future__ import annotations

import json
import posixpath
import re

import pytest

from livelab.builder import editor_files, fetch, offline
from livelab.builder.editor_files import EditorFileError, rewrite_imports
from livelab.builder.npm_packages import EDITOR_PACKAGES

TARGETS = {"@lezer/common": "../lezer-common/index.js", "crelt": "../crelt/index.js"}


def test_every_form_of_static_import_is_rewritten_and_nothing_else_changes():
    source = (
        "import { NodeProp, Tree as T$1 } from '@lezer/common';\n"
        'import {\n  a,\n  b\n} from "@lezer/common";\n'
        "import elt from 'crelt';\n"
        "import * as all from 'crelt' ;\n"
        "import 'crelt';\n"
        "export * from '@lezer/common';\n"
        "export { x as y } from 'crelt';\n"
        '/**\nDeclared in a grammar as `@context name from "module"`.\n'
        "import the rest from 'somewhere' in prose\n*/\n"
        "const text = \"import x from 'elsewhere'\";\n"
        "export { elt };\n"
    )
    assert rewrite_imports(source, TARGETS, "demo.js") == (
        "import { NodeProp, Tree as T$1 } from '../lezer-common/index.js';\n"
        'import {\n  a,\n  b\n} from "../lezer-common/index.js";\n'
        "import elt from '../crelt/index.js';\n"
        "import * as all from '../crelt/index.js' ;\n"
        "import '../crelt/index.js';\n"
        "export * from '../lezer-common/index.js';\n"
        "export { x as y } from '../crelt/index.js';\n"
        '/**\nDeclared in a grammar as `@context name from "module"`.\n'
        "import the rest from 'somewhere' in prose\n*/\n"
        "const text = \"import x from 'elsewhere'\";\n"
        "export { elt };\n"
    )


@pytest.mark.parametrize(
    ("source", "named"),
    [
        ("import { h } from '@lezer/highlight';\n", "'@lezer/highlight'"),
        ("import './helpers.js';\n", "'./helpers.js'"),
        ('export * from "lodash";\n', "'lodash'"),
        ("const m = await import('crelt');\n", "'crelt' at run time"),
    ],
)
def test_an_import_the_site_does_not_serve_stops_the_build_naming_file_and_import(source, named):
    with pytest.raises(EditorFileError) as info:
        rewrite_imports(source, TARGETS, "@codemirror/demo (dist/index.js)")
    message = str(info.value)
    assert "@codemirror/demo (dist/index.js)" in message
    assert named in message


def test_each_package_has_a_folder_of_its_own_in_the_site():
    folders = [editor_files.site_folder(name) for name in EDITOR_PACKAGES]
    assert editor_files.site_folder("@codemirror/lang-python") == "codemirror-lang-python"
    assert editor_files.site_folder("style-mod") == "style-mod"
    assert len(set(folders)) == len(folders)
    assert all(re.fullmatch(r"[a-z0-9-]+", folder) for folder in folders)


def test_a_scoped_package_is_downloaded_from_its_scoped_address_and_must_match_its_pin(
    tmp_path, monkeypatch
):
    good = fetch.Pin("@lezer/lr", "1.4.12", fetch.integrity_of(b"the real tarball"))
    monkeypatch.setattr(fetch, "pins", lambda: {"@lezer/lr": good})
    monkeypatch.setenv(fetch.REGISTRY_ENV, "https://npm.example/")
    asked: list[str] = []
    monkeypatch.setattr(fetch, "_download", lambda url: asked.append(url) or b"other bytes")
    with pytest.raises(fetch.AssetError) as info:
        fetch.package_dir("@lezer/lr", tmp_path)
    assert asked == ["https://npm.example/@lezer/lr/-/lr-1.4.12.tgz"]
    assert good.integrity in str(info.value)
    assert not (tmp_path / "npm" / "@lezer" / "lr-1.4.12").exists()


def caret_allows(spec: str, version: str) -> bool:
    """Whether version satisfies an npm range of the form ^X.Y.Z (the only form used here)."""
    found = re.fullmatch(r"\^(\d+)\.(\d+)\.(\d+)", spec)
    assert found, f"a range this test does not read: {spec}"
    low = tuple(map(int, found.groups()))
    have = tuple(map(int, version.split(".")))
    if low[0] > 0:
        return have[0] == low[0] and have >= low
    return have[:2] == low[:2] and have >= low


@pytest.fixture(scope="module")
def editor_packages():
    """The unpacked editor packages from the real cache (fetched if missing)."""
    cache = fetch.cache_root()
    return {name: fetch.package_dir(name, cache) for name in EDITOR_PACKAGES}


def test_the_pinned_versions_satisfy_every_dependency_of_every_editor_package(editor_packages):
    pins = fetch.pins()
    for name, folder in editor_packages.items():
        meta = json.loads((folder / "package.json").read_text(encoding="utf-8"))
        assert meta["version"] == pins[name].version
        for dependency, spec in meta.get("dependencies", {}).items():
            assert dependency in EDITOR_PACKAGES, f"{name} needs {dependency}, which is not pinned"
            assert caret_allows(spec, pins[dependency].version), (name, dependency, spec)


def test_the_installed_modules_import_only_each_other_and_keep_their_licences(
    tmp_path, editor_packages
):
    written = editor_files.install_editor(editor_packages, tmp_path)
    assert len(written) == 2 * len(EDITOR_PACKAGES)
    imported: set[str] = set()
    for name in EDITOR_PACKAGES:
        folder = tmp_path / editor_files.site_folder(name)
        licence = (folder / "LICENSE").read_text(encoding="utf-8")
        assert licence == (editor_packages[name] / "LICENSE").read_text(encoding="utf-8")
        for found in editor_files.STATIC_IMPORT.finditer((folder / "index.js").read_text()):
            target = posixpath.normpath(posixpath.join(folder.name, found["spec"]))
            assert (tmp_path / target).is_file(), (name, found["spec"])
            imported.add(target.split("/")[0])
    # Everything but the packages only the editor itself imports is somebody's dependency.
    assert imported >= {"codemirror-state", "lezer-common", "style-mod", "crelt", "w3c-keyname"}
    assert editor_files.install_editor(editor_packages, tmp_path) == written
    first = {path: path.read_bytes() for path in written}
    editor_files.install_editor(editor_packages, tmp_path)
    assert {path: path.read_bytes() for path in written} == first


def test_a_package_without_its_licence_or_its_module_stops_the_install(tmp_path, editor_packages):
    broken = tmp_path / "crelt"
    broken.mkdir()
    (broken / "package.json").write_text('{"name": "crelt", "module": "index.js"}')
    (broken / "index.js").write_text("export default function elt() {}\n")
    with pytest.raises(EditorFileError, match="crelt has no LICENSE"):
        editor_files.install_editor({**editor_packages, "crelt": broken}, tmp_path / "site")
    (broken / "index.js").unlink()
    with pytest.raises(EditorFileError, match="names no ES module"):
        editor_files.install_editor({**editor_packages, "crelt": broken}, tmp_path / "site")


def test_the_editor_modules_are_precached_and_their_licences_are_not():
    for name in EDITOR_PACKAGES:
        folder = f"assets/livelab/{editor_files.EDITOR_DIR}/{editor_files.site_folder(name)}"
        assert not offline.skipped(f"{folder}/index.js")
        assert offline.skipped(f"{folder}/LICENSE")
    assert not offline.skipped("assets/livelab/editor/editor.js")

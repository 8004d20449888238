"""CodeMirror in the site as plain ES modules: no bundler, no import map.

Each npm package of npm_packages.EDITOR_PACKAGES ships one ES module (its package.json's
`exports.import`), which imports its neighbours by bare name (`from '@codemirror/state'`).
A browser resolves a bare name only through an import map, and a page has one import map,
read before its first module loads: under instant navigation the page that was loaded
first keeps its map, and Zensical runs no plugin that could write one into every page. So
the build rewrites each bare name into a relative path instead, and the files work the
same under both builders, on any page, at any depth:

    assets/livelab/codemirror/codemirror-state/index.js    (+ LICENSE, from the package)
    assets/livelab/codemirror/codemirror-view/index.js     imports "../codemirror-state/index.js"

The rewrite knows only the pinned packages: any other import stops the build, naming the
file and the import, so a new CodeMirror version that needs one more package is noticed at
build time and not by a student whose editor does not load.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path

from livelab.builder.fetch import AssetError
from livelab.builder.npm_packages import EDITOR_PACKAGES

EDITOR_DIR = "codemirror"
"""The folder of the editor's modules inside assets/livelab/."""
MODULE = "index.js"
LICENSE = "LICENSE"

# A static import or re-export and its specifier, as Rollup writes them in the packages'
# builds: at the start of a line and ending in a semicolon. `import {a,\n b as c$1} from 'x';`,
# `import x from "x";`, `export * from 'x';`, `export {a} from 'x';`, `import 'x';`. The names
# between the keyword and `from` hold no quotes or semicolons, so a match never spans two
# statements, and prose in a doc comment ("declared as `@context name from "module"`") is
# no match.
STATIC_IMPORT = re.compile(
    r"""^[ \t]*(?:import|export)\b(?:[\w$\s{},*]*?\bfrom)?\s*"""
    r"""(?P<quote>["'])(?P<spec>[^"'\n]*)(?P=quote)(?=\s*;)""",
    re.MULTILINE,
)
# `import("x")` with a literal: the copied file is the package's only file, so a dynamic
# import of anything is a file the site does not have.
DYNAMIC_IMPORT = re.compile(r"""\bimport\s*\(\s*(?P<quote>["'`])(?P<spec>[^"'`\n]*)(?P=quote)""")


class EditorFileError(AssetError):
    """An editor module imports something the site does not serve, or a package lacks a file."""


def site_folder(name: str) -> str:
    """The folder of an npm package in the site: @codemirror/state -> codemirror-state."""
    return name.removeprefix("@").replace("/", "-")


def entry_module(package: Path) -> Path:
    """The ES module an `import` of the package loads, as its package.json names it."""
    meta = json.loads((package / "package.json").read_text(encoding="utf-8"))
    exports = meta.get("exports")
    entry = exports.get("import") if isinstance(exports, dict) else None
    entry = entry or meta.get("module")
    if not isinstance(entry, str) or not (package / entry).is_file():
        raise EditorFileError(
            f"The npm package {meta.get('name', package.name)} names no ES module this build "
            f"can copy (exports.import or module in {package / 'package.json'})."
        )
    return package / entry


def rewrite_imports(source: str, targets: Mapping[str, str], where: str) -> str:
    """source with each import's specifier replaced by targets[specifier].

    where names the file in the error raised when a specifier is not in targets (a bare
    name of a package that is not pinned, or a relative path to a file not copied).
    """

    def replace(match: re.Match[str]) -> str:
        spec = match["spec"]
        if spec not in targets:
            raise EditorFileError(
                f"{where} imports {spec!r}, which is not one of the editor's pinned npm "
                f"packages ({', '.join(sorted(targets))}). Pin it in runtime.lock.json and "
                "list it in livelab/builder/npm_packages.py EDITOR_PACKAGES."
            )
        head = match[0][: match.start("quote") - match.start()]
        return f"{head}{match['quote']}{targets[spec]}{match['quote']}"

    found = DYNAMIC_IMPORT.search(source)
    if found:
        raise EditorFileError(
            f"{where} imports {found['spec']!r} at run time; the build copies one module per "
            "package and cannot follow a dynamic import."
        )
    return STATIC_IMPORT.sub(replace, source)


def neighbour_targets(names: tuple[str, ...] = EDITOR_PACKAGES) -> dict[str, str]:
    """Bare name -> the path a module in one package folder imports the other one by."""
    return {name: f"../{site_folder(name)}/{MODULE}" for name in names}


def install_editor(packages: Mapping[str, Path], dest: Path) -> list[Path]:
    """Copy each editor package's ES module, imports rewritten, and its LICENSE into dest.

    packages maps each npm name of EDITOR_PACKAGES to its unpacked folder; returns the
    files written.
    """
    missing = [name for name in EDITOR_PACKAGES if name not in packages]
    if missing:
        raise EditorFileError(f"The editor's npm packages were not fetched: {', '.join(missing)}.")
    targets = neighbour_targets()
    written = []
    for name in EDITOR_PACKAGES:
        package = packages[name]
        module = entry_module(package)
        licence = package / LICENSE
        if not licence.is_file():
            raise EditorFileError(f"The npm package {name} has no {LICENSE} file in {package}.")
        folder = dest / site_folder(name)
        folder.mkdir(parents=True, exist_ok=True)
        text = rewrite_imports(module.read_text(encoding="utf-8"), targets, f"{name} ({module})")
        (folder / MODULE).write_text(text, encoding="utf-8")
        (folder / LICENSE).write_bytes(licence.read_bytes())
        written += [folder / MODULE, folder / LICENSE]
    return written

"""Which pinned npm packages the site serves, and which of their files.

package-lock.json pins every package by version and integrity, and livelab.builder.pins
writes runtime.lock.json (what the fetcher reads) from it; this module only groups them by
use, so the pins module knows what to write, livelab.builder.fetch what to fetch and the
installers what to copy. The tests' own npm tools are listed here too.
"""

from __future__ import annotations

# The files of the npm package `pyodide` that a browser needs to start it in a module worker.
CORE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
WORKBOX_PACKAGES = (
    "workbox-sw",
    "workbox-core",
    "workbox-precaching",
    "workbox-routing",
    "workbox-strategies",
)
# CodeMirror 6 with its Python mode, and everything their ES modules import: the scratchpad's
# editor (livelab/web/editor/editor.js). livelab.builder.editor_files copies one ES module of
# each into the site and checks that every import names a package of this list.
EDITOR_PACKAGES = (
    "@codemirror/state",
    "@codemirror/view",
    "@codemirror/language",
    "@codemirror/commands",
    "@codemirror/autocomplete",
    "@codemirror/lang-python",
    "@codemirror/streamparser",
    "@lezer/common",
    "@lezer/highlight",
    "@lezer/lr",
    "@lezer/python",
    "@marijn/find-cluster-break",
    "style-mod",
    "w3c-keyname",
    "crelt",
)
# What the site serves from npm, so what runtime.lock.json pins and the fetcher downloads.
RUNTIME_PACKAGES = ("pyodide", "katex", *WORKBOX_PACKAGES, *EDITOR_PACKAGES)
# What the tests use (tests/tools.py), so what tests/tools.lock.json pins.
TOOL_PACKAGES = ("axe-core",)

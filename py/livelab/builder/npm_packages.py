"""Which pinned npm packages the site serves, and which of their files.

runtime.lock.json pins every package by version and integrity; this module only groups
them by use, so livelab.builder.fetch knows what to fetch and the installers what to copy.
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

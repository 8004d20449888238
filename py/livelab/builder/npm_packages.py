"""Which pinned npm packages the site serves, and which of their files.

package-lock.json pins every package by version and integrity, and livelab.builder.pins
writes runtime.lock.json (what the fetcher reads) from it; this module only groups them by
use, so the pins module knows what to write, livelab.builder.fetch what to fetch and the
installers what to copy. CodeMirror is no runtime package: the site serves it as one bundle
committed beside the editor (livelab/web/editor/codemirror.bundle.js, `npm run
bundle-editor`), and its packages are in package-lock.json only as the bundle's source.
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
# What the site serves from npm, so what runtime.lock.json pins and the fetcher downloads.
RUNTIME_PACKAGES = ("pyodide", "katex", *WORKBOX_PACKAGES)
# What the tests use (tests/tools.py), so what tests/tools.lock.json pins.
TOOL_PACKAGES = ("axe-core",)

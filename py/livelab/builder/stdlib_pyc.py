"""Run inside Pyodide by bytecode.mjs, at build time: Pyodide's python_stdlib.zip with bytecode.

Pyodide ships its standard library as sources only, so every start compiles each module it
imports from the zip: in Node, 380 ms for the 112 that Pyodide's own start imports, and more
for what NumPy and our package import. A browser has no place to keep bytecode for a zip, so
every cold visit paid that, on the critical path before the first lab view.

This writes the zip again with each module imported by then (the caller has run the worker's
whole warm-up) as a .pyc in place of its .py: zipimport takes a .pyc with no source beside it
as it is. Every other entry is copied as it was. Dropping the sources keeps the download
close to the original (the .pyc files are larger than the sources); what is lost is the source
text of those modules' lines in a traceback, which no student sees (errors name the line in
the student's code only). Run as: `write_zip(source_zip, out_zip)`; returns the modules made.

The same run names the standard modules a visit imports beyond Pyodide's own start
(`preload(source_zip, started)`): the memory snapshot imports them before it copies the
interpreter (runtime/shared/snapshot.js reads them from manifest.json), so a restored boot
does not import them again.
"""

from __future__ import annotations

import importlib.util
import marshal
import sys
import zipfile

UNCHECKED_HASH_PYC = 0b01
"""A hash-based .pyc that is not checked against a source (there is none beside it)."""


def _imported_entries(prefix: str) -> set[str]:
    """The zip entries (like "json/__init__.py") of the modules imported from it so far."""
    entries = set()
    for module in list(sys.modules.values()):
        path = str(getattr(module, "__file__", None))
        if path.startswith(prefix) and path.endswith(".py"):
            entries.add(path[len(prefix) :])
    return entries


def preload(source_zip: str, started: frozenset[str]) -> list[str]:
    """The standard modules imported since Pyodide's start (started: sys.modules then) that a
    memory snapshot can hold: built into the interpreter, or pure Python from source_zip (not
    NumPy's, not ours or the course's, not one loaded from a .so file)."""
    builtin = set(sys.builtin_module_names)
    found = []
    for name, module in list(sys.modules.items()):
        path = str(getattr(module, "__file__", None))
        if name not in started and (name in builtin or path.startswith(source_zip + "/")):
            found.append(name)
    return sorted(found)


def _pyc(source: bytes, filename: str) -> bytes:
    code = compile(source, filename, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + UNCHECKED_HASH_PYC.to_bytes(4, "little")
    return header + importlib.util.source_hash(source) + marshal.dumps(code)


def write_zip(source_zip: str, out_zip: str) -> int:
    """Write out_zip: source_zip with the imported modules as .pyc; return how many."""
    compiled = _imported_entries(source_zip + "/")
    made = 0
    with zipfile.ZipFile(source_zip) as src, zipfile.ZipFile(out_zip, "w") as out:
        for info in src.infolist():
            data = src.read(info)
            if info.filename not in compiled:
                out.writestr(info, data, compress_type=info.compress_type)
                continue
            entry = zipfile.ZipInfo(info.filename[:-3] + ".pyc", date_time=info.date_time)
            # The same filename as when zipimport compiles the source, for tracebacks.
            pyc = _pyc(data, f"{source_zip}/{info.filename}")
            out.writestr(entry, pyc, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)
            made += 1
    return made

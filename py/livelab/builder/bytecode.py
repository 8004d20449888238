"""The .pyc files of a first visit, made at build time so that no visit compiles them.

A browser that boots with no .pyc files compiles NumPy's modules and ours from source: about
0.7 s of a first visit (in Node: imports 775 ms without them, 245 ms with; the first lab view
262 ms and 95 ms). Python 3.12's bytecode cannot come from the build's own Python, so Node
runs the runtime's Pyodide on `bytecode.mjs`, which makes the same files the worker makes and
stores after a first visit (runtime/worker/pycache.js). They go into the site gzipped, in one file
named by its content; manifest.json names it, and the worker writes them back before its
imports. Without Node the build says so and leaves them out: the first visit compiles them,
as before. The result is cached by everything it depends on.

The same run writes Pyodide's python_stdlib.zip again with the standard modules a visit
imports as bytecode (stdlib_pyc.py), and the site serves that zip in place of Pyodide's: a
cold visit no longer compiles them (bench/startup.py: a cold visit's first lab view went from
1.22x the bare Pyodide worker's time to 0.81x). It also names the standard modules a visit
imports beyond Pyodide's own start (stdlib_pyc.preload), which manifest.json gives the memory
snapshot to import before it copies the interpreter (runtime/shared/snapshot.js). Without
Node there is no such list: the snapshot then holds Pyodide's own start only, and a restored
boot imports the rest itself (from their sources, as there are no .pyc files either).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path

from livelab.builder.fetch import sha256_of

SCRIPT = Path(__file__).with_name("bytecode.mjs")
RUNTIME_JS = Path(__file__).parents[1] / "web" / "runtime"
PREFIX = "bytecode-"
SUFFIX = ".gz"
STDLIB = "python_stdlib.zip"
STDLIB_SUFFIX = ".stdlib.zip"
PRELOAD_SUFFIX = ".preload.json"
TIMEOUT_S = 300


def write_bytecode(
    out: Path, pyodide_dir: Path, wheel: Path, archive: Path, modules: Sequence[str], cache: Path
) -> dict[str, object] | None:
    """Write the gzipped .pyc files into out; return manifest.json's `bytecode` entry (with
    `preload`, the snapshot's standard modules), or None when there is no Node to make them
    with or it failed (the build says why)."""
    for old in out.glob(f"{PREFIX}*{SUFFIX}"):
        old.unlink()
    node = shutil.which("node")
    if node is None:
        print(
            "livelab: no `node` on PATH, so the site ships no .pyc files; a first visit "
            "compiles NumPy's and the course's Python itself (about 0.7 s longer), and the "
            "memory snapshot of later visits holds none of the standard modules they import",
            file=sys.stderr,
        )
        return None
    made = cache / "bytecode" / f"{_key(pyodide_dir, wheel, archive, modules)}{SUFFIX}"
    stdlib = made.with_suffix(STDLIB_SUFFIX)
    preload = made.with_suffix(PRELOAD_SUFFIX)
    if not (made.exists() and stdlib.exists() and preload.exists()):
        made.parent.mkdir(parents=True, exist_ok=True)
        packed = made.with_suffix(".tmp")
        args = [node, str(SCRIPT), str(pyodide_dir), str(wheel), str(archive)]
        outs = [str(packed), str(stdlib.with_suffix(".part")), str(preload.with_suffix(".part"))]
        done = subprocess.run(
            [*args, json.dumps(list(modules)), *outs],
            capture_output=True,
            text=True,
            timeout=TIMEOUT_S,
            check=False,
        )
        if done.returncode != 0 or not packed.exists():
            print(
                f"livelab: making the .pyc files with {node} failed, so the site ships none "
                f"(a first visit compiles them): {done.stderr.strip()[-2000:]}",
                file=sys.stderr,
            )
            return None
        data = gzip.compress(packed.read_bytes(), compresslevel=9, mtime=0)
        packed.unlink()
        stdlib.with_suffix(".part").replace(stdlib)
        preload.with_suffix(".part").replace(preload)
        made.with_suffix(".part").write_bytes(data)
        made.with_suffix(".part").replace(made)
    name = f"{PREFIX}{sha256_of(made)[:12]}{SUFFIX}"
    shutil.copyfile(made, out / name)
    shutil.copyfile(stdlib, pyodide_dir / STDLIB)
    return {
        "file": name,
        "size": _unzipped_size(made),
        "stdlib": _pycs_in(stdlib),
        "preload": json.loads(preload.read_text(encoding="utf-8")),
    }


def _pycs_in(path: Path) -> int:
    with zipfile.ZipFile(path) as stdlib:
        return sum(1 for name in stdlib.namelist() if name.endswith(".pyc"))


def _unzipped_size(path: Path) -> int:
    """The gzip member's own record of its uncompressed size (fine below 4 GB)."""
    return int.from_bytes(path.read_bytes()[-4:], "little")


def _key(pyodide_dir: Path, wheel: Path, archive: Path, modules: Sequence[str]) -> str:
    """A hash of everything the files depend on: the runtime, the wheel, the package, the
    course's modules, and the scripts that make them."""
    digest = hashlib.sha256()
    files = [
        *sorted(pyodide_dir.iterdir()),
        wheel,
        archive,
        SCRIPT,
        SCRIPT.with_name("stdlib_pyc.py"),
        *sorted(RUNTIME_JS.rglob("*.js")),
    ]
    for path in files:
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + sha256_of(path).encode())
    digest.update(json.dumps(list(modules)).encode())
    return digest.hexdigest()[:24]

"""The archive every visit downloads (livelab-<hash>.zip) holds what the browser's worker reads,
and nothing that only the build or the tests use.

A fresh CPython imports as the worker does, with nothing on its path but the archive's files,
NumPy and the standard library: livelab.worker_api and the course's modules (worker/boot.js),
livelab.set_aside (a runner, worker/worker.js), then clean_state, the warm-up that loads all
a call can reach, and every choice of every lab's params. An import the archive cannot answer
fails there; a file it never reads is build-only code riding along to every student.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy
import pytest
from mkdocs.config import load_config

import livelab
from livelab.builder import assets
from livelab.builder.course import import_course_modules

ROOT = Path(__file__).resolve().parents[2]
BUILD_ONLY = ("answers.py", "answer_text.py", "answer_lexicon.py", "answer_vector.py")

WORKER = """
import importlib, json, os, sys
root, numpy_dir, modules = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
read = set()
def note(event, args):
    path = str(args[0]) if event == "open" else ""
    if path.startswith(root) and "__pycache__" not in path:
        read.add(os.path.relpath(path, root))
sys.addaudithook(note)  # before clean_state, which refuses later hooks
sys.path[:0] = [root, numpy_dir]
api = importlib.import_module("livelab.worker_api")
for name in modules:
    importlib.import_module(name)
importlib.import_module("livelab.set_aside")
api.role_calls("runner")
# Without the package's folder, which would have it read (hash) every file of the archive.
api.clean_state()
# A choice a lab reads a file for when the student picks it (real_models: a model's config).
from livelab.labs import all_labs, lab_view
for name, lab in all_labs().items():
    for key, option in lab.params.items():
        for value, _label in option.choices:
            lab_view(name, {key: value})
for module in list(sys.modules.values()):
    path = getattr(module, "__file__", None) or ""
    if path.startswith(root):
        read.add(os.path.relpath(path, root))
print(json.dumps(sorted(read)))
"""


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Path:
    """The archive as the build writes it, with the course's modules named in mkdocs.yml."""
    config = load_config(str(ROOT / "mkdocs.yml"))
    names = config.plugins["livelab"].module_names(config)
    assert names == ["labs"]
    modules = import_course_modules(names, ROOT)
    out = tmp_path_factory.mktemp("assets")
    return assets.write_package_archive(Path(livelab.__file__).parent, out, modules)


def read_by_the_worker(files: Path, modules: list[str], tmp_path: Path) -> list[str]:
    """The archive's files (paths inside it) that a worker's imports and warm-up read."""
    only_numpy = tmp_path / "numpy-only"
    only_numpy.mkdir()
    installed = Path(numpy.__file__).parent
    for name in ("numpy", "numpy.libs"):  # NumPy's shared libraries sit beside it on Linux
        if (installed.parent / name).exists():
            (only_numpy / name).symlink_to(installed.parent / name)
    # -I -S: no PYTHONPATH, no site-packages, so neither this checkout nor any other package;
    # -B: no .pyc files written beside the archive's sources.
    args = [str(files), str(only_numpy), json.dumps(modules)]
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-B", "-c", WORKER, *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_the_archive_holds_no_build_only_code(archive):
    names = zipfile.ZipFile(archive).namelist()
    assert "livelab/worker_api.py" in names
    assert [n for n in names if n.startswith(("livelab/builder/", "livelab/web/"))] == []
    assert [n for n in names if n.rsplit("/", 1)[-1] in BUILD_ONLY] == []
    assert [n for n in names if "answer_vectors" in n or n.startswith("tests/")] == []
    assert [n for n in names if n.endswith(".cases.json")] == []  # replay data: build, tests


def test_no_file_in_the_archive_imports_the_build_package(archive):
    """Not even inside a function that only the build calls: it would fail in the browser."""
    with zipfile.ZipFile(archive) as zipped:
        sources = {n: zipped.read(n) for n in zipped.namelist() if n.endswith(".py")}
    upward = []
    for name, source in sources.items():
        for node in ast.walk(ast.parse(source, name)):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                targets = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            else:
                continue
            upward += [f"{name}:{node.lineno}" for t in targets if t.startswith("livelab.builder")]
    assert upward == []


def test_the_worker_finds_every_import_in_the_archive_and_reads_all_it_holds(archive, tmp_path):
    files = tmp_path / "opt-livelab"  # as worker/boot.js unpacks it into PACKAGE_DIR
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(files)
        names = sorted(zipped.namelist())
    modules = sorted({n.split("/")[0].removesuffix(".py") for n in names} - {"livelab"})
    assert modules == ["labs"]
    read = read_by_the_worker(files, modules, tmp_path)
    assert [name for name in names if name not in read] == []  # nothing rides along unread
    assert [name for name in read if name not in names] == []

"""builder/bytecode.py: a build without Node, or whose Node fails, ships no .pyc and says so."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from livelab.builder import bytecode


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = tmp_path / "out"
    pyodide = out / "pyodide"
    pyodide.mkdir(parents=True)
    (pyodide / "pyodide.mjs").write_text("export {};\n")
    wheel = pyodide / "numpy-0-py3-none-any.whl"
    wheel.write_bytes(b"wheel")
    archive = out / "livelab-0.zip"
    archive.write_bytes(b"archive")
    (out / "bytecode-old.gz").write_bytes(b"from the last build")
    return {"out": out, "pyodide": pyodide, "wheel": wheel, "archive": archive}


def make(files: dict[str, Path], cache: Path) -> dict | None:
    args = (files["pyodide"], files["wheel"], files["archive"], ["course"], cache)
    return bytecode.write_bytecode(files["out"], *args)


def test_without_node_the_site_ships_no_pyc_files_and_the_build_says_why(
    files, tmp_path, monkeypatch, capsys
):
    monkeypatch.setenv("PATH", str(tmp_path / "no-such-folder"))
    assert make(files, tmp_path / "cache") is None
    assert "no `node` on PATH" in capsys.readouterr().err
    assert not list(files["out"].glob("bytecode-*"))  # nor the last build's


def test_a_node_that_fails_ships_no_pyc_files_and_the_build_shows_its_error(
    files, tmp_path, monkeypatch, capsys
):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    node = bin_dir / "node"
    node.write_text("#!/bin/sh\necho 'SyntaxError: top-level await' >&2\nexit 1\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert make(files, tmp_path / "cache") is None
    err = capsys.readouterr().err
    assert "making the .pyc files" in err and "SyntaxError: top-level await" in err
    assert not list(files["out"].glob("bytecode-*"))

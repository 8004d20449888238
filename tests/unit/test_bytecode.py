"""The .pyc files the worker stores after its first boot and writes back on later boots."""

import importlib.util
import sys

import numpy as np

from livelab import worker_api


def load(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_pyc_is_what_python_imports_in_place_of_its_source(tmp_path, monkeypatch):
    source = tmp_path / "shapes.py"
    source.write_text("ANSWER = 6 * 7\n")
    where, data = worker_api.pyc(str(source))
    assert where == importlib.util.cache_from_source(str(source))
    (tmp_path / "__pycache__").mkdir(exist_ok=True)
    # The same source hash and header, but the code of another source: an import that ran
    # this bytecode gives 41, one that compiled the source again gives 42.
    other = tmp_path / "other.py"
    other.write_text("ANSWER = 41\n")
    _, other_data = worker_api.pyc(str(other))
    with open(where, "wb") as handle:
        handle.write(data[:16] + other_data[16:])
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert load("shapes", source).ANSWER == 41


def test_a_pyc_whose_source_changed_is_ignored(tmp_path, monkeypatch):
    source = tmp_path / "shapes.py"
    source.write_text("ANSWER = 41\n")
    where, data = worker_api.pyc(str(source))
    (tmp_path / "__pycache__").mkdir(exist_ok=True)
    with open(where, "wb") as handle:
        handle.write(data)
    source.write_text("ANSWER = 42\n")  # same size, and mtime not consulted: the hash differs
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    assert load("shapes", source).ANSWER == 42


def test_the_sources_cover_the_package_numpy_as_imported_and_the_warm_modules(tmp_path):
    package = tmp_path / "livelab"
    (package / "sub").mkdir(parents=True)
    for name in ("__init__.py", "sub/kernels.py", "notes.txt"):
        (package / name).write_text("")
    sources = worker_api.bytecode_sources(str(tmp_path))
    assert str(package / "sub" / "kernels.py") in sources
    assert str(package / "notes.txt") not in sources
    assert np.__file__ in sources
    for name in worker_api.WARM_MODULES:
        location = importlib.util.find_spec(name).submodule_search_locations[0]
        assert f"{location}/__init__.py" in sources
    assert not any("/tests/" in path for path in sources)

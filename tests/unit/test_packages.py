"""A course's extra Pyodide packages (issue 34): resolved with their dependencies from the
pinned Pyodide's lock, each file checked against the lock's sha256, and what code imports
mapped to the package the browser loads for it."""

import hashlib
import json
import re

import pytest

from livelab import figures
from livelab.builder import fetch, packages
from livelab.builder.downloads import AssetError


@pytest.fixture(scope="module")
def pyodide():
    return fetch.package_dir("pyodide", fetch.cache_root())


@pytest.fixture(scope="module")
def lock(pyodide):
    return json.loads((pyodide / "pyodide-lock.json").read_text(encoding="utf-8"))["packages"]


def test_matplotlib_comes_with_every_package_it_depends_on_but_numpy(lock):
    wanted = packages.resolve(["matplotlib"], lock)
    assert "matplotlib" in wanted and "numpy" not in wanted
    for key in wanted:
        assert set(lock[key]["depends"]) - {"numpy"} <= set(wanted), key
    assert {"pillow", "kiwisolver", "python-dateutil", "matplotlib-pyodide"} <= set(wanted)


def test_scipy_brings_its_blas_and_names_are_read_as_the_lock_writes_them(lock):
    assert packages.resolve(["SciPy"], lock) == ["openblas", "scipy"]
    assert packages.resolve(["python_dateutil"], lock) == ["python-dateutil", "six"]


def test_an_unknown_package_is_refused_with_the_closest_name(lock):
    with pytest.raises(packages.PackageError, match=re.escape("no package 'matplotlb'")) as raised:
        packages.resolve(["matplotlb"], lock)
    assert "did you mean 'matplotlib'" in str(raised.value)


def test_what_code_imports_names_the_package_to_load(lock):
    imports = packages.import_names(packages.resolve(["matplotlib"], lock), lock)
    assert imports["matplotlib"] == "matplotlib"
    assert imports["mpl_toolkits"] == "matplotlib"
    assert imports["PIL"] == "pillow"
    assert imports["dateutil"] == "python-dateutil"


def test_a_cached_file_that_is_not_the_locked_one_is_refused_naming_both_hashes(
    pyodide, lock, tmp_path
):
    entry = lock["cycler"]
    (tmp_path / entry["file_name"]).write_bytes(b"not cycler")
    with pytest.raises(AssetError) as raised:
        fetch.fetch_locked(pyodide, tmp_path, "cycler")
    said = str(raised.value)
    assert entry["file_name"] in said and entry["sha256"] in said
    assert hashlib.sha256(b"not cycler").hexdigest() in said


def test_a_run_that_never_imported_pyplot_has_no_figures():
    assert figures.take({"np": object()}) == ([], "")

"""Build and tests run the NumPy the browser runs, so a number checked here is the number shown."""

from pathlib import Path

import numpy as np

from livelab.builder import fetch

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_runs_the_numpy_that_pyodide_ships():
    browser = fetch.locked_wheel(fetch.package_dir("pyodide", fetch.cache_root()))
    assert np.__version__ == browser.version, (
        f"CPython runs NumPy {np.__version__}, Pyodide {fetch.PYODIDE_VERSION} runs "
        f"{browser.version}: install requirements.lock (make test does)"
    )


def test_the_lock_pins_that_numpy():
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    browser = fetch.locked_wheel(fetch.package_dir("pyodide", fetch.cache_root()))
    assert any(line.startswith(f"numpy=={browser.version} ") for line in lock)

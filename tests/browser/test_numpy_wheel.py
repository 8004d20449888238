"""NumPy's wheel on a first visit: downloaded, checked and unzipped on a thread of its own
(runtime/helper/wheel-worker.js), on the Pyodide worker's thread when that helper cannot start."""

from __future__ import annotations

import io
import re
import threading
from pathlib import Path
from typing import ClassVar

from playwright.sync_api import expect

from livelab.builder.serve import SiteHandler
from tests.browser.test_runtime import LESSON, boot_report, wait_live
from tests.browser.test_startup import served_with


class WithoutTheHelper(SiteHandler):
    """A host that answers 404 for the helper's script. (A route in the test does not see a
    worker's request for another worker's script.)"""

    def send_head(self):  # type: ignore[no-untyped-def]
        if self.path.split("?")[0].endswith("/runtime/helper/wheel-worker.js"):
            self.send_error(404)
            return None
        return super().send_head()


def score_for_position_2(page) -> None:
    page.get_by_label("q position").fill("2")
    expect(page.get_by_role("status", name=re.compile("score"))).to_have_text("0.84")


def test_a_first_visit_gets_numpy_on_a_thread_of_its_own(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    numpy = boot_report(page)["steps"]["numpy"]
    assert numpy == {"from": "wheel", "via": "network", "thread": "helper"}, numpy
    score_for_position_2(page)


def test_without_the_helper_the_worker_gets_numpy_itself(page, site):
    with served_with(site, WithoutTheHelper) as host:
        page.goto(host.url(LESSON))
        wait_live(page)
        numpy = boot_report(page)["steps"]["numpy"]
        assert numpy == {"from": "wheel", "via": "network", "thread": "worker"}, numpy
        score_for_position_2(page)


class DamagedWheel(SiteHandler):
    """Sends NumPy's wheel with one byte flipped, until told to send it whole."""

    repaired: ClassVar[threading.Event] = threading.Event()

    def send_head(self):  # type: ignore[no-untyped-def]
        path = self.path.split("?")[0]
        if not (path.endswith(".whl") and not self.repaired.is_set()):
            return super().send_head()
        body = bytearray(Path(self.translate_path(path)).read_bytes())
        body[len(body) // 2] ^= 0xFF
        self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(bytes(body))


def test_a_wheel_damaged_on_the_way_is_refused_and_retry_recovers(page, site):
    DamagedWheel.repaired.clear()
    with served_with(site, DamagedWheel) as host:
        page.goto(host.url(LESSON))
        status = page.locator('[data-lab="rope"] [data-status]')
        expect(status).to_contain_text("NumPy could not be downloaded", timeout=60_000)
        assert "does not match the sha256 in pyodide-lock.json" in boot_report(page)["detail"]
        DamagedWheel.repaired.set()
        status.get_by_role("button", name="Retry").click()
        expect(status).to_contain_text("Live", timeout=60_000)
        # The browser's cache kept the damaged copy: it was read, refused, and downloaded again.
        assert boot_report(page)["steps"]["numpy"]["via"] == "network"
        score_for_position_2(page)

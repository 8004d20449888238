"""Start-up: the memory snapshot and its fallback, a slow link, the loading line, stalls."""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from typing import ClassVar

import pytest
from playwright.sync_api import expect

from bench.startup import throttle
from livelab.builder.serve import SiteHandler, make_server, serve_in_thread
from tests.browser.conftest import PageLog
from tests.browser.test_runtime import (
    CLIENT,
    LESSON,
    LIVE,
    boot_report,
    run_in_runtime,
    wait_live,
)
from tests.harness import Site, block_until_lifted

CHAPTER = "level-19/worked-examples/"
SNAPSHOT = "/assets/livelab/runtime/shared/snapshot.js"
STALL = re.compile("Python could not start because its download stalled")

# Every standard module in sys.modules that did not come from the snapshot: what the preload
# misses. NumPy's, our package's and modules built from .so files cannot be in it.
MISSING_FROM_SNAPSHOT = """import sys
own = ("numpy", "livelab", "labs", "_cython", "cython_runtime")  # labs: the course, after NumPy
late = [n for n in sys.modules if n not in sys._livelab_from_snapshot
        and not n.startswith(own)
        and not (getattr(sys.modules[n], "__file__", None) or "").endswith(".so")]
print(sorted(late))"""


DRAW = "import random\nprint(random.random())"


def steps(page) -> dict:
    """Where each step of this tab's boot came from: the boot report's steps."""
    return boot_report(page)["steps"]


def settled(page, work: str, seconds: float) -> dict:
    """Wait until the boot report says the later `work` ("snapshot", "pycs", "numpy") ended;
    assert it holds no error and return it."""
    deadline = time.monotonic() + seconds
    while (value := boot_report(page)["later"][work]) is None and time.monotonic() < deadline:
        time.sleep(0.2)
    assert value is not None and "error" not in value, value
    return value


def stored_snapshot(page) -> dict:
    """Wait until this tab's helper worker stored its snapshot; return {bytes, ms}."""
    return settled(page, "snapshot", 60)


def stored_numpy(page) -> dict:
    """Wait until this tab stored NumPy's files; return {bytes, ms}."""
    return settled(page, "numpy", 30)


def lab_answers(page) -> None:
    page.get_by_label("q position").fill("2")
    expect(page.get_by_role("status", name=re.compile("score"))).to_have_text("0.84")


def test_a_second_load_restores_python_from_the_snapshot(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    # The cold boot made no snapshot: a helper worker made it once the page was live.
    report = boot_report(page)
    assert report["steps"]["interpreter"]["from"] == "fresh", report
    assert report["later"]["snapshot"] != {"skipped": True}, report
    numpy = report["steps"]["numpy"]
    assert (numpy["from"], numpy["via"]) == ("wheel", "network"), report
    stored = stored_snapshot(page)
    assert stored["bytes"] > 10_000_000
    report = boot_report(page)
    # Two interpreters in all: the page's, and the helper's once the page was live.
    assert [i["role"] for i in report["interpreters"]] == ["main", "snapshot"], report
    assert report["interpreters"][1]["at"] > report["readyAt"], report
    assert any(url.endswith("/runtime/helper/snapshot-worker.js") for url in page.log.workers)
    assert len(page.log.python_workers()) == 1, page.log.workers
    assert stored_numpy(page)["bytes"] > 5_000_000
    assert boot_report(page)["settled"]

    page.reload()
    wait_live(page)
    assert [i["role"] for i in boot_report(page)["interpreters"]] == ["main"]
    # NumPy's files came from the store (when they are ready is a speed matter for the
    # bench, not for a test: on a busy machine they may come after the interpreter); the
    # standard library still imports what the snapshot does not hold.
    got = steps(page)
    assert (got["interpreter"]["from"], got["numpy"]["from"]) == ("snapshot", "stored"), got
    assert run_in_runtime(page, "import fractions\nprint(fractions.Fraction(3, 6))") == "1/2\n"
    lab_answers(page)
    first_draw = run_in_runtime(page, DRAW)
    assert run_in_runtime(page, "print(np.arange(4).sum())") == "6\n"
    assert run_in_runtime(page, MISSING_FROM_SNAPSHOT) == "[]\n"
    # The random module's state came from the snapshot and is reseeded after each restore.
    page.reload()
    wait_live(page)
    assert steps(page)["interpreter"]["from"] == "snapshot"
    assert run_in_runtime(page, DRAW) != first_draw
    assert page.log.errors == []


DAMAGE = """async () => {
    const cache = await caches.open("livelab-python");
    const request = (await cache.keys()).find((r) => r.url.endsWith("snapshot.bin"));
    const response = await cache.match(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    bytes[bytes.length >> 1] ^= 0xff;
    await cache.put(request, new Response(bytes, { headers: response.headers }));
    return request.url;
}"""


def test_a_damaged_snapshot_is_dropped_and_python_starts_the_normal_way(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    stored_snapshot(page)
    assert page.evaluate(DAMAGE).endswith("snapshot.bin")

    page.reload()
    wait_live(page)
    report = boot_report(page)
    assert report["steps"]["interpreter"]["from"] == "fresh", report
    assert "hash" in report["steps"]["interpreter"]["why"], report
    assert report["later"]["snapshot"] != {"skipped": True}, report
    lab_answers(page)
    stored_snapshot(page)  # the damaged one was replaced

    page.reload()
    wait_live(page)
    assert steps(page)["interpreter"]["from"] == "snapshot"
    lab_answers(page)


def stored_pycs(page) -> dict:
    """Wait until this tab stored its .pyc files; return {files, bytes, ms}."""
    return settled(page, "pycs", 60)


class HoldingBoot(SiteHandler):
    """Answers runtime/worker/boot.js only once `released` is set; sets `asked` when asked for.

    The host holds it back, not a Playwright route: while a context routes requests, every
    fetch with cache "only-if-cached" fails in Chromium, and that is how a boot takes the
    build's .pyc files from the browser's cache.
    """

    asked: ClassVar[threading.Event] = threading.Event()
    released: ClassVar[threading.Event] = threading.Event()
    paths: ClassVar[list[str]] = []  # every request, in order

    def send_head(self):  # type: ignore[no-untyped-def]
        self.paths.append(self.path.split("?")[0])
        if (
            self.path.split("?")[0].endswith("/runtime/worker/boot.js")
            and not self.released.is_set()
        ):
            self.asked.set()
            self.released.wait(60)
        return super().send_head()


def test_a_reload_reads_what_was_stored_while_the_workers_own_modules_load(browser, site):
    HoldingBoot.released.set()
    # Service workers are blocked: the reload's requests reach the host and the page's log.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.log = PageLog(page)  # type: ignore[attr-defined]
    try:
        with served_with(site, HoldingBoot) as host:
            reload_while_boot_is_held(page, host)
    finally:
        HoldingBoot.released.set()
        context.close()


def reload_while_boot_is_held(page, host) -> None:
    page.goto(host.url(LESSON))
    wait_live(page)
    stored_snapshot(page)
    stored_numpy(page)
    cold = steps(page)
    if not cold["bytecode"]["files"]:  # the build's came too late for this boot, which made its own
        stored_pycs(page)
    HoldingBoot.asked.clear()
    HoldingBoot.released.clear()
    HoldingBoot.paths.clear()
    page.log.requests.clear()
    page.reload(wait_until="commit")
    # With boot.js held back, the worker's first lines have asked for Pyodide's own files.
    first = ("pyodide.asm.js", "pyodide.asm.wasm")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not (
        HoldingBoot.asked.is_set() and all(asked_for(page, name) for name in first)
    ):
        page.wait_for_timeout(100)
    assert HoldingBoot.asked.is_set(), page.log.requests
    assert all(asked_for(page, name) for name in first), page.log.requests
    HoldingBoot.released.set()
    wait_live(page)
    got = steps(page)
    # What it read or asked for early was taken by the boot: the snapshot, NumPy's files and
    # pyodide.asm.wasm (asked for once).
    assert sum(url.endswith("/pyodide.asm.wasm") for url in page.log.requests) == 1
    both = json.dumps({"cold": cold, "reload": got})  # in full, should an assert fail
    assert (got["interpreter"]["from"], got["numpy"]["from"]) == ("snapshot", "stored"), both
    # The build's (from the browser's cache now), or the ones the cold visit made and stored.
    assert got["bytecode"]["from"] == ("build" if cold["bytecode"]["files"] else "stored"), both
    assert got["bytecode"]["files"] > 100, both
    # Nothing asked the host for the build's: the boot found them in the browser's cache.
    assert [p for p in HoldingBoot.paths if "/bytecode-" in p] == [], both
    lab_answers(page)
    assert page.log.errors == []


def asked_for(page, name: str) -> bool:
    return any(url.endswith(f"/{name}") for url in page.log.requests)


# Whether a .pyc was where the import system looks for one of NumPy's and our modules (it
# compiles the source only when none is there, or when the .pyc does not match the source).
IMPORTED_FROM_PYC = """import os, sys
names = ("numpy", "numpy.linalg", "livelab.worker_api", "livelab.labs")
print([os.path.exists(sys.modules[n].__cached__) for n in names])"""

# Whether standard modules that Pyodide's start, NumPy and our package import were loaded
# from .pyc files in the zip (the build compiled them: livelab.builder.stdlib_pyc).
STDLIB_FROM_PYC = """import sys
print([sys.modules[n].__file__.endswith(".pyc") for n in ("typing", "json", "dataclasses")])"""


def test_a_first_visit_writes_back_the_pyc_files_the_build_made(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    bytecode = steps(page)["bytecode"]
    assert bytecode["from"] == "build" and bytecode["files"] > 100, bytecode
    lab_answers(page)
    assert run_in_runtime(page, IMPORTED_FROM_PYC) == "[True, True, True, True]\n"
    assert boot_report(page)["later"]["pycs"] == {"skipped": True}  # nothing compiled to store
    # The standard modules came from the bytecode in the site's python_stdlib.zip ...
    assert run_in_runtime(page, STDLIB_FROM_PYC) == "[True, True, True]\n"
    # ... and an error raised inside one still reads as before.
    error = run_in_runtime(page, 'import json\njson.loads("{")')
    assert error == (
        "JSONDecodeError: Expecting property name enclosed in double quotes: "
        "line 1 column 2 (char 1)"
    )
    assert page.log.errors == []


# The build's .pyc files kept from the worker, as from a build without Node or on a link too
# slow to fetch them in time: then the worker compiles and stores its own.
WITHOUT_BUILT_PYCS = "**/assets/livelab/bytecode-*.gz"


def damaged(route):
    response = route.fetch()
    body = bytearray(response.body())
    body[len(body) // 2] ^= 0xFF
    route.fulfill(response=response, body=bytes(body))


def test_a_damaged_pyc_file_from_the_build_is_left_out_and_the_modules_compile(page, site):
    page.context.route(WITHOUT_BUILT_PYCS, damaged)
    page.goto(site.url(LESSON))
    wait_live(page)
    bytecode = steps(page)["bytecode"]
    assert bytecode["from"] == "compile" and bytecode["files"] == 0, bytecode
    assert bytecode["why"], bytecode  # gzip's check of its bytes failed
    lab_answers(page)
    # Compiled and stored for the next boot (before any student code runs: that would stop it).
    assert stored_pycs(page)["files"] > 100
    # The scratchpad's worker, booted after they were stored, imports from them.
    assert run_in_runtime(page, IMPORTED_FROM_PYC) == "[True, True, True, True]\n"


def test_a_reload_writes_the_stored_pyc_files_back_before_importing(page, site):
    page.context.route(WITHOUT_BUILT_PYCS, lambda route: route.abort())
    page.goto(site.url(LESSON))
    wait_live(page)
    assert steps(page)["bytecode"]["files"] == 0
    stored = stored_pycs(page)
    assert stored["files"] > 20

    page.reload()
    wait_live(page)
    bytecode = steps(page)["bytecode"]
    assert bytecode == {"from": "stored", "files": stored["files"]}, bytecode
    lab_answers(page)
    assert run_in_runtime(page, IMPORTED_FROM_PYC) == "[True, True, True, True]\n"
    assert boot_report(page)["later"]["pycs"] == {"skipped": True}  # nothing to make again
    assert page.log.errors == []


DAMAGE_PYCS = """async () => {
    const cache = await caches.open("livelab-python");
    const request = (await cache.keys()).find((r) => r.url.endsWith("pycache.bin"));
    const response = await cache.match(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    bytes[bytes.length - 100] ^= 0xff;
    await cache.put(request, new Response(bytes, { headers: response.headers }));
}"""


def test_a_damaged_pyc_store_falls_back_to_a_normal_import(page, site):
    page.context.route(WITHOUT_BUILT_PYCS, lambda route: route.abort())
    page.goto(site.url(LESSON))
    wait_live(page)
    stored_pycs(page)
    page.evaluate(DAMAGE_PYCS)

    page.reload()
    wait_live(page)
    bytecode = steps(page)["bytecode"]
    assert bytecode["files"] == 0, bytecode
    assert "hash" in bytecode["why"]
    lab_answers(page)
    stored_pycs(page)  # the damaged store was replaced (before any student code: see makePycs)
    assert run_in_runtime(page, "print(np.arange(4).sum())") == "6\n"

    page.reload()
    wait_live(page)
    assert steps(page)["bytecode"]["files"] > 0
    lab_answers(page)


LOADING_LINE = re.compile(r"^Starting Python: downloading (\d+\.\d) of (\d+\.\d) MB$")
WATCH = f"""async () => {{
    const {{ runtime }} = await import("{CLIENT}");
    window.__states = [];
    runtime.addEventListener("status", (e) => window.__states.push(e.detail.state));
}}"""


def test_a_cold_load_at_1_5_mbit_goes_live_showing_the_bytes(page, site):
    throttle(page, 1.5)
    started = time.monotonic()
    page.goto(site.url(LESSON), timeout=120_000)
    page.evaluate(WATCH)
    line = page.get_by_role("status").filter(has_text="Starting Python")
    expect(line).to_have_text(LOADING_LINE, timeout=30_000)
    loaded, total = map(float, LOADING_LINE.match(line.inner_text()).groups())
    assert 0 <= loaded < total
    expect(page.locator('[data-lab="rope"]').get_by_text(re.compile("^Live:"))).to_be_visible(
        timeout=240_000
    )
    expect(line).to_have_count(0)
    assert page.evaluate("window.__states") == ["ready"], "the boot failed on the way"
    report = boot_report(page)
    progress = report["progress"]
    assert progress["loaded"] == progress["total"] > total * 1_000_000 * 0.9
    # Bytes were still arriving after the old fixed 60 s timeout would have fired.
    print(f"1.5 Mbit/s: {time.monotonic() - started:.1f} s, marks {report['marks']}")
    # The build's .pyc files would take longer to come than compiling them: not fetched.
    bytecode = report["steps"]["bytecode"]
    assert bytecode["from"] == "compile" and bytecode["files"] == 0, bytecode


def test_a_wasm_that_never_answers_times_out_and_retry_recovers(page, site):
    lift = block_until_lifted(page.context, "**/pyodide.asm.wasm", lambda route: None)  # unanswered
    page.goto(site.url(LESSON))
    lab = page.locator('[data-lab="rope"]')
    expect(lab.locator("[data-status]")).to_contain_text(STALL, timeout=60_000)
    expect(lab.locator("[data-status]")).to_contain_text("Check your connection, then press Retry.")
    lift()
    lab.get_by_role("button", name="Retry").click()
    wait_live(page)
    lab_answers(page)


class Stalling(SiteHandler):
    """Sends the first MB of pyodide.asm.wasm slowly, then nothing, until told to recover."""

    recovered: ClassVar[threading.Event] = threading.Event()
    bodies: ClassVar[Counter[str]] = Counter()  # path -> responses sent with a body

    def send_head(self):  # type: ignore[no-untyped-def]
        path = self.path.split("?")[0]
        if path.endswith("pyodide.asm.wasm") and not self.recovered.is_set():
            size = os.path.getsize(self.translate_path(path))
            self.send_response(200)
            self.send_header("Content-Type", "application/wasm")
            self.send_header("Content-Length", str(size))
            self.end_headers()
            try:
                for _ in range(16):
                    self.wfile.write(b"\0" * 65_536)
                    self.wfile.flush()
                    time.sleep(0.1)
            except OSError:
                return None  # the page gave up on this download
            self.recovered.wait(120)
            return None
        head = super().send_head()
        if head is not None:
            self.bodies[path] += 1
        return head


@contextlib.contextmanager
def served_with(site, handler) -> Iterator[Site]:
    """The built site served (isolated) by another request handler, for the block."""
    server = make_server(site.site_dir, port=0, isolated=True)
    server.RequestHandlerClass = functools.partial(handler, directory=str(site.site_dir))
    serve_in_thread(server)
    served = Site(server, site.site_dir, isolated=True)
    try:
        yield served
    finally:
        served.close()


@pytest.fixture
def stalling_site(site) -> Iterator[Site]:
    Stalling.recovered.clear()
    Stalling.bodies.clear()
    with served_with(site, Stalling) as served:
        yield served
        Stalling.recovered.set()


def test_a_download_that_stops_midway_times_out_and_retry_keeps_the_files(page, stalling_site):
    page.goto(stalling_site.url(LESSON))
    line = page.get_by_role("status").filter(has_text="Starting Python")
    expect(line).to_have_text(LOADING_LINE)  # bytes arrive for a while ...
    lab = page.locator('[data-lab="rope"]')
    expect(lab.locator("[data-status]")).to_contain_text(STALL, timeout=60_000)  # ... then stop
    Stalling.recovered.set()
    lab.get_by_role("button", name="Retry").click()
    wait_live(page)
    lab_answers(page)
    archive = next(p for p in Stalling.bodies if re.search(r"/livelab-\w+\.zip$", p))
    for path in (archive, "/assets/livelab/pyodide/python_stdlib.zip"):
        assert Stalling.bodies[path] == 1, f"{path} was downloaded again: {Stalling.bodies}"


class WrongWasmType(SiteHandler):
    """A host that serves .wasm files as application/octet-stream."""

    bodies: ClassVar[Counter] = Counter()
    extensions_map: ClassVar[dict] = {
        **SiteHandler.extensions_map,
        ".wasm": "application/octet-stream",
    }

    def send_head(self):  # type: ignore[no-untyped-def]
        head = super().send_head()
        if head is not None:
            self.bodies[self.path.split("?")[0]] += 1
        return head


def test_a_host_that_serves_wasm_under_another_type_still_boots_downloading_it_once(page, site):
    WrongWasmType.bodies.clear()
    with served_with(site, WrongWasmType) as host:
        page.goto(host.url(LESSON))
        wait_live(page)
        lab_answers(page)
        stored_snapshot(page)  # the helper worker starts its interpreter the same way
    assert WrongWasmType.bodies["/assets/livelab/pyodide/pyodide.asm.wasm"] == 1


# Subscribed after livelab.js, so it runs when the widgets' synchronous mounting is over: it
# notes whether Python was asked at once, and whether the lab showed a view before the frame.
WATCH_SWAP = """async ([client, lab]) => {
    const { runtime } = await import(client);
    window.__swap = null;
    document$.subscribe(() => {
        const el = document.querySelector(`[data-lab="${lab}"]`);
        if (!el) return;
        const swap = { asked: runtime.running !== null || runtime.queue.length > 0, shown: false };
        el.addEventListener("livelab:view", () => { swap.shown = true; }, { once: true });
        requestAnimationFrame(() => { window.__swap = swap; });
    });
}"""


def test_a_page_change_by_link_asks_python_as_soon_as_the_page_is_swapped_in(page, site):
    page.goto(site.url(CHAPTER))  # Python goes live here, for the block lab
    block = page.locator('[data-lab="modern-block"]')
    expect(block.get_by_text(LIVE)).to_be_visible(timeout=30_000)
    page.get_by_role("link", name="Home").first.click()
    expect(page).to_have_url(site.url(""))
    page.evaluate(WATCH_SWAP, [CLIENT, "rope"])
    page.get_by_role("link", name="Modern blocks").first.click()
    wait_live(page)
    # The labs' widgets were imported on the first page: they mount without waiting for
    # anything, so their first requests go out before the browser lays out the new page.
    assert page.evaluate("window.__swap.asked") is True
    lab_answers(page)
    assert len(page.log.python_workers()) == 1, page.log.workers


IDLE = """async (client) => {
    const { runtime } = await import(client);
    return runtime.state === "ready" && runtime.running === null && runtime.queue.length === 0;
}"""


def test_back_on_a_page_by_link_its_labs_show_their_views_before_the_first_frame(page, site):
    page.add_init_script(COUNT_VIEWS)
    page.goto(site.url(LESSON))
    page.wait_for_function(EVERY_LAB_VIEWED)
    page.get_by_role("link", name="Home").first.click()
    expect(page).to_have_url(site.url(""))
    page.evaluate(WATCH_SWAP, [CLIENT, "rope"])
    page.get_by_role("link", name="Modern blocks").first.click()
    wait_live(page)
    # Python made these views on the first visit: the tab remembers them, and shows them again
    # without a request, before the new page is first painted.
    assert page.evaluate("window.__swap") == {"asked": False, "shown": True}
    lab_answers(page)
    assert len(page.log.python_workers()) == 1, page.log.workers


# Every lab view the page asks the worker for, in order.
ASKED_VIEWS = """() => {
    window.__asked = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (message, ...rest) {
        if (message?.type === "call" && message.name === "lab") {
            window.__asked.push(JSON.stringify([message.args.kind, message.args.params]));
        }
        return post.call(this, message, ...rest);
    };
}"""


def test_back_on_a_page_before_its_labs_were_answered_asks_for_no_view_twice(page, site):
    page.add_init_script(f"({ASKED_VIEWS})()")
    page.goto(site.url(LESSON))
    expect(page.get_by_role("status").filter(has_text="Starting Python")).to_be_visible()
    # Counted here, on the lesson: right after the click back, the page may still be Home's,
    # whose 0 labs made a single view asked look like one too many (seen in CI).
    labs = page.locator(VIEWED_LABS).count()
    assert labs > 0
    page.get_by_role("link", name="Home").first.click()  # the labs' views are still awaited
    expect(page).to_have_url(site.url(""))
    page.get_by_role("link", name="Modern blocks").first.click()
    expect(page).to_have_url(site.url(LESSON))
    expect(page.locator(VIEWED_LABS)).to_have_count(labs)
    page.wait_for_function(f"window.__asked.length >= {labs}")
    page.wait_for_function(IDLE, arg=CLIENT)
    time.sleep(1)  # a request asked again would be sent within milliseconds of the others
    page.wait_for_function(IDLE, arg=CLIENT)
    asked = page.evaluate("window.__asked")
    assert len(asked) == labs, asked
    assert sorted(set(asked)) == sorted(asked), asked


DAMAGE_NUMPY = """async () => {
    const cache = await caches.open("livelab-python");
    const request = (await cache.keys()).find((r) => r.url.endsWith("numpy.bin"));
    const response = await cache.match(request);
    const bytes = new Uint8Array(await response.arrayBuffer());
    bytes[bytes.length - 100] ^= 0xff;
    await cache.put(request, new Response(bytes, { headers: response.headers }));
}"""


def test_damaged_stored_numpy_files_fall_back_to_the_cached_wheel(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    stored_numpy(page)
    page.evaluate(DAMAGE_NUMPY)

    page.reload()
    wait_live(page)
    numpy = steps(page)["numpy"]
    assert (numpy["from"], numpy["via"]) == ("wheel", "cache"), numpy
    assert "hash" in numpy["why"]
    lab_answers(page)
    assert run_in_runtime(page, "print(np.linalg.norm([3.0, 4.0]))") == "5.0\n"
    stored_numpy(page)  # the damaged store was replaced

    page.reload()
    wait_live(page)
    assert steps(page)["numpy"]["from"] == "stored"
    lab_answers(page)


# Counts each lab's views from the first page load on (the widgets dispatch one per reply).
COUNT_VIEWS = """
window.__views = {};
document.addEventListener("livelab:view", (event) => {
  const name = event.target.dataset.lab;
  window.__views[name] = (window.__views[name] ?? 0) + 1;
});
"""
# Labs that ask Python for a view when the page opens: every lab but one that runs, which asks
# nothing until the student presses Run (widgets/lab-run.js).
VIEWED_LABS = "[data-lab]:not([data-lab-runs])"
EVERY_LAB_VIEWED = f"""() => [...document.querySelectorAll("{VIEWED_LABS}")]
    .every((el) => window.__views[el.dataset.lab] > 0)"""


def test_each_lab_asks_python_for_its_first_view_once(page, site):
    page.add_init_script(COUNT_VIEWS)
    page.goto(site.url(LESSON))
    wait_live(page)
    page.wait_for_function(EVERY_LAB_VIEWED)
    time.sleep(2)  # a second request would follow the first within milliseconds
    views = page.evaluate("window.__views")
    assert len(views) > 1
    # The request sent while Python started is the one answered when it is ready.
    assert views == dict.fromkeys(views, 1), views


# Pyodide's private API missing (runtime/shared/pyodide-private.js): a pyodide.mjs whose
# loadPyodide drops the private options and whose interpreter hides _api and
# makeMemorySnapshot, as a later Pyodide might.
WITHOUT_PRIVATE_API = """
import { loadPyodide as load } from "./pyodide.mjs?unwrapped";
const HIDDEN = new Set(["_api", "makeMemorySnapshot"]);
export async function loadPyodide({ _loadSnapshot, _makeSnapshot, ...options }) {
  const pyodide = await load(options);
  return new Proxy(pyodide, { get: (t, k) => (HIDDEN.has(k) ? undefined : Reflect.get(t, k)) });
}
"""


def live_slowly(page) -> None:
    """Python live, given the time pyodide.loadPackage takes (NumPy unzipped by Python)."""
    rope = page.locator('[data-lab="rope"]')
    expect(rope.get_by_text(LIVE)).to_be_visible(timeout=120_000)


def without_private_api(route):
    route.fulfill(body=WITHOUT_PRIVATE_API, content_type="text/javascript")


def is_pyodide_module(url: str) -> bool:
    return url.endswith("/pyodide/pyodide.mjs")


def test_a_pyodide_without_the_private_api_still_boots_and_grades(browser, site):
    # No service worker: it would answer pyodide.mjs from its own copy, past the route.
    context = browser.new_context(service_workers="block")
    page = context.new_page()
    page.log = PageLog(page)  # type: ignore[attr-defined]
    try:
        context.route(is_pyodide_module, without_private_api)
        page.goto(site.url(LESSON))
        live_slowly(page)
        lab_answers(page)
        assert steps(page)["numpy"]["from"] == "loadPackage"
        assert run_in_runtime(page, "print(np.arange(4).sum())") == "6\n"
        report = boot_report(page)
        deadline = time.monotonic() + 60
        while report["later"]["snapshot"] is None and time.monotonic() < deadline:
            time.sleep(0.2)
            report = boot_report(page)
        assert "cannot make a memory snapshot" in report["later"]["snapshot"]["error"], report

        # A snapshot made by a Pyodide that can, then one that ignores _loadSnapshot.
        context.unroute(is_pyodide_module, without_private_api)
        page.reload()
        live_slowly(page)
        stored_snapshot(page)
        context.route(is_pyodide_module, without_private_api)
        page.reload()
        live_slowly(page)
        report = boot_report(page)
        interpreter = report["steps"]["interpreter"]
        assert interpreter == {"from": "fresh", "why": "this Pyodide did not restore the snapshot"}
        assert report["later"]["snapshot"] == {"skipped": True}, report  # none made for it
        lab_answers(page)
        assert page.log.errors == []
    finally:
        context.close()

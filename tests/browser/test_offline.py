"""Offline after one visit, at any address: the service worker, isolation on plain hosts,
instant navigation on another port, updates between visits, and what a cold visit downloads."""

import functools
import re
import shutil
import time
from collections import Counter
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

import pytest
from mkdocs.commands.build import build
from mkdocs.config import load_config
from playwright.sync_api import expect

from livelab.builder.check import build_course
from livelab.builder.kinds.numeric import NumericQuestion
from livelab.builder.serve import SiteHandler, serve_in_thread
from tests.browser.test_questions import answer_numeric, verdict
from tests.browser.test_runtime import LESSON, LIVE, boot_report, run_in_runtime, wait_live
from tests.browser.test_startup import stored_snapshot
from tests.harness import ROOT, Site, config_for_docs

OTHER_LESSON = "level-19/worked-examples/"
CORRECT = re.compile("^Correct")
# Resolves with the state of the site's service worker once it is activated (its precache is
# complete then), or "timeout" if none gets there within the time given.
ACTIVATED = """async (ms) => {
    const timeout = new Promise((resolve) => setTimeout(() => resolve("timeout"), ms));
    const activated = navigator.serviceWorker.ready.then(({ active }) =>
        active.state === "activated" ? "activated" : new Promise((resolve) =>
            active.addEventListener("statechange", () =>
                active.state === "activated" && resolve("activated"))));
    return Promise.race([activated, timeout]);
}"""
# Resolves with true once the site's service worker is gone: the retiring version that a
# `mkdocs serve` build writes has activated, which unregisters it.
RETIRED = """async (ms) => {
    const timeout = new Promise((resolve) => setTimeout(() => resolve(false), ms));
    const gone = async () => (await navigator.serviceWorker.getRegistration()) === undefined;
    const registration = await navigator.serviceWorker.getRegistration();
    if (!registration) return true;
    const { installing, waiting, active } = registration;
    const worker = installing || waiting || (active.state === "activating" ? active : null);
    const retiring = worker ? Promise.resolve(worker) : new Promise((resolve) =>
        registration.addEventListener("updatefound", () => resolve(registration.installing)));
    const activated = retiring.then((w) => w.state === "activated" || new Promise((resolve) =>
        w.addEventListener("statechange", () => w.state === "activated" && resolve())));
    return Promise.race([activated.then(gone), timeout]);
}"""
# Resolves with true once a new version of the service worker is installed and waiting.
NEW_VERSION_WAITING = """async (ms) => {
    const registration = await navigator.serviceWorker.getRegistration();
    const timeout = new Promise((resolve) => setTimeout(() => resolve(false), ms));
    const installed = (worker) => new Promise((resolve) => worker.addEventListener("statechange",
        () => worker.state !== "installing" && resolve(worker.state === "installed")));
    const found = registration.waiting ? Promise.resolve(true)
        : registration.installing ? installed(registration.installing)
        : new Promise((resolve) => registration.addEventListener(
            "updatefound", () => resolve(installed(registration.installing)), { once: true }));
    return Promise.race([found, timeout]);
}"""


def precached(page) -> None:
    """Wait until the page's service worker is active, so every file is in its precache."""
    assert page.evaluate(ACTIVATED, 60_000) == "activated"


def controlled(page) -> bool:
    return page.evaluate("navigator.serviceWorker.controller !== null")


def first_numeric(site, url) -> NumericQuestion:
    return next(q for q in site.questions[url] if isinstance(q, NumericQuestion))


def lab_live(page, lab) -> None:
    expect(page.locator(f'[data-lab="{lab}"]').get_by_text(LIVE)).to_be_visible(timeout=30_000)


# ---- offline after one visit -------------------------------------------------------------


def test_offline_a_lesson_reloads_with_a_live_lab_and_a_numeric_question_grades(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    precached(page)
    page.context.set_offline(True)
    page.reload()
    assert controlled(page)
    wait_live(page)
    page.get_by_label("q position").fill("2")
    expect(page.get_by_role("status", name=re.compile("score"))).to_have_text("0.84")
    q = first_numeric(site, LESSON)
    answer_numeric(page, q.id, q.answer_text)
    expect(verdict(page, q.id)).to_have_text(CORRECT)


def test_offline_instant_navigation_reaches_the_other_lesson_and_keeps_the_worker(page, site):
    page.goto(site.url(LESSON))
    wait_live(page)
    precached(page)
    page.context.set_offline(True)
    page.reload()
    wait_live(page)
    workers = len(page.log.python_workers())
    page.get_by_role("link", name="Worked examples and exercises").first.click()
    expect(page).to_have_url(site.url(OTHER_LESSON))
    lab_live(page, "modern-block")
    q = first_numeric(site, OTHER_LESSON)
    answer_numeric(page, q.id, q.answer_text)
    expect(verdict(page, q.id)).to_have_text(CORRECT)
    assert len(page.log.python_workers()) == workers, page.log.workers


WASM = "/assets/livelab/pyodide/pyodide.asm.wasm"


def test_a_first_visit_is_claimed_and_the_next_load_runs_python_from_the_precache(page, site):
    # Who asked for pyodide.asm.wasm (the page's Python worker or the snapshot helper, by the
    # script that asked), and whether the service worker answered.
    answered: list[tuple[str, bool]] = []

    def on_response(response) -> None:
        if response.url.endswith(WASM):
            asker = response.request.headers.get("referer", "").rsplit("/", 1)[-1]
            answered.append((asker, response.from_service_worker))

    page.on("response", on_response)
    page.goto(site.url(LESSON))
    wait_live(page)
    stored_snapshot(page)
    # The service worker takes the first visit's page without a reload, once it is active.
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=60_000)
    assert ("worker.js", False) in answered, answered
    # The next load runs Python from the service worker's copy, with the snapshot the helper
    # made, and starts no other interpreter.
    answered.clear()
    page.reload()
    wait_live(page)
    assert answered == [("worker.js", True)]
    report = boot_report(page)
    assert report["steps"]["interpreter"]["from"] == "snapshot"
    assert [i["role"] for i in report["interpreters"]] == ["main"], report


# ---- isolation and instant navigation at any address -------------------------------------


def test_a_host_without_isolation_headers_is_isolated_from_the_second_load(page, plain_site):
    page.goto(plain_site.url(LESSON))
    wait_live(page)
    assert not page.evaluate("crossOriginIsolated")
    precached(page)
    page.reload()
    assert page.evaluate("crossOriginIsolated")
    wait_live(page)
    workers = len(page.log.python_workers())
    message = run_in_runtime(page, "while True: pass", timeout_ms=1000)
    assert message.startswith("Timeout: Stopped")
    assert run_in_runtime(page, "print(6 * 7)") == "42\n"
    assert len(page.log.python_workers()) == workers  # interrupted in place, no restart


def test_at_another_port_than_site_url_a_nav_link_keeps_the_warm_worker(page, plain_site):
    # plain_site serves files built for another port; livelab serve answers sitemap.xml
    # with the address it is reached at.
    page.goto(plain_site.url(""))
    page.get_by_role("link", name="Modern blocks").first.click()
    expect(page).to_have_url(plain_site.url(LESSON))
    wait_live(page)
    assert len(page.log.python_workers()) == 1, page.log.workers


class StaticHandler(SimpleHTTPRequestHandler):
    """A host that sends files as they are: no isolation headers, no sitemap rewrite."""

    extensions_map = SiteHandler.extensions_map

    def log_message(self, format: str, *args) -> None:
        pass


@pytest.fixture
def static_host(site):
    handler = functools.partial(StaticHandler, directory=str(site.site_dir))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    serve_in_thread(server)
    host = Site(server, site.site_dir, isolated=False)
    yield host
    host.close()


def test_on_a_static_host_the_service_worker_points_the_sitemap_at_it(page, static_host):
    page.goto(static_host.url(""))
    precached(page)
    assert static_host.origin not in (static_host.site_dir / "sitemap.xml").read_text()
    page.goto(static_host.url(""))
    assert controlled(page)
    sitemap = page.evaluate("fetch('sitemap.xml').then((r) => r.text())")
    assert f"<loc>{static_host.url(LESSON)}</loc>" in sitemap
    workers = len(page.log.python_workers())
    page.get_by_role("link", name="Modern blocks").first.click()
    expect(page).to_have_url(static_host.url(LESSON))
    wait_live(page)
    assert len(page.log.python_workers()) == workers, page.log.workers


# ---- updates -----------------------------------------------------------------------------


def served_copy(tmp_path):
    """A copy of the course's pages, built and served by a plain static host."""
    docs = tmp_path / "docs"
    shutil.copytree(ROOT / "docs", docs)
    config = config_for_docs(docs)
    served = CountingServer(tmp_path / "site", isolated=False)
    host = Site(served, tmp_path / "site", isolated=False)
    build_course(config, host.site_dir, host.url())
    serve_in_thread(served)
    return docs, config, host, served


def test_a_changed_page_reaches_the_visit_after_next_without_mixing_builds(browser, tmp_path):
    docs, config, host, served = served_copy(tmp_path)
    news = "This course was rebuilt with a new sentence on its home page."
    context = browser.new_context()
    try:
        first = context.new_page()
        first.goto(host.url(LESSON))
        wait_live(first)
        precached(first)
        stored_snapshot(first)
        first.close()
        # A worker script fetched under the service worker (the snapshot helper's may be) makes
        # the browser check /sw.js once more when that worker is idle. Rebuild after such a
        # check: one that saw the new build would install it before the next visit, with no
        # page of the old version left to keep it waiting.
        served.wait_quiet("/sw.js", quiet=3, seconds=20)

        home = docs / "index.md"
        home.write_text(home.read_text(encoding="utf-8") + f"\n{news}\n", encoding="utf-8")
        build_course(config, host.site_dir, host.url())

        # The next visit still gets the build it was installed with, whole, while the new
        # version installs beside it and waits.
        second = context.new_page()
        second.goto(host.url(""))
        assert controlled(second)
        expect(second.get_by_role("main")).not_to_contain_text(news)
        assert second.evaluate(NEW_VERSION_WAITING, 60_000)
        second.goto(host.url(LESSON))
        wait_live(second)
        second.close()

        # With no page of the old version open, the new one takes over the next visit.
        third = context.new_page()
        third.goto(host.url(""))
        expect(third.get_by_role("main")).to_contain_text(news)
        third.get_by_role("link", name="Modern blocks").first.click()
        wait_live(third)
        third.get_by_label("q position").fill("2")
        expect(third.get_by_role("status", name=re.compile("score"))).to_have_text("0.84")
    finally:
        context.close()
        host.close()


def test_under_mkdocs_serve_an_earlier_build_is_no_longer_served(browser, tmp_path):
    docs, config_file, host, _ = served_copy(tmp_path)
    news = "This sentence was saved while mkdocs serve was running."
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(host.url(LESSON))
        wait_live(page)
        precached(page)

        home = docs / "index.md"
        home.write_text(home.read_text(encoding="utf-8") + f"\n{news}\n", encoding="utf-8")
        config = load_config(str(config_file), site_dir=str(host.site_dir), site_url=host.url())
        config.plugins.on_startup(command="serve", dirty=False)  # as `mkdocs serve` starts
        try:
            build(config)
        finally:
            config.plugins.on_shutdown()

        page.goto(host.url(""))  # the browser checks sw.js and finds the retiring version
        assert page.evaluate(RETIRED, 30_000)
        page.reload()
        expect(page.get_by_role("main")).to_contain_text(news)
        assert not controlled(page)
    finally:
        context.close()
        host.close()


# ---- what a cold visit downloads ---------------------------------------------------------


class CountingHandler(SiteHandler):
    """SiteHandler that records each response: [path, status, Content-Length]."""

    def send_response(self, code, message=None) -> None:
        self.response = [self.path.split("?")[0], int(code), 0]
        self.server.responses.append(self.response)
        super().send_response(code, message)

    def send_header(self, keyword: str, value: str) -> None:
        if keyword.lower() == "content-length":
            self.response[2] = int(value)
        super().send_header(keyword, value)


class CountingServer(ThreadingHTTPServer):
    """The site as `make serve` serves it (isolated unless told), recording every response."""

    daemon_threads = True

    def __init__(self, site_dir, isolated: bool = True) -> None:
        handler = functools.partial(CountingHandler, directory=str(site_dir))
        super().__init__(("127.0.0.1", 0), handler)
        self.isolated = isolated
        self.responses: list[list] = []

    def wait_quiet(self, path: str, quiet: float, seconds: float) -> None:
        """Until path has not been asked for in `quiet` seconds, or seconds have passed."""
        deadline = time.monotonic() + seconds
        count, since = -1, time.monotonic()
        while time.monotonic() < deadline:
            now = sum(1 for answered, _, _ in self.responses if answered == path)
            if now != count:
                count, since = now, time.monotonic()
            elif time.monotonic() - since >= quiet:
                return
            time.sleep(0.1)


def file_size(site_dir, path: str) -> int:
    target = site_dir / path.lstrip("/")
    return (target / "index.html" if target.is_dir() else target).stat().st_size


def test_a_cold_visit_downloads_each_file_once_and_a_second_visit_nothing(page, site):
    server = CountingServer(site.site_dir)
    serve_in_thread(server)
    host = Site(server, site.site_dir, isolated=True)
    try:
        page.goto(host.url(LESSON))
        wait_live(page)
        precached(page)
        cold = list(server.responses)
        bodies = Counter(path for path, status, _ in cold if status == 200)
        assert [path for path, count in bodies.items() if count > 1] == []
        assert bodies["/assets/livelab/pyodide/pyodide.asm.wasm"] == 1
        wire = sum(size for _, status, size in cold if status == 200)
        raw = sum(file_size(site.site_dir, path) for path in bodies)
        revalidated = sum(1 for _, status, _ in cold if status == 304)
        start = next(i for i, (path, _, _) in enumerate(cold) if path == "/sw.js")
        added = [size for _, status, size in cold[start:] if status == 200]
        print(
            f"\ncold visit: {len(bodies)} files, {wire:,} bytes sent, {raw:,} unpacked; "
            f"the service worker added {len(added)} files, {sum(added):,} bytes sent, "
            f"and revalidated {revalidated} (304)"
        )

        page.reload()
        wait_live(page)
        warm = server.responses[len(cold) :]
        assert [path for path, status, _ in warm if status == 200] == []
    finally:
        host.close()

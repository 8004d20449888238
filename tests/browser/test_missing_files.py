"""A file the server does not have is named as missing there, not blamed on the connection
(issue 30 §5), whichever way the boot asks for it: our fetch (the manifest, the course's
code), Pyodide's own fetch (python_stdlib.zip), an import (pyodide.asm.js), the NumPy wheel's
thread, or the worker's own scripts. Another error status says the status; once the file is
back, Retry starts Python."""

import pytest
from playwright.sync_api import expect

from tests.harness import block_until_lifted

LAB = '[data-lab="rope"] [data-status]'
ASSETS = "/assets/livelab/"
CONNECTION = "Check your connection"


def answered(status: int):
    return lambda route: route.fulfill(status=status, body="")


def served_name(site, pattern: str) -> str:
    """The one file of the built site under assets/livelab/ that pattern names."""
    found = [p for p in (site.site_dir / ASSETS.strip("/")).rglob(pattern) if p.is_file()]
    assert len(found) == 1, found
    return "/" + found[0].relative_to(site.site_dir).as_posix()


@pytest.mark.parametrize(
    ("host_name", "pattern"),
    [
        ("site", "manifest.json"),
        ("site", "livelab-*.zip"),
        ("site", "python_stdlib.zip"),
        ("site", "pyodide.asm.js"),
        ("site", "numpy-*.whl"),
        ("plain_site", "python_stdlib.zip"),
        ("site", "worker.js"),  # the worker's own script
        ("site", "boot.js"),  # a module the worker imports once it runs
    ],
)
@pytest.mark.cold  # answers downloads in its context
def test_a_file_missing_on_the_server_is_named_and_retry_starts_once_it_is_back(
    page, request, host_name, pattern
):
    host = request.getfixturevalue(host_name)
    path = served_name(host, pattern)
    lift = block_until_lifted(page.context, f"**{path}", answered(404))
    page.goto(host.url("level-19/modern-blocks/"))
    status = page.locator(LAB)
    expect(status).to_contain_text(
        f"Python could not start because the file {path} is missing on the server "
        "(it answered 404). The site is incomplete: tell whoever runs it.",
        timeout=60_000,
    )
    expect(status).not_to_contain_text(CONNECTION)
    lift()
    status.get_by_role("button", name="Retry").click()
    expect(status).to_contain_text("Live", timeout=60_000)


@pytest.mark.cold
def test_another_error_status_is_named_with_the_file(page, site):
    path = served_name(site, "livelab-*.zip")
    block_until_lifted(page.context, f"**{path}", answered(500))
    page.goto(site.url("level-19/modern-blocks/"))
    expect(page.locator(LAB)).to_contain_text(
        f"Python could not start because the server answered 500 for the file {path}. "
        "Press Retry; if it fails again, tell whoever runs the site.",
        timeout=60_000,
    )

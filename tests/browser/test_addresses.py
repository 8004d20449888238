"""Every address of a page is that page, on both kinds of host, online and offline: with a query,
as its index.html, with a doubled slash at the start or in the middle, without its last slash.

Issue 30 §5: offline, `?ref=…` and `index.html` showed the browser's error page;
`//level-19/modern-blocks/` kept progress under another key and failed to register the service
worker; `level-19//modern-blocks/` loaded unstyled and dead, with no message.
(livelab/web/address.js holds the rule; sw.js redirects, each page's first script moves.)
"""

import re

import pytest
from playwright.sync_api import expect

from labs import rope
from tests.browser.test_offline import first_numeric, precached, static_host
from tests.browser.test_questions import answer_numeric, verdict
from tests.browser.test_runtime import LESSON, wait_live

__all__ = ["static_host"]  # the plain static host, a fixture of test_offline.py

CORRECT = re.compile("^Correct")
HOSTS = ["site", "static_host"]  # cross-origin isolated by its headers; a host sending none
# (the address after the origin, the address the page shows then)
OFFLINE = [
    (f"/{LESSON}?ref=x", f"/{LESSON}?ref=x"),
    (f"/{LESSON}index.html", f"/{LESSON}"),
    (f"//{LESSON}", f"/{LESSON}"),
    ("/" + LESSON.replace("/", "//", 1), f"/{LESSON}"),
    (f"/{LESSON.rstrip('/')}", f"/{LESSON}"),
]
DOUBLED = [f"//{LESSON}", "/" + LESSON.replace("/", "//", 1)]
# Whether each stylesheet the page links to has loaded.
STYLED = "[...document.querySelectorAll('link[rel=stylesheet]')].map((l) => l.sheet !== null)"
PROGRESS_KEYS = "Object.keys(localStorage).filter((k) => k.startsWith('livelab-progress:'))"


def score(page):
    return page.get_by_role("status", name=re.compile("score"))


SAVED_K = """k => Object.entries(localStorage).some(([key, text]) =>
    key.startsWith('livelab-progress:') && text.includes(`"k_pos":${k}`))"""


def set_k(page, k: int) -> None:
    """Put the RoPE lab at q = 2 and k = k, see Python's score for it, and wait until the
    position is saved (the lab saves what Python accepted, after the view is drawn)."""
    page.get_by_label("q position").fill("2")
    page.get_by_label("k position").fill(str(k))
    expect(score(page)).to_have_text(rope.view(rope.LAB.compute(q_pos=2, k_pos=k))["text"]["score"])
    page.wait_for_function(SAVED_K, arg=k, timeout=15_000)


@pytest.mark.parametrize("host_name", HOSTS)
def test_offline_every_address_of_a_page_shows_it_live_with_its_saved_progress(
    page, request, host_name
):
    host = request.getfixturevalue(host_name)
    q = first_numeric(request.getfixturevalue("site"), LESSON)
    page.goto(host.url(LESSON))
    wait_live(page)
    answer_numeric(page, q.id, q.answer_text)
    expect(verdict(page, q.id)).to_have_text(CORRECT)
    set_k(page, 0)
    precached(page)
    page.context.set_offline(True)
    for k, (address, shown) in enumerate(OFFLINE, start=1):
        page.goto(host.origin + address)
        expect(page).to_have_url(host.origin + shown)
        wait_live(page)
        expect(verdict(page, q.id)).to_have_text(CORRECT)  # the answer given at the page's own
        expect(page.get_by_label("k position")).to_have_value(str(k - 1))  # the last address's
        set_k(page, k)
        styled = page.evaluate(STYLED)
        assert styled and all(styled), (address, styled)
    assert page.evaluate(PROGRESS_KEYS) == ["livelab-progress:/"]


@pytest.mark.parametrize("address", DOUBLED)
@pytest.mark.parametrize("host_name", HOSTS)
def test_a_first_visit_at_a_doubled_slash_moves_to_the_page_and_works(
    page, request, host_name, address
):
    host = request.getfixturevalue(host_name)
    q = first_numeric(request.getfixturevalue("site"), LESSON)
    page.goto(host.origin + address)
    expect(page).to_have_url(host.url(LESSON))
    wait_live(page)
    styled = page.evaluate(STYLED)
    assert styled and all(styled), styled
    answer_numeric(page, q.id, q.answer_text)
    expect(verdict(page, q.id)).to_have_text(CORRECT)
    precached(page)  # the service worker registered, for the whole site
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == host.url("sw.js")
    page.goto(host.url(LESSON))
    expect(verdict(page, q.id)).to_have_text(CORRECT)
    assert page.evaluate(PROGRESS_KEYS) == ["livelab-progress:/"]

"""Every page of the built course, loaded as a student would: no errors, one origin, math set."""

from playwright.sync_api import expect


def test_the_course_has_pages(site):
    assert "" in site.pages and len(site.pages) >= 2


def test_every_page_loads_without_errors_or_foreign_requests(page, site):
    for url in sorted(site.pages):
        page.goto(site.url(url))
        page.wait_for_load_state("networkidle")
        if page.locator(".arithmatex").count():
            expect(page.locator(".arithmatex .katex").first).to_be_visible()
            expect(page.locator(".arithmatex:not([data-typeset])")).to_have_count(0)
    foreign = [
        u
        for u in page.log.requests
        if not u.startswith(site.origin) and not u.startswith(("data:", "blob:"))
    ]
    assert foreign == []
    assert page.log.errors == []

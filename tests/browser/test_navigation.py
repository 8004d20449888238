"""A student's way through the course: start on the home page, Next to the end and back home;
the guides for course authors are reachable from the home page but stay out of that way."""

import re

import pytest
from playwright.sync_api import expect

# One browser profile for the file: a student coming back (conftest.py `page`).
pytestmark = pytest.mark.warm

LESSON = "level-19/modern-blocks/"
CHAPTER = "level-19/worked-examples/"
AUTHOR_PAGES = ("Authoring guide", "Use livelab in your course")


def named(title):
    """A link to a page by its title, as a sentence may spell it ("the authoring guide")."""
    return re.compile(f"^{re.escape(title)}$", re.IGNORECASE)


def next_link(page):
    return page.get_by_role("contentinfo").get_by_role("link", name=re.compile(r"^Next\b"))


def test_the_home_page_starts_level_19(page, site):
    page.goto(site.url(""))
    page.get_by_role("main").get_by_role("link", name="Start level 19").click()
    expect(page).to_have_url(site.url(LESSON))
    expect(page.get_by_role("heading", level=1)).to_contain_text("Level 19")


def test_next_walks_the_course_and_the_last_page_leads_back_home(page, site):
    page.goto(site.url(""))
    visited = []
    for _ in range(len(site.pages) + 1):
        before = page.url
        next_link(page).click()
        # Material's instant navigation swaps the page without a new load: wait for the
        # address to change, as a student waits for the next page to show.
        page.wait_for_url(lambda url, before=before: url != before)
        page.wait_for_load_state()
        visited.append(page.url.removeprefix(site.url("")))
        if visited[-1] == "":
            break
    assert visited == [LESSON, CHAPTER, ""]
    page.goto(site.url(CHAPTER))
    expect(next_link(page)).to_have_accessible_name(re.compile(r"^Next:?\s*Home$"))


def test_the_author_pages_are_linked_from_home_but_not_in_the_student_navigation(page, site):
    page.set_viewport_size({"width": 1400, "height": 900})  # the sidebar shows from 1220 px
    for url in ("", LESSON, CHAPTER):
        page.goto(site.url(url))
        sidebar = page.get_by_role("navigation", name="Navigation")
        expect(sidebar.get_by_role("link", name="Worked examples and exercises")).to_be_visible()
        for name in AUTHOR_PAGES:
            expect(page.get_by_role("link", name=named(name))).to_have_count(1 if url == "" else 0)
    page.goto(site.url(""))
    for name in AUTHOR_PAGES:
        page.get_by_role("main").get_by_role("link", name=named(name)).click()
        heading = page.get_by_role("heading", level=1)
        expect(heading).to_have_text(re.compile(f"^{re.escape(name)}"))
        page.go_back()

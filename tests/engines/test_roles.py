"""roles.js (how the Firefox and WebKit drivers find elements) against Playwright's get_by_role.

On every page of the course, in Chromium, for every role the tests use: roles.js must find
the same elements, in the same order, as get_by_role, and give each the accessible name
Chromium computes. So a cross-engine test finds on Firefox and WebKit what the Chromium tests
would find.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from tests.engines.chromium import ChromiumTab
from tests.engines.engines import launched
from tests.engines.tab import ROLES_JS

ROLES = (
    "button", "slider", "spinbutton", "textbox", "radio", "checkbox", "status", "link",
    "radiogroup", "group", "img", "heading", "note", "navigation",
)  # fmt: skip
MARK = f"""(query) => {{
    const found = ({ROLES_JS})(query);
    found.forEach((el, i) => {{ el.dataset.rolesMark = `${{query.role}}-${{i}}`; }});
    return ({ROLES_JS})({{ ...query, names: true }});
}}"""


EVERY_LAB_LIVE = """() => [...document.querySelectorAll("[data-lab]")].every((el) =>
    /^Live:/.test(el.querySelector("[data-status]")?.textContent.trim() ?? ""))"""


@pytest.fixture(scope="module")
def chromium_tab() -> Iterator[ChromiumTab]:
    with launched("chromium") as chromium:
        tab = chromium.tab()
        yield tab
        tab.close()


def test_roles_js_finds_and_names_what_get_by_role_does(chromium_tab, built):
    page = chromium_tab.page
    checked = 0
    for url in ["", *built.pages]:
        chromium_tab.goto(built.url(url))
        # Marks go on the elements as they are once every lab is live and nothing re-renders.
        chromium_tab.wait_for(EVERY_LAB_LIVE, timeout=90)
        page.wait_for_load_state("networkidle")
        for role in ROLES:
            names = chromium_tab.evaluate(MARK, {"role": role})
            theirs = page.get_by_role(role).evaluate_all(  # type: ignore[arg-type]
                "els => els.map((el) => el.dataset.rolesMark ?? el.outerHTML.slice(0, 120))"
            )
            assert theirs == [f"{role}-{i}" for i in range(len(names))], (url, role)
            for i, name in enumerate(names):
                expect(page.locator(f'[data-roles-mark="{role}-{i}"]')).to_have_accessible_name(
                    name
                )
            checked += len(names)
    assert checked > 100  # the pages have controls of every kind the suite looks for

"""Every page of the built course, loaded as a student would: no errors, one origin, math set."""

from playwright.sync_api import expect

from tests.browser.reading import UNTYPESET_SHOWN, read_through
from tests.harness import block_until_lifted


def test_the_course_has_pages(site):
    assert "" in site.pages and len(site.pages) >= 2


def test_every_page_loads_without_errors_or_foreign_requests(page, site):
    for url in sorted(site.pages):
        page.goto(site.url(url))
        page.wait_for_load_state("networkidle")
        if page.locator(".arithmatex").count():
            # Formulas are typeset as the reader nears them: read the page to its end. The
            # first formula may sit in a closed fold (the notation table): any shown one.
            read_through(page)
            expect(page.locator(".arithmatex .katex >> visible=true").first).to_be_attached()
            expect(page.locator(UNTYPESET_SHOWN)).to_have_count(0)
    foreign = [
        u
        for u in page.log.requests
        if not u.startswith(site.origin) and not u.startswith(("data:", "blob:"))
    ]
    assert foreign == []
    assert page.log.errors == []


def test_search_finds_the_lesson(page, site):
    page.goto(site.url(""))
    # Typed key by key, as a person types: Material reads the query on keyup (or when its
    # search worker becomes ready), so a bare fill() passed only while the worker was slow.
    page.get_by_role("search").get_by_role("textbox").press_sequentially("SwiGLU")
    expect(page.locator(".md-search-result__link").first).to_be_visible()
    expect(page.locator(".md-search-result").get_by_text("Modern blocks").first).to_be_visible()


def test_search_works_while_python_starts(page, site):
    lift = block_until_lifted(page.context, "**/pyodide.asm.wasm", lambda route: None)
    page.goto(site.url("level-19/modern-blocks/"))
    expect(page.get_by_role("status").filter(has_text="Python").first).to_be_visible()
    page.get_by_role("search").get_by_role("textbox").press_sequentially("SwiGLU")
    expect(page.locator(".md-search-result").get_by_text("Modern blocks").first).to_be_visible()
    lift()


def test_the_palette_toggle_switches_to_dark_and_back(page, site):
    page.goto(site.url(""))
    page.get_by_title("Switch to the dark palette").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "slate")
    page.get_by_title("Switch to the light palette").click()
    expect(page.locator("body")).to_have_attribute("data-md-color-scheme", "default")


def test_printed_labs_show_their_numbers_without_controls_chrome(page, site):
    page.goto(site.url("level-19/modern-blocks/"))
    lab = page.locator('[data-lab="rope"]')
    expect(lab.get_by_text("Live:")).to_be_visible(timeout=30_000)
    page.get_by_label("q position").fill("2")
    expect(page.get_by_role("status", name="score q·k")).to_have_text("0.84")
    page.emulate_media(media="print")
    expect(lab.get_by_role("button", name="Both +1")).to_be_hidden()
    expect(lab.locator("[data-status]")).to_be_hidden()
    expect(page.get_by_role("status", name="score q·k")).to_have_text("0.84")


def test_a_table_wider_than_a_phone_is_a_region_the_keyboard_can_scroll(page, site):
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(site.url("level-19/modern-blocks/"))
    configs = page.get_by_role("table").filter(has_text="SmolLM2-135M").first
    region = page.get_by_role("region", name="Table, scrolls sideways").filter(has=configs)
    expect(region).to_have_count(1)
    region.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.wait_for_function("el => el.scrollLeft > 0", arg=region.element_handle())
    # Wide enough to show it whole, a table is no stop for the keyboard; still too wide, it
    # stays one.
    page.set_viewport_size({"width": 1600, "height": 900})
    wrapper = configs.locator("xpath=ancestor::div[contains(@class,'md-typeset__scrollwrap')]")
    page.wait_for_function(
        "el => (el.scrollWidth > el.clientWidth + 1) === el.hasAttribute('tabindex')",
        arg=wrapper.element_handle(),
    )

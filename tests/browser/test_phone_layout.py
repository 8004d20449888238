"""The lesson on a phone (360 x 740, touch) and a laptop (1280 x 800), as a student meets it
(issue 31): a lab's control and the result it moves on one screen, the scratchpad button over
none of the page, the place kept when the docked scratchpad opens and closes, text of 14 px
or more, and a code blank that shows the whole line typed in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.conftest import PHONE
from tests.browser.reading import read_through
from tests.browser.test_accessibility import READY

LESSON = "level-19/modern-blocks/"
WORKED = "level-19/worked-examples/"


@pytest.fixture
def phone(browser) -> Iterator[Page]:
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def open_live(page: Page, site, url: str) -> None:
    page.goto(site.url(url))
    page.wait_for_function(READY, timeout=60_000)


# ---- A control and its result on one screen ----

# Whether the whole element is inside the window below the header, and on top at its centre
# (no sticky strip, header or button over it); its box, for the message.
IN_SIGHT = """(el) => {
  const box = el.getBoundingClientRect();
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const x = Math.min(Math.max(box.left + box.width / 2, 0), innerWidth - 1);
  const y = Math.min(Math.max(box.top + box.height / 2, 0), innerHeight - 1);
  const top = document.elementFromPoint(x, y);
  const inside = box.top >= header - 0.5 && box.bottom <= innerHeight + 0.5
    && box.left >= -0.5 && box.right <= innerWidth + 0.5;
  return {inside, onTop: el === top || el.contains(top),
          box: [box.left, box.top, box.width, box.height].map(Math.round), header};
}"""


def in_sight(locator: Locator) -> dict:
    return locator.evaluate(IN_SIGHT)


def dd_after(lab: Locator, term: str) -> Locator:
    """The value a readout lists under a term (a <dd> after its <dt>)."""
    return lab.locator(f"dt:text-is('{term}') + dd")


def slider(name):
    return lambda lab: lab.get_by_role("slider", name=name, exact=True)


def field(name):
    return lambda lab: lab.get_by_role("spinbutton", name=name, exact=True)


def status(name):
    return lambda lab: lab.get_by_role("status", name=name, exact=True)


# (page, lab, its main control, the result it moves, what the student scrolls to: the result
# below a strip of controls at the top, or the control above a strip of results at the bottom)
LABS = {
    "norm-path": (
        LESSON,
        slider("Number of layers"),
        lambda lab: lab.get_by_role("img", name=re.compile("^Size of each layer's weight")),
        "result",
    ),
    "rms": (
        LESSON,
        slider("Shift every entry by c"),
        # What c does to LayerNorm: the panel's last line says it (it removes the shift).
        lambda lab: lab.get_by_role("region", name="LayerNorm").locator(".livelab-note"),
        "result",
    ),
    "rms-geometry": (LESSON, slider("x1, slider"), status("RMSNorm(x)"), "result"),
    "rope": (LESSON, slider("q position"), status("score q·k"), "result"),
    "rope-clock": (
        LESSON,
        slider("slider for q's position"),
        lambda lab: lab.get_by_role("img", name=re.compile("^The score q·k against the offset")),
        "result",
    ),
    "glu": (LESSON, slider("gate input"), status("SiLU(gate) × value"), "result"),
    "real-models": (
        LESSON,
        lambda lab: lab.get_by_role("radio", name="Llama-3-8B"),
        status("Parameters in all"),
        "result",
    ),
    "modern-block": (
        LESSON,
        field("ffn_hidden_size"),
        lambda lab: dd_after(lab, "weights in one block"),
        "control",
    ),
    "modern-block on the worked examples": (
        WORKED,
        field("ffn_hidden_size"),
        lambda lab: dd_after(lab, "weights in one block"),
        "control",
    ),
}


def change(control: Locator) -> None:
    """Move the control as a student would: a slider by a step, a field to a new number."""
    role = control.evaluate("(el) => el.type")
    if role == "range":
        control.focus()
        control.press("ArrowRight")
    elif role == "radio":
        control.check()
    else:
        control.fill(str(int(control.input_value()) + 16))


@pytest.mark.parametrize("name", LABS)
def test_a_labs_main_control_and_its_result_share_one_phone_screen(phone, site, name):
    url, find_control, find_result, scroll_to = LABS[name]
    open_live(phone, site, url)
    lab = phone.locator(f"#{name.split()[0]}")
    control, result = find_control(lab), find_result(lab)
    target = result if scroll_to == "result" else control
    target.evaluate("(el) => el.scrollIntoView({block: 'center'})")
    phone.wait_for_timeout(100)  # sticky strips settle in the frame after the scroll
    for what, element in (("control", control), ("result", result)):
        seen = in_sight(element)
        assert seen["inside"] and seen["onTop"], f"{name}: the {what} is out of sight: {seen}"
    before = result.inner_html()  # a readout's text, or a figure's shapes and title
    change(control)
    # The student sees the result change with the control still under their thumb.
    phone.wait_for_function(
        "([el, before]) => el.innerHTML !== before", arg=[result.element_handle(), before]
    )
    for what, element in (("control", control), ("result", result)):
        seen = in_sight(element)
        assert seen["inside"] and seen["onTop"], f"{name}: after a change the {what}: {seen}"


SLIDER_WIDTHS = """() => [...document.querySelectorAll('[data-lab] input[type=range]')]
  .filter((el) => el.getClientRects().length)
  .map((el) => {
    const lab = el.closest('[data-lab]');
    const style = getComputedStyle(lab);
    const column = lab.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return {name: el.getAttribute('aria-label') || el.labels[0]?.textContent || el.id,
            lab: lab.id, share: el.getBoundingClientRect().width / column};
  })"""


def test_sliders_take_the_labs_full_width_on_a_phone(phone, site):
    open_live(phone, site, LESSON)
    sliders = phone.evaluate(SLIDER_WIDTHS)
    assert {s["lab"] for s in sliders} >= {"rms", "rope", "rope-clock", "glu", "rms-geometry"}
    assert any(s["name"] == "entry 1, slider" for s in sliders)
    # Inside a fieldset (the RMS entries) the frame and its padding take about a tenth.
    narrow = [s for s in sliders if s["share"] < 0.85]
    assert not narrow, f"sliders narrower than the lab's column: {narrow}"


# ---- The scratchpad button covers nothing ----

CONTROLS = (
    "button, input, select, textarea, summary, a[href], [role=slider], [role=button], "
    "[role=tab], [role=radio], [role=checkbox], [data-verdict]"
)

# Scrolled a screen at a time from the top to the end: at each stop, the button's box must lie
# inside the header's, and no control or verdict line of the content may meet it where the
# content shows (below the header, which hides what scrolls under it anyway).
UNDER_THE_BUTTON = """(controls) => {
  const button = document.querySelector('.livelab-scratchpad-toggle');
  const found = [];
  let stops = 0;
  for (let y = 0; ; y += innerHeight) {
    scrollTo(0, y);
    stops += 1;
    const b = button.getBoundingClientRect();
    const h = document.querySelector('.md-header').getBoundingClientRect();
    if (b.width === 0 || b.top < h.top || b.bottom > h.bottom || b.left < h.left
        || b.right > h.right) found.push(`at ${scrollY}: the button is not in the header`);
    for (const el of document.querySelector('.md-content').querySelectorAll(controls)) {
      const r = el.getBoundingClientRect();
      if (!el.checkVisibility() || r.width === 0) continue;
      const shown = Math.max(r.top, h.bottom); // its part below the header
      if (shown < r.bottom && r.left < b.right && b.left < r.right && shown < b.bottom) {
        const name = (el.getAttribute('aria-label') || el.textContent).trim().slice(0, 40);
        found.push(`at ${scrollY}: ${el.tagName} ${name}`);
      }
    }
    if (scrollY + innerHeight >= document.documentElement.scrollHeight - 1) break;
  }
  return {found, stops};
}"""


@pytest.mark.parametrize("width", [360, 1280])
def test_the_scratchpad_button_covers_no_control_or_verdict_at_any_scroll(browser, site, width):
    options = PHONE if width == 360 else {"viewport": {"width": 1280, "height": 800}}
    context = browser.new_context(**options)
    page = context.new_page()
    try:
        for url in (LESSON, WORKED):
            open_live(page, site, url)
            button = page.get_by_role("button", name="Python scratchpad")
            expect(button).to_be_visible()
            # Verdict lines hold a verdict, as after a check (their height is kept anyway).
            result = page.evaluate(UNDER_THE_BUTTON, CONTROLS)
            assert result["stops"] > 10, result
            assert result["found"] == [], f"{url} at {width} px:\n" + "\n".join(result["found"])
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44  # a finger's target, in the header
    finally:
        context.close()


# ---- The reader's place across opening and closing the docked scratchpad ----

# Scrolled to a share of the page's height, then on to the next paragraph of some length, put
# just below the header, where a reader's eyes are: its text and its distance from the top.
# The paragraph at a share of the page's height, scrolled to just below the header and marked,
# so that PLACE_OF finds that very paragraph again: found by its text, it could be another one
# with the same words (every lab's status line says the same).
READING = """(share) => {
  const header = document.querySelector('.md-header').getBoundingClientRect().bottom;
  const from = document.documentElement.scrollHeight * share;
  const p = [...document.querySelectorAll('.md-content p')]
    .find((el) => el.checkVisibility() && el.textContent.trim().length > 40
      && el.getBoundingClientRect().top + scrollY >= from);
  document.querySelector('[data-reading]')?.removeAttribute('data-reading');
  p.setAttribute('data-reading', '');
  scrollTo(0, p.getBoundingClientRect().top + scrollY - header - 12);
  return {text: p.textContent.slice(0, 60), top: p.getBoundingClientRect().top};
}"""
PLACE_OF = """() => document.querySelector('.md-content p[data-reading]')
  .getBoundingClientRect().top"""


@pytest.mark.parametrize("url", [LESSON, WORKED])
def test_opening_and_closing_the_docked_scratchpad_keeps_the_paragraph_being_read(
    browser, site, url
):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    try:
        open_live(page, site, url)
        # The page as a reader who has been through it sees it: every formula typeset (they are
        # typeset as the reader nears them, which changes a paragraph's text and height).
        read_through(page)
        toggle = page.get_by_role("button", name="Python scratchpad")
        panel = page.get_by_role("dialog", name="Python scratchpad")
        for share in (0.3, 0.5, 0.75):
            reading = page.evaluate(READING, share)
            page.wait_for_timeout(100)
            toggle.click()
            expect(panel).to_be_visible()
            page.wait_for_timeout(300)  # figures refit and sidebars settle at the new width
            opened = page.evaluate(PLACE_OF)
            assert abs(opened - reading["top"]) <= 4, (share, reading, opened)
            panel.get_by_role("button", name="Close the scratchpad").click()
            expect(panel).to_be_hidden()
            page.wait_for_timeout(300)
            closed = page.evaluate(PLACE_OF)
            assert abs(closed - reading["top"]) <= 4, (share, reading, closed)
    finally:
        context.close()


# ---- Text a student reads ----

# Every text node of the content with its size on screen (an SVG's text scaled to the screen),
# folds opened. Not text a student reads: KaTeX's MathML copy (for screen readers) and its
# zero-width struts. KaTeX's scripts and inline fractions keep TeX's smaller sizes.
TEXT_SIZES = """() => {
  for (const fold of document.querySelectorAll('.md-content details')) fold.open = true;
  const content = document.querySelector('.md-content');
  const walker = document.createTreeWalker(content, NodeFilter.SHOW_TEXT);
  const out = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    const el = node.parentElement;
    if (!/[^\\s\\u200b]/.test(node.textContent) || !el.getClientRects().length) continue;
    if (el.closest('.katex-mathml, .katex .msupsub, .katex .mfrac')) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement) size *= el.getScreenCTM().a;
    out.push({size, text: node.textContent.trim().slice(0, 30),
              where: el.tagName.toLowerCase() + '.' + [...el.classList].join('.')});
  }
  return out;
}"""


def test_every_text_a_student_reads_is_at_least_14_px_on_a_phone(phone, site):
    small = []
    for url in ("", LESSON, WORKED):
        open_live(phone, site, url)
        sizes = phone.evaluate(TEXT_SIZES)
        assert len(sizes) > 40
        kinds = {s["where"].split(".")[0] for s in sizes}
        assert {"td", "p"} <= kinds
        small += [f"{url or '/'}: {s}" for s in sizes if s["size"] < 14 - 0.05]
    assert not small, "text under 14 px:\n" + "\n".join(small[:40])


# ---- The code blank ----

LINE = "np.stack([x[..., 0] * c - x[..., 1] * s, x[..., 1] * c])"[:54]  # 54 characters


def test_the_code_blank_is_16_px_and_shows_a_whole_54_character_line(phone, site):
    open_live(phone, site, LESSON)
    blank = phone.get_by_role("textbox", name=re.compile("blank")).first
    blank.scroll_into_view_if_needed()
    assert blank.evaluate("(el) => parseFloat(getComputedStyle(el).fontSize)") >= 16
    blank.click()
    phone.keyboard.type(LINE)
    seen = blank.evaluate(
        "(el) => ({value: el.value, sw: el.scrollWidth, cw: el.clientWidth,"
        " sh: el.scrollHeight, ch: el.clientHeight, right: el.getBoundingClientRect().right})"
    )
    assert seen["value"] == LINE
    assert seen["sw"] <= seen["cw"] and seen["sh"] <= seen["ch"] + 1, seen
    assert seen["right"] <= 360, seen
    # One line: a pasted line break becomes a space; Enter checks and adds no line.
    blank.fill("a\nb")
    expect(blank).to_have_value("a b")
    blank.press("End")
    blank.press("Enter")
    expect(blank).to_have_value("a b")
    box = blank.locator("xpath=ancestor::*[@data-question][1]")
    expect(box.locator("[data-verdict]")).not_to_be_empty()

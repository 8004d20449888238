"""The scratchpad's code editor (livelab/web/editor/editor.js, CodeMirror as one committed bundle),
mounted on a built lesson page as the scratchpad mounts it, and driven from the keyboard."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Page, expect

from tests import tools
from tests.browser.test_builders import serve_zensical
from tests.browser.test_offline import precached
from tests.harness import Site

LESSON = "level-19/modern-blocks/"
EDITOR = "assets/livelab/editor/editor.js"
CODEMIRROR = "/assets/livelab/editor/codemirror.bundle.js"
NAME = "Python code"
STRINGS = "assets/livelab/i18n.js"
# Mounts an editor at the top of the page's content, named as the scratchpad names it (the
# site's sentence editor.code_label); what it reports lands on window.editorLog.
MOUNT = """async ([url, strings, doc]) => {
  const holder = document.createElement("div");
  document.querySelector(".md-content").prepend(holder);
  window.editorLog = { runs: [], changes: [] };
  const { createEditor } = await import(url);
  const { t } = await import(strings);
  window.editor = await createEditor(holder, {
    doc,
    label: t("editor.code_label"),
    onRun: (text) => window.editorLog.runs.push(text),
    onChange: (text) => window.editorLog.changes.push(text),
  });
}"""
# Every coloured piece of text in the editor with its contrast on the editor's background.
CONTRASTS = """() => {
  const rgb = (css) => css.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => {
    const [r, g, b] = c.map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
    return (hi + 0.05) / (lo + 0.05);
  };
  const bg = rgb(getComputedStyle(document.querySelector(".cm-editor")).backgroundColor);
  const pieces = [...document.querySelectorAll(".cm-line span, .cm-line, .cm-gutterElement")];
  return pieces.filter((el) => el.textContent.trim()).map((el) => ({
    text: el.textContent, colour: getComputedStyle(el).color,
    ratio: ratio(rgb(getComputedStyle(el).color), bg),
  }));
}"""
# axe-core's violations inside the editor, one line each.
AXE_ON_EDITOR = """async () => {
  const result = await axe.run(".cm-editor", { resultTypes: ["violations"] });
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.target.join(" ")}: ${n.failureSummary}`));
}"""
PROGRAM = "def double(x):\n    return 2 * x  # twice\nprint(double(21), 'done', None)"


def mount(page: Page, site, doc: str = "") -> None:
    page.evaluate(MOUNT, [site.url(EDITOR), site.url(STRINGS), doc])


def text(page: Page) -> str:
    return page.evaluate("window.editor.getText()")


def test_a_program_typed_with_indentation_runs_on_ctrl_enter_and_nothing_leaves_the_site(
    page, site
):
    page.goto(site.url(LESSON))
    page.wait_for_load_state("networkidle")
    # A page that never opens the editor downloads none of it.
    assert not [u for u in page.log.requests if CODEMIRROR in u or u.endswith(EDITOR)]
    mount(page, site)
    code = page.get_by_role("textbox", name=NAME, exact=True)
    expect(code).to_have_attribute("aria-multiline", "true")
    code.click()
    page.keyboard.type("def double(x):")
    page.keyboard.press("Enter")  # the editor indents the body of the def by itself
    page.keyboard.type("return 2 * x  # twice")
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")  # back out of the body
    page.keyboard.type("print(double(21), 'done', None)")
    assert text(page) == PROGRAM
    page.keyboard.press("Control+Enter")
    page.keyboard.press("Meta+Enter")
    log = page.evaluate("window.editorLog")
    assert log["runs"] == [PROGRAM, PROGRAM]
    assert text(page) == PROGRAM  # running inserts no line break
    assert log["changes"][-1] == PROGRAM
    assert len(log["changes"]) >= len("print(double(21), 'done', None)")
    expect(page.locator(".cm-lineNumbers .cm-gutterElement", has_text="3")).to_be_visible()
    # CodeMirror is one request, beside the editor.
    assert len([u for u in page.log.requests if CODEMIRROR in u]) == 1
    foreign = [u for u in page.log.requests if not u.startswith((site.origin, "data:", "blob:"))]
    assert foreign == []
    assert page.log.errors == []


def test_tab_indents_the_line_and_undo_and_redo_take_it_back_and_forth(page, site):
    page.goto(site.url(LESSON))
    mount(page, site, "x = 1\nprint(x)")
    page.get_by_role("textbox", name=NAME, exact=True).click()
    page.keyboard.press("Control+End")
    page.keyboard.press("Tab")
    assert text(page) == "x = 1\n    print(x)"
    page.keyboard.press("Control+z")
    assert text(page) == "x = 1\nprint(x)"
    page.keyboard.press("Control+Shift+z")
    assert text(page) == "x = 1\n    print(x)"
    page.evaluate("window.editor.setText('y = 2')")
    assert text(page) == "y = 2"
    assert page.evaluate("window.editorLog.changes.at(-1)") == "y = 2"


def test_an_editor_without_a_name_is_refused_before_anything_is_mounted(page, site):
    # The fault CI found: the editor once fell back to no name at all, a field a screen reader
    # cannot announce. A caller that forgets the label now hears so at once.
    page.goto(site.url(LESSON))
    refused = page.evaluate(
        """async (url) => {
          const { createEditor } = await import(url);
          const holder = document.createElement("div");
          try { await createEditor(holder, { doc: "x = 1" }); return null; }
          catch (error) { return [error.name, error.message, holder.childElementCount]; }
        }""",
        site.url(EDITOR),
    )
    assert refused == [
        "TypeError",
        "livelab editor: createEditor needs a label, the field's accessible name",
        0,
    ]


def test_every_colour_is_readable_in_the_light_and_the_dark_palette(page, site):
    page.goto(site.url(LESSON))
    mount(page, site, PROGRAM)
    # Plain text, keywords, strings, numbers, comments and names of functions each have a
    # colour (line numbers share the comments'); the parser may colour them a moment later.
    page.wait_for_function(f"new Set(({CONTRASTS})().map((p) => p.colour)).size >= 6")
    page.add_script_tag(content=tools.axe_source())
    light = page.evaluate(CONTRASTS)
    assert page.evaluate(AXE_ON_EDITOR) == []
    page.evaluate("document.body.setAttribute('data-md-color-scheme', 'slate')")
    dark = page.evaluate(CONTRASTS)
    assert page.evaluate(AXE_ON_EDITOR) == []
    assert {p["text"]: p["colour"] for p in light} != {p["text"]: p["colour"] for p in dark}
    low = [p for p in light + dark if p["ratio"] < 4.5]
    assert low == [], low


def test_on_a_touch_screen_the_text_is_at_least_16_px(browser, site):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, has_touch=True, is_mobile=True
    )
    page = context.new_page()
    try:
        page.goto(site.url(LESSON))
        mount(page, site, PROGRAM)
        size = page.evaluate("getComputedStyle(document.querySelector('.cm-content')).fontSize")
    finally:
        context.close()
    assert float(size.removesuffix("px")) >= 16


def test_offline_after_one_visit_the_editor_still_loads(page, site):
    page.goto(site.url(LESSON))
    precached(page)
    page.context.set_offline(True)
    page.reload()
    mount(page, site, "print('offline')")
    page.get_by_role("textbox", name=NAME, exact=True).click()
    page.keyboard.press("Control+Enter")
    assert page.evaluate("window.editorLog.runs") == ["print('offline')"]


@pytest.fixture(scope="module")
def zensical_site(tmp_path_factory) -> Iterator[Site]:
    """The course built by Zensical, which runs no plugin (`livelab assets` copies the files)."""
    served = serve_zensical(tmp_path_factory.mktemp("zensical"))
    yield served
    served.close()


def test_under_zensical_the_editor_loads_from_the_site_too(page, zensical_site):
    page.goto(zensical_site.url(LESSON))
    mount(page, zensical_site, "print(1)")
    page.get_by_role("textbox", name=NAME, exact=True).click()
    page.keyboard.press("Control+Enter")
    assert page.evaluate("window.editorLog.runs") == ["print(1)"]
    assert len([u for u in page.log.requests if CODEMIRROR in u]) == 1
    assert all(u.startswith(zensical_site.origin) for u in page.log.requests)
    assert page.log.errors == []

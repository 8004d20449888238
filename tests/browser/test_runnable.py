"""Runnable code blocks (```python run="on"```, issue 34), used as a student would: edit in the
block's editor, Run or Ctrl+Enter, read the output under it; blocks share names in the order
they are run; Stop ends a run that would not end; Reset brings back the page's code; edits
survive a reload; output is text; a plain python fence stays plain."""

import re

import pytest
from playwright.sync_api import expect

from tests.harness import serve_page

pytestmark = pytest.mark.warm

PAGE = """# Blocks

A plain fence:

```python
plain_code = 1
```

```python run="on"
x = np.arange(4)
x * 2
```

```python run="on"
print(x.sum())
x.shape
```

```python run="on"
print("<b>not bold</b>")
while True:
    pass
```
"""


@pytest.fixture(scope="module")
def blocks(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("runnable"), PAGE)
    yield site
    site.close()


def block(page, number):
    return page.get_by_role("region", name=f"Runnable Python, block {number}")


def run(page, number):
    one = block(page, number)
    one.get_by_role("button", name="Run").click()
    return one


def test_a_plain_fence_stays_plain_and_each_run_fence_is_a_block(page, blocks):
    page.goto(blocks.url(""))
    expect(page.get_by_role("region", name=re.compile("^Runnable Python"))).to_have_count(3)
    plain = page.locator(".highlight").filter(has_text="plain_code = 1")
    expect(plain).to_be_visible()
    expect(plain.get_by_role("button", name="Run")).to_have_count(0)


def test_blocks_share_names_in_the_order_they_are_run(page, blocks):
    page.goto(blocks.url(""))
    second = run(page, 2)  # before the block that defines x
    expect(second.get_by_role("status")).to_have_text(
        "NameError on line 1; see the output.", timeout=60_000
    )
    expect(second.get_by_role("log", name="Output, block 2")).to_contain_text("NameError")
    first = run(page, 1)
    expect(first.get_by_role("status")).to_have_text("Done.", timeout=60_000)
    expect(first.get_by_role("log", name="Output, block 1")).to_have_text("array([0, 2, 4, 6])")
    second = run(page, 2)
    expect(second.get_by_role("status")).to_have_text("Done.")
    expect(second.get_by_role("log", name="Output, block 2")).to_have_text("6\n(4,)")


def test_an_edit_runs_with_ctrl_enter_survives_a_reload_and_reset_brings_back_the_code(
    page, blocks
):
    page.goto(blocks.url(""))
    code = block(page, 1).get_by_role("textbox", name="Python code, block 1")
    code.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("y = 3\ny * 7")
    page.keyboard.press("Control+Enter")
    output = block(page, 1).get_by_role("log", name="Output, block 1")
    expect(output).to_have_text("21", timeout=60_000)
    page.reload()
    code = block(page, 1).get_by_role("textbox", name="Python code, block 1")
    expect(code).to_have_text("y = 3y * 7")  # CodeMirror's lines, one element each
    block(page, 1).get_by_role("button", name="Reset").click()
    expect(code).to_have_text("x = np.arange(4)x * 2")
    expect(block(page, 1).get_by_role("status")).to_contain_text(
        "Back to the code as the page wrote it"
    )
    page.reload()
    expect(block(page, 1).get_by_role("textbox", name="Python code, block 1")).to_have_text(
        "x = np.arange(4)x * 2"
    )


def test_stop_ends_a_run_that_would_not_end_and_output_is_text(page, blocks):
    page.goto(blocks.url(""))
    third = run(page, 3)
    stop = third.get_by_role("button", name="Stop")
    expect(stop).to_be_enabled()
    expect(third.get_by_role("status")).to_have_text(re.compile("^Running"))
    stop.click()
    expect(third.get_by_role("status")).to_have_text(re.compile("^Stopped"), timeout=30_000)
    expect(third.get_by_role("button", name="Run")).to_be_enabled()
    # The same block, its loop taken out: what it prints is shown as text, tags and all.
    code = third.get_by_role("textbox", name="Python code, block 3")
    code.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type('print("<b>not bold</b>")')
    third.get_by_role("button", name="Run").click()
    output = third.get_by_role("log", name="Output, block 3")
    expect(output).to_have_text("<b>not bold</b>", timeout=60_000)
    expect(output.locator("b")).to_have_count(0)

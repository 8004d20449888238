"""Plots (issue 34): a course that names `packages: [matplotlib]` serves matplotlib and its
dependencies beside NumPy; a runnable block that imports it loads it first, says so, and
shows each figure it drew under its output, as an image with a text alternative. A run that
imports nothing of it downloads none of it, and after one visit it works offline."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_offline import controlled, precached
from tests.browser.test_scratchpad import open_scratchpad, panel, status, type_and_run
from tests.harness import serve_page

pytestmark = pytest.mark.cold  # counts the files a page asks for, and needs a first visit

PAGE = """# Plots

```python run="on"
x = np.linspace(0, 6, 50)
float(np.sin(x).max().round(3))
```

```python run="on"
import matplotlib.pyplot as plt
fig, ax = plt.subplots()
ax.plot(x, np.sin(x), label="sin")
ax.set_title("A sine")
ax.set_xlabel("x")
ax.legend()
plt.show()
```
"""
ALT = "Figure 1: A sine, x: x, 1 line: sin."
WHEELS = re.compile(r"/pyodide/(matplotlib|pillow|fonttools)[^/]*\.whl$")


@pytest.fixture(scope="module")
def plots(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("plots"), PAGE, packages=("matplotlib",))
    yield site
    site.close()


def block(page, number):
    return page.get_by_role("region", name=f"Runnable Python, block {number}")


def run(page, number, done="Done."):
    here = block(page, number)
    here.get_by_role("button", name="Run").click()
    expect(here.get_by_role("status")).to_have_text(done, timeout=120_000)
    return here


def test_a_block_that_plots_loads_matplotlib_and_shows_the_figure_with_its_alt_text(page, plots):
    page.goto(plots.url(""))
    run(page, 1)
    here = block(page, 2)
    here.get_by_role("button", name="Run").click()
    status = here.get_by_role("status")
    expect(status).to_have_text(re.compile("^Loading matplotlib"), timeout=60_000)
    expect(status).to_have_text("Done.", timeout=120_000)
    figure = here.get_by_role("img", name=ALT)
    expect(figure).to_be_visible()
    assert figure.evaluate("(image) => image.naturalWidth") > 200
    # plt.show() is quiet: Agg cannot open a window, and would otherwise say so.
    expect(here.get_by_role("log")).to_be_hidden()
    run(page, 2)  # again: matplotlib is loaded, and the figure is drawn anew, once
    expect(here.get_by_role("img")).to_have_count(1)


def test_a_run_that_imports_nothing_of_it_downloads_none_of_it(page, plots):
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(plots.url(""))
    run(page, 1)
    assert not [url for url in asked if WHEELS.search(url)]
    run(page, 2)
    assert [url for url in asked if WHEELS.search(url)]  # the same watch sees them when used


def test_after_one_visit_a_block_plots_offline(page, plots):
    page.goto(plots.url(""))
    precached(page)
    page.context.set_offline(True)
    page.reload()
    assert controlled(page)
    run(page, 1)
    run(page, 2)
    expect(block(page, 2).get_by_role("img", name=ALT)).to_be_visible()


def test_a_figure_drawn_in_the_scratchpad_appears_under_its_output(page, plots):
    page.goto(plots.url(""))
    open_scratchpad(page)
    type_and_run(
        page,
        "import matplotlib.pyplot as plt\n"
        "plt.bar([1, 2, 3], [3, 1, 2])\n"
        'plt.title("Counts")\n'
        "plt.show()",
    )
    expect(status(page)).to_have_text("Done.", timeout=120_000)
    figure = panel(page).get_by_role("img", name="Figure 1: Counts, 3 bars.")
    expect(figure).to_be_visible()

"""A French site's runtime speaks French: a wrong code answer, an error in a runnable block
and in the scratchpad (the scratch Python) and a run past the time limit are told in French,
and still are on a second visit, whose Python is restored from the memory snapshot (which
holds none of livelab: the worker reads the site's language from livelab/i18n/site.json in
the archive at each boot)."""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from livelab.builder.check import build_course
from livelab.builder.serve import make_server, serve_in_thread
from tests.browser.test_runtime import run_in_runtime
from tests.browser.test_startup import steps, stored_snapshot
from tests.harness import ROOT, Site, config_for_docs

pytestmark = pytest.mark.cold  # a first visit makes the snapshot the second one restores

NBSP = "\u00a0"
PAGE = """# Une page

```code
id: c1
question: rmsnorm
prompt: Complétez le dénominateur de RMSNorm.
blank_label: "trou : le dénominateur"
```

```python run="on"
def f():
    return 1 / 0
f()
```

```python run="on"
while True:
    pass
```
"""
ROUNDED = "np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps).round()"
WRONG = "votre fonction a renvoyé 0.75 à l’indice 0, là où 0.848528 est attendu"
TIME_LIMIT = re.compile(f"^Arrêté{NBSP}: le code a tourné plus de \\d+{NBSP}s. Cherchez une boucle")


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    """The page as a course's home page, built with the theme's language fr, served isolated."""
    folder = tmp_path_factory.mktemp("french")
    docs = folder / "docs"
    docs.mkdir()
    shutil.copytree(ROOT / "docs" / "assets", docs / "assets")
    (docs / "index.md").write_text(PAGE, encoding="utf-8")
    config = config_for_docs(docs)
    text = config.read_text(encoding="utf-8")
    assert "\ntheme:\n  name: material\n" in text
    config.write_text(
        text.replace("\n  name: material\n", "\n  name: material\n  language: fr\n", 1)
    )
    server = make_server(folder / "site", port=0, isolated=True)
    site = Site(server, folder / "site", isolated=True)
    build_course(config, site.site_dir, site.url())
    serve_in_thread(server)
    yield site
    site.close()


def check_wrong(page):
    box = page.locator('[data-question="c1"]')
    box.get_by_role("textbox", name="trou : le dénominateur").fill(ROUNDED)
    box.locator('[data-action="check"]').click()
    expect(box.get_by_role("status")).to_contain_text(WRONG, timeout=120_000)


def block(page, number):
    return page.locator('[data-livelab="runnable"]').nth(number - 1)


def run_block(page, number):
    one = block(page, number)
    one.get_by_role("button").first.click()  # Run (its name is the site's language's)
    return one


def scratch_error(page):
    output = run_block(page, 1).locator("[data-output]")
    expect(output).to_contain_text(f"Traceback (votre code){NBSP}:", timeout=120_000)
    expect(output).to_contain_text("ligne 3, dans <module>")
    expect(output).to_contain_text("ligne 2, dans f")


def scratchpad_error(page):
    """The scratchpad's panel, found by role (its names are the widgets' own sentences)."""
    toggle = page.locator(".livelab-scratchpad-toggle")
    toggle.click()
    panel = page.locator(f"#{toggle.get_attribute('aria-controls')}")
    panel.get_by_role("textbox").click()
    page.keyboard.type("a = 1\nb = a / 0")
    page.keyboard.press("Control+Enter")
    output = panel.get_by_role("log")
    expect(output).to_contain_text(f"Traceback (votre code){NBSP}:", timeout=60_000)
    expect(output).to_contain_text("ligne 2, dans <module>")
    page.keyboard.press("Escape")


def test_a_french_student_reads_the_grader_and_the_runtime_in_french(page, french):
    page.goto(french.url(""))
    check_wrong(page)
    scratch_error(page)
    scratchpad_error(page)
    looping = run_block(page, 2)
    expect(looping.get_by_role("status")).to_have_text(TIME_LIMIT, timeout=60_000)
    # The language module is the archive's, read at this boot, never the snapshot's.
    stored_snapshot(page)
    page.reload()
    check_wrong(page)
    assert steps(page)["interpreter"]["from"] == "snapshot"
    scratch_error(page)
    said = run_in_runtime(
        page,
        "import sys, livelab.i18n as i18n\n"
        "restored = getattr(sys, '_livelab_from_snapshot', ())\n"
        "print([n for n in restored if n.startswith('livelab')], i18n.current())",
        timeout_ms=30_000,
    )
    assert said == "[] fr\n"

"""Issue 34's second example course in the browser, built by MkDocs and by Zensical, as a
student uses it: the block that plots shows its figure, the exercise's whole-body blank gets
each wrong answer's own feedback and then Correct, the choice takes several options; after
one visit all of it works offline, and a page it cannot serve offline is explained in French.
(The lesson has no exercise: this is where that kind is graded under both builders,
tests/browser/test_builders.py.)"""

from __future__ import annotations

import re
import shutil

import pytest
from playwright.sync_api import expect

from livelab.builder.check import build_course
from livelab.builder.serve import make_server, serve_in_thread
from tests.browser.test_cache_integrity import DAMAGE
from tests.browser.test_offline import controlled, precached
from tests.harness import Site
from tests.sitebuild.test_example_french import EXAMPLE, zensical_build

pytestmark = pytest.mark.cold  # a first visit, then offline

GATE = "gate = x @ W\nreturn gate / (1 + np.exp(-gate)) * (x @ V)"
WRONG_BRANCH = "value = x @ V\nreturn (x @ W) * value / (1 + np.exp(-value))"


@pytest.fixture(scope="module", params=["mkdocs", "zensical"])
def course(request, tmp_path_factory):
    """The course built by MkDocs, or by Zensical in its three steps, and served isolated."""
    folder = tmp_path_factory.mktemp(request.param)
    shutil.copytree(EXAMPLE, folder / "course")
    site_dir = folder / "course" / "site"  # Zensical writes only inside the course's folder
    server = make_server(site_dir, port=0, isolated=True)
    site = Site(server, site_dir, isolated=True)
    if request.param == "mkdocs":
        build_course(folder / "course" / "mkdocs.yml", site.site_dir, site.url())
    else:
        zensical_build(folder / "course", site.url())
    serve_in_thread(server)
    yield site
    site.close()


def plot(page):
    block = page.get_by_role("region", name="Python exécutable, bloc 1")
    block.get_by_role("button", name="Exécuter", exact=True).click()
    figure = block.get_by_role("img", name=re.compile(r"^Figure 1\s: ReLU et SiLU"))
    expect(figure).to_be_visible(timeout=120_000)


def exercise(page, text):
    box = page.locator('[data-question="e1"]')
    box.get_by_role("textbox", name="trou : le corps de swiglu").fill(text)
    box.get_by_role("button", name="Vérifier", exact=True).click()
    return box.get_by_role("status")


def test_a_student_plots_answers_the_exercise_and_picks_several_options(page, course):
    page.goto(course.url(""))
    plot(page)
    verdict = exercise(page, WRONG_BRANCH)
    expect(verdict).to_contain_text("SiLU est appliquée à la mauvaise branche", timeout=60_000)
    expect(exercise(page, GATE)).to_have_text(re.compile("^Exact"), timeout=60_000)
    choice = page.locator('[data-question="q2"]')
    for text in ("prend des valeurs négatives", "se rapproche de"):
        choice.get_by_role("checkbox", name=re.compile(text)).check()
    choice.get_by_role("button", name="Vérifier", exact=True).click()
    expect(choice.get_by_role("status")).to_have_text(re.compile("^Exact"))


def test_after_one_visit_it_plots_and_grades_offline(page, course):
    page.goto(course.url(""))
    precached(page)
    page.context.set_offline(True)
    page.reload()
    assert controlled(page)
    plot(page)
    expect(exercise(page, GATE)).to_have_text(re.compile("^Exact"), timeout=60_000)


def test_offline_a_page_with_no_good_copy_is_explained_in_french(page, course):
    page.goto(course.url(""))
    precached(page)
    assert page.evaluate(DAMAGE, "/") == 1  # the home page's precached copy
    page.context.set_offline(True)
    page.reload()
    heading = page.get_by_role("heading", name="Cette page n’a pas pu être chargée")
    expect(heading).to_be_visible()
    expect(page).to_have_title("Page indisponible")
    expect(page.get_by_role("alert")).to_have_text(
        "Le fichier / du site n’a pas pu être chargé\u00a0: sa copie conservée pour l’usage "
        "hors ligne est endommagée, et une nouvelle copie n’a pas pu être téléchargée. "
        "Connectez-vous à Internet, puis rechargez la page."
    )
    assert page.evaluate("document.documentElement.lang") == "fr"

"""Material's search dialog and progress bar are named on the built pages (chrome_names)."""

from __future__ import annotations

from livelab.builder.chrome_names import name_material_chrome, with_chrome_names

# The two elements as mkdocs-material 9 writes them.
MATERIAL = (
    '<div class="md-search" data-md-component="search" role="dialog">\n'
    '  <label class="md-search__overlay" for="__search"></label></div>\n'
    '<div class="md-progress" data-md-component="progress" role="progressbar"></div>'
)


def test_the_search_dialog_and_the_progress_bar_get_names():
    page = with_chrome_names(MATERIAL)
    assert (
        '<div class="md-search" data-md-component="search" role="dialog" aria-label="Search">'
        in page
    )
    assert 'role="progressbar" aria-label="Loading the next page"></div>' in page
    assert (
        page.replace(' aria-label="Search"', "").replace(' aria-label="Loading the next page"', "")
        == MATERIAL
    )


def test_a_named_element_and_other_markup_are_left_alone():
    named = with_chrome_names(MATERIAL)
    assert with_chrome_names(named) == named
    other = '<div class="md-dialog" data-md-component="dialog"></div><p role="dialog">x</p>'
    assert with_chrome_names(other) == other


def test_every_built_page_is_named_once(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text(MATERIAL, encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text(MATERIAL, encoding="utf-8")
    (tmp_path / "404.txt").write_text(MATERIAL, encoding="utf-8")
    assert name_material_chrome(tmp_path) == 2
    assert name_material_chrome(tmp_path) == 0
    assert (tmp_path / "404.txt").read_text(encoding="utf-8") == MATERIAL
    assert (tmp_path / "a" / "index.html").read_text(encoding="utf-8").count("aria-label") == 2

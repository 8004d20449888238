"""The last page of a built course gets a footer "Next" link home (livelab.builder.footer).

The pages here carry the footer as Material writes it (prev and next links in the footer's
nav), so the step is checked without a build; tests/browser/test_builders.py walks the real
MkDocs and Zensical builds.
"""

from pathlib import Path

from livelab.builder import footer

ARROW = '<div class="md-footer__button md-icon"><svg viewBox="0 0 24 24"></svg></div>'


def link(direction: str, href: str, title: str) -> str:
    label = {"prev": "Previous", "next": "Next"}[direction]
    return (
        f'<a href="{href}" class="md-footer__link md-footer__link--{direction}" '
        f'aria-label="{label}: {title}"><div class="md-footer__title">'
        f'<span class="md-footer__direction">{label}</span>'
        f'<div class="md-ellipsis">\n{title}\n</div></div>{ARROW}</a>'
    )


def page(*links: str) -> str:
    nav = '<nav class="md-footer__inner md-grid" aria-label="Footer">' + "".join(links)
    return f'<html><body><footer class="md-footer">{nav}</nav></footer></body></html>'


def write(site: Path, path: str, text: str) -> Path:
    file = site / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


def course(site: Path) -> dict[str, Path]:
    """Home, a lesson and a last chapter in a chain, plus a guide outside the navigation."""
    return {
        "home": write(site, "index.html", page(link("next", "lesson/", "A lesson"))),
        "lesson": write(
            site,
            "lesson/index.html",
            page(link("prev", "..", "Start here"), link("next", "../part/end/", "The end")),
        ),
        "end": write(site, "part/end/index.html", page(link("prev", "../../lesson/", "A lesson"))),
        "guide": write(site, "guide/index.html", page()),
    }


def test_the_last_page_leads_home_under_the_home_pages_navigation_title(tmp_path):
    files = course(tmp_path)
    before = {name: file.read_text(encoding="utf-8") for name, file in files.items()}
    assert footer.lead_last_page_home(tmp_path) == files["end"]
    links = footer.footer_links(files["end"].read_text(encoding="utf-8"))
    assert links["prev"].title == "A lesson"  # the link it had is kept
    assert links["next"].title == "Start here"
    assert 'aria-label="Next: Start here"' in links["next"].markup
    assert (files["end"].parent / links["next"].href).resolve() == tmp_path.resolve()
    assert ARROW in links["next"].markup  # the builder's own "Next" markup, icon included
    for name in ("home", "lesson", "guide"):
        assert files[name].read_text(encoding="utf-8") == before[name]


def test_running_the_step_again_changes_nothing(tmp_path):
    files = course(tmp_path)
    footer.lead_last_page_home(tmp_path)
    done = files["end"].read_text(encoding="utf-8")
    assert footer.lead_last_page_home(tmp_path) is None
    assert files["end"].read_text(encoding="utf-8") == done


def test_a_single_page_site_is_left_alone(tmp_path):
    home = write(tmp_path, "index.html", page())
    assert footer.lead_last_page_home(tmp_path) is None
    assert home.read_text(encoding="utf-8") == page()

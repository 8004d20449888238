"""A new course with a plain Material theme and livelab is self-hosted without asking: the
theme's default web fonts (Roboto from Google Fonts) are turned off, and a font the author
names stops the build with the line to write instead (issue 34)."""

import os
import re
import subprocess
import sys
from pathlib import Path

PAGE = "# A course\n\nSome prose, and `code`.\n"
CONFIG = """site_name: A new course
theme:
  name: material
{font}plugins:
  - livelab
markdown_extensions:
  - pymdownx.superfences
"""
# Anything a page loads by itself: stylesheets, scripts, preconnects, images, frames, fonts.
LOADED = re.compile(r"<(?:link|script|img|iframe|source)\b[^>]*\b(?:href|src)=\"([^\"]+)\"")


def build(folder: Path, font: str = "") -> subprocess.CompletedProcess:
    (folder / "docs").mkdir()
    (folder / "docs" / "index.md").write_text(PAGE, encoding="utf-8")
    (folder / "mkdocs.yml").write_text(CONFIG.format(font=font), encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict"],
        capture_output=True,
        text=True,
        cwd=folder,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        check=False,
    )


def test_a_plain_material_course_loads_nothing_from_another_origin(tmp_path):
    result = build(tmp_path)
    assert result.returncode == 0, result.stderr
    assert "turned off so the course makes no request to another origin" in result.stderr
    pages = list((tmp_path / "site").rglob("*.html"))
    assert pages
    for page in pages:
        loaded = LOADED.findall(page.read_text(encoding="utf-8"))
        assert loaded, page  # the theme's own stylesheets and scripts at least
        foreign = [url for url in loaded if re.match(r"(?:https?:)?//", url)]
        assert foreign == [], page


def test_a_font_the_author_names_stops_the_build_with_the_line_to_write(tmp_path):
    result = build(tmp_path, font="  font:\n    text: Inter\n")
    assert result.returncode != 0
    assert "mkdocs.yml:4: theme.font asks Google Fonts for {'text': 'Inter'}" in result.stderr
    assert "Write 'font: false' under 'theme:' instead" in result.stderr
    assert not (tmp_path / "site" / "index.html").exists()


def test_font_false_builds_quietly(tmp_path):
    result = build(tmp_path, font="  font: false\n")
    assert result.returncode == 0, result.stderr
    assert "Google Fonts" not in result.stderr
    html = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert "fonts.googleapis.com" not in html

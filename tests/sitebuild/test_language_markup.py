"""What the build writes for a student speaks the site's language (livelab.i18n): a small French
site built by `mkdocs build --strict` shows French buttons, accessible names, progress table
headings and lab lines, and its service worker carries the French offline sentences; the same
site in English is unchanged; a language with no table is a warning, so --strict fails."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import material
import pytest

from livelab.builder.question_markup import unseal
from tests.harness import ROOT, config_for_docs

HOME = """# Accueil

```progress
```
"""

LESSON = """# Une leçon

```numeric
id: q1
prompt: Combien font 2 + 3 ?
answer: 5
hints: [Additionnez.]
```

```choice
id: q2
prompt: Lesquels sont pairs ?
multiple: true
options:
  - {text: "2", why: Pair., correct: true}
  - {text: "4", why: Pair., correct: true}
  - {text: "5", why: Impair.}
```

```python run="on"
print(1 + 1)
```

```lab
lab: rms
id: r1
```

```lab
lab: train_norm
id: t1
```
"""


# Material's own words for a language it has no table of either (its custom-language way).
MATERIAL_LANGUAGE = '{% macro t(key) %}{{ {"language": "tlh"}[key] }}{% endmacro %}\n'


def build(folder: Path, language: str | None, lesson: str = LESSON) -> subprocess.CompletedProcess:
    """The two pages under the real configuration, the theme in `language`, built strictly."""
    docs = folder / "docs"
    (docs / "lesson").mkdir(parents=True)
    (docs / "index.md").write_text(HOME, encoding="utf-8")
    (docs / "lesson" / "index.md").write_text(lesson, encoding="utf-8")
    config = config_for_docs(docs)
    text = config.read_text(encoding="utf-8") + "nav:\n  - index.md\n  - lesson/index.md\n"
    theme = "theme:\n  name: material\n"
    assert theme in text
    if language:
        overrides = folder / "overrides"
        words = Path("partials", "languages", f"{language}.html")
        (overrides / words).parent.mkdir(parents=True)
        if not (Path(material.__file__).parent / "templates" / words).is_file():
            (overrides / words).write_text(MATERIAL_LANGUAGE, encoding="utf-8")
        setting = f"  language: {language}\n  custom_dir: {overrides}\n"
        text = text.replace(theme, theme + setting, 1)
    config.write_text(text, encoding="utf-8")
    args = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(config)]
    args += ["--site-dir", str(folder / "site")]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=ROOT, check=False)


@pytest.fixture(scope="module")
def french(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fr")
    result = build(folder, "fr")
    assert result.returncode == 0, result.stderr
    return folder / "site"


@pytest.fixture(scope="module")
def english(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("en")
    result = build(folder, None)
    assert result.returncode == 0, result.stderr
    return folder / "site"


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


BUTTON = re.compile(r'<button type="button" class="livelab-button[^"]*"[^>]*>([^<]*)</button>')


def buttons(html: str) -> list[str]:
    """The text of every livelab button in the page."""
    return BUTTON.findall(html)


def build_line(site: Path) -> dict:
    """The `const BUILD = {...};` the build put in front of sw.js."""
    text = page(site, "sw.js")
    return json.loads(text[len("const BUILD = ") : text.index(";\n\n")])


def test_the_french_lesson_s_buttons_fields_and_lines_are_french(french):
    lesson = page(french, "lesson/index.html")
    assert {"Vérifier", "Indice", "Afficher la réponse"} <= set(buttons(lesson))
    assert {"Exécuter", "Arrêter", "Réinitialiser", "Ouvrir dans le brouillon"} <= set(
        buttons(lesson)
    )
    assert '<label for="q1-answer">Votre réponse</label>' in lesson
    assert 'aria-label="Changer de signe"' in lesson  # the numeric field's ± button
    assert re.search(r'aria-label="Changer le signe de [^"]+"', lesson)  # a lab entry's
    assert re.search(r'aria-label="[^"]+, curseur"', lesson)
    assert 'aria-label="Python exécutable, bloc 1"' in lesson
    assert 'aria-label="Sortie, bloc 1"' in lesson
    assert "Cochez toutes les bonnes réponses." in lesson
    assert "La vérification des réponses nécessite JavaScript." in lesson
    assert "Les labs interactifs nécessitent JavaScript." in lesson
    assert "Python se charge\u00a0; en attendant" in lesson
    assert "Appuyez sur Exécuter pour le recalculer dans votre navigateur." in lesson
    assert 'aria-label="Votre progression sur cette page"' in lesson
    assert "Cette page contient 2 questions." in lesson
    assert "<strong>Avant de poursuivre</strong>" in lesson
    assert "Question 1" in lesson  # the numeric's title, as the author gave none
    reveal = unseal(re.search(r'data-question="q1"[^>]*data-sealed="([^"]+)"', lesson)[1])
    assert reveal["reveal"].startswith("<p>Réponse\u00a0: <strong>5</strong></p>")
    for english in ("Check", "Show answer", "Your answer", "Change sign", "Pick every"):
        assert english not in lesson


def test_the_french_home_table_and_material_s_chrome_are_french(french):
    home = page(french, "index.html")
    heads = re.findall(r'<th scope="col">([^<]*)</th>', home)
    assert heads == ["Page", "Résolues", "Réponses affichées", "État"]
    assert "<td data-count>0 sur 2</td>" in home
    assert "<td data-state>pas commencée</td>" in home
    assert {"Réinitialiser la progression", "Effacer ma progression", "Annuler"} <= set(
        buttons(home)
    )
    assert "Effacer toutes les réponses enregistrées" in home
    assert 'role="dialog" aria-label="Recherche"' in home
    assert 'aria-label="Chargement de la page suivante"' in home
    # The last page leads home, named in Material's own French word for "Next".
    assert 'aria-label="Suivant: Accueil"' in page(french, "lesson/index.html")


def test_the_french_service_worker_says_its_offline_sentences_in_french(french):
    build = build_line(french)
    assert build["language"] == "fr"
    assert build["text"]["offline.page_heading"] == "Cette page n’a pas pu être chargée"
    assert set(build["text"]) == {
        "offline.file_damaged",
        "offline.file_missing",
        "offline.page_heading",
        "offline.page_title",
    }
    assert "{path}" in build["text"]["offline.file_missing"]
    assert "Connectez-vous à Internet" in build["text"]["offline.file_damaged"]


def test_the_english_build_is_unchanged(english):
    lesson, home = page(english, "lesson/index.html"), page(english, "index.html")
    assert {"Check", "Hint", "Show answer", "Run", "Stop", "Reset"} <= set(buttons(lesson))
    assert 'aria-label="Runnable Python, block 1"' in lesson
    assert "This page has 2 questions." in lesson
    assert "Python is loading; until it is live, these numbers are from the build." in lesson
    heads = re.findall(r'<th scope="col">([^<]*)</th>', home)
    assert heads == ["Page", "Solved", "Answers shown", "State"]
    assert 'role="dialog" aria-label="Search"' in home
    assert 'aria-label="Next: Accueil"' in lesson
    build = build_line(english)
    assert build["language"] == "en"
    assert build["text"]["offline.page_title"] == "Page unavailable"


def test_a_language_without_a_table_warns_and_fails_a_strict_build(tmp_path):
    result = build(tmp_path, "tlh")
    assert result.returncode != 0
    warning = re.search(r"WARNING .*no table for the language 'tlh'.*", result.stderr)
    assert warning, result.stderr
    assert "py/livelab/i18n/tlh.json" in warning[0]
    assert "Aborted with 1 warnings in strict mode" in result.stdout + result.stderr


def test_a_french_build_refuses_a_lab_value_out_of_range_in_the_site_s_words(tmp_path):
    # The sentence a French student reads under a lab pushed out of range (livelab.options),
    # here about the author's fence, after its page, kind and id.
    result = build(tmp_path, "fr", LESSON + "\n```lab\nlab: rope\nid: r2\nq_pos: 99\n```\n")
    assert result.returncode != 0
    assert re.search(
        r"lesson/index\.md:\d+: lab fence id 'r2': q_pos doit être compris dans \[0, \d+\]"
        "\u00a0; reçu 99",
        result.stdout + result.stderr,
    ), result.stderr

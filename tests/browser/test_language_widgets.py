"""The widgets in the site's language, as a student of a French site meets them: a numeric
question, a choice, a lab, the scratchpad, a runnable block and the page's progress line say
in French what they say, and the same page built in English still speaks English. The
sentences asked for are the ones the browser writes; the controls are found by the names the
build gave them (tests/sitebuild/test_language_markup.py checks those)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.harness import serve_page

pytestmark = pytest.mark.warm

PAGE = """# Normes

## Une racine

```numeric
id: q1
prompt: "La moyenne quadratique de $[1, 1, 3, 5]$, à deux décimales."
answer: 3
decimals: 2
explanation: "La moyenne des carrés vaut 9, sa racine 3."
```

```choice
id: q2
prompt: Que retire RMSNorm à LayerNorm ?
options:
  - text: la soustraction de la moyenne
    correct: true
    why: "RMSNorm mesure la ligne depuis zéro."
  - text: la division par une taille
    why: "Cette division est le cœur des deux normes."
```

```lab
lab: rms
id: rms
```

```python run="on"
x = np.arange(4)
x * 2
```
"""
NBSP = "\u00a0"


@pytest.fixture(scope="module")
def french(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("french"), PAGE, language="fr")
    yield site
    site.close()


@pytest.fixture(scope="module")
def english(tmp_path_factory):
    site = serve_page(tmp_path_factory.mktemp("english"), PAGE)
    yield site
    site.close()


def fr(text: str) -> str:
    """French typography: a no-break space before : ; ? ! and inside « »."""
    return re.sub(r" ([:;?!»])", NBSP + r"\1", text).replace("« ", "«" + NBSP)


CHECK = {"fr": "Vérifier", "en": "Check"}


def question(page, qid, language="fr"):
    box = page.locator(f'[data-question="{qid}"]')
    expect(box.get_by_role("button", name=CHECK[language])).to_be_enabled()  # mounted
    return box


def check(box, language="fr"):
    box.get_by_role("button", name=CHECK[language]).click()
    return box.get_by_role("status")


def answer(box, text, language="fr"):
    box.get_by_role("textbox").fill(text)
    return check(box, language)


def type_code(page, editor, text):
    """Type over the editor's text, as a student would."""
    editor.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type(text)


def progress_line(page, language="fr"):
    name = {"fr": "Votre progression sur cette page", "en": "Your progress on this page"}
    return page.get_by_role("region", name=name[language]).locator("summary")


def live_lab(page, french):
    """The French page's lab, once it says it is live."""
    page.goto(french.url(""))
    lab = page.locator('[data-livelab="lab"]')
    expect(
        lab.get_by_text(fr("En direct : calculé par Python dans votre navigateur."))
    ).to_be_visible(timeout=60_000)
    return lab


def test_a_numeric_question_and_the_progress_line_speak_french(page, french):
    page.goto(french.url(""))
    expect(progress_line(page)).to_have_text("0 question résolue sur 2.")
    summary = page.get_by_role("region", name="Avant de poursuivre")
    expect(summary.locator("[data-count]")).to_have_text(
        fr("0 question résolue sur 2. Reste à faire :")
    )
    expect(summary.get_by_role("listitem").first).to_have_text(
        re.compile(r"\(Une racine, pas encore essayée\)$")
    )
    box = question(page, "q1")
    close = "Pas encore. Presque. Calculez avec des valeurs non arrondies et donnez 2 décimales."
    expect(answer(box, "2.95")).to_have_text(close)
    box.get_by_role("textbox").press("End")
    box.get_by_role("textbox").press("5")
    expect(box.get_by_role("status")).to_have_text(
        fr("À propos de votre réponse précédente : ") + close
    )
    expect(answer(box, "3 pouces")).to_have_text(
        fr(
            "Impossible de lire « pouces » (caractère 3) : le nom « pouces » est inconnu ; "
            "les noms connus sont sqrt, sin, cos, exp, ln, pi et e."
        )
    )
    expect(answer(box, "sqrt(9)")).to_have_text("Exact.")
    expect(progress_line(page)).to_have_text("1 question résolue sur 2.")
    expect(summary.get_by_role("listitem")).to_have_count(1)  # the choice, still open


def test_a_choice_says_in_french_what_to_pick_and_why(page, french):
    page.goto(french.url(""))
    box = question(page, "q2")
    expect(check(box)).to_have_text("Choisissez d’abord l’une des options.")
    box.get_by_role("radio", name="la division par une taille").check()
    expect(check(box)).to_have_text("Pas encore. Cette division est le cœur des deux normes.")
    box.get_by_role("radio", name="la soustraction de la moyenne").check()
    expect(check(box)).to_have_text(
        "Exact. Chaque option indique maintenant pourquoi elle est juste ou fausse."
    )
    expect(box.get_by_text("Pas celle-ci.", exact=True)).to_be_visible()
    expect(box.get_by_text("Juste.", exact=True)).to_be_visible()


def test_a_lab_goes_live_and_hands_its_numbers_to_the_scratchpad_in_french(page, french):
    lab = live_lab(page, french)
    lab.get_by_role("button", name="Ouvrir dans le brouillon").click()
    pad = page.get_by_role("dialog", name="Brouillon Python")
    expect(pad).to_be_visible()
    status = pad.get_by_role("status")
    expect(status).to_have_text(
        re.compile(
            "^Les valeurs du lab «\u00a0.+\u00a0» sont dans le brouillon\u00a0; "
            r"appuyez sur Exécuter \(Ctrl\+Z rétablit le texte précédent\)\.$"
        )
    )


def test_a_lab_says_in_french_that_an_emptied_field_needs_a_number(page, french):
    # Found after issue 34 landed: this refusal came from livelab.options in English.
    lab = live_lab(page, french)
    field = lab.get_by_label("entry 1", exact=True)  # the course's own lab, in its words
    field.fill("")
    expect(lab.locator("[data-error]")).to_have_text(
        fr("x[0] attend un nombre : le champ est vide ou ne contient pas un nombre")
    )
    expect(lab).to_have_attribute("data-stale", "")
    field.fill("6")
    expect(lab.locator("[data-error]")).to_have_text("")
    expect(lab).not_to_have_attribute("data-stale", "")


def test_the_scratchpad_runs_clears_and_closes_in_french(page, french):
    page.goto(french.url(""))
    page.get_by_role("button", name="Brouillon Python", exact=True).click()
    pad = page.get_by_role("dialog", name="Brouillon Python")
    editor = pad.get_by_role("textbox", name="Code Python")
    expect(editor).to_be_focused(timeout=60_000)
    type_code(page, editor, "1/0")
    pad.get_by_role("button", name="Exécuter").click()
    expect(pad.get_by_role("status")).to_have_text(
        fr("ZeroDivisionError à la ligne 1 ; voir la sortie."), timeout=60_000
    )
    expect(pad.get_by_role("log", name="Sortie")).to_contain_text("ZeroDivisionError")
    pad.get_by_role("button", name="Effacer").click()
    expect(pad.get_by_role("status")).to_have_text(
        fr("La sortie et les noms que vous aviez définis sont effacés ; np et les noyaux restent.")
    )
    expect(pad.get_by_role("button", name="Arrêter")).to_be_disabled()
    pad.get_by_role("button", name="Fermer le brouillon").click()
    expect(pad).to_be_hidden()


def test_a_runnable_block_runs_and_resets_in_french(page, french):
    page.goto(french.url(""))
    block = page.get_by_role("region", name="Python exécutable, bloc 1")
    block.scroll_into_view_if_needed()  # its editor comes as it nears the window
    editor = block.get_by_role("textbox", name="Code Python, bloc 1")
    type_code(page, editor, "y = 1 +")
    block.get_by_role("button", name="Exécuter").click()
    status = block.get_by_role("status")
    expect(status).to_have_text(fr("SyntaxError à la ligne 1 ; voir la sortie."), timeout=60_000)
    block.get_by_role("button", name="Réinitialiser").click()
    expect(status).to_have_text(
        fr(
            "Retour au code tel que la page l’a écrit ; les noms déjà définis restent "
            "jusqu’au redémarrage de Python."
        )
    )
    block.get_by_role("button", name="Exécuter").click()
    expect(status).to_have_text("Terminé.", timeout=60_000)


def test_the_same_page_built_in_english_still_speaks_english(page, english):
    page.goto(english.url(""))
    expect(progress_line(page, "en")).to_have_text("0 of 2 solved.")
    expect(answer(question(page, "q1", "en"), "2.95", "en")).to_have_text(
        "Not yet. Close. Work with unrounded values and give 2 decimals."
    )
    expect(check(question(page, "q2", "en"), "en")).to_have_text("Pick one of the options first.")
    lab = page.locator('[data-livelab="lab"]')
    expect(lab.get_by_text("Live: computed by Python in your browser.")).to_be_visible(
        timeout=60_000
    )
    page.get_by_role("button", name="Python scratchpad", exact=True).click()
    pad = page.get_by_role("dialog", name="Python scratchpad")
    type_code(page, pad.get_by_role("textbox", name="Python code"), "1 + 1")
    pad.get_by_role("button", name="Run").click()
    expect(pad.get_by_role("status")).to_have_text("Done.", timeout=60_000)
    block = page.locator('[data-livelab="runnable"]')
    block.scroll_into_view_if_needed()
    expect(block.get_by_role("textbox", name="Python code, block 1")).to_be_visible()

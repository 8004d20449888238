"""The widgets' sentences in the site's language (livelab.i18n): complete tables, every key used
exists, every key is used, and the values a sentence names are the same in each language."""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

import pytest

from livelab import i18n

PACKAGE = Path(i18n.__file__).parents[1]
WEB = PACKAGE / "web"
PARAM = re.compile(r"\{(\w+)\}")
# A key in the code: t("area.name" / text("area.name" (livelab.i18n, web/i18n.js); a key is
# always written out whole, so that this finds every one.
USED_JS = re.compile(r"""\bt\(\s*["'`]([\w.@-]+)["'`]""")
USED_PY = re.compile(r"""\btext\(\s*["']([\w.@-]+)["']""")


def own(code: str) -> dict[str, object]:
    return json.loads((i18n.HERE / f"{code}.json").read_text(encoding="utf-8"))


def sentences(value: object) -> list[str]:
    return list(value.values()) if isinstance(value, dict) else [str(value)]


def used_keys() -> dict[str, list[str]]:
    """key -> the files that use it, over the browser code and the Python the build runs."""
    found: dict[str, list[str]] = {}
    files = [p for p in WEB.rglob("*.js") if "editor/codemirror" not in p.as_posix()]
    files += [p for p in PACKAGE.rglob("*.py") if "i18n" not in p.parts]
    for path in files:
        pattern = USED_JS if path.suffix == ".js" else USED_PY
        for key in pattern.findall(path.read_text(encoding="utf-8")):
            found.setdefault(key, []).append(path.relative_to(PACKAGE).as_posix())
    return found


def test_english_and_french_ship_complete() -> None:
    assert {"en", "fr"} <= set(i18n.languages())
    assert i18n.missing("fr") == []
    assert i18n.warnings("fr") == []


@pytest.mark.parametrize("code", ["fr"])
def test_each_translation_names_the_same_values_and_plural_forms_as_english(code: str) -> None:
    english, other = own("en"), own(code)
    assert set(other) - set(english) == set(), "keys English does not have"
    for key, value in english.items():
        if key.startswith("@"):
            continue
        assert isinstance(value, dict) == isinstance(other[key], dict), key
        if isinstance(value, dict):
            assert set(other[key]) == set(value) == {"one", "other"}, key
        names = {n for s in sentences(value) for n in PARAM.findall(s)}
        theirs = {n for s in sentences(other[key]) for n in PARAM.findall(s)}
        assert theirs == names, key


def test_french_puts_a_no_break_space_before_its_high_punctuation() -> None:
    for key, value in own("fr").items():
        for sentence in sentences(value):
            # Not a plain space, nor none at all (a URL's :// aside).
            bare = re.findall(r"[^\u00a0\u202f{](?:[;?!»]|:(?!//))|«[^\u00a0\u202f]", sentence)
            assert not bare, f"{key}: {sentence!r}"


def test_every_key_the_code_uses_is_in_english_and_every_english_key_is_used() -> None:
    used = used_keys()
    english = {k for k in own("en") if not k.startswith("@")}
    assert {k: v for k, v in used.items() if k not in english} == {}
    assert sorted(english - set(used)) == []


def test_the_package_strings_js_is_the_english_table() -> None:
    # Regenerate with `python -m livelab.i18n` after editing en.json.
    shipped = (WEB / i18n.STRINGS_JS).read_text(encoding="utf-8")
    assert shipped == i18n.strings_module("en")


def test_a_theme_language_finds_its_table_by_its_first_part_or_falls_back_with_a_warning() -> None:
    assert i18n.resolve("fr") == ("fr", [])
    assert i18n.resolve("fr-CA") == ("fr", [])
    assert i18n.resolve("fr_FR") == ("fr", [])
    code, warnings = i18n.resolve("tlh")
    assert code == "en"
    assert "'tlh'" in warnings[0] and "i18n/tlh.json" in warnings[0]


def test_text_fills_values_and_picks_the_plural_form(monkeypatch: pytest.MonkeyPatch) -> None:
    plural = next(k for k, v in own("en").items() if isinstance(v, dict))
    one, other = own("en")[plural]["one"], own("en")[plural]["other"]
    names = {n for n in PARAM.findall(other) if n != "count"}
    values = {n: f"<{n}>" for n in names}
    monkeypatch.setattr(i18n, "_current", ["en"])
    assert i18n.text(plural, count=1, **values) == PARAM.sub(
        lambda m: "1" if m.group(1) == "count" else f"<{m.group(1)}>", one
    )
    assert "2" in i18n.text(plural, count=2, **values) or "{count}" not in other
    # French counts 0 as one; English as other.
    assert i18n.plural("fr", 0) == "one" and i18n.plural("en", 0) == "other"
    with pytest.raises(i18n.TranslationError, match="pass count="):
        i18n.text(plural, **values)
    with pytest.raises(i18n.TranslationError, match="no sentence"):
        i18n.text("no.such.key")


def test_a_missing_value_is_an_error_not_a_sentence_with_braces(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = next(k for k, v in own("en").items() if isinstance(v, str) and PARAM.search(v))
    monkeypatch.setattr(i18n, "_current", ["en"])
    with pytest.raises(i18n.TranslationError, match="needs a value"):
        i18n.text(key)


def test_a_missing_french_key_falls_back_to_english_and_the_build_names_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    key = next(k for k, v in own("en").items() if isinstance(v, str) and not PARAM.search(v))
    french = {k: v for k, v in own("fr").items() if k != key}
    monkeypatch.setattr(i18n, "_own", lambda code: french if code == "fr" else own(code))
    monkeypatch.setattr(i18n, "_merged", cache(i18n._merged.__wrapped__))  # not the real tables
    monkeypatch.setattr(i18n, "_current", ["fr"])
    assert i18n.text(key) == own("en")[key]
    assert i18n.missing("fr") == [key]
    assert key in i18n.warnings("fr")[0]


# A sentence in a string of the code a student's page runs: a capital, then words.
ENGLISH_SENTENCE = re.compile(r"""["'`]([A-Z][a-z]+(?: [a-zA-Z’']+){2,}[.:;!?…]?)""")
NOT_SHOWN = {
    # Pyodide's own message, matched to recognise a broken interpreter.
    "runtime/worker/worker.js": {"Handler takes too many arguments"},
    # An HTTP status text, which no page shows (the page itself is in the site's language).
    "sw.js": {"Unavailable offline"},
}


def test_no_english_sentence_is_left_in_the_code_the_student_s_page_runs() -> None:
    """Every sentence a student reads comes from the table; comments, console and thrown
    programming errors (for developers) aside."""
    left = []
    for path in sorted(WEB.rglob("*.js")):
        rel = path.relative_to(WEB).as_posix()
        if rel.startswith("editor/codemirror") or rel == i18n.STRINGS_JS:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("//")[0] if "://" not in line else line
            if code.lstrip().startswith(("*", "/*")) or "console." in code or "Error(" in code:
                continue
            for sentence in ENGLISH_SENTENCE.findall(code):
                if sentence not in NOT_SHOWN.get(rel, set()):
                    left.append(f"{rel}:{number}: {sentence}")
    assert left == []

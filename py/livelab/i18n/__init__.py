"""Every sentence a student sees, in the site's language: one table per language.

Each table is `<code>.json` beside this file: key -> sentence, with `{name}` for a value the
caller passes, or {"one": ..., "other": ...} for a sentence that depends on `count`. English
(`en.json`) holds every key; another language falls back to it key by key, and the build warns
for each key it lacks (livelab.builder.site_assets: a strict MkDocs build then fails).

The build picks the language from the theme's `language` (`use`), gives the browser its table
as `strings.js` (web/i18n.js reads it) and puts the same table as `site.json` into the zip of
the browser's Python in place of every `<code>.json`, so the worker's messages come in the
same language (`_SITE`).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

HERE = Path(__file__).parent
DEFAULT = "en"
SITE_FILE = "site.json"
"""Written into the browser's Python archive by the build: the site's table (`table`)."""
STRINGS_JS = "strings.js"
"""The browser's table, beside livelab.js (web/strings.js is the English one Node tests read)."""
_PARAM = re.compile(r"\{(\w+)\}")


class TranslationError(LookupError):
    """A key no table has, or a sentence whose values were not all given."""


def languages() -> list[str]:
    """Every language with a table, by code."""
    return sorted(p.stem for p in HERE.glob("*.json") if p.name != SITE_FILE)


@cache
def _own(code: str) -> dict[str, object]:
    path = HERE / f"{code}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}


def resolve(language: str | None) -> tuple[str, list[str]]:
    """The table for a theme's language ("fr", "fr-CA", "pt_BR"), and any warning about it."""
    asked = (language or DEFAULT).strip()
    for code in (asked, re.split(r"[-_]", asked)[0].lower()):
        if code in languages():
            return code, []
    return DEFAULT, [
        f"livelab has no table for the language {asked!r}; its widgets speak English "
        f"(tables: {', '.join(languages())}; add py/livelab/i18n/{asked}.json)"
    ]


def missing(code: str) -> list[str]:
    """The keys of English that the table `code` lacks (each falls back to English)."""
    own = _own(code)
    return sorted(key for key in _own(DEFAULT) if key not in own)


def warnings(language: str | None) -> list[str]:
    """What a build in this language should warn about: no table, or keys the table lacks."""
    code, found = resolve(language)
    gaps = missing(code)
    if gaps:
        shown = ", ".join(gaps[:8]) + (f" and {len(gaps) - 8} more" if len(gaps) > 8 else "")
        found.append(
            f"livelab's {code}.json lacks {len(gaps)} sentence(s), shown in English: {shown}"
        )
    return found


@cache
def _merged(code: str) -> dict[str, object]:
    """English with the language's own sentences over it (made once per language)."""
    return {**_own(DEFAULT), **_own(code)}


def table(code: str) -> dict[str, object]:
    """What a site in `code` shows: its sentences over English's, and its code."""
    return {**_merged(code), "@code": code}


_current = [DEFAULT]


def use(language: str | None) -> str:
    """Speak this language from now on (the build, per site); return the table's code."""
    _current[0] = resolve(language)[0]
    return _current[0]


def current() -> str:
    return str(_SITE["@code"]) if _SITE is not None else _current[0]


def plural(code: str, count: float) -> str:
    """The plural form of `count`: French counts 0 and 1 as one, English only 1."""
    if code.split("-")[0] == "fr":
        return "one" if 0 <= count < 2 else "other"
    return "one" if count == 1 else "other"


def text(key: str, **params: object) -> str:
    """The sentence `key` in the current language, with its `{name}`s filled from params."""
    code = current()
    # In the browser: the site's table, with English already under it.
    found = _SITE if _SITE is not None else _merged(code)
    value = found.get(key)
    if value is None:
        raise TranslationError(f"no sentence {key!r} in livelab's tables")
    if isinstance(value, dict):
        count = params.get("count")
        if not isinstance(count, int | float):
            raise TranslationError(f"{key!r} depends on a count; pass count=")
        value = value.get(plural(code, count), value["other"])

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in params:
            raise TranslationError(f"{key!r} needs a value for {{{name}}}")
        return str(params[name])

    return _PARAM.sub(fill, str(value))


def strings_module(code: str) -> str:
    """The browser's table as an ES module: `export default {...}`."""
    body = json.dumps(table(code), ensure_ascii=False, indent=1, sort_keys=True)
    return (
        "// The sentences of this site's widgets (livelab.i18n): written by the build.\n"
        f"export default {body};\n"
    )


def _site_table() -> dict[str, object] | None:
    """In the browser: the site's table, which the build put beside this file."""
    path = HERE / SITE_FILE
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


_SITE = _site_table()

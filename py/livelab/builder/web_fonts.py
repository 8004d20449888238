"""A livelab course is self-hosted: no page asks another origin for anything, so it is private
and works offline after one visit (the service worker precaches the whole site).

Material for MkDocs links its web fonts from Google Fonts unless `theme.font` is false, and its
default is Roboto. So a course that leaves the font alone gets the theme's own system-font
stack instead (said in the log), and a course that names a font stops the build with the line
to change: livelab does not quietly drop a choice the author made.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.plugins.livelab")
MATERIAL_DEFAULT = {"text": "Roboto", "code": "Roboto Mono"}
FIX = "font: false"


def _font_line(config_file: Path) -> int | None:
    """The line of `font:` in the configuration's theme section, if the author wrote one."""
    try:
        lines = config_file.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    in_theme = False
    for number, line in enumerate(lines, start=1):
        if re.match(r"theme\s*:", line):
            in_theme = True
        elif in_theme and re.match(r"\S", line):
            in_theme = False
        elif in_theme and re.match(r"\s+font\s*:", line):
            return number
    return None


def keep_self_hosted(config) -> None:
    """Turn Material's default Google web fonts off, or fail on a font the author named."""
    theme = config.theme
    if theme.name != "material" or not theme.get("font"):
        return
    config_file = Path(config.config_file_path or "mkdocs.yml")
    line = _font_line(config_file)
    if line is None and theme["font"] == MATERIAL_DEFAULT:
        theme["font"] = False
        log.info(
            "livelab: the theme's web fonts come from Google Fonts; turned off so the course "
            "makes no request to another origin (the theme's system fonts are used). "
            "Write '%s' under 'theme:' to say so in %s.",
            FIX,
            config_file.name,
        )
        return
    where = f"{config_file.name}:{line}" if line else config_file.name
    raise PluginError(
        f"livelab: {where}: theme.font asks Google Fonts for {theme['font']}, so every page "
        "would load it from another origin and the course would not be private or complete "
        f"offline. Write '{FIX}' under 'theme:' instead (the theme's system fonts are used)."
    )

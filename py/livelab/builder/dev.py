"""What `mkdocs serve` needs beyond a build: isolation headers and Python edits taken up.

Under `mkdocs serve` the pages get the same cross-origin-isolation headers as under `livelab
serve`, so Stop interrupts a run in place for authors as it does for students. And when the
author edits Python while the server runs, the course's own modules are reloaded for real
(their labs and code questions register again); an edit of livelab itself cannot be reloaded
safely (its classes are held by everything built so far), so the log says to restart.
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from livelab.builder.serve import ISOLATION_HEADERS

log = logging.getLogger("mkdocs.plugins.livelab")

RESTART_NOTE = (
    "livelab: Python code of livelab itself changed ({files}); the pages are rebuilt with the "
    "code loaded at start, so stop and restart `mkdocs serve` to use the new code."
)


def isolate(app: Callable[..., Iterable[bytes]]) -> Callable[..., Iterable[bytes]]:
    """Wrap a WSGI app so that every response carries the cross-origin-isolation headers."""

    def isolated(environ: dict, start_response: Callable[..., Any]) -> Iterable[bytes]:
        def start(status: str, headers: list[tuple[str, str]], *exc_info: Any) -> Any:
            present = {name.lower() for name, _ in headers}
            extra = [(k, v) for k, v in ISOLATION_HEADERS.items() if k.lower() not in present]
            return start_response(status, [*headers, *extra], *exc_info)

        return app(environ, start)

    return isolated


def module_files(name: str) -> list[Path]:
    """The .py files of an imported module: the file itself, or every file of its package."""
    module = sys.modules[name]
    paths = getattr(module, "__path__", None)
    if paths:
        return sorted(p for folder in paths for p in Path(folder).rglob("*.py"))
    file = getattr(module, "__file__", None)
    return [Path(file)] if file else []


class SourceWatch:
    """Modification times of Python files, to tell which changed between two builds."""

    def __init__(self, package_dir: Path, course_modules: Iterable[str]) -> None:
        self.package_dir = package_dir
        self.course_modules = list(course_modules)
        self.seen = self._times()

    def _times(self) -> dict[Path, float]:
        files = list(self.package_dir.rglob("*.py"))
        for name in self.course_modules:
            if name in sys.modules:
                files += module_files(name)
        return {f: f.stat().st_mtime for f in files if f.is_file()}

    def changed(self) -> list[Path]:
        """Files added or edited since the last call."""
        now = self._times()
        edited = sorted(f for f, t in now.items() if self.seen.get(f) != t)
        self.seen = now
        return edited

    def take_up(self) -> list[str]:
        """Reload edited course modules; log a restart note for edits of livelab itself.

        Returns the names of the reloaded modules.
        """
        edited = self.changed()
        ours = [f for f in edited if f.is_relative_to(self.package_dir)]
        if ours:
            names = ", ".join(f.relative_to(self.package_dir).as_posix() for f in ours)
            log.warning(RESTART_NOTE.format(files=names))
        reloaded = []
        for name in self.course_modules:
            files = set(module_files(name)) if name in sys.modules else set()
            if files & set(edited):
                for sub in sorted(n for n in sys.modules if n == name or n.startswith(name + ".")):
                    importlib.reload(sys.modules[sub])
                reloaded.append(name)
                log.info("livelab: reloaded the course module %s", name)
        return reloaded

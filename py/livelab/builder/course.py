"""A course's own Python modules, named in the plugin's `modules` setting.

The build imports each one, so the labs and code questions it registers are known to the
fences; the browser gets the same files (livelab.builder.assets zips them beside livelab/)
and the worker imports them after livelab, so a lab of the course runs there too.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence
from pathlib import Path


class CourseModuleError(RuntimeError):
    """A module named in `modules` cannot be imported or cannot run in the browser."""


def import_course_modules(names: Sequence[str], course_dir: Path) -> dict[str, Path]:
    """Import each named module; return name -> its source (a .py file or a package folder).

    The course's folder (where its mkdocs.yml is) comes first on sys.path, so a module
    beside mkdocs.yml is found without installing it. Only top-level names are taken: the
    browser gets whole top-level modules, so a dotted name would ship half a package.
    """
    folder = str(course_dir.resolve())
    if folder not in sys.path:
        sys.path.insert(0, folder)
    found: dict[str, Path] = {}
    for name in names:
        if not name.isidentifier() or name == "livelab":
            raise CourseModuleError(
                f"The module name {name!r} in the livelab setting `modules` is not a top-level "
                "module of the course; name a module file or package folder beside mkdocs.yml "
                "or installed in this Python."
            )
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            raise CourseModuleError(
                f"The course module {name!r} named in the livelab setting `modules` could not "
                f"be imported: {exc}. Put it beside mkdocs.yml or install it."
            ) from exc
        spec = module.__spec__
        locations = list(spec.submodule_search_locations or []) if spec else []
        source = Path(locations[0]) if locations else Path(getattr(module, "__file__", "") or "")
        if not (source.is_dir() or source.suffix == ".py"):
            raise CourseModuleError(
                f"The course module {name!r} is not Python source ({source}); the browser "
                "can only run modules written in Python."
            )
        found[name] = source
    _load_every_registered_name()
    return found


def _load_every_registered_name() -> None:
    """Import every module of every package added to the registries, so that two packages
    registering one name fail the build here: a page that asks for a name imports only the
    module of that name, and would silently get whichever package answered first."""
    from livelab.labs import all_labs
    from livelab.questions import all_code_questions

    try:
        all_labs()
        all_code_questions()
    except ValueError as exc:
        raise CourseModuleError(str(exc)) from exc

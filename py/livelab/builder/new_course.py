"""`livelab new DIR`: a small course that builds, serves and passes its own tests as written.

The files come from scaffold/ beside this module (each ends in .tmpl, so no tool takes them
for this package's own code): mkdocs.yml, a page with a runnable block, a Predict question, a
lab of the course's own, a multiple-answer choice and an exercise with a blank of several
lines, the course's Python in course_labs/ and its tests in tests/ (selftest/ in the scaffold).
"""

from __future__ import annotations

import json
from pathlib import Path

SCAFFOLD = Path(__file__).with_name("scaffold")
SUFFIX = ".tmpl"
RENAMED = {"selftest": "tests"}
"""Scaffold folders written under another name (a wheel of livelab carries no tests/)."""


class NewCourseError(RuntimeError):
    """The folder cannot take a new course; the message says why."""


def title_of(folder: Path) -> str:
    """'my-first_course' -> 'My first course'."""
    words = folder.resolve().name.replace("-", " ").replace("_", " ").split()
    return " ".join(words).capitalize() or "My course"


def write_course(dest: Path, title: str | None = None) -> list[Path]:
    """Write the course into dest (new or empty); return the files written."""
    if dest.exists() and (not dest.is_dir() or any(dest.iterdir())):
        raise NewCourseError(f"{dest} is not an empty folder: livelab new writes only a new one")
    title = title or title_of(dest)
    written = []
    for source in sorted(SCAFFOLD.rglob(f"*{SUFFIX}")):
        parts = source.relative_to(SCAFFOLD).parts
        out = dest.joinpath(RENAMED.get(parts[0], parts[0]), *parts[1:])
        out = out.with_name(out.name.removesuffix(SUFFIX))
        out.parent.mkdir(parents=True, exist_ok=True)
        text = source.read_text(encoding="utf-8")
        text = text.replace("{{title_yaml}}", json.dumps(title)).replace("{{title}}", title)
        out.write_text(text, encoding="utf-8")
        written.append(out)
    return written


def _new_command(args) -> int:
    import sys

    dest = Path(args.dest)
    try:
        files = write_course(dest, args.title)
    except NewCourseError as exc:
        print(f"livelab: {exc}", file=sys.stderr)
        return 1
    print(f"livelab: wrote a course of {len(files)} files in {dest}. Next, in that folder:")
    print("  mkdocs serve          # the site at http://127.0.0.1:8000/, rebuilt as you edit")
    print("  python -m pytest      # its own tests: the kernel, then livelab check")
    return 0


def add_command(sub) -> None:
    cmd = sub.add_parser("new", help="write a small course that builds and passes its own tests")
    cmd.add_argument("dest", help="a new or empty folder")
    cmd.add_argument("--title", help="the site's name (default: from the folder's name)")
    cmd.set_defaults(handler=_new_command)

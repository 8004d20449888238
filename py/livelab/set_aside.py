"""Proof that a runner's interpreter holds nothing of the course a blank could borrow.

A runner (the worker that runs one blank of a code question, then ends) is booted without
the course: the boot unpacks only livelab's engine, writes no bytecode of the course and
imports none of its modules, so the labs, the registered questions with their reference
kernels, reference blanks and replay data never enter it, and the expected outputs stay in
the main worker. check_no_course confirms that before any student code runs; a leftover is
a bug, and the runner refuses to start (CourseStillThere) rather than run student code
beside it.
"""

from __future__ import annotations

import gc
import os
import sys
from collections.abc import Iterable
from types import FunctionType

ENGINE = "livelab"
"""The one top-level package a runner has: its engine code, which holds no course."""


class CourseStillThere(RuntimeError):
    """Something of the course is in the runner's interpreter."""


def course_tops(modules: Iterable[str]) -> set[str]:
    """The top-level names of the course's modules (the plugin's `modules` setting)."""
    return {name.partition(".")[0] for name in modules} - {ENGINE}


def _leftovers(files_root: str, tops: set[str]) -> list[str]:
    found = [f"module {n}" for n in sys.modules if n.partition(".")[0] in tops]
    found += [
        f"file {name}"
        for name in os.listdir(files_root)
        if name != ENGINE and name.removesuffix(".py") in tops | {"__pycache__"}
    ]
    course_files = tuple(os.path.join(files_root, top) for top in tops)
    for obj in gc.get_objects():
        if isinstance(obj, FunctionType) and obj.__code__.co_filename.startswith(course_files):
            found.append(f"function {obj.__qualname__} from {obj.__code__.co_filename}")
    from livelab.questions import CODE_QUESTIONS

    found += [f"code question {name}" for name in CODE_QUESTIONS.items]
    return found


def check_no_course(files_root: str, modules: Iterable[str]) -> None:
    """Raise CourseStillThere when a module, file or function of the course is here.

    files_root is the folder the package was unpacked into; modules, the course's modules.
    """
    left = _leftovers(files_root, course_tops(modules))
    if left:
        raise CourseStillThere("the course is in this interpreter: " + "; ".join(left[:5]))

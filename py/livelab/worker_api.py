"""The worker's Python side: every message from the browser lands in one of these functions.

Arguments and results cross the JavaScript boundary as JSON strings, so no proxies leak and
the same functions are easy to test in CPython. Errors come back as data, never raised, in
one shape (error_reply, which the worker copies for its own: error_shape):
{"error": {type, message, line, column, deep, asleep}}; a stop
(KeyboardInterrupt, raised by the runtime) has type "KeyboardInterrupt", deep true when
it caught a runaway recursion and asleep true when it caught the code in time.sleep.

After every request that ran student code the worker calls after_request with the snapshot
taken by clean_state, and restarts Python when the answer says so (see worker_state).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import marshal
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from livelab import i18n, sleep
from livelab.explain import MEMORY_LIMIT, broken, with_plain

if TYPE_CHECKING:
    from livelab.worker_state import Snapshot

# The grader (livelab.grading_run and what it imports) and livelab.worker_state are imported
# by the calls that need them, not here: a lab's first view does not wait for them, and
# clean_state loads them before any student code runs.

STUDENT_FILE = "<your code>"
STUDENT_CALLS = frozenset(
    {"run", "code_run", "code_check", "code_execute", "scratch_run", "scratch_clear"}
)
"""The calls that run student code: before the first, the worker calls clean_state; after
each, after_request compares the state with that snapshot. (Clearing the scratchpad counts:
dropping its objects can run their __del__.)"""
MEMORY_KEPT = MEMORY_LIMIT // 2
"""WebAssembly memory (bytes) above which the worker is replaced after a request: memory
never shrinks. (It cannot grow past MEMORY_LIMIT at all: web/runtime/worker/memory-cap.js.)"""
WARM_MODULES = ("numpy.fft", "numpy.linalg", "numpy.random")
"""NumPy's submodules a student is likely to reach for: clean_state imports them."""
CHECKED_HASH_PYC = 0b11
"""The flags of a .pyc that Python checks against its source's hash (PEP 552), not mtime."""
DEEP_STACK = 200
"""Frames on the stack when a stop arrives that mean a runaway recursion, not a slow loop."""
_damaged = False
"""Whether a reply since the last after_request explained an error as a damaged interpreter
(explain.broken(), for CPython's explain.BROKEN_TEXT): then the worker is replaced."""


def restart_note(restart: str) -> str:
    """The sentence for the page when the worker is replaced for this reason (after_request)."""
    if restart == "changed":
        return i18n.text("worker.restart_changed")
    if restart == "memory":
        return i18n.text("worker.restart_memory", limit=MEMORY_KEPT // 2**20)
    return i18n.text("worker.restart_broken")


def _to_json(value: object) -> object:
    """json.dumps fallback for NumPy values."""
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    raise TypeError(f"cannot send {type(value).__name__} to the page")


def _dumps(value: object) -> str:
    return json.dumps(value, default=_to_json, allow_nan=False)


def error_reply(
    kind: str,
    message: str,
    line: int | None = None,
    column: int | None = None,
    deep: bool = False,
    asleep: bool = False,
) -> dict:
    """The one shape of an error the worker sends: type, message, where, and for a stop
    whether it came deep in a recursion or during time.sleep."""
    return {
        "type": kind,
        "message": message,
        "line": line,
        "column": column,
        "deep": deep,
        "asleep": asleep,
    }


def error_shape() -> str:
    """error_reply with an empty type and message, as JSON: the worker copies it once at boot
    (web/runtime/worker/worker.js) for the errors it makes itself, so every error has this one
    shape, also after a crash, when Python can answer nothing more."""
    return _dumps(error_reply("", ""))


def error_data(exc: BaseException, filename: str = STUDENT_FILE) -> dict:
    """An exception as error_reply: its line/column in `filename` when known."""
    line = column = None
    if isinstance(exc, SyntaxError) and exc.filename == filename:
        line, column = exc.lineno, exc.offset
    else:
        frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == filename]
        if frames:
            colno = frames[-1].colno
            line, column = frames[-1].lineno, None if colno is None else colno + 1
    kind = type(exc).__name__
    message = exc.msg if isinstance(exc, SyntaxError) else with_plain(kind, str(exc))
    return error_reply(kind, message, line, column)


def _run(code: str) -> dict:
    from livelab.grading_run import OUTPUT_LIMIT, CappedOutput, no_input

    # Capped as a code question's output is, so a print loop cannot flood the page.
    out, err = CappedOutput(OUTPUT_LIMIT), CappedOutput(OUTPUT_LIMIT)
    error = None
    namespace = {"__name__": "__main__", "np": np}
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), no_input():
        try:
            exec(compile(code, STUDENT_FILE, "exec"), namespace)
        except Exception as exc:
            error = error_data(exc)
    return {"stdout": out.getvalue(), "stderr": err.getvalue(), "error": error}


def run(code: str) -> str:
    """Execute code in a fresh namespace with np bound; return {stdout, stderr, error} as JSON."""
    return _dumps(_run(code))


def _lab(kind: str, params: dict) -> dict:
    from livelab.labs import lab_view

    return lab_view(kind, params)


def _code_run(question: str, blank: str | Sequence[str]) -> dict:
    from livelab import grading

    return grading.run(question, blank)


def _code_check(question: str, blank: str | Sequence[str]) -> dict:
    from livelab import grading

    return grading.check(question, blank)


class CheckVoid(Exception):
    """A check whose run cannot be graded: its reply is not in the shape the runner writes."""


def _exercise(question: str, exercise: dict | None) -> None:
    """An exercise's question is defined from the data the page sends with it (once)."""
    if exercise is not None:
        from livelab.questions.exercise import define

        define(question, exercise)


def _code_plan(question: str, action: str, exercise: dict | None = None) -> dict:
    from livelab import grading

    _exercise(question, exercise)
    return grading.plan(question, action)


def _code_execute(plan: dict, blank: str | Sequence[str]) -> dict:
    from livelab.grading_execute import execute

    return execute(plan, blank)


def _code_grade(question: str, raw: dict, exercise: dict | None = None) -> dict:
    from livelab import grading
    from livelab.grading_wire import WireError

    _exercise(question, exercise)
    try:
        return grading.grade(question, raw)
    except WireError as err:
        raise CheckVoid(i18n.text("worker.check_void", problem=err)) from None


def _code_finish(question: str, raw: dict, exercise: dict | None = None) -> dict:
    from livelab import grading
    from livelab.grading_wire import WireError

    _exercise(question, exercise)
    try:
        return grading.finish_run(question, raw)
    except WireError as err:
        raise CheckVoid(i18n.text("worker.run_void", problem=err)) from None


def _scratch_run(code: str, space: str = "scratchpad") -> dict:
    from livelab import scratch

    return scratch.run(code, space)


def _scratch_clear(space: str = "scratchpad") -> dict:
    from livelab import scratch

    return scratch.clear(space)


def _packages_import(names: list[str]) -> list[str]:
    from livelab import figures

    return figures.warm(names)


def _lab_scratch(kind: str, params: dict) -> str:
    from livelab.labs import lab_scratch

    return lab_scratch(kind, params)


def _lab_run_start(kind: str, params: dict, budget_ms: float = 150) -> dict:
    from livelab.labs import runs

    return runs.run_start(kind, params, budget_ms)


def _lab_run_next(run: int, budget_ms: float = 150) -> dict:
    from livelab.labs import runs

    return runs.run_next(run, budget_ms)


def _lab_run_stop(run: int) -> dict:
    from livelab.labs import runs

    return runs.run_stop(run)


# Name -> function the page may call. Nothing outside this table is reachable by name.
CALLS: dict[str, Callable[..., object]] = {
    "run": _run,
    "lab": _lab,
    "code_run": _code_run,
    "code_check": _code_check,
    "code_plan": _code_plan,
    "code_execute": _code_execute,
    "code_grade": _code_grade,
    "code_finish": _code_finish,
    "scratch_run": _scratch_run,
    "scratch_clear": _scratch_clear,
    "packages_import": _packages_import,
    "lab_scratch": _lab_scratch,
    "lab_run_start": _lab_run_start,
    "lab_run_next": _lab_run_next,
    "lab_run_stop": _lab_run_stop,
}


ROLES: dict[str, tuple[str, ...]] = {
    "main": (
        "lab",
        "lab_scratch",
        "lab_run_start",
        "lab_run_next",
        "lab_run_stop",
        "code_plan",
        "code_grade",
        "code_finish",
    ),
    "scratch": ("run", "scratch_run", "scratch_clear", "packages_import"),
    "runner": ("code_execute",),
}
"""What each kind of worker answers (the browser names a worker's role when it starts it).
The main worker draws labs and grades, and never runs student code; the scratchpad's worker
runs free code; a runner runs one blank of a code question and is then ended. code_run and
code_check, both halves in one interpreter, are for CPython only."""


def role_calls(role: str) -> list[str]:
    """The calls a worker of that role answers; [] for a role that does not exist. A worker
    whose role runs student code gets the stoppable time.sleep (livelab.sleep) here, once
    at boot, before any of it runs."""
    calls = list(ROLES.get(role, ()))
    if STUDENT_CALLS.intersection(calls):
        sleep.install()
    return calls


def call(name: str, args_json: str) -> str:
    """Call a listed function with keyword arguments; return {value} or {error} as JSON."""
    global _damaged
    if name not in CALLS:
        return _dumps({"error": error_reply("LookupError", f"no call named {name!r}")})
    try:
        reply = _dumps({"value": CALLS[name](**json.loads(args_json))})
    except Exception as exc:
        reply = _dumps({"error": error_data(exc)})
    except KeyboardInterrupt as stop:
        why = {"deep": _in_recursion(stop), "asleep": sleep.asleep(stop)}
        reply = _dumps({"error": error_reply("KeyboardInterrupt", "stopped", **why)})
    _damaged = _damaged or _escaped(broken()[1:]) in reply
    return reply


def _escaped(text: str) -> str:
    """text as a JSON reply holds it (non-ASCII as \\u escapes), without the json module,
    which student code may have broken. Given without its first letter, which the
    scratchpad capitalizes."""
    return "".join(c if ord(c) < 128 else f"\\u{ord(c):04x}" for c in text)


def _in_recursion(stop: KeyboardInterrupt) -> bool:
    """Whether a stop arrived deep in a recursion, or while a RecursionError was handled."""
    depth, tb = 0, stop.__traceback__
    while tb is not None:
        depth, tb = depth + 1, tb.tb_next
    context = stop.__context__
    while context is not None and not isinstance(context, RecursionError):
        context = context.__context__
    return depth > DEEP_STACK or context is not None


def clean_state(files_root: str | None = None) -> Snapshot:
    """Load and warm up everything a call can reach, then record the state for later checks.

    The worker calls this just before the first request that runs student code. Every
    question is checked and run once with trusted blanks (right and failing), every lab
    drawn and the scratchpad exercised (_warm_scratchpad), so that the modules they import
    lazily are loaded now; NumPy's submodules a
    student is likely to reach for are loaded too. files_root is the folder the package was
    unpacked into (its files are hashed as well).
    """
    from livelab.labs import all_labs
    from livelab.questions import all_code_questions
    from livelab.worker_state import refuse_audit_hooks, take_snapshot

    sleep.install()
    for module in WARM_MODULES:
        importlib.import_module(module)
    drawn = []
    for name, chosen in all_labs().items():  # all_labs imports every lab module first
        if chosen.run is None:
            _lab(name, {})
            drawn.append(name)
        else:  # a lab that trains: its first chunk loads what it uses; the whole run takes
            # seconds of Pyodide, which would hold up the first student run as long
            next(iter(chosen.run(**chosen.params.defaults())), None)
    _run("print(np.arange(3) / 2)")
    _warm_scratchpad(drawn)
    for name, question in all_code_questions().items():
        for blank in (question.reference_blank, "1 / 0"):
            _code_check(name, blank)
            _code_run(name, blank)
    refuse_audit_hooks()
    return take_snapshot(files_root)


def _warm_scratchpad(labs: list[str]) -> None:
    """Run what the scratchpad runs (help, a shown value, errors, every lab's code) once,
    so the modules it imports lazily (pydoc for help) are loaded before the snapshot; then
    forget it all, so the student's first run starts from fresh names."""
    from livelab import scratch

    for name in labs:
        with contextlib.suppress(ValueError):  # a lab without scratch code
            scratch.run(_lab_scratch(name, {}))
    for code in ("help(np.mean)\nx = np.arange(3)\nx / 2", "x = = 1", "1 / 0"):
        scratch.run(code)
    scratch.clear()


def packages_ready(snapshot: Snapshot | None, files_root: str | None = None) -> Snapshot | None:
    """The clean state once a course's extra packages are imported (packages_import, a
    request of no student code): importing them may set attributes on modules the snapshot
    holds already, and no student code ran since the last check, so the snapshot is taken
    again. None while there is none yet (clean_state takes it with them in)."""
    from livelab.worker_state import take_snapshot

    return None if snapshot is None else take_snapshot(files_root)


def after_request(
    snapshot: Snapshot | None, ran_student_code: bool, heap_bytes: int
) -> tuple[str | None, str | None]:
    """Whether the worker must be replaced after a request: (restart, note).

    restart is "changed" (student code changed the interpreter: see worker_state),
    "broken" (a reply explained an error as a damaged interpreter), "memory" (the
    WebAssembly memory grew past MEMORY_KEPT) or None; note is the sentence
    for the page. After a request that ran no student code, the modules it imported join
    the snapshot; after one that did, they are forgotten (worker_state.forget_new_modules).
    A tuple, not JSON: student code may have broken the json module.
    """
    global _damaged
    damaged, _damaged = _damaged, False
    restart = None
    if damaged:
        restart = "broken"
    elif snapshot is not None and not ran_student_code:
        snapshot.adopt_new_modules()
    elif snapshot is not None and snapshot.differences():
        restart = "changed"
    elif snapshot is not None:
        snapshot.forget_new_modules()
    if restart is None and heap_bytes > MEMORY_KEPT:
        restart = "memory"
    if restart is None:
        return None, None
    return restart, restart_note(restart)


def bytecode_sources(package_dir: str) -> list[str]:
    """The source files whose bytecode a later boot can write back before its imports.

    Every .py file of our package (under package_dir), every NumPy module imported so far,
    and the .py files of WARM_MODULES (not imported yet: finding them imports nothing).
    """
    found: set[str] = set()
    for folder, _dirs, files in os.walk(package_dir):
        found.update(os.path.join(folder, name) for name in files if name.endswith(".py"))
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if (name == "numpy" or name.startswith("numpy.")) and str(path).endswith(".py"):
            found.add(str(path))
    for name in WARM_MODULES:
        spec = importlib.util.find_spec(name)
        for location in (spec and spec.submodule_search_locations) or ():
            for folder, dirs, files in os.walk(location):
                dirs[:] = [d for d in dirs if d != "tests"]  # never imported by a call
                found.update(os.path.join(folder, n) for n in files if n.endswith(".py"))
    return sorted(found)


def pyc(path: str) -> tuple[str, bytes]:
    """(where the import system looks for its .pyc, the .pyc) for a source file.

    The .pyc is hash-based and checked: Python compares it with the source's hash, not its
    mtime, so it stays valid after the source is unpacked again, and is ignored (the source
    compiled as usual) if the source changed. Compiled as importlib compiles a source file.
    """
    with open(path, "rb") as handle:
        source = handle.read()
    code = compile(source, path, "exec", dont_inherit=True)
    header = importlib.util.MAGIC_NUMBER + CHECKED_HASH_PYC.to_bytes(4, "little")
    data = header + importlib.util.source_hash(source) + marshal.dumps(code)
    return importlib.util.cache_from_source(path), data

"""The worker's Python entry points: JSON in, JSON out, errors as data."""

import gc
import json
import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from livelab import worker_api
from livelab.grading_run import OUTPUT_LIMIT
from livelab.labs import all_labs
from livelab.questions import all_code_questions, code_question, load_blanks


def run(code):
    return json.loads(worker_api.run(code))


def test_run_returns_what_the_code_prints():
    out = run("print(np.arange(3) * 2)")
    assert out == {"stdout": "[0 2 4]\n", "stderr": "", "error": None}


def test_run_reports_a_syntax_error_at_its_line_and_column():
    out = run("x = 1\ny = (2 +\n")
    assert out["error"]["type"] == "SyntaxError"
    assert out["error"]["line"] == 2
    assert out["error"]["column"] == 5


def test_run_reports_a_runtime_error_at_the_failing_line():
    out = run("a = 1\nb = a / 0\n")
    assert out["error"]["type"] == "ZeroDivisionError"
    assert out["error"]["line"] == 2


def test_run_keeps_output_printed_before_an_error():
    out = run("print('before')\nraise ValueError('bad row')")
    assert out["stdout"] == "before\n"
    assert out["error"]["message"] == "bad row"


def test_run_caps_a_flood_of_output():
    out = run("for i in range(100000): print(i)")
    assert len(out["stdout"]) < OUTPUT_LIMIT + 100
    assert out["stdout"].endswith(f"output cut after {OUTPUT_LIMIT} characters")


def test_runs_do_not_share_names():
    run("leak = 1")
    assert run("print(leak)")["error"]["type"] == "NameError"


def test_call_lab_returns_params_and_view():
    out = json.loads(worker_api.call("lab", json.dumps({"kind": "rope", "params": {"q_pos": 2}})))
    assert out["value"]["params"]["q_pos"] == 2
    assert out["value"]["view"]["text"]["score"] == "0.84"


def test_call_with_bad_params_returns_the_error_as_data():
    out = json.loads(worker_api.call("lab", json.dumps({"kind": "rope", "params": {"q_pos": -1}})))
    assert out["error"]["type"] == "ValueError"
    assert "q_pos" in out["error"]["message"]


def test_call_refuses_names_outside_its_table():
    out = json.loads(worker_api.call("os.system", "{}"))
    assert out["error"]["type"] == "LookupError"


ERROR_KEYS = {"type", "message", "line", "column", "deep", "asleep"}


def test_every_error_reply_has_the_one_shape_the_page_reads():
    refused = json.loads(worker_api.call("os.system", "{}"))["error"]
    raised = json.loads(
        worker_api.call("lab", json.dumps({"kind": "rope", "params": {"q_pos": -1}}))
    )
    assert set(refused) == set(raised["error"]) == ERROR_KEYS


# --- one check cannot change the next --------------------------------------------------
# Each tamper runs in a forked copy of this process, so what it breaks dies with the copy;
# the copy reports through marshal, which no tamper line below can reach.

RMS_RIGHT = code_question("rmsnorm").reference_blank
ROTATE_WRONG = load_blanks("rotate")["wrong"][0]["blank"]  # right shape, wrong values
REGISTRY = "__import__('livelab.questions').questions.code_question('rotate')"
ROTATE_KERNEL = "__import__('labs.kernels.rope', fromlist=['x']).rotate"
IDENTITY_CODE = "(lambda *a, **k: a[0]).__code__"
REGISTRY_MODULE = "__import__('livelab.registry').registry"
TAMPERS = {
    "np.allclose": "setattr(np, 'allclose', lambda *a, **k: True)",
    "numpy internals": "setattr(np._core.numeric, 'less_equal', lambda a, _: a == a)",
    "np.testing": "setattr(np.testing, 'assert_allclose', lambda *a, **k: None)",
    "a standard library class": "setattr(__import__('json').JSONEncoder, 'encode', lambda *_: '')",
    "sys.modules entry popped": "__import__('sys').modules.pop('livelab.grading_compare', 0)",
    "fake module planted": "__import__('sys').modules.__setitem__('livelab.fake', np)",
    "registry object": f"object.__setattr__({REGISTRY}, 'atol', 1e9)",
    "registry array": f"{REGISTRY}.example_cases[0].args[0].__setitem__(Ellipsis, 0.0)",
    "a new builtin": "setattr(__import__('builtins'), 'reference', len)",
    "trace function": "__import__('sys').settrace(lambda *a: None)",
    # The course's own code is guarded as livelab's is (registry.is_own).
    "a course kernel's code": f"setattr({ROTATE_KERNEL}, '__code__', {IDENTITY_CODE})",
    "the guarded packages": f"setattr({REGISTRY_MODULE}, 'OWN_PACKAGES', frozenset())",
}  # fmt: skip
# Tampers undone without a restart: np.allclose (and livelab.registry's list of guarded
# packages) are put back by the guard around student code; a module planted under a new
# name is forgotten after the request (worker_state.forget_new_modules).
UNDONE = {"np.allclose", "fake module planted", "the guarded packages"}
# What the next check of a wrong answer to another question says if Python is not restarted.
HARM = {
    "numpy internals": "correct",
    "a standard library class": "unreadable",
    "registry object": "correct",
}


def in_child(function, *args):
    """Run function in a forked copy of this process; return its (marshal-able) result."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: report, then leave without running any of pytest's cleanup
        os.close(read)
        gc.callbacks.clear()  # as in the browser (here Hypothesis times every collection)
        try:
            data = marshal.dumps(function(*args))
        except BaseException as exc:
            data = marshal.dumps({"crashed": repr(exc)})
        with os.fdopen(write, "wb") as out:
            out.write(data)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as reply:
        data = reply.read()
    os.waitpid(pid, 0)
    return marshal.loads(data)


def call(name, **args):
    return worker_api.call(name, json.dumps(args))


def verdict(reply: str) -> str:
    try:
        return json.loads(reply)["value"]["verdict"]
    except (ValueError, KeyError, TypeError):
        return "unreadable"


def tamper_then_check(line):
    import numpy.testing  # noqa: F401 - in the snapshot, whichever test ran first

    snapshot = worker_api.clean_state()
    first = verdict(call("code_check", question="rmsnorm", blank=f"({line}, {RMS_RIGHT})[1]"))
    after = worker_api.after_request(snapshot, True, 0)
    later = verdict(call("code_check", question="rotate", blank=ROTATE_WRONG))
    return {"first": first, "after": after, "later": later}


@pytest.mark.parametrize("name", TAMPERS)
def test_a_tamper_line_makes_the_worker_restart_with_a_note(name):
    outcome = in_child(tamper_then_check, TAMPERS[name])
    assert "crashed" not in outcome, outcome
    # The tamper line also answers the question, unless it broke the reply itself.
    assert outcome["first"] == ("unreadable" if name == "a standard library class" else "correct")
    if name in UNDONE:  # undone without a restart: nothing reaches the next check
        assert outcome["after"] == (None, None)
        assert outcome["later"] == "wrong"
    else:
        assert outcome["after"] == ("changed", worker_api.restart_note("changed"))
        # The restart is what saves the next check: without it this is what it would say.
        assert outcome["later"] == HARM.get(name, "wrong")


def import_in_a_check_then_fake_a_new_module():
    snapshot = worker_api.clean_state()
    assert "sched" not in sys.modules and "colorsys" not in sys.modules
    first = verdict(
        call("code_check", question="rmsnorm", blank=f"(__import__('colorsys'), {RMS_RIGHT})[1]")
    )
    after_import = worker_api.after_request(snapshot, True, 0)
    fake = "__import__('sys').modules.__setitem__('sched', __import__('types').ModuleType('x'))"
    call("run", code=fake)
    after_fake = worker_api.after_request(snapshot, True, 0)
    import sched  # what a later check would get under that name

    return {
        "first": first,
        "after": [after_import, after_fake],
        "left": sorted({"colorsys", "sched"} & set(sys.modules) - {"sched"}),
        "real_sched": hasattr(sched, "scheduler"),
    }


def test_a_module_imported_by_student_code_is_forgotten_not_a_restart():
    outcome = in_child(import_in_a_check_then_fake_a_new_module)
    assert outcome["first"] == "correct"
    assert outcome["after"] == [(None, None), (None, None)]
    assert outcome["left"] == []
    # A module put under a new name by student code is gone: the import finds the real one.
    assert outcome["real_sched"] is True


def exercise_everything():
    """Everything a page asks of the worker, right and wrong, with no tampering; returns the
    differences found after each request that ran student code (none expected)."""
    snapshot = worker_api.clean_state()
    found = []

    def after(reply, student):
        worker_api.after_request(snapshot, student, 0)
        if student:
            found.extend(snapshot.differences())
        return reply

    for kind in all_labs():
        after(call("lab", kind=kind, params={}), False)
    blanks = ["1/0", "undefined", "input()", "x", "rmsnorm(x, eps)", "np.linalg.norm(x)"]
    for name, q in all_code_questions().items():
        for blank in [
            q.reference_blank,
            *blanks,
            *(w["blank"] for w in load_blanks(name)["wrong"]),
        ]:
            after(call("code_check", question=name, blank=blank), True)
            after(call("code_run", question=name, blank=blank), True)
    for code in ("print(np.ones(2) / 0)", "import warnings; warnings.warn('x')", "x = [1,"):
        after(call("run", code=code), True)
    return found


def test_ordinary_use_changes_nothing_the_state_check_looks_at():
    assert in_child(exercise_everything) == []


def change_a_package_file(root):
    snapshot = worker_api.clean_state(root)
    before = snapshot.differences()
    Path(root, "livelab", "grading_compare.py").write_text("compare = None\n")
    return before, snapshot.differences(), worker_api.after_request(snapshot, True, 0)[0]


def test_a_changed_package_file_makes_the_worker_restart(tmp_path):
    package = Path(worker_api.__file__).parent
    shutil.copytree(package, tmp_path / "livelab", ignore=shutil.ignore_patterns("__pycache__"))
    before, after, restart = in_child(change_a_package_file, str(tmp_path))
    assert (before, after, restart) == ([], ["package files"], "changed")


def add_an_audit_hook():
    worker_api.clean_state()
    calls = []
    sys.addaudithook(lambda event, args: calls.append(event))
    exec("1 + 1")
    return calls


def test_student_code_cannot_add_an_audit_hook():
    assert in_child(add_an_audit_hook) == []


def test_memory_past_the_limit_makes_the_worker_restart_with_a_note():
    limit = worker_api.MEMORY_KEPT
    assert worker_api.after_request(None, False, limit // 2) == (None, None)
    restart, note = worker_api.after_request(None, False, limit + 1)
    assert restart == "memory"
    assert f"{limit // 2**20} MB" in note and note.endswith(".")


# --- input, stops ------------------------------------------------------------------------


def test_input_says_it_is_not_available_on_this_page():
    out = run("name = input('Your name? ')")
    assert out["error"]["type"] == "EOFError"
    assert "input() is not available on this page" in out["error"]["message"]


RECURSE = (
    "def f(n):\n    if n == 0:\n        raise KeyboardInterrupt\n    return f(n - 1)\nf({depth})\n"
)


AFTER_RECURSION = (
    "try:\n    (f := lambda: f())()\nexcept RecursionError:\n    raise KeyboardInterrupt\n"
)


@pytest.mark.parametrize(
    ("code", "deep"),
    [
        (RECURSE.format(depth=3), False),
        (RECURSE.format(depth=worker_api.DEEP_STACK + 50), True),
        (AFTER_RECURSION, True),  # a stop while the grader reports the RecursionError
    ],
)
def test_a_stop_in_a_recursion_says_deep_and_a_stop_in_a_loop_does_not(code, deep):
    reply = json.loads(call("run", code=code))
    assert reply["error"] == worker_api.error_reply("KeyboardInterrupt", "stopped", deep=deep)
    assert set(reply["error"]) == ERROR_KEYS


def test_a_lab_view_does_not_wait_for_the_grader_and_clean_state_loads_it():
    # The worker imports worker_api before its first lab view: the grader and the state
    # check are left to the calls that need them, and clean_state loads both before any
    # student code runs (so they are part of the state it records).
    probe = (
        "import json, sys\n"
        "from livelab import worker_api\n"
        "worker_api.call('lab', json.dumps({'kind': 'rope', 'params': {}}))\n"
        "lazy = ('livelab.grading_run', 'livelab.worker_state')\n"
        "print(*[name in sys.modules for name in lazy])\n"
        "worker_api.clean_state()\n"
        "print(*[name in sys.modules for name in lazy])\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(worker_api.__file__).parents[1])}
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, env=env
    )
    assert out.stdout.split("\n")[:2] == ["False False", "True True"]


def test_the_warm_up_takes_one_chunk_of_a_lab_that_trains_and_runs_none_of_its_code(monkeypatch):
    # clean_state runs before a worker's first student code: a training run to its end there
    # (seconds of Pyodide, twice with its scratchpad code) held up that first run.
    import dataclasses

    from livelab.labs import LABS

    chosen = all_labs()["train_norm"]
    chunks = []

    def counted(**params):
        for state in chosen.run(**params):
            chunks.append(state)
            yield state

    monkeypatch.setitem(LABS.items, "train_norm", dataclasses.replace(chosen, run=counted))
    scratched = []
    lab_scratch = worker_api._lab_scratch
    monkeypatch.setattr(
        worker_api,
        "_lab_scratch",
        lambda kind, params: scratched.append(kind) or lab_scratch(kind, params),
    )
    worker_api.clean_state()
    assert len(chunks) == 1
    assert "train_norm" not in scratched
    assert "rope" in scratched  # a lab that does not train is still warmed in full

"""The scratchpad's Python side: notebook-style runs that never reach the grader."""

import json
import re
import sys

import numpy as np
import pytest

import labs
from labs import kernels
from livelab import scratch, worker_api
from livelab.grading_run import OUTPUT_LIMIT
from livelab.labs import all_labs, lab
from livelab.labs.markup import lab_html
from livelab.labs.view import fmt_number
from livelab.questions import code_question
from livelab.scratch_names import PRELOADED
from tests.unit.test_worker_api import in_child


@pytest.fixture(autouse=True)
def fresh_names():
    scratch.clear()
    yield
    scratch.clear()


def call(name, **args):
    return json.loads(worker_api.call(name, json.dumps(args)))


def run(code):
    return call("scratch_run", code=code)["value"]


def test_a_value_left_on_the_last_line_is_shown_after_what_was_printed():
    out = run("x = np.array([3.0, 4.0])\nprint('norm', np.linalg.norm(x))\nx / 5")
    assert out["output"] == "norm 5.0\narray([0.6, 0.8])\n"
    assert out["error"] is None


def test_nothing_is_shown_for_a_last_line_that_is_none_or_a_statement():
    assert run("print('a')")["output"] == "a\n"
    assert run("y = 2")["output"] == ""


def test_names_are_kept_from_one_run_to_the_next_until_cleared():
    assert run("def double(v):\n    return 2 * v\nseen = 21")["output"] == ""
    assert run("double(seen)")["output"] == "42\n"
    call("scratch_clear")
    out = run("seen")
    assert out["error"]["type"] == "NameError"
    assert "seen" in out["output"]


def test_runs_count_up_from_fresh_names_so_the_page_can_tell_a_restart():
    assert [run("1")["runs"] for _ in range(3)] == [1, 2, 3]
    call("scratch_clear")
    assert run("1")["runs"] == 1


def test_a_syntax_error_names_its_line_in_the_students_text():
    out = run("a = 1\nb = 2\nc = = 3\n")
    assert out["error"]["type"] == "SyntaxError"
    assert out["error"]["line"] == 3
    assert "line 3" in out["output"] and "c = = 3" in out["output"]


def test_a_runtime_error_names_its_line_and_no_frame_of_ours():
    out = run("x = np.zeros(4)\n\nrmsnorm(x, eps=0)\n")
    assert out["error"]["type"] == "ValueError"
    assert out["error"]["line"] == 3
    assert out["output"].startswith("Traceback (your code):\n  line 3, in <module>\n")
    assert "rmsnorm(x, eps=0)" in out["output"]
    assert "livelab" not in out["output"] and ".py" not in out["output"]


def test_an_error_in_a_function_from_an_earlier_run_points_at_this_runs_call():
    run("def f(v):\n    return v / 0\n")
    out = run("print('before')\nf(1)")
    assert out["error"]["line"] == 2
    assert out["output"].startswith("before\nTraceback (your code):\n  line 2, in <module>")
    assert "line 2 (defined in an earlier run), in f\n    return v / 0" in out["output"]


def test_output_is_capped_as_a_code_questions_is():
    out = run("for i in range(100000): print(i)")
    assert len(out["output"]) < OUTPUT_LIMIT + 100
    assert out["output"].endswith(f"output cut after {OUTPUT_LIMIT} characters")


def test_input_says_it_is_not_available():
    assert "not available on this page" in run("input()")["output"]


def test_np_and_the_kernels_are_ready_and_help_shows_a_docstring_with_shapes():
    names = scratch.names()
    assert "np" in names
    assert {"rmsnorm", "rotate", "rope", "silu", "swiglu_ffn"} <= set(names)
    out = run("help(rmsnorm)")["output"]
    assert kernels.rmsnorm.__doc__.splitlines()[0] in out
    assert "Shapes: x [..., d]" in out


def test_every_kernel_but_the_one_that_answers_a_question_is_there_with_shapes():
    preloaded = set(scratch.names())
    for name in kernels.__all__:
        left_out = name == "gated_width_for_equal_weights" or name in labs.CONFIG_KERNELS
        assert (name in preloaded) != left_out, name
    # Counting and config helpers take no arrays; every other kernel writes its shapes down.
    no_arrays = {"BlockConfig", "MODERN_CONFIG", "ffn_weight_count", "validate_config"}
    for name in set(PRELOADED) - no_arrays:
        assert "Shapes" in getattr(kernels, name).__doc__, name


def test_a_rebound_kernel_or_numpy_name_is_put_back_after_the_run():
    run("np.sum = len\nimport builtins\nbuiltins.abs = min")
    assert np.sum is not len and abs(-2) == 2
    assert run("print(np.sum([1, 2]))")["output"] == "3\n"


# --- isolation: the scratchpad never reaches the grader ------------------------------------

RMS_RIGHT = code_question("rmsnorm").reference_blank


def scratch_then_check():
    snapshot = worker_api.clean_state()
    first = call("scratch_run", code="leaked = 7\nrmsnorm_ok = True\nleaked")["value"]
    after_scratch = worker_api.after_request(snapshot, True, 0)
    check = call("code_check", question="rmsnorm", blank=f"({RMS_RIGHT}) * leaked")["value"]
    again = call("scratch_run", code="leaked * 6")["value"]
    return {
        "first": first["output"],
        "after": after_scratch,
        "differences": snapshot.differences(),
        "check": [check["verdict"], (check["error"] or {}).get("type")],
        "again": again["output"],
    }


def test_a_name_defined_in_the_scratchpad_is_unknown_to_the_next_check():
    outcome = in_child(scratch_then_check)
    assert outcome["first"] == "7\n"
    assert outcome["after"] == (None, None) and outcome["differences"] == []
    assert outcome["check"] == ["error", "NameError"]
    assert outcome["again"] == "42\n"  # and the scratchpad still has it


def tamper_from_scratch():
    snapshot = worker_api.clean_state()
    call("scratch_run", code="import sys\nsys.modules['livelab.grading_compare'] = np")
    return worker_api.after_request(snapshot, True, 0)


def test_a_change_the_guard_cannot_undo_restarts_python_as_after_a_check():
    assert in_child(tamper_from_scratch) == ("changed", worker_api.restart_note("changed"))


def import_between_runs():
    snapshot = worker_api.clean_state()
    assert "colorsys" not in sys.modules  # a module nothing here has imported yet
    outcomes = []
    for code in ("keep = 1", "import colorsys\ncolorsys.rgb_to_hsv(1, 0, 0)", "keep"):
        value = call("scratch_run", code=code)["value"]
        outcomes.append([value["output"], worker_api.after_request(snapshot, True, 0)])
    return {"runs": outcomes, "left": "colorsys" in sys.modules}


def test_an_import_in_the_scratchpad_keeps_its_names_and_python():
    outcome = in_child(import_between_runs)
    assert outcome["runs"] == [
        ["", (None, None)],
        ["(0.0, 1.0, 1)\n", (None, None)],
        ["1\n", (None, None)],
    ]
    assert outcome["left"] is False  # forgotten: the next import loads it from its file


def ordinary_scratch_use():
    snapshot = worker_api.clean_state()
    found = []
    codes = ["help(rope)", "x = = 1", "1 / 0", "input()"]
    codes += [call("lab_scratch", kind=kind, params={})["value"] for kind in all_labs()]
    for code in [*codes, "class A:\n    pass\na = A()\na"]:
        call("scratch_run", code=code)
        worker_api.after_request(snapshot, True, 0)
        found.extend(snapshot.differences())
    call("scratch_clear")
    found.extend(snapshot.differences())
    return found


def test_ordinary_scratch_use_changes_nothing_the_state_check_looks_at():
    assert in_child(ordinary_scratch_use) == []


# --- "Open in scratchpad": each lab's code gives the number its view shows -----------------

NUMBER = re.compile(r"-?\d[\d,]*(?:\.\d+)?")


def shown_like(value: float, token: str) -> str:
    """value written as the page wrote token: as many decimals, thousands commas if any."""
    decimals = len(token.split(".")[1]) if "." in token else 0
    if "," in token:
        return f"{value:,.{decimals}f}"
    return fmt_number(value, decimals)


def reproduces(value: object, text: str) -> bool:
    """Whether the numbers of value appear, in order and as the page rounds them, in text."""
    tokens = NUMBER.findall(text.replace("−", "-"))
    numbers = np.ravel(np.asarray(value, dtype=float)).tolist()
    return any(
        all(shown_like(v, t) == t for v, t in zip(numbers, tokens[i:], strict=False))
        and len(tokens) - i >= len(numbers)
        for i in range(len(tokens))
    )


def settings(name: str) -> list[dict]:
    """The lab's defaults, then each numeric control at its ends and each switch flipped."""
    found: list[dict] = [{}]
    for param, spec in lab(name).params.items():
        if spec.is_bool:
            found.append({param: not spec.default})
        elif spec.is_choice:
            found.extend({param: choice} for choice, _ in spec.choices)
        elif spec.minimum is not None and not spec.is_vector:
            low = spec.minimum if spec.control == "range" else spec.default
            found.extend([{param: low}, {param: spec.maximum if spec.maximum < 1e4 else low}])
    if "run" in lab(name).params:
        found.append({"run": True, "tokens": 1})
    return found


@pytest.mark.parametrize("name", sorted(all_labs()))
def test_every_lab_has_scratch_code_that_reproduces_what_its_view_shows(name):
    found = lab(name)
    assert found.scratch is not None
    for given in settings(name):
        params = found.params.coerce(given, name)
        view = found.first_view(given)["view"]
        made = found.scratch_for(given)
        shown = view["text"][made.shows]
        scratch.clear()
        out = scratch.run(made.code)
        if NUMBER.search(shown) is None:  # the lab shows an error: the code raises one too
            assert out["error"] is not None, (given, out)
            continue
        assert out["error"] is None, (given, out)
        value = scratch._space().names["_"]  # the last line's value, as the run showed it
        assert reproduces(value, shown), (params, value, shown)


def test_the_rope_scratch_score_is_the_labs_score_exactly():
    found = lab("rope")
    given = {"q_pos": 7, "k_pos": 3, "theta": 0.37, "q": (0.6, -0.8)}
    out = scratch.run(found.scratch_for(given).code)
    assert float(out["output"].splitlines()[-1]) == found.compute(**given)["score"]


def test_every_lab_page_has_the_button_and_bad_settings_come_back_as_data():
    for name in all_labs():
        first = lab(name).first_view({})
        html = lab_html(name, name, name, first["params"], "")
        assert html.count("data-scratch disabled>Open in scratchpad</button>") == 1, name
    error = json.loads(
        worker_api.call("lab_scratch", json.dumps({"kind": "rope", "params": {"q_pos": 99}}))
    )["error"]
    assert error["type"] == "ValueError"

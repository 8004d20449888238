"""The worker's Python entry points: JSON in, JSON out, errors as data."""

import json

from livelab import worker_api


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
    assert len(out["stdout"]) < worker_api.OUTPUT_LIMIT + 100
    assert out["stdout"].endswith(f"output cut after {worker_api.OUTPUT_LIMIT} characters")


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

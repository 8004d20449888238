"""Messages a student can act on: a size too large, memory running out, a damaged
interpreter, and time.sleep (livelab.explain, livelab.sleep, and where they are shown)."""

import json
import re
import signal
import time
from pathlib import Path

import pytest

from livelab import explain, grading, scratch, sleep, worker_api
from tests.unit.test_worker_api import call, in_child

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "py/livelab/web"


def test_a_list_too_long_for_an_index_says_the_number_is_too_large_for_a_size():
    out = scratch.run("[0] * 10**20")
    assert "OverflowError: cannot fit 'int' into an index-sized integer\n" in out["output"]
    assert out["output"].endswith(
        "The number is too large to be the size of a list or an array: a size here must be "
        "less than 2,147,483,648, and memory holds far fewer numbers than that.\n"
    )


def test_an_array_too_large_in_a_code_blank_says_so_in_the_check_message():
    message = grading.check("rmsnorm", "np.zeros(10**20)")["message"]
    assert message.endswith(
        "Maximum allowed dimension exceeded (the number is too large to be the size of a "
        "list or an array: a size here must be less than 2,147,483,648, and memory holds "
        "far fewer numbers than that)."
    )


def test_memory_running_out_names_the_limit_in_a_plain_run():
    error = json.loads(worker_api.run("raise MemoryError('Unable to allocate 7.45 GiB')"))["error"]
    assert error["type"] == "MemoryError"
    assert error["message"] == (
        "Unable to allocate 7.45 GiB (Python ran out of memory: code here may use at most "
        "512 MB, and this needed more, so make the arrays or lists smaller)"
    )


def test_an_array_of_more_bytes_than_the_address_space_is_a_memory_message():
    text = (
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum "
        "possible size."
    )
    assert explain.plain("ValueError", text) == explain.memory()


@pytest.mark.parametrize(
    ("kind", "message"),
    [
        ("OverflowError", "int too large to convert to float"),
        ("ValueError", "negative dimensions are not allowed"),
        ("SystemError", "error return without exception set"),
    ],
)
def test_other_errors_keep_their_own_text(kind, message):
    assert explain.plain(kind, message) == ""
    assert explain.with_plain(kind, message) == message


def damaged_interpreter_then_next_request():
    """What the page gets when CPython reports a damaged interpreter, and after it."""
    worker_api.clean_state()
    reply = json.loads(call("scratch_run", code=f"raise SystemError({explain.BROKEN_TEXT!r})"))
    first = worker_api.after_request(None, True, 0)
    second = worker_api.after_request(None, True, 0)
    return reply["value"]["output"], first, second


def test_a_damaged_interpreter_is_explained_and_the_worker_replaced_once():
    output, first, second = in_child(damaged_interpreter_then_next_request)
    assert output.endswith("Python restarts now, so run your code again.\n")
    assert first == ("broken", worker_api.restart_note("broken"))
    assert second == (None, None)


def test_the_memory_limit_is_the_one_memory_cap_js_enforces():
    text = (WEB / "runtime/worker/memory-cap.js").read_text(encoding="utf-8")
    found = re.search(r"^export const MEMORY_LIMIT = (\d+) \* 2 \*\* (\d+);$", text, re.M)
    assert found and int(found[1]) * 2 ** int(found[2]) == explain.MEMORY_LIMIT
    assert worker_api.MEMORY_KEPT < explain.MEMORY_LIMIT  # a capped run can still be replaced


def test_the_sleep_limit_is_the_time_limit_the_page_stops_a_run_at():
    limits = (("runtime/page/client.js", "DEFAULT_TIMEOUT_MS"), ("widgets/code.js", "TIMEOUT_MS"))
    for path, name in limits:
        text = (WEB / path).read_text(encoding="utf-8")
        found = re.search(rf"^(?:export )?const {name} = ([\d_]+);$", text, re.M)
        assert found and int(found[1].replace("_", "")) == sleep.RUN_SECONDS * 1000, path


def test_a_sleep_longer_than_a_run_may_take_is_refused_at_once_with_the_reason():
    started = time.monotonic()
    with pytest.raises(TimeoutError) as raised:
        sleep.sleep(100)
    assert time.monotonic() - started < 0.5
    assert str(raised.value) == (
        "time.sleep(100) would wait 100 s, but a run may take at most 5 s: sleep less, or "
        "not at all (nothing here needs a pause)"
    )


def test_a_short_sleep_waits_and_odd_waits_fail_as_before():
    started = time.monotonic()
    sleep.sleep(0.1)
    assert 0.1 <= time.monotonic() - started < 0.5
    for odd, error in ((-1, ValueError), (float("nan"), ValueError), ("1", TypeError)):
        with pytest.raises(error):
            sleep.sleep(odd)


def stop_during(code):
    """The worker's reply when a stop (KeyboardInterrupt) arrives 0.3 s into code."""
    worker_api.clean_state()  # installs the worker's time.sleep, as in the browser
    # Python's own handler for SIGINT (C, no Python frame), as the browser's stop runs it.
    signal.signal(signal.SIGALRM, signal.default_int_handler)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    return json.loads(call("run", code=code))["error"]


@pytest.mark.parametrize(
    ("code", "slept"),
    [
        ("import time\nfor _ in range(10):\n    time.sleep(1)", True),
        ("from time import sleep\nsleep(4)", True),
        ("while True:\n    pass", False),
    ],
)
def test_a_stop_during_time_sleep_says_asleep_and_a_stop_in_a_loop_does_not(code, slept):
    error = in_child(stop_during, code)
    assert error == worker_api.error_reply("KeyboardInterrupt", "stopped", asleep=slept)

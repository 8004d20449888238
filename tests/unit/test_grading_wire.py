"""The two halves of a check (livelab.grading_execute in a runner, livelab.grading.grade in the
main worker) and what travels between them: descriptions, never objects; a forged or damaged
reply is refused, never graded."""

import json

import numpy as np
import pytest

import labs  # noqa: F401  (registers the course's questions)
from livelab import grading, worker_api
from livelab.grading_execute import execute
from livelab.grading_wire import (
    WireError,
    describe,
    from_wire,
    inputs_from_wire,
    inputs_to_wire,
    to_wire,
)

RIGHT = "np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps)"
WRONG = "np.sqrt(np.mean(x**2) + eps)"


def ran(blank, action="check"):
    return json.loads(json.dumps(execute(grading.plan("rmsnorm", action), blank)))


def test_a_plan_carries_no_reference():
    plan = json.dumps(grading.plan("rmsnorm", "check"))
    assert RIGHT not in plan
    assert "reference" not in plan


def test_the_halves_give_the_verdict_check_gives():
    for blank in (RIGHT, WRONG, "1 / 0", "x = ", "None"):
        halves, whole = grading.grade("rmsnorm", ran(blank)), grading.check("rmsnorm", blank)
        assert {**halves, "seconds": 0} == {**whole, "seconds": 0}
    assert grading.finish_run("rmsnorm", ran(RIGHT, "run"))["verdict"] == "ran"


def test_arrays_travel_whole_and_exactly():
    value = np.arange(12, dtype=np.float32).reshape(3, 4) / 7
    back = from_wire(json.loads(json.dumps(to_wire(describe(value)))))
    assert back.values is not None and back.values.dtype == np.float32
    assert np.array_equal(back.values, value) and back.shape == (3, 4)
    args = (value, 1e-6, {"d": [1, (2, 3)]})
    assert repr(inputs_from_wire(json.loads(json.dumps(inputs_to_wire(args))))) == repr(args)


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw.pop("outcomes"),  # no outcome, although there was time for all
        lambda raw: raw["outcomes"].pop(),
        lambda raw: raw["outcomes"].append(raw["outcomes"][0]),
        lambda raw: raw["outcomes"][0]["value"].update(data="not base64!"),
        lambda raw: raw["outcomes"][0]["value"].update(dtype="|O"),
        lambda raw: raw["outcomes"][0]["value"].update(shape=[999]),
        lambda raw: raw["outcomes"][0].update(error={"type": 1}),
        lambda raw: raw.update(stdout=None),
    ],
)
def test_a_damaged_or_forged_reply_is_refused(damage):
    raw = ran(RIGHT)
    damage(raw)
    with pytest.raises(WireError):
        grading.grade("rmsnorm", raw)


def test_a_forged_verdict_is_not_a_verdict():
    """A blank that rewrote json.dumps in its runner sends {"verdict": "correct"}."""
    reply = json.loads(
        worker_api.call(
            "code_grade",
            json.dumps({"question": "rmsnorm", "raw": {"verdict": "correct", "message": "forged"}}),
        )
    )
    assert reply["error"]["type"] == "CheckVoid"
    assert reply["error"]["message"].startswith("This check does not count")


def test_each_role_answers_only_its_own_calls():
    assert set(worker_api.role_calls("main")).isdisjoint(worker_api.STUDENT_CALLS)
    assert worker_api.role_calls("runner") == ["code_execute"]
    assert worker_api.role_calls("nobody") == []

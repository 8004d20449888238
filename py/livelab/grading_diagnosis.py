"""Why a check failed: which known misconception the student's outcomes show, if any.

livelab.grading compares each case's value with the reference; this module reads those
outcomes together. A function that hands back its input unchanged is named first, then each
of the question's misconceptions in order (see livelab.questions.Misconception), and
otherwise the first failing case speaks for itself.
"""

from __future__ import annotations

import copy
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from livelab import i18n
from livelab.grading_compare import Mismatch, same_behaviour
from livelab.grading_messages import failure_message
from livelab.grading_program import StudentError
from livelab.grading_wire import Returned, describe
from livelab.questions import Case, CodeQuestion, Misconception


@dataclass(frozen=True)
class Outcome:
    """What the student's function did on one case."""

    case: Case
    value: Returned | None
    error: StudentError | None
    mismatch: Mismatch | None

    @property
    def passed(self) -> bool:
        return self.error is None and self.mismatch is None


def trusted_call(function: Callable[..., Any], case: Case) -> tuple[Any, bool]:
    """Call grader-side code (reference or variant) on copies; return (value, raised)."""
    args, kwargs = copy.deepcopy(case.args), copy.deepcopy(dict(case.kwargs))
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return function(*args, **kwargs), False
        except Exception:
            return None, True


def _first_failure_label(outcomes: Sequence[Outcome], skip: frozenset[str]) -> str:
    failing = [o for o in outcomes if not o.passed and not (o.case.tags & skip)]
    return (failing or [o for o in outcomes if not o.passed])[0].case.label


def _matches(m: Misconception, outcomes: Sequence[Outcome], q: CodeQuestion) -> bool:
    """Whether the student's outcomes show misconception m (see Misconception)."""
    considered = [o for o in outcomes if not (o.case.tags & m.skip_tags)]
    if not m.variants:
        guarded = [o for o in considered if o.case.tags & m.passes_on]
        exposed = [o for o in considered if o.case.tags & m.fails_on]
        return (
            bool(guarded) and all(o.passed for o in guarded) and any(not o.passed for o in exposed)
        )
    for variant in m.variants:
        behaves = (_variant(variant, o.case) for o in considered)
        if all(
            same_behaviour(o.value, v, q.match_rtol, q.atol)
            for o, v in zip(considered, behaves, strict=True)
        ):
            return True
    return False


def _variant(variant: Callable[..., Any], case: Case) -> Returned | None:
    """What a misconception's variant returns on a case: None when it raises."""
    value, raised = trusted_call(variant, case)
    return None if raised else describe(value)


def _returns_input(outcomes: Sequence[Outcome]) -> bool:
    """True when every returned value is the first argument, unchanged."""
    returned = [o for o in outcomes if o.error is None]
    if not returned:
        return False
    for o in returned:
        value = o.value
        first = np.asarray(o.case.args[0]) if o.case.args else None
        if value is None or value.kind != "array" or value.values is None or first is None:
            return False
        if value.shape != first.shape or first.dtype.kind not in "fiub":
            return False
        if not np.allclose(value.values, first, equal_nan=True):
            return False
    return True


def diagnose(q: CodeQuestion, outcomes: Sequence[Outcome]) -> tuple[str, str | None]:
    """The message for a failed check and the key of the misconception it shows, if any."""
    if _returns_input(outcomes):
        return i18n.text("grader.returns_input"), "unchanged"
    for m in q.misconceptions:
        if _matches(m, outcomes, q):
            return m.message.replace("{case}", _first_failure_label(outcomes, m.skip_tags)), m.key
    first = next(o for o in outcomes if not o.passed)
    return failure_message(first.case.label, first.error, first.mismatch, q), None

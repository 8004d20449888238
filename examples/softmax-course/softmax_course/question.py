"""Code question: finish softmax once the logits are scaled and exponentiated."""

from __future__ import annotations

import numpy as np

from livelab.questions import Case, CodeQuestion, Misconception, register_code_question
from softmax_course.kernel import softmax

TEMPLATE = """\
def softmax(z, t=1.0):
    scaled = np.asarray(z, dtype=float) / t
    e = np.exp(scaled - scaled.max())
    return ____

print(np.round(softmax([2.0, 1.0, 0.0]), 4))
print(np.round(softmax([2.0, 1.0, 0.0], t=0.5), 4))
"""


def _shifted_exp(z: np.ndarray, t: float = 1.0) -> np.ndarray:
    scaled = np.asarray(z, dtype=float) / t  # [n]
    return np.exp(scaled - scaled.max())  # [n]


def _hidden_cases(rng: np.random.Generator) -> list[Case]:
    cases = [
        Case("equal logits [3, 3, 3]", (np.array([3.0, 3.0, 3.0]),)),
        Case("one logit alone, [5]", (np.array([5.0]),)),
        Case("huge logits [1000, 999] (exp alone would overflow)", (np.array([1000.0, 999.0]),)),
        Case("[1, 0] at temperature 0.25", (np.array([1.0, 0.0]),), {"t": 0.25}),
    ]
    for t in (0.7, 2.0):
        z = np.round(rng.standard_normal(5), 3)
        cases.append(Case(f"z = {z.tolist()} at temperature {t}", (z,), {"t": t}))
    return cases


QUESTION = register_code_question(
    CodeQuestion(
        name="softmax",
        template=TEMPLATE,
        function_name="softmax",
        reference=softmax,
        reference_blank="e / e.sum()",
        example_cases=(
            Case("the example softmax([2, 1, 0])", (np.array([2.0, 1.0, 0.0]),), hidden=False),
            Case(
                "the example softmax([2, 1, 0], t=0.5)",
                (np.array([2.0, 1.0, 0.0]),),
                {"t": 0.5},
                hidden=False,
            ),
        ),
        hidden_cases=_hidden_cases,
        seed=7,
        misconceptions=(
            Misconception(
                "not-normalised",
                "Those are not probabilities yet: they must add up to 1, so divide e by its total.",
                variants=(_shifted_exp,),
            ),
            Misconception(
                "no-temperature",
                "That leaves the temperature out: build the answer from e, which already "
                "holds the logits divided by t.",
                variants=(lambda z, t=1.0: softmax(z),),
            ),
        ),
        module=__name__,
    )
)

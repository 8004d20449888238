"""Code question C1: RMSNorm over the last axis, with eps inside the square root.

Eps inside the root is this course's convention, shared with T5 and LLaMA. The RMSNorm
paper's reference code adds eps after the root instead; a blank written that way follows
the other convention rather than a wrong idea, and its message says so, but it still does
not pass, because the question asks for eps inside.
"""

from __future__ import annotations

import numpy as np

from labs import kernels
from livelab.questions import Case, CodeQuestion, Misconception, register_code_question

TEMPLATE = """\
def rmsnorm(x, eps=1e-6):
    return x / ____

x = np.array([1.0, 1.0, 3.0, 5.0])  # a single row, d = 4
print(rmsnorm(x).round(4))
"""


def reference(x: np.ndarray, eps: float = 1e-6) -> np.ndarray:
    """The course kernel with the template's signature. Shapes: x [..., d] -> [..., d]."""
    return kernels.rmsnorm(x, eps=eps)


def _hidden_cases(rng: np.random.Generator) -> list[Case]:
    with_zero_row = rng.standard_normal((3, 4))
    with_zero_row[1] = 0.0
    return [
        Case("the row x = [3, 4]", (np.array([3.0, 4.0]),), tags=frozenset({"row"})),
        Case(
            "a row of 6 numbers, some negative",
            (2.0 * rng.standard_normal(6),),
            tags=frozenset({"row"}),
        ),
        Case("the shifted row x = [13, 14]", (np.array([13.0, 14.0]),), tags=frozenset({"row"})),
        Case(
            "the integer row x = [2, -1, 0, 3]",
            (np.array([2, -1, 0, 3]),),
            tags=frozenset({"row"}),
        ),
        Case("rows x of shape (3, 5)", (rng.standard_normal((3, 5)),), tags=frozenset({"batch"})),
        Case(
            "a batch x of shape (2, 3, 4)",
            (rng.standard_normal((2, 3, 4)),),
            tags=frozenset({"batch"}),
        ),
        Case(
            "a square batch x of shape (4, 4)",
            (rng.standard_normal((4, 4)) + 1.0,),
            tags=frozenset({"batch"}),
        ),
        Case(
            "rows x of shape (3, 4) where the middle row is all zeros",
            (with_zero_row,),
            tags=frozenset({"batch", "eps"}),
        ),
        Case(
            "tiny values (about 0.001) in x of shape (2, 4), where eps matters",
            (1e-3 * rng.standard_normal((2, 4)),),
            tags=frozenset({"batch", "eps"}),
        ),
        Case(
            "x of shape (2, 3) with eps=0.5",
            (rng.standard_normal((2, 3)),),
            {"eps": 0.5},
            tags=frozenset({"batch", "eps"}),
        ),
        Case(
            "large values (about 1000) in x of shape (2, 5)",
            (1000.0 * rng.standard_normal((2, 5)),),
            tags=frozenset({"batch"}),
        ),
    ]


def _mean_square(x: np.ndarray) -> np.ndarray:
    return np.mean(np.asarray(x, dtype=float) ** 2, axis=-1, keepdims=True)


EPS_CASES = frozenset({"eps"})

MISCONCEPTIONS = (
    Misconception(
        "no-keepdims",
        "Your blank works on one row but not on {case}: np.mean(..., axis=-1) drops the "
        "averaged axis, so add keepdims=True to keep one mean per row as a column of size 1.",
        variants=(lambda x, eps=1e-6: x / np.sqrt(np.mean(x**2, axis=-1) + eps),),
        skip_tags=EPS_CASES,
    ),
    Misconception(
        "whole-batch-mean",
        "Without an axis, np.mean averages every number of the batch together; each row "
        "needs its own mean of squares, so average over axis=-1 with keepdims=True.",
        variants=(lambda x, eps=1e-6: x / np.sqrt(np.mean(x**2) + eps),),
        skip_tags=EPS_CASES,
    ),
    Misconception(
        "mean-subtracted",
        "RMSNorm does not subtract the mean: average the squares of x itself, not the "
        "squared deviations (that variance belongs to LayerNorm).",
        variants=(lambda x, eps=1e-6: x / np.sqrt(np.var(x, axis=-1, keepdims=True) + eps),),
        skip_tags=EPS_CASES,
    ),
    Misconception(
        "eps-outside-root",
        "You add eps after the square root, as the RMSNorm paper's reference code does. That "
        "is another convention, not a mistake in the math, but this question follows the "
        "course (and T5 and LLaMA) and asks for eps inside the root: "
        "np.sqrt(mean of squares + eps). The two conventions give different numbers when the "
        "mean of squares is small or eps is large, for example on {case}.",
        variants=(lambda x, eps=1e-6: x / (np.sqrt(_mean_square(x)) + eps),),
    ),
    Misconception(
        "eps-added-to-output",
        "Python reads x / np.sqrt(...) + eps as (x / np.sqrt(...)) + eps, so eps ends up added "
        "to every output entry. Put eps inside the square root, np.sqrt(mean of squares + eps), "
        "so that it only keeps the divisor away from zero.",
        variants=(lambda x, eps=1e-6: x / np.sqrt(_mean_square(x)) + eps,),  # x / ____ binds first
    ),
    Misconception(
        "eps-missing",
        "Add eps inside the square root: without it an all-zero row gives 0 / 0, which is NaN.",
        variants=(lambda x, eps=1e-6: x / np.sqrt(_mean_square(x)),),
    ),
    Misconception(
        "eps-fixed",
        "Use the eps argument rather than a fixed number: the check also calls "
        "rmsnorm(x, eps=0.5).",
        variants=(lambda x, eps=1e-6: x / np.sqrt(_mean_square(x) + 1e-6),),
    ),
    Misconception(
        "no-root",
        "Take the square root of the mean of squares: dividing by the mean of squares "
        "itself does not give rows whose mean square is 1.",
        variants=(
            lambda x, eps=1e-6: x / (_mean_square(x) + eps),
            lambda x, eps=1e-6: x / _mean_square(x) + eps,
        ),
        skip_tags=EPS_CASES,
    ),
    Misconception(
        "sum-not-mean",
        "Average the squares with np.mean instead of adding them up: the root of the sum is "
        "the length of the row, and dividing by it gives length 1, not mean square 1.",
        variants=(
            lambda x, eps=1e-6: x / np.sqrt(np.sum(np.asarray(x) ** 2, axis=-1, keepdims=True)),
        ),
        skip_tags=EPS_CASES,
    ),
    Misconception(
        "row-only",
        "Your blank handles one row but not {case}: reduce over the last axis only "
        "(axis=-1) and keep it with keepdims=True, so every row gets its own number.",
        skip_tags=EPS_CASES,
        passes_on=frozenset({"row"}),
        fails_on=frozenset({"batch"}),
    ),
)

QUESTION = register_code_question(
    CodeQuestion(
        name="rmsnorm",
        template=TEMPLATE,
        function_name="rmsnorm",
        reference=reference,
        reference_blank="np.sqrt(np.mean(x**2, axis=-1, keepdims=True) + eps)",
        example_cases=(
            Case(
                "the example x = [1, 1, 3, 5]",
                (np.array([1.0, 1.0, 3.0, 5.0]),),
                tags=frozenset({"row"}),
                hidden=False,
            ),
        ),
        hidden_cases=_hidden_cases,
        seed=1901,
        misconceptions=MISCONCEPTIONS,
        name_hints={
            "d": "the width of a row is x.shape[-1]",
        },
        module=__name__,
    )
)

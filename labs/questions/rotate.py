"""Code question C2: turn a pair counter-clockwise by pos * theta radians."""

from __future__ import annotations

import numpy as np

from labs import kernels
from livelab.questions import Case, CodeQuestion, Misconception, register_code_question

TEMPLATE = """\
def rotate(v, pos, theta=0.5):
    angle = pos * theta
    c, s = np.cos(angle), np.sin(angle)
    return ____

q = np.array([1.0, 2.0])
k = np.array([3.0, -1.0])
# positions (5, 2) and (13, 10) are both 3 apart: the two scores agree
print(round(rotate(q, 5) @ rotate(k, 2), 9))
print(round(rotate(q, 13) @ rotate(k, 10), 9))
"""


def reference(v: np.ndarray, pos: float, theta: float = 0.5) -> np.ndarray:
    """The course kernel with the template's signature. Shapes: v [2] -> [2]."""
    return kernels.rotate(v, pos * theta)


def _pair(v: np.ndarray) -> str:
    return "[" + ", ".join(f"{x:g}" for x in v) + "]"


def _hidden_cases(rng: np.random.Generator) -> list[Case]:
    quarter = float(np.pi / 2)
    cases = [
        Case(
            "a quarter turn of v = [1, 0] (pos=1, theta=pi/2)",
            (np.array([1.0, 0.0]), 1),
            {"theta": quarter},
        ),
        Case(
            "a quarter turn of v = [0, 1] (pos=1, theta=pi/2)",
            (np.array([0.0, 1.0]), 1),
            {"theta": quarter},
        ),
        Case("v = [0.6, -0.8] at pos=0 (no turn at all)", (np.array([0.6, -0.8]), 0)),
        Case("v = [-2, 3] at pos=4", (np.array([-2.0, 3.0]), 4)),
        Case("the integer pair v = [2, -3] at pos=7", (np.array([2, -3]), 7)),
        Case(
            "v = [1.5, 0.5] at pos=2.5 with theta=0.3", (np.array([1.5, 0.5]), 2.5), {"theta": 0.3}
        ),
    ]
    for pos, theta in ((-3, 0.5), (11, 0.1), (100, 0.5)):
        v = np.round(rng.standard_normal(2), 3)
        cases.append(
            Case(f"v = {_pair(v)} at pos={pos} with theta={theta}", (v, pos), {"theta": theta})
        )
    return cases


def _turned(v: np.ndarray, c: np.ndarray, s: np.ndarray) -> np.ndarray:
    return np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])


MISCONCEPTIONS = (
    Misconception(
        "clockwise",
        "That turns the pair clockwise: counter-clockwise, the first entry is c * x - s * y "
        "and the second is s * x + c * y.",
        variants=(lambda v, pos, theta=0.5: kernels.rotate(v, -pos * theta),),
    ),
    Misconception(
        "sin-cos-swapped",
        "You swapped sin and cos: at angle 0 (c = 1, s = 0) the pair must come back "
        "unchanged, so c multiplies the coordinate it came from.",
        variants=(
            lambda v, pos, theta=0.5: _turned(v, np.sin(pos * theta), np.cos(pos * theta)),
            lambda v, pos, theta=0.5: _turned(v, np.sin(pos * theta), -np.cos(pos * theta)),
        ),
    ),
    Misconception(
        "angle-pos",
        "The angle is pos * theta, not pos alone: use c and s (already computed from "
        "angle = pos * theta) instead of np.cos(pos) and np.sin(pos).",
        variants=(lambda v, pos, theta=0.5: kernels.rotate(v, pos),),
    ),
    Misconception(
        "angle-theta",
        "The angle grows with the position: turn by angle = pos * theta (c and s hold its "
        "cosine and sine), not by theta alone.",
        variants=(lambda v, pos, theta=0.5: kernels.rotate(v, theta),),
    ),
)

QUESTION = register_code_question(
    CodeQuestion(
        name="rotate",
        template=TEMPLATE,
        function_name="rotate",
        reference=reference,
        reference_blank="np.array([c * v[0] - s * v[1], s * v[0] + c * v[1]])",
        example_cases=tuple(
            Case(
                f"the example rotate({name}, {pos}) with {name} = {_pair(v)}",
                (v, pos),
                hidden=False,
            )
            for name, v, pos in (
                ("q", np.array([1.0, 2.0]), 5),
                ("k", np.array([3.0, -1.0]), 2),
                ("q", np.array([1.0, 2.0]), 13),
                ("k", np.array([3.0, -1.0]), 10),
            )
        ),
        hidden_cases=_hidden_cases,
        seed=1902,
        misconceptions=MISCONCEPTIONS,
        name_hints={
            "x": "the pair is v: its entries are v[0] and v[1]",
            "y": "the pair is v: its entries are v[0] and v[1]",
            "a": "the angle is stored in angle, its cosine in c and its sine in s",
        },
        module=__name__,
    )
)

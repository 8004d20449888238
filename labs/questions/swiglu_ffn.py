"""Code question C3: the SwiGLU feed-forward network, written as one line."""

from __future__ import annotations

import numpy as np

from labs import kernels
from livelab.questions import Case, CodeQuestion, Misconception, register_code_question

TEMPLATE = """\
def silu(z):
    return z / (1 + np.exp(-z))  # SiLU(z) = z times sigmoid(z)

def swiglu_ffn(x, W_gate, W_up, W_down):
    ____

x = np.array([[1.0, -1.0]])  # 1 token, d_model = 2
W_gate = np.array([[2.0, 0.0, 1.0], [0.0, 2.0, 1.0]])  # [d_model, d_ff] = [2, 3]
W_up = np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]])  # [2, 3]
W_down = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # [d_ff, d_model] = [3, 2]
print(swiglu_ffn(x, W_gate, W_up, W_down).round(4))
"""


def reference(
    x: np.ndarray, W_gate: np.ndarray, W_up: np.ndarray, W_down: np.ndarray
) -> np.ndarray:
    """The course kernel. Shapes: x [..., d_model], W_gate, W_up [d_model, d_ff],
    W_down [d_ff, d_model] -> [..., d_model]."""
    return kernels.swiglu_ffn(x, W_gate, W_up, W_down)


def _case(
    rng: np.random.Generator, label: str, x_shape: tuple[int, ...], d_ff: int, scale: float = 1.0
) -> Case:
    d_model = x_shape[-1]
    x = scale * rng.standard_normal(x_shape)
    w_gate, w_up = (rng.standard_normal((d_model, d_ff)) for _ in range(2))
    w_down = rng.standard_normal((d_ff, d_model))
    tags = frozenset({"row" if len(x_shape) == 1 else "batch"})
    return Case(label, (x, w_gate, w_up, w_down), tags=tags)


def _hidden_cases(rng: np.random.Generator) -> list[Case]:
    return [
        _case(rng, "one word as a flat row x of shape (2,), d_ff = 3", (2,), 3),
        _case(rng, "x of shape (3, 2), d_ff = 3", (3, 2), 3),
        _case(rng, "x of shape (4, 5), d_ff = 8", (4, 5), 8),
        _case(rng, "x of shape (3, 4) with square weights, d_ff = 4", (3, 4), 4),
        _case(rng, "a batch x of shape (2, 3, 4), d_ff = 6", (2, 3, 4), 6),
        _case(rng, "larger values, x of shape (2, 3), d_ff = 5", (2, 3), 5, scale=3.0),
    ]


MISCONCEPTIONS = (
    Misconception(
        "gate-value-swapped",
        "Gate and value are swapped: silu goes on x @ W_gate (the gate), while x @ W_up "
        "(the value) is used as it is.",
        variants=(lambda x, Wg, Wu, Wd: (kernels.silu(x @ Wu) * (x @ Wg)) @ Wd,),
    ),
    Misconception(
        "relu-gate",
        "Use silu on the gate, not ReLU: SiLU lets a small negative part through where ReLU "
        "gives exactly 0.",
        variants=(lambda x, Wg, Wu, Wd: (kernels.relu(x @ Wg) * (x @ Wu)) @ Wd,),
    ),
    Misconception(
        "sigmoid-gate",
        "The gate is silu(z) = z * sigmoid(z), not sigmoid(z) alone: call the silu defined "
        "above on x @ W_gate.",
        variants=(lambda x, Wg, Wu, Wd: (kernels.sigmoid(x @ Wg) * (x @ Wu)) @ Wd,),
    ),
    Misconception(
        "no-down-projection",
        "Finish with @ W_down: the gated product has d_ff numbers per word, and the output "
        "must be back at d_model numbers per word.",
        variants=(lambda x, Wg, Wu, Wd: kernels.silu(x @ Wg) * (x @ Wu),),
    ),
    Misconception(
        "silu-on-both",
        "Only the gate goes through silu; the value branch x @ W_up stays linear.",
        variants=(lambda x, Wg, Wu, Wd: (kernels.silu(x @ Wg) * kernels.silu(x @ Wu)) @ Wd,),
    ),
    Misconception(
        "no-value-branch",
        "The value branch is missing: multiply silu(x @ W_gate) entry by entry with "
        "x @ W_up before projecting with W_down.",
        variants=(lambda x, Wg, Wu, Wd: kernels.silu(x @ Wg) @ Wd,),
    ),
    Misconception(
        "added-not-multiplied",
        "Combine gate and value with *, entry by entry, not with +: the gate scales the value.",
        variants=(lambda x, Wg, Wu, Wd: (kernels.silu(x @ Wg) + (x @ Wu)) @ Wd,),
    ),
)

QUESTION = register_code_question(
    CodeQuestion(
        name="swiglu_ffn",
        template=TEMPLATE,
        function_name="swiglu_ffn",
        reference=reference,
        reference_blank="return (silu(x @ W_gate) * (x @ W_up)) @ W_down",
        example_cases=(
            Case(
                "the example x = [[1, -1]] with the weights above",
                (
                    np.array([[1.0, -1.0]]),
                    np.array([[2.0, 0.0, 1.0], [0.0, 2.0, 1.0]]),
                    np.array([[1.0, 1.0, 0.0], [0.0, 1.0, 1.0]]),
                    np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]),
                ),
                tags=frozenset({"batch"}),
                hidden=False,
            ),
        ),
        hidden_cases=_hidden_cases,
        seed=1903,
        misconceptions=MISCONCEPTIONS,
        name_hints={
            "sigmoid": "the gate uses silu, which the template defines above",
            "SiLU": "the function defined above is spelled silu",
            "relu": "the gate uses silu, which the template defines above",
            "W_g": "the weights are named W_gate, W_up and W_down",
            "W_u": "the weights are named W_gate, W_up and W_down",
            "W_d": "the weights are named W_gate, W_up and W_down",
        },
        module=__name__,
    )
)

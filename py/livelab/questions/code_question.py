"""What a fill-in-the-blank code question is made of, as plain frozen data.

A question is graded by livelab.grading: the template with the student's blank filled in
is run, then the function it defines is called on every case and compared with the
reference kernel.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

BLANK = "____"
"""The blank in a template: the one place every part of livelab takes it from."""
PRELUDE = "import numpy as np\n\n"
"""What a template needs above it to run on its own: the names the grader provides."""


def blank_lines(template: str) -> tuple[bool, ...]:
    """For each blank of a template, in order: whether it stands alone on its line."""
    return tuple(
        line.strip() == BLANK for line in template.split("\n") for _ in range(line.count(BLANK))
    )


@dataclass(frozen=True)
class Case:
    """One call of the student's function: arguments and a description a student can read."""

    label: str
    """How the case is named in feedback, e.g. "a batch x of shape (2, 3, 4)"."""
    args: tuple[Any, ...]
    kwargs: Mapping[str, Any] = field(default_factory=dict)
    tags: frozenset[str] = frozenset()
    """Free-form tags used by misconception rules, e.g. {"row"}, {"batch"}, {"eps"}."""
    hidden: bool = True


@dataclass(frozen=True)
class Misconception:
    """A known wrong idea, recognised by how a wrong answer behaves, with its own message.

    Recognised when the student's outcomes on every case (except those tagged with one of
    skip_tags) match one of the variants: the same values within loose tolerance, or an
    exception where the variant raises one too. A misconception without variants uses the
    tag rule instead: every case tagged with one of passes_on passes while some case
    tagged with one of fails_on fails.
    """

    key: str
    message: str
    variants: tuple[Callable[..., Any], ...] = ()
    skip_tags: frozenset[str] = frozenset()
    passes_on: frozenset[str] = frozenset()
    fails_on: frozenset[str] = frozenset()


@dataclass(frozen=True)
class CodeQuestion:
    """A code question: template with one blank (or several), the reference, cases and feedback.

    Each field's metadata "what" is the line the authoring reference prints for it.
    """

    name: str = field(metadata={"what": "the name a code fence gives in its question option"})
    template: str = field(
        metadata={
            "what": "the program shown, with one ____ (or several) and a def <function_name>(; "
            "it ends by printing the example"
        }
    )
    function_name: str = field(
        metadata={"what": "the function the template defines and the grader calls"}
    )
    reference: Callable[..., Any] = field(
        metadata={"what": "the trusted implementation (a labs.kernels function or a thin adapter)"}
    )
    reference_blank: str | tuple[str, ...] = field(
        metadata={"what": "the model answer for the blank (a tuple, one per blank, for several)"}
    )
    example_cases: tuple[Case, ...] = field(
        metadata={"what": "the template's own example, as Case(..., hidden=False)"}
    )
    hidden_cases: Callable[[np.random.Generator], list[Case]] = field(
        metadata={
            "what": "a function of a NumPy generator returning more Cases: other shapes, "
            "batches, edge values"
        }
    )
    seed: int = field(
        metadata={"what": "the seed of that generator, so the hidden cases never change"}
    )
    misconceptions: tuple[Misconception, ...] = field(
        metadata={
            "what": "known wrong ideas, each a Misconception with its message, recognised "
            "by how a wrong blank behaves"
        },
        default=(),
    )
    hint: str = field(
        metadata={
            "what": "plain text: the one hint of a code fence that gives no hints of its own "
            "(a fence's hints, Markdown, are the usual place)"
        },
        default="",
    )
    rtol: float = field(
        metadata={"what": "relative tolerance of the comparison with the reference"}, default=1e-6
    )
    atol: float = field(
        metadata={"what": "absolute tolerance of the comparison with the reference"}, default=1e-9
    )
    match_rtol: float = field(
        metadata={"what": "looser tolerance used only to recognise a misconception variant"},
        default=1e-4,
    )
    time_budget: float = field(
        metadata={"what": "seconds the student's code may take over one whole check"}, default=2.0
    )
    name_hints: Mapping[str, str] = field(
        metadata={
            "what": "advice for a NameError on a name students often reach for, "
            'e.g. {"x": "use v[0]"}'
        },
        default_factory=dict,
    )
    module: str = field(
        metadata={
            "what": "the defining module (give __name__): its <name>.cases.json lies beside it"
        },
        default="",
        compare=False,
    )

    def __post_init__(self) -> None:
        if self.blank_count < 1:
            raise ValueError(f"question {self.name}: the template needs a {BLANK}")
        if f"def {self.function_name}(" not in self.template:
            raise ValueError(f"question {self.name}: the template lacks def {self.function_name}")
        several = self.blank_count > 1
        if several != isinstance(self.reference_blank, tuple) or (
            len(self.reference_blanks) != self.blank_count
        ):
            raise ValueError(
                f"question {self.name}: its {self.blank_count} {BLANK} need a reference_blank "
                "of one text for one blank, a tuple of one text per blank for several"
            )
        pairs = zip(self.reference_blanks, self.whole_lines, strict=True)
        for number, (text, whole) in enumerate(pairs, 1):
            if "\n" in text.strip("\n") and not whole:
                raise ValueError(
                    f"question {self.name}: a reference of several lines (blank {number}) needs "
                    f"a {BLANK} that stands alone on its line"
                )

    @property
    def blank_count(self) -> int:
        """How many blanks the template has: one, or several."""
        return self.template.count(BLANK)

    @property
    def reference_blanks(self) -> tuple[str, ...]:
        """The model answer of every blank, in the template's order."""
        ref = self.reference_blank
        return (ref,) if isinstance(ref, str) else tuple(ref)

    @property
    def whole_lines(self) -> tuple[bool, ...]:
        """For each blank: whether it stands alone on its line (the student writes statements,
        of one line or several)."""
        return blank_lines(self.template)

    @property
    def blank_is_whole_line(self) -> bool:
        """True when the (first) blank stands alone on its line (the student writes a statement)."""
        return self.whole_lines[0]

    def cases(self) -> list[Case]:
        """Example cases, then the hidden cases drawn from the question's fixed seed."""
        return [*self.example_cases, *self.hidden_cases(np.random.default_rng(self.seed))]

"""What a course puts in every scratchpad namespace besides `np` and `help` (livelab.scratch).

Light on purpose: a course package calls scratchpad_names when it is imported, at build time
and in the browser's worker, before anything of the scratchpad itself is loaded.
"""

from __future__ import annotations

from collections.abc import Iterable
from types import ModuleType

PRELOADED: dict[str, object] = {}
"""Name -> object, in the order the course gave them."""


def scratchpad_names(module: ModuleType, leave_out: Iterable[str] = ()) -> None:
    """Start every scratchpad namespace with the public names (`__all__`) of module, except
    those in leave_out, which stay importable from the module."""
    skipped = set(leave_out)
    names = getattr(module, "__all__", None)
    if names is None:
        raise ValueError(f"{module.__name__} has no __all__ to say which names it offers")
    PRELOADED.update((name, getattr(module, name)) for name in names if name not in skipped)

"""Plain words for errors whose own text a student cannot act on.

Python's and NumPy's texts for a size too large ("cannot fit 'int' into an index-sized
integer"), for memory running out, or for an interpreter broken by a crash name C types
and internals. plain() gives the clause the page shows beside them: in a code question's
message (livelab.grading), under the scratchpad's traceback (livelab.scratch) and in a
plain run's error (livelab.worker_api.error_data). It is empty for every other error.
"""

from __future__ import annotations

from livelab import i18n

MEMORY_LIMIT = 512 * 2**20
"""Bytes the worker's WebAssembly memory may reach: it refuses to grow past them
(web/runtime/worker/memory-cap.js holds the same number), so an allocation past them raises
MemoryError."""
LARGEST_SIZE = 2**31 - 1
"""The largest length of a list or an array in the browser's 32-bit Python."""
SIZE_TEXTS = (
    "index-sized integer",
    "too large to convert to C ssize_t",
    "Maximum allowed dimension exceeded",
)
"""Words of Python's and NumPy's own texts for a list or array size past LARGEST_SIZE."""
BYTES_TEXT = "array is too big"
"""NumPy's text (a ValueError) for an array of more bytes than the 32-bit address space."""
BROKEN_TEXT = "Handler takes too many arguments"
"""CPython's text (a SystemError) when its call of a C function finds the function's
table entry wrong: the interpreter's memory was damaged, as after a crash."""


def size() -> str:
    """The clause for a size past LARGEST_SIZE, in the site's language."""
    limit = f"{LARGEST_SIZE + 1:,}"
    if i18n.current() != "en":  # a comma is a decimal sign in most other languages
        limit = limit.replace(",", "\u202f")
    return i18n.text("explain.size", limit=limit)


def memory() -> str:
    """The clause for memory running out (past MEMORY_LIMIT)."""
    return i18n.text("explain.memory", limit=MEMORY_LIMIT // 2**20)


def broken() -> str:
    """The clause for an interpreter damaged by a crash (BROKEN_TEXT)."""
    return i18n.text("explain.broken")


def plain(kind: str, message: str) -> str:
    """The clause that says in plain words what went wrong, or "" when Python's text will do."""
    if kind == "MemoryError" or (kind == "ValueError" and BYTES_TEXT in message):
        return memory()
    if kind in ("OverflowError", "ValueError") and any(t in message for t in SIZE_TEXTS):
        return size()
    if kind == "SystemError" and BROKEN_TEXT in message:
        return broken()
    return ""


def with_plain(kind: str, message: str) -> str:
    """Python's text followed by the plain clause in parentheses, when there is one."""
    clause = plain(kind, message)
    return f"{message} ({clause})" if clause else message

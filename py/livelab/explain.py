"""Plain words for errors whose own text a student cannot act on.

Python's and NumPy's texts for a size too large ("cannot fit 'int' into an index-sized
integer"), for memory running out, or for an interpreter broken by a crash name C types
and internals. plain() gives the clause the page shows beside them: in a code question's
message (livelab.grading), under the scratchpad's traceback (livelab.scratch) and in a
plain run's error (livelab.worker_api.error_data). It is empty for every other error.
"""

from __future__ import annotations

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

SIZE = (
    "the number is too large to be the size of a list or an array: a size here must be "
    f"less than {LARGEST_SIZE + 1:,}, and memory holds far fewer numbers than that"
)
MEMORY = (
    f"Python ran out of memory: code here may use at most {MEMORY_LIMIT // 2**20} MB, and "
    "this needed more, so make the arrays or lists smaller"
)
BROKEN = (
    "Python's insides were damaged, most likely by an earlier crash (such as a recursion "
    "too deep for the browser); Python restarts now, so run your code again"
)


def plain(kind: str, message: str) -> str:
    """The clause that says in plain words what went wrong, or "" when Python's text will do."""
    if kind == "MemoryError" or (kind == "ValueError" and BYTES_TEXT in message):
        return MEMORY
    if kind in ("OverflowError", "ValueError") and any(t in message for t in SIZE_TEXTS):
        return SIZE
    if kind == "SystemError" and BROKEN_TEXT in message:
        return BROKEN
    return ""


def with_plain(kind: str, message: str) -> str:
    """Python's text followed by the plain clause in parentheses, when there is one."""
    clause = plain(kind, message)
    return f"{message} ({clause})" if clause else message

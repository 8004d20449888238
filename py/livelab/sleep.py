"""time.sleep as the worker has it: stoppable, and refused when longer than a run may take.

Pyodide's own sleep cannot be stopped: a stop during time.sleep(100) made the page wait its
grace period, end Python and say to look for a loop that never ends. The worker installs
sleep() as time.sleep before any student code runs (worker_api.clean_state): it waits in
short slices, so a stop lands inside it and worker_api reports the stop as asleep (the page
then says the code was sleeping: web/runtime/shared/stops.js); and a single wait longer than a run
may take is refused at once, with a sentence that says so, on every host.
"""

from __future__ import annotations

import time

from livelab import i18n

RUN_SECONDS = 5
"""How long a run may take before the page stops it: DEFAULT_TIMEOUT_MS of
web/runtime/page/client.js and TIMEOUT_MS of web/widgets/code.js, in seconds."""
SLICE = 0.02
"""Seconds of one uninterrupted wait: a stop lands within about this long."""
_real_sleep = time.sleep


def sleep(seconds: float, /) -> None:
    """Wait `seconds`, in slices a stop can land between; refuse more than RUN_SECONDS."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not seconds > 0:
        _real_sleep(seconds)  # its own errors for a negative, NaN or non-number wait
        return
    if seconds > RUN_SECONDS:
        said = i18n.text("runtime.sleep_too_long", seconds=f"{seconds:g}", limit=RUN_SECONDS)
        raise TimeoutError(said)
    end = time.monotonic() + seconds
    while (left := end - time.monotonic()) > 0:
        _real_sleep(min(left, SLICE))


def install() -> None:
    """Make time.sleep this module's sleep."""
    time.sleep = sleep  # type: ignore[assignment]  # the same calls, minus SupportsIndex


def asleep(stop: BaseException) -> bool:
    """Whether a stop (KeyboardInterrupt) arrived while the code was in time.sleep."""
    tb = stop.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code is sleep.__code__

"""What a browser costs the machine, read from outside: CPU seconds and the sum of the resident
memory (RSS) of all its processes, sampled from /proc (Linux only) in a background thread.

The browser's processes are every descendant of Playwright's driver (a child of this Python
process), the driver itself left out: one browser is measured at a time. A process's CPU time
counts up to its last sample (one that ends between two samples loses at most SAMPLE_S of
it); the peak memory is the highest sum of RSS seen in one sample. RSS counts memory shared
between processes once per process, as the issue's first figures did.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

SAMPLE_S = 0.1
TICK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


def _stat(pid: str) -> tuple[int, int, float] | None:
    """(ppid, start time in ticks, CPU seconds) of a process, or None once it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()  # after "pid (comm) "
    # fields[0] is field 3 (state): ppid is field 4, utime 14, stime 15, starttime 22.
    return int(fields[1]), int(fields[19]), (int(fields[11]) + int(fields[12])) / TICK


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE
    except (OSError, IndexError, ValueError):
        return 0


def browser_pids() -> list[int]:
    """Every descendant of this process's children's children: the browsers Playwright's
    driver (this process's child) launched, and their processes."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (stat := _stat(entry)) is not None:
            parents[int(entry)] = stat[0]
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    drivers = children.get(os.getpid(), [])
    found: list[int] = []
    todo = [pid for driver in drivers for pid in children.get(driver, [])]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


class Meter:
    """Samples the browsers' processes from start() to stop(): cpu_s() and peak_mb()."""

    def __init__(self) -> None:
        self.cpu: dict[tuple[int, int], float] = {}  # (pid, start time) -> last CPU seconds
        self.peak = 0
        # (monotonic time, CPU seconds so far, sum of RSS in bytes), one per sample
        self.marks: list[tuple[float, float, int]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> Meter:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def _sample(self) -> None:
        total = 0
        for pid in browser_pids():
            stat = _stat(str(pid))
            if stat is None:
                continue
            self.cpu[(pid, stat[1])] = stat[2]
            total += _rss(pid)
        self.peak = max(self.peak, total)
        self.marks.append((time.monotonic(), self.cpu_s(), total))

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(SAMPLE_S)

    def cpu_s(self) -> float:
        return sum(self.cpu.values())

    def peak_mb(self) -> float:
        return self.peak / 1e6

    def processes(self) -> int:
        return len(self.cpu)

    def quiet_for(self, seconds: float, below_s: float) -> bool:
        """Whether the browser used less than below_s CPU seconds in the last `seconds`."""
        marks = list(self.marks)
        if not marks or marks[-1][0] - marks[0][0] < seconds:
            return False
        now, cpu, _ = marks[-1]
        before = next(c for t, c, _ in reversed(marks) if now - t >= seconds)
        return cpu - before < below_s

    def between(self, start: float, end: float) -> tuple[float, float]:
        """(CPU seconds, peak MB) of the samples from monotonic time start to end."""
        marks = [m for m in list(self.marks) if start <= m[0] <= end]
        if not marks:
            return 0.0, 0.0
        return marks[-1][1] - marks[0][1], max(m[2] for m in marks) / 1e6

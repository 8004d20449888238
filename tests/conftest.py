"""For every run of the suite: where its time went, by test file (the slowest first)."""

from __future__ import annotations

from collections import Counter

import pytest

SHOWN = 8
_seconds: Counter[str] = Counter()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    _seconds[report.nodeid.split("::", 1)[0]] += report.duration  # setup, call and teardown


def pytest_terminal_summary(terminalreporter) -> None:
    if not _seconds or terminalreporter.config.option.collectonly:
        return
    total = sum(_seconds.values())
    terminalreporter.section(f"slowest test files (of {len(_seconds)}; {total:.0f} s in tests)")
    for path, seconds in _seconds.most_common(SHOWN):
        terminalreporter.write_line(f"{seconds:7.1f} s  {100 * seconds / total:4.1f}%  {path}")

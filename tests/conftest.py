"""For every run of the suite: level 19's course package registered, as its build registers it
(mkdocs.yml names it under the plugin's `modules`), and where the time went, by test file."""

from __future__ import annotations

from collections import Counter

import pytest

import labs  # noqa: F401  (adds its labs, code questions and scratchpad names to livelab's)

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


@pytest.fixture(autouse=True)
def _english_between_tests():
    """A French build sets livelab.i18n's language for the process; each test starts English."""
    from livelab import i18n

    yield
    i18n.use(i18n.DEFAULT)

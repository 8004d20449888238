"""One built site, and each engine (Chromium, Firefox, WebKit) once per session.

Every test that takes `tab` runs once per engine; pytest runs all of one engine's tests
before starting the next, so only one browser is up at a time.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.engines.engines import ENGINES, launched, serve_probed
from tests.engines.tab import Tab
from tests.harness import Site, course_served


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Iterator[Site]:
    """The site served cross-origin isolated, as `make serve` does."""
    yield from course_served(tmp_path_factory)


@pytest.fixture(scope="session")
def probed(built) -> Iterator[Site]:
    served = serve_probed(built)
    yield served
    served.close()


@pytest.fixture(scope="session", params=ENGINES)
def engine(request):
    try:
        with launched(request.param) as running:
            yield running
    except RuntimeError as exc:
        pytest.fail(str(exc))


@pytest.fixture
def site(engine, request) -> Site:
    """The site as this engine is served it (WebKit's pages carry the error probe)."""
    return request.getfixturevalue("probed" if engine.name == "webkit" else "built")


@pytest.fixture
def tab(engine) -> Iterator[Tab]:
    opened = engine.tab()
    yield opened
    opened.close()

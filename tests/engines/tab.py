"""One tab in one browser engine, driven the same way whatever the engine.

A cross-engine test talks to a Tab: goto, reload, evaluate, find by role and accessible name,
click, fill, press, read text, wait for a condition, read the console errors. Each engine
(Chromium under Playwright, Firefox over WebDriver BiDi, WebKit over classic WebDriver)
implements the few primitives below; everything a test calls is written once, here.
Elements are found by roles.js in the page on every engine, Chromium included, so the same
role rules are exercised everywhere (test_roles.py holds them to Playwright's get_by_role).
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROLES_JS = (Path(__file__).with_name("roles.js")).read_text(encoding="utf-8")
FIND_ONE = f"""(query) => {{
  const found = ({ROLES_JS})(query);
  return found.length === 1 ? found[0] : found.length;
}}"""
TEXT_OF = f"""(query) => {{
  const found = ({ROLES_JS})(query);
  if (found.length !== 1) return {{ count: found.length }};
  const el = found[0];
  return {{ text: el.textContent, value: el.value === undefined ? null : String(el.value) }};
}}"""
MARK_LEAVING = "() => { self.__livelabLeaving = true; }"
NEW_PAGE_LOADED = "() => self.__livelabLeaving === undefined && document.readyState === 'complete'"
DEFAULT_TIMEOUT = 90.0  # a cold Pyodide boot in WebKit on a busy machine takes 30 s


class EngineError(AssertionError):
    """The page did not get where a test waited for it to get, or a script in it threw."""


class Unsupported(Exception):
    """The engine cannot do this at all (not a failure of the page)."""


@dataclass(frozen=True)
class Role:
    """Elements of an ARIA role, by accessible name (substring, case-insensitive, unless
    exact; or a compiled regex), optionally only inside elements matching a CSS selector."""

    role: str
    name: str | re.Pattern[str] | None = None
    within: str | None = None
    exact: bool = False

    def query(self) -> dict:
        query: dict[str, Any] = {"role": self.role, "within": self.within, "exact": self.exact}
        if isinstance(self.name, re.Pattern):
            query["pattern"] = self.name.pattern
            query["flags"] = "i" if self.name.flags & re.IGNORECASE else ""
        else:
            query["name"] = self.name
        return query

    def __str__(self) -> str:
        where = f" in {self.within}" if self.within else ""
        return f"{self.role} {self.name!r}{where}"


class Tab(ABC):
    """A fresh tab (its own storage) in one engine; close() throws it away."""

    engine: str = ""

    def __init__(self) -> None:
        self._errors: list[str] = []

    # ---- what each engine implements ---------------------------------------------------

    @abstractmethod
    def _navigate(self, url: str) -> None:
        """Navigate and wait for the load event (goto makes sure it is the new page's)."""

    @abstractmethod
    def _reload(self) -> None:
        """Reload and wait for the load event (reload makes sure it is the new page's)."""

    @abstractmethod
    def evaluate(self, function: str, arg: Any = None) -> Any:
        """Call a JS function expression (may be async) with one JSON argument; its result
        as JSON data. EngineError if it throws."""

    @abstractmethod
    def _element(self, query: dict) -> tuple[Any, int]:
        """(a handle on the one element roles.js finds, or None; how many it found)."""

    @abstractmethod
    def _click(self, element: Any) -> None: ...

    @abstractmethod
    def _fill(self, element: Any, text: str) -> None:
        """Replace the field's text by typing `text`."""

    @abstractmethod
    def _press(self, element: Any, key: str) -> None:
        """Focus the element and press one key (a Playwright key name such as "Enter")."""

    def _new_errors(self) -> list[str]:
        """Console errors and uncaught exceptions since the last call (engines that are told
        about them as they happen append to self._errors instead)."""
        return []

    @abstractmethod
    def close(self) -> None:
        """Throw the tab and its storage away."""

    def set_offline(self, offline: bool) -> None:
        raise Unsupported(f"{self.engine} cannot emulate being offline")

    # ---- written once for every engine -------------------------------------------------

    def goto(self, url: str) -> None:
        """Load `url` and wait until that page, not the one before it, has loaded."""
        self._leaving(lambda: self._navigate(url))

    def reload(self) -> None:
        self._leaving(self._reload)

    def _leaving(self, navigate: Callable[[], None]) -> None:
        # Firefox's navigate to the address already shown can answer while the old page is
        # still there: a test then typed into the old page's field, and the keys reached the
        # new page's body, where Material's shortcuts changed pages. So the old page is marked,
        # and the wait is for a complete page without the mark.
        with contextlib.suppress(EngineError):  # nothing loaded yet (a new tab)
            self.evaluate(MARK_LEAVING)
        navigate()
        self.wait_for(NEW_PAGE_LOADED)

    @property
    def errors(self) -> list[str]:
        self._errors.extend(self._new_errors())
        return self._errors

    def find(self, target: Role, timeout: float = DEFAULT_TIMEOUT, enabled: bool = True) -> Any:
        """The one visible (and, unless told otherwise, enabled) element `target` names,
        waiting for it to appear."""
        deadline = time.monotonic() + timeout
        while True:
            element, count = self._element(target.query() | {"enabled": enabled})
            if element is not None:
                return element
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: {count} elements are {target} after {timeout}s")
            time.sleep(0.1)

    def click(self, target: Role, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._click(self.find(target, timeout))

    def fill(self, target: Role, text: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._fill(self.find(target, timeout), text)

    def press(self, target: Role, key: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        self._press(self.find(target, timeout), key)

    def read(self, target: Role, timeout: float = DEFAULT_TIMEOUT) -> dict:
        """{"text": textContent, "value": value or None} of the one element `target` names."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.evaluate(TEXT_OF, target.query())
            if "text" in found:
                return found
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: {found['count']} elements are {target}")
            time.sleep(0.1)

    def wait_value(self, target: Role, value: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        """Wait until the field's value is `value`."""
        deadline = time.monotonic() + timeout
        while (shown := self.read(target, timeout)["value"]) != value:
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: {target} holds {shown!r}, not {value!r}")
            time.sleep(0.1)

    def text(self, target: Role) -> str:
        return " ".join(self.read(target)["text"].split())

    def wait_for(self, function: str, arg: Any = None, timeout: float = DEFAULT_TIMEOUT) -> Any:
        """Poll a JS function until it returns something truthy; return that."""
        deadline = time.monotonic() + timeout
        while True:
            value = self.evaluate(function, arg)
            if value:
                return value
            if time.monotonic() > deadline:
                raise EngineError(f"{self.engine}: still {value!r} after {timeout}s: {function}")
            time.sleep(0.1)

    def wait_text(
        self, target: Role, pattern: str | re.Pattern[str], timeout: float = DEFAULT_TIMEOUT
    ) -> str:
        """Wait until the element's text (whitespace squashed) matches `pattern` (a regex
        searched for, or a substring); return that text."""
        regex = pattern if isinstance(pattern, re.Pattern) else re.compile(re.escape(pattern))
        deadline = time.monotonic() + timeout
        while True:
            try:
                shown, unread = self.text(target), None
            except EngineError as exc:
                shown, unread = None, exc  # not there yet, or the browser no longer answers
            if shown is not None and regex.search(shown):
                return shown
            if time.monotonic() > deadline:
                why = f" ({unread})" if unread else ""
                raise EngineError(
                    f"{self.engine}: {target} says {shown!r}{why}, not {regex.pattern!r}"
                )
            time.sleep(0.1)

    def features(self) -> dict:
        """What the engine offers the page, as the page itself sees it."""
        return self.evaluate(FEATURES)


FEATURES = """() => ({
  isolated: self.crossOriginIsolated === true,
  sharedArrayBuffer: typeof SharedArrayBuffer === "function",
  serviceWorker: "serviceWorker" in navigator,
  caches: typeof caches === "object",
})"""


def as_json_call(function: str) -> str:
    """A function of one JSON string that calls `function` on its parsed value and returns its
    result as a JSON string (what the BiDi and WebDriver engines send and read back)."""
    return f"async (json) => JSON.stringify((await ({function})(JSON.parse(json))) ?? null)"


def loads(text: str) -> Any:
    return json.loads(text)

"""Chromium (Debian's, under Playwright, as tests/browser drives it) behind the Tab interface."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Browser, Error, Playwright

from tests.engines.tab import FIND_ONE, EngineError, Tab
from tests.harness import launch_chromium


class ChromiumTab(Tab):
    engine = "chromium"

    def __init__(self, browser: Browser, init_script: str | None = None) -> None:
        super().__init__()
        self.context = browser.new_context()
        if init_script:
            self.context.add_init_script(init_script)
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda exc: self._errors.append(str(exc)))
        self.page.on("console", lambda msg: msg.type == "error" and self._errors.append(msg.text))

    def _navigate(self, url: str) -> None:
        self.page.goto(url)

    def _reload(self) -> None:
        self.page.reload()

    def evaluate(self, function: str, arg: Any = None) -> Any:
        try:
            return self.page.evaluate(function, arg)
        except Error as exc:
            raise EngineError(f"chromium: {exc.message}") from None

    def _element(self, query: dict) -> tuple[Any, int]:
        handle = self.page.evaluate_handle(FIND_ONE, query)
        element = handle.as_element()
        if element is None:
            count = handle.json_value()
            handle.dispose()
            return None, count
        return element, 1

    def _click(self, element: Any) -> None:
        element.click()

    def _fill(self, element: Any, text: str) -> None:
        element.fill(text)

    def _press(self, element: Any, key: str) -> None:
        element.press(key)

    def set_offline(self, offline: bool) -> None:
        self.context.set_offline(offline)

    def close(self) -> None:
        self.context.close()


class Chromium:
    """One headless Chromium for the session; tab() opens a fresh context."""

    name = "chromium"

    def __init__(self, playwright: Playwright) -> None:
        self.browser = launch_chromium(playwright)

    def tab(self, init_script: str | None = None) -> ChromiumTab:
        return ChromiumTab(self.browser, init_script)

    def close(self) -> None:
        self.browser.close()

"""Debian's WebKitGTK (its MiniBrowser) over classic WebDriver, as plain HTTP calls.

`WebKitWebDriver` runs under `xvfb-run -a` (WebKitGTK needs an X server) and allows one
session at a time, so each tab is a session of its own: a fresh MiniBrowser with fresh,
ephemeral storage. Classic WebDriver has no console log, so the WebKit site's server puts
ERROR_PROBE at the top of every page (see conftest.py): it records console errors,
uncaught exceptions and failed loads where _new_errors() reads them.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from tests.engines.firefox import KEYS
from tests.engines.tab import FIND_ONE, EngineError, Tab, as_json_call

DRIVER = Path(os.environ.get("LIVELAB_WEBKIT_DRIVER", "/usr/bin/WebKitWebDriver"))
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
SESSION_TIMEOUT_S = 90  # a MiniBrowser starts in seconds
ERROR_PROBE = """<script>(() => {
  const errors = (self.__engineErrors = []);
  addEventListener("error", (e) => errors.push(e.target === self ? String(e.message)
    : "failed to load " + (e.target.src || e.target.href)), true);
  addEventListener("unhandledrejection", (e) => errors.push("unhandled " + String(e.reason)));
  const error = console.error;
  console.error = (...args) => { errors.push(args.map(String).join(" ")); error(...args); };
})();</script>"""
TAKE_ERRORS = "() => (self.__engineErrors || []).splice(0)"


class WebKitTab(Tab):
    engine = "webkit"

    def __init__(self, driver: WebKit, init_script: str | None = None) -> None:
        super().__init__()
        if init_script:
            raise EngineError("webkit: classic WebDriver cannot run a script before the page")
        self.driver = driver
        capabilities = {
            "webkitgtk:browserOptions": {"binary": MINIBROWSER, "args": ["--automation"]}
        }
        reply = driver.new_session(capabilities)
        self.session = f"/session/{reply['sessionId']}"
        self.command("POST", "/timeouts", {"script": 120_000, "pageLoad": 120_000})

    def command(self, method: str, path: str, body: dict | None = None) -> Any:
        return self.driver.http(method, self.session + path, body)

    def _navigate(self, url: str) -> None:
        self._errors.extend(self._new_errors())
        self.command("POST", "/url", {"url": url})

    def _reload(self) -> None:
        self._errors.extend(self._new_errors())
        self.command("POST", "/refresh", {})

    def _new_errors(self) -> list[str]:
        try:
            return self._run(as_json_call(TAKE_ERRORS), None)
        except EngineError:
            return []

    def _run(self, function: str, arg: Any) -> Any:
        script = (
            "const done = arguments[1];"
            f"Promise.resolve().then(() => ({function})(arguments[0]))"
            ".then((v) => done({ ok: v }), (e) => done({ error: String(e && e.stack || e) }));"
        )
        reply = self.command(
            "POST", "/execute/async", {"script": script, "args": [json.dumps(arg)]}
        )
        if "error" in reply:
            raise EngineError(f"webkit: {reply['error']}")
        return json.loads(reply["ok"])

    def evaluate(self, function: str, arg: Any = None) -> Any:
        return self._run(as_json_call(function), arg)

    def _element(self, query: dict) -> tuple[Any, int]:
        found = self.command(
            "POST",
            "/execute/sync",
            {"script": f"return ({FIND_ONE})(arguments[0])", "args": [query]},
        )
        if isinstance(found, dict) and ELEMENT in found:
            return found[ELEMENT], 1
        return None, found

    def _click(self, element: Any) -> None:
        self.command("POST", f"/element/{element}/click", {})

    def _fill(self, element: Any, text: str) -> None:
        self.command("POST", f"/element/{element}/clear", {})
        self.command("POST", f"/element/{element}/value", {"text": text})

    def _press(self, element: Any, key: str) -> None:
        self.command("POST", f"/element/{element}/value", {"text": KEYS.get(key, key)})

    def close(self) -> None:
        self.driver.http("DELETE", self.session)


class WebKit:
    """WebKitWebDriver under xvfb-run for the session; tab() starts a fresh MiniBrowser."""

    name = "webkit"

    def __init__(self) -> None:
        for tool in (DRIVER, Path(MINIBROWSER)):
            if not tool.is_file():
                raise RuntimeError(
                    f"{tool} is missing: install Debian's webkit2gtk-driver and xvfb "
                    "(`make test` does)"
                )
        self._start()

    def _start(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            ["xvfb-run", "-a", str(DRIVER), f"--port={port}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while True:
            try:
                self.http("GET", "/status")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("WebKitWebDriver did not start in 30 s") from None
                time.sleep(0.2)

    def new_session(self, capabilities: dict) -> Any:
        """POST /session. In one full run the driver never answered it (a MiniBrowser that did
        not connect): after SESSION_TIMEOUT_S the driver is started again and asked once more."""
        body = {"capabilities": {"alwaysMatch": capabilities}}
        try:
            return self.http("POST", "/session", body, timeout=SESSION_TIMEOUT_S)
        except TimeoutError:
            self.close()
            self._start()
            return self.http("POST", "/session", body, timeout=SESSION_TIMEOUT_S)

    def http(self, method: str, path: str, body: dict | None = None, timeout: float = 300) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as exc:
            value = json.loads(exc.read())["value"]
            raise EngineError(f"webkit: {path}: {value['error']}: {value['message']}") from None

    def tab(self, init_script: str | None = None) -> WebKitTab:
        return WebKitTab(self, init_script)

    def close(self) -> None:
        # xvfb-run started Xvfb and the driver in the group it leads; end that group only.
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)

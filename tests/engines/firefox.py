"""Debian's Firefox ESR over WebDriver BiDi, spoken directly: no geckodriver, no download.

`firefox-esr --headless --remote-debugging-port=N` serves BiDi at ws://127.0.0.1:N/session.
A reader thread routes each reply to the command waiting for it and each log event to the
tab it came from. Every tab lives in its own user context, so its storage starts empty.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import re
import shutil
import subprocess
import tempfile
import threading
import time
from contextlib import ExitStack, suppress
from pathlib import Path
from typing import Any

from websockets.sync.client import connect

from tests.engines.tab import FIND_ONE, EngineError, Tab, as_json_call

FIREFOX = Path(os.environ.get("LIVELAB_FIREFOX", "/usr/bin/firefox-esr"))
# Keep the test browser from phoning home or asking anything (the rest of the automation
# defaults Firefox applies itself, remote.prefs.recommended).
PREFS = {
    "app.update.disabledForTesting": True,
    "browser.shell.checkDefaultBrowser": False,
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "network.captive-portal-service.enabled": False,
    "network.connectivity-service.enabled": False,
    "browser.safebrowsing.update.enabled": False,
    "extensions.update.enabled": False,
}
LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
KEYS = {"Enter": "\ue007", "ArrowRight": "\ue014", "ArrowLeft": "\ue012", "ArrowUp": "\ue013",
        "ArrowDown": "\ue015", "End": "\ue010", "Home": "\ue011", "Tab": "\ue004",
        "Space": " ", "Backspace": "\ue003"}  # fmt: skip


# Scrolls the element to the middle of the view and waits until its box is the same in two
# frames running (at most 60 frames).
STEADY = """async (el) => {
    el.scrollIntoView({ block: "center", behavior: "instant" });
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    let last = "";
    for (let i = 0; i < 60; i++) {
        await frame();
        const box = el.getBoundingClientRect();
        const now = [box.x, box.y, box.width, box.height].join();
        if (now === last) return;
        last = now;
    }
}"""


class BiDi:
    """A WebDriver BiDi connection: send() waits for the reply; events go to listeners."""

    def __init__(self, url: str) -> None:
        self.stack = ExitStack()
        self.socket = self.stack.enter_context(connect(url, max_size=None, open_timeout=30))
        self.closed = False
        self.ids = itertools.count(1)
        self.waiting: dict[int, queue.Queue] = {}
        self.listeners: list = []
        self.lock = threading.Lock()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        try:
            for raw in self.socket:
                message = json.loads(raw)
                if "id" in message and message["id"] in self.waiting:
                    self.waiting[message["id"]].put(message)
                elif message.get("type") == "event":
                    for listener in list(self.listeners):
                        listener(message["method"], message["params"])
        except Exception:  # the connection closed: wake every waiting command
            pass
        finally:
            self.closed = True
            for box in list(self.waiting.values()):
                box.put({"type": "error", "error": "closed", "message": "connection closed"})

    def send(self, method: str, params: dict, timeout: float = 60) -> dict:
        command_id = next(self.ids)
        box: queue.Queue = queue.Queue()
        self.waiting[command_id] = box
        if self.closed:
            raise EngineError(f"firefox: the BiDi connection is closed; cannot send {method}")
        with self.lock:
            self.socket.send(json.dumps({"id": command_id, "method": method, "params": params}))
        try:
            reply = box.get(timeout=timeout)
        except queue.Empty:
            raise EngineError(f"firefox: no reply to {method} in {timeout}s") from None
        finally:
            del self.waiting[command_id]
        if reply.get("type") == "error":
            raise EngineError(f"firefox: {method}: {reply['error']}: {reply.get('message')}")
        return reply["result"]

    def close(self) -> None:
        self.stack.close()


class FirefoxTab(Tab):
    engine = "firefox"

    def __init__(self, bidi: BiDi, init_script: str | None = None) -> None:
        super().__init__()
        self.bidi = bidi
        self.user_context = bidi.send("browser.createUserContext", {})["userContext"]
        created = bidi.send(
            "browsingContext.create", {"type": "tab", "userContext": self.user_context}
        )
        self.context = created["context"]
        self.preload = None
        if init_script:
            self.preload = bidi.send(
                "script.addPreloadScript",
                {"functionDeclaration": f"() => {{ {init_script} }}",
                 "userContexts": [self.user_context]},
            )["script"]  # fmt: skip
        bidi.listeners.append(self._on_event)

    def _on_event(self, method: str, params: dict) -> None:
        mine = params.get("source", {}).get("context") == self.context
        if method == "log.entryAdded" and params.get("level") == "error" and mine:
            self._errors.append(params.get("text") or json.dumps(params))

    def _navigate(self, url: str) -> None:
        self.bidi.send(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def _reload(self) -> None:
        self.bidi.send("browsingContext.reload", {"context": self.context, "wait": "complete"})

    def _call(self, function: str, args: list, ownership: str = "none") -> dict:
        reply = self.bidi.send(
            "script.callFunction",
            {
                "functionDeclaration": function,
                "arguments": args,
                "awaitPromise": True,
                "target": {"context": self.context},
                "resultOwnership": ownership,
            },
        )
        if reply["type"] == "exception":
            details = reply["exceptionDetails"]
            raise EngineError(f"firefox: {details.get('text')}")
        return reply["result"]

    def evaluate(self, function: str, arg: Any = None) -> Any:
        result = self._call(as_json_call(function), [{"type": "string", "value": json.dumps(arg)}])
        return json.loads(result["value"])

    def _element(self, query: dict) -> tuple[Any, int]:
        function = f"(json) => ({FIND_ONE})(JSON.parse(json))"
        result = self._call(function, [{"type": "string", "value": json.dumps(query)}], "root")
        if result["type"] == "node":
            return {"sharedId": result["sharedId"]}, 1
        return None, result.get("value", 0)

    def _on(self, element: dict, function: str) -> None:
        self._call(function, [element])

    def _keys(self, keys: str) -> None:
        actions = []
        for key in keys:
            actions += [{"type": "keyDown", "value": key}, {"type": "keyUp", "value": key}]
        self.bidi.send(
            "input.performActions",
            {"context": self.context,
             "actions": [{"type": "key", "id": "keyboard", "actions": actions}]},
        )  # fmt: skip

    def _click(self, element: Any) -> None:
        # In view and holding still (as Playwright waits for Chromium): a click aimed while
        # the page still moves, as it does while it loads, can land beside the element.
        self._on(element, STEADY)
        pointer = [
            {"type": "pointerMove", "x": 0, "y": 0,
             "origin": {"type": "element", "element": element}},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]  # fmt: skip
        self.bidi.send(
            "input.performActions",
            {"context": self.context,
             "actions": [{"type": "pointer", "id": "mouse", "actions": pointer}]},
        )  # fmt: skip

    def _fill(self, element: Any, text: str) -> None:
        # Empty the field as a script (a select-all shortcut differs by platform), then type.
        self._on(element, "(el) => { el.focus(); el.value = ''; }")
        self._keys(text)

    def _press(self, element: Any, key: str) -> None:
        self._on(element, "(el) => el.focus()")
        self._keys(KEYS.get(key, key))

    def close(self) -> None:
        self.bidi.listeners.remove(self._on_event)
        if self.preload:
            self.bidi.send("script.removePreloadScript", {"script": self.preload})
        self.bidi.send("browsingContext.close", {"context": self.context})
        self.bidi.send("browser.removeUserContext", {"userContext": self.user_context})


class Firefox:
    """One headless Firefox ESR for the session; tab() opens a tab in a fresh user context."""

    name = "firefox"

    def __init__(self) -> None:
        if not FIREFOX.is_file():
            raise RuntimeError(
                f"{FIREFOX} is missing: install Debian's firefox-esr (`make test` does) "
                "or point LIVELAB_FIREFOX at a Firefox binary"
            )
        self.profile = Path(tempfile.mkdtemp(prefix="livelab-firefox-"))
        lines = [f'user_pref("{k}", {json.dumps(v)});' for k, v in PREFS.items()]
        (self.profile / "user.js").write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.process = subprocess.Popen(
            [str(FIREFOX), "--headless", "--no-remote", "--remote-debugging-port=0",
             "--profile", str(self.profile)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            self.bidi = BiDi(self._endpoint() + "/session")
            threading.Thread(target=self._drain, daemon=True).start()
            self.bidi.send("session.new", {"capabilities": {}})
            self.bidi.send("session.subscribe", {"events": ["log.entryAdded"]})
        except BaseException:
            self._stop()
            raise

    def _endpoint(self) -> str:
        deadline = time.monotonic() + 60
        assert self.process.stderr is not None
        for line in self.process.stderr:
            found = LISTENING.search(line)
            if found:
                return found.group(1)
            if time.monotonic() > deadline:
                break
        raise RuntimeError(f"Firefox did not start its WebDriver BiDi server: {line!r}")

    def _drain(self) -> None:
        assert self.process.stderr is not None
        try:
            for _ in self.process.stderr:  # keep the pipe from filling up
                pass
        except (ValueError, OSError):  # closed by _stop
            pass

    def tab(self, init_script: str | None = None) -> FirefoxTab:
        return FirefoxTab(self.bidi, init_script)

    def close(self) -> None:
        with suppress(EngineError):  # Firefox may be gone already
            self.bidi.send("session.end", {}, timeout=10)
        self.bidi.close()
        self._stop()

    def _stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stderr:
            self.process.stderr.close()
        shutil.rmtree(self.profile, ignore_errors=True)

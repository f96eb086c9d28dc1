"""A tiny Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (no websocket package needed).

Loads a page in headless Chromium and records what a test needs: console errors, uncaught exceptions, log
entries, every network request, values read with JavaScript, and a full-page PNG screenshot.
Chromium reads commands from fd 3 and writes replies to fd 4, each a JSON message ended by a NUL byte.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional


def chromium_path() -> Optional[str]:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        path = shutil.which(name)
        if path:
            return path
    return None


@dataclass
class PageLoad:
    console_errors: List[str] = field(default_factory=list)
    requests: List[str] = field(default_factory=list)
    evaluated: Any = None
    screenshot_png: bytes = b""


class _Pipe:
    def __init__(self, browser: str, profile: str):
        to_child_r, self._to_child = os.pipe()
        self._from_child, from_child_w = os.pipe()
        # the child sees the pipes as fds 3 (commands) and 4 (replies)
        def remap():  # in the child, before exec; close_fds=False so fds 3 and 4 survive
            reader, writer = os.dup(to_child_r), os.dup(from_child_w)  # above 4, so the dup2s cannot clash
            os.dup2(reader, 3)
            os.dup2(writer, 4)
            os.set_inheritable(3, True)
            os.set_inheritable(4, True)
        self.process = subprocess.Popen(
            [browser, "--headless=new", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
             "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-sync",
             "--disable-background-networking", "--disable-component-update", "--hide-scrollbars",
             f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=remap, close_fds=False)
        os.close(to_child_r)
        os.close(from_child_w)
        self._buffer = b""
        self._next_id = 0
        self.events: List[Dict[str, Any]] = []

    def send(self, method: str, params: Optional[dict] = None, session: Optional[str] = None, timeout: float = 60) -> dict:
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._to_child, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            reply = self._read()
            if reply.get("id") == self._next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)
        raise TimeoutError(method)

    def wait_for(self, method: str, timeout: float = 60) -> dict:
        for event in self.events:
            if event.get("method") == method:
                return event
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            event = self._read()
            self.events.append(event)
            if event.get("method") == method:
                return event
        raise TimeoutError(method)

    def _read(self) -> dict:
        while b"\0" not in self._buffer:
            chunk = os.read(self._from_child, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def close(self) -> None:
        try:
            self.send("Browser.close", timeout=10)
        except Exception:  # the browser may already be gone
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_child)
        os.close(self._from_child)


def load_page(url: str, expression: str = "null", width: int = 1280) -> PageLoad:
    """Open ``url``, wait for its load event, evaluate ``expression`` (JSON-serialisable), screenshot it."""
    browser = chromium_path()
    if browser is None:
        raise FileNotFoundError("no chromium")
    with tempfile.TemporaryDirectory() as profile:
        pipe = _Pipe(browser, profile)
        try:
            target = pipe.send("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = pipe.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
            for domain in ("Page", "Runtime", "Network", "Log"):
                pipe.send(f"{domain}.enable", session=session)
            pipe.send("Emulation.setDeviceMetricsOverride",
                      {"width": width, "height": 900, "deviceScaleFactor": 1, "mobile": False}, session=session)
            pipe.events.clear()
            pipe.send("Page.navigate", {"url": url}, session=session)
            pipe.wait_for("Page.loadEventFired")
            value = pipe.send("Runtime.evaluate", {"expression": f"JSON.stringify({expression})",
                                                   "returnByValue": True}, session=session)["result"].get("value")
            metrics = pipe.send("Page.getLayoutMetrics", session=session)
            height = int(metrics["cssContentSize"]["height"])
            shot = pipe.send("Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True,
                                                        "clip": {"x": 0, "y": 0, "width": width,
                                                                 "height": min(height, 16000), "scale": 1}},
                             session=session)
            result = PageLoad(evaluated=json.loads(value) if value else None,
                              screenshot_png=base64.b64decode(shot["data"]))
            for event in pipe.events:
                method, params = event.get("method"), event.get("params", {})
                if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                    result.console_errors.append(json.dumps(params.get("args")))
                elif method == "Runtime.exceptionThrown":
                    result.console_errors.append(json.dumps(params.get("exceptionDetails")))
                elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                    result.console_errors.append(params["entry"].get("text", ""))
                elif method == "Network.requestWillBeSent":
                    result.requests.append(params["request"]["url"])
            return result
        finally:
            pipe.close()

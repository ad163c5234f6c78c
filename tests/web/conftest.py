"""Fixtures of the web table's tests: a server in a background thread (its own event loop and a store in
the test's temporary folder) and Debian's headless Chromium driven by Playwright's Python API.

Under ``CI=true`` a missing browser fails the browser tests; elsewhere they are skipped with the reason."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from warband.web.app import Server, create_app
from warband.web.replays import ReplayShelf
from warband.web.store import TableStore

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "web"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """A uvicorn server on a free localhost port, in a thread; ``stop()`` shuts it down."""

    def __init__(
        self, store: Path, ai_delay: float = 0.05, shelf: ReplayShelf | None = None, port: int | None = None
    ) -> None:
        self.port = port or free_port()  # a given port: a restarted server at the address the pages know
        self.server = Server(TableStore(store), shelf or ReplayShelf(), ai_delay)
        config = uvicorn.Config(
            create_app(self.server), host="127.0.0.1", port=self.port, log_level="warning", timeout_graceful_shutdown=1
        )
        self.uvicorn = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.uvicorn.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.uvicorn.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the web server did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        self.uvicorn.should_exit = True
        self.thread.join(timeout=10)
        self.server.close()
        self.server.store.close()


@pytest.fixture
def live(tmp_path: Path) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path / "web.db")
    yield server
    server.stop()


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = chromium_path()
    if path is None:
        message = "chromium is not installed (Debian: apt-get install -y chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(message + "; under CI=true the browser tests must run")
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield b
        b.close()


def shot(page: Any, name: str) -> Path:
    """Save a screenshot in ``test-output/web/`` and return its path."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path

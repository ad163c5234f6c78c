"""Helpers for the attack corpus of issue 24: bounded runs (each case within 5 s), files made hostile (a YAML
alias bomb, a FIFO, a link to a device), and a web client on a table store."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from fastapi.testclient import TestClient

from warband.web.app import Server, create_app
from warband.web.replays import ReplayShelf
from warband.web.store import TableStore

#: Every case of the corpus must end within this many seconds.
LIMIT_S = 5.0
T = TypeVar("T")

RULESETS = ("trench-crusade", "trenches-and-turbines", "wyrdcry", "gangfight")


def timed(fn: Callable[[], T], limit: float = LIMIT_S) -> T:
    """``fn()``, failing the test if it took longer than ``limit`` seconds."""
    started = time.monotonic()
    out = fn()
    took = time.monotonic() - started
    assert took < limit, f"took {took:.2f} s (the limit is {limit} s)"
    return out


def alias_bomb(levels: int = 7, width: int = 10, list_key: str = "models") -> str:
    """The issue's 764-byte file: ``m0`` one model, each ``m<k>`` a list of ``width`` aliases of the one
    before, ``models: *m<levels>`` (``width ** levels`` models once expanded)."""
    lines = ["name: bomb", "m0: &m0 {type: Trooper, name: x}"]
    for k in range(1, levels + 1):
        lines.append(f"m{k}: &m{k} [" + ", ".join([f"*m{k - 1}"] * width) + "]")
    lines.append(f"{list_key}: *m{levels}")
    return "\n".join(lines) + "\n"


def fifo(path: Path) -> Path:
    os.mkfifo(path)
    return path


def link(path: Path, target: str) -> Path:
    path.symlink_to(target)
    return path


@contextmanager
def web(store: str | Path = ":memory:", **server: Any) -> Iterator[TestClient]:
    """A test client on a fresh server (agents think in threads, no delay)."""
    options: dict[str, Any] = {"ai_delay": 0.0, "agent_workers": 0, **server}
    with TestClient(create_app(Server(TableStore(store), ReplayShelf(), **options))) as client:
        yield client

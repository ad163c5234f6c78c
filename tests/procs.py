"""Process helpers for the tests that kill a parent and check its workers end with it (the lab's and the web
table's): children of a process read from /proc, whether a process still runs, waiting on a condition."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path


def children(pid: int, marker: bytes | None = None) -> set[int]:
    """The processes whose parent is ``pid`` (with ``marker``: only those whose command line holds it)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            if ppid != pid:
                continue
            if marker is not None and marker not in (stat.parent / "cmdline").read_bytes():
                continue
        except (OSError, ValueError, IndexError):
            continue
        found.add(int(stat.parent.name))
    return found


def alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    """True as soon as ``condition()`` holds, False if it still does not after ``seconds``."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.1)
    return False

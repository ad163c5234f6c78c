"""Issue 10 item 12: ``kill -9`` of ``warband simulate`` leaves no worker process playing on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hardcli import TC, warband


def _children(pid: int) -> set[int]:
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its new parent to reap it counts as dead)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait_for(condition: object, seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():  # type: ignore[operator]
            return True
        time.sleep(0.1)
    return False


def test_workers_die_with_a_killed_simulate(tmp_path: Path) -> None:
    slow = "mcts:iterations=400"  # a game takes far longer than the test waits
    args = ["simulate", TC, "--a", str(warband(TC, 0)), "--b", str(warband(TC, 1)), "--agent-a", slow]
    args += ["--agent-b", slow, "--games", "8", "--workers", "2", "--db", ":memory:"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "warband", *args], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path
    )
    workers: set[int] = set()
    try:
        assert _wait_for(lambda: len(_children(proc.pid)) >= 2, 60), "the workers never started"
        workers = _children(proc.pid)
        time.sleep(1.0)  # the workers are inside their first games
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 5), "workers outlived their parent"
    finally:  # never leave an orphan behind, even when the test fails
        for pid in workers | _children(proc.pid):
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        proc.kill()

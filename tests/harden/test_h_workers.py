"""Issue 10 item 12: ``kill -9`` of ``warband simulate`` leaves no worker process playing on."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from hardcli import TC, warband

from procs import alive as _alive
from procs import children as _children
from procs import wait_for as _wait_for


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

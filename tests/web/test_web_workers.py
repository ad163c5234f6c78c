"""The web table's agent seats think in worker processes; ``kill -9`` of the server leaves none of them running
(as issue 10 item 12 asks of the lab's workers)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx

from conftest import free_port
from procs import alive as _alive
from procs import children
from procs import wait_for as _wait_for
from warband.kernel import ruleset as registry

TC = "trench-crusade"


def _pool_workers(pid: int) -> set[int]:
    """The children of ``pid`` started by multiprocessing's spawn (the agents' pool; the resource tracker's
    command line holds ``resource_tracker`` instead)."""
    return children(pid, b"spawn_main") - children(pid, b"resource_tracker")


def _serve_a_game(tmp_path: Path, seats: list[str], stderr: int) -> tuple[subprocess.Popen[bytes], set[int]]:
    """Start ``warband serve``, open a Trench Crusade game with the given agent seats and wait for the agents'
    worker processes; the server and its workers."""
    port = free_port()
    cmd = [sys.executable, "-m", "warband", "serve", "--host", "127.0.0.1", "--port", str(port)]
    cmd += ["--store", str(tmp_path / "web.db"), "--ai-delay", "0.05"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=stderr, cwd=tmp_path)
    try:
        url = f"http://127.0.0.1:{port}"
        assert _wait_for(lambda: _up(url), 60), "the server did not start"
        bands = [Path(w["path"]).stem for w in registry.get(TC).samples()["warbands"]]
        body = {"ruleset": TC, "a": {"sample": bands[0]}, "b": {"sample": bands[1]}, "seats": seats}
        assert httpx.post(f"{url}/api/games", json=body, timeout=30).status_code in (200, 201)
        assert _wait_for(lambda: len(_pool_workers(proc.pid)) >= 1, 60), "no agent worker process started"
    except BaseException:
        _stop(proc, set())
        raise
    return proc, _pool_workers(proc.pid)


def _stop(proc: subprocess.Popen[bytes], workers: set[int]) -> None:
    """Never leave an orphan behind, even when a test fails."""
    for pid in workers | _pool_workers(proc.pid):
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    proc.kill()


def test_agent_workers_die_with_a_killed_server(tmp_path: Path) -> None:
    proc, workers = _serve_a_game(tmp_path, ["mcts", "mcts"], subprocess.DEVNULL)
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _wait_for(lambda: not any(_alive(w) for w in workers), 5), "agent workers outlived the server"
    finally:
        _stop(proc, workers)


def test_a_server_stopped_with_sigterm_ends_its_workers_cleanly(tmp_path: Path) -> None:
    """SIGTERM (Ctrl-C, a service stop) shuts the agents' pool down and waits for it: no worker left, and no
    'leaked semaphore' warning from multiprocessing at exit (the pool used to be abandoned half-shut)."""
    proc, workers = _serve_a_game(tmp_path, ["random", "random"], subprocess.PIPE)
    try:
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        # uvicorn shuts down gracefully, then re-raises the signal it caught, so the exit status is SIGTERM's
        assert proc.returncode in (0, -signal.SIGTERM), err.decode(errors="replace")
        assert b"leaked semaphore" not in err and b"Traceback" not in err, err.decode(errors="replace")
        assert not any(_alive(w) for w in workers), "agent workers outlived the server"
    finally:
        _stop(proc, workers)


def _up(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/meta", timeout=2).status_code == 200
    except httpx.TransportError:
        return False

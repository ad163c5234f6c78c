"""Where a run's games are played: in this process, in a pool of local processes, or on a Ray cluster.

A backend takes a *task* (a picklable function ``task(config, index) -> GameRecord``, normally
:func:`warband.lab.simulate.play_one`), a run's config and the game indices to play, and yields the records as the
games finish, in any order. Every game is a pure function of ``(config, index)``, so the records (sorted by index)
do not depend on the backend nor on how many workers it has.

A backend stops cleanly when its consumer stops early (an exception in a progress hook, Ctrl-C): the games not
yet started are cancelled and the workers are shut down.
"""

from __future__ import annotations

import importlib
import os
import socket
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, wait
from typing import TYPE_CHECKING, Any, Protocol

from warband.kernel.errors import WarbandError
from warband.workers import worker_pool

if TYPE_CHECKING:
    from warband.lab.records import GameRecord, SimulationConfig

Task = Callable[["SimulationConfig", int], "GameRecord"]
"""Plays one game of a run: ``task(config, index)``; must be picklable (a module-level function or a partial)."""

BACKENDS = ("local", "ray")


class BackendError(WarbandError):
    """A backend that cannot start: Ray not installed, a cluster address that does not answer, no workers."""


class Backend(Protocol):
    """Plays the games of a run and yields their records as they finish (in any order)."""

    name: str

    def run(self, task: Task, config: SimulationConfig, indices: Sequence[int]) -> Iterator[GameRecord]: ...

    def describe(self) -> str: ...


def default_workers() -> int:
    """Every core of this machine."""
    return max(1, os.cpu_count() or 1)


class LocalBackend:
    """This process (``workers == 1``) or a pool of ``workers`` processes on this machine."""

    name = "local"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = default_workers() if workers is None else workers
        if self.workers < 1:
            raise BackendError(f"--workers must be at least 1, got {self.workers}")

    def describe(self) -> str:
        return f"local, {self.workers} worker(s)"

    def run(self, task: Task, config: SimulationConfig, indices: Sequence[int]) -> Iterator[GameRecord]:
        workers = min(self.workers, len(indices))
        if workers <= 1:
            return (task(config, index) for index in indices)
        return _pooled(task, config, indices, workers)


def _pooled(task: Task, config: SimulationConfig, indices: Sequence[int], workers: int) -> Iterator[GameRecord]:
    """Records as games finish; at most ``2 * workers`` games are queued at a time."""
    pending: set[Future[GameRecord]] = set()
    todo = iter(indices)
    with worker_pool(workers) as pool:
        try:
            for index in todo:
                pending.add(pool.submit(task, config, index))
                if len(pending) >= 2 * workers:
                    break
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in sorted(done, key=lambda f: f.result().index):
                    nxt = next(todo, None)
                    if nxt is not None:
                        pending.add(pool.submit(task, config, nxt))
                    yield future.result()
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise BackendError("--backend ray needs Ray: pip install 'warband[ray]'") from None


def _ray_play(task: Task, config: SimulationConfig, index: int) -> GameRecord:
    """The body of a Ray task (module-level, so Ray pickles it by reference)."""
    return task(config, index)


class RayBackend:
    """Ray tasks over the run's games: on the cluster at ``address`` (``ray.init(address=...)``, e.g. ``auto`` or
    ``ray://host:10001``), or on a local Ray runtime started for the run when ``address`` is None. If Ray is already
    initialised in this process, that runtime is used as it is (and left running).

    The cluster's workers must have warband (and the ruleset's plug-in) installed. At most ``2 * in_flight``
    games are submitted at a time (``in_flight`` defaults to the cluster's CPUs)."""

    name = "ray"

    def __init__(self, address: str | None = None, in_flight: int | None = None) -> None:
        self.address = address
        _probe(address)  # before anything is drawn or stored: a dead address fails in seconds, not minutes
        self.in_flight = in_flight
        self.ray = _import_ray()

    def describe(self) -> str:
        return f"ray ({self.address or 'local runtime'})"

    def run(self, task: Task, config: SimulationConfig, indices: Sequence[int]) -> Iterator[GameRecord]:
        ray = self.ray
        started = not ray.is_initialized()
        if started:
            try:
                ray.init(address=self.address, include_dashboard=False, log_to_driver=False)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                where = self.address or "a local runtime"
                raise BackendError(f"--backend ray: cannot start or reach Ray at {where}: {exc}") from None
        try:
            yield from self._submit(task, config, indices)
        finally:
            if started:
                ray.shutdown()

    def _submit(self, task: Task, config: SimulationConfig, indices: Sequence[int]) -> Iterator[GameRecord]:
        ray = self.ray
        remote = ray.remote(num_cpus=1, max_retries=2)(_ray_play)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        limit = 2 * max(1, self.in_flight or cpus)
        config_ref = ray.put(config)
        todo = iter(indices)
        pending: list[Any] = [remote.remote(task, config_ref, i) for _, i in zip(range(limit), todo, strict=False)]
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for record in ray.get(done):
                    nxt = next(todo, None)
                    if nxt is not None:
                        pending.append(remote.remote(task, config_ref, nxt))
                    yield record
        except BaseException:
            for ref in pending:
                ray.cancel(ref, force=True)
            raise


#: How long a Ray cluster's address may take to accept a connection before the run is refused.
CONNECT_TIMEOUT = 3.0


def _probe(address: str | None) -> None:
    """Refuse, within :data:`CONNECT_TIMEOUT` seconds, a cluster address that does not accept a connection
    (Ray itself retries for minutes); ``None`` and ``auto`` (found by Ray) are left to Ray."""
    if address is None or address in ("auto", "local"):
        return
    hostport = address.removeprefix("ray://")
    host, sep, port_text = hostport.rpartition(":")
    if not sep or not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise BackendError(f"--address {address}: expected HOST:PORT (or ray://HOST:PORT, or auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port_text)), timeout=CONNECT_TIMEOUT):
            pass
    except OSError as exc:
        raise BackendError(
            f"--address {address}: no Ray cluster answers there within {CONNECT_TIMEOUT:g} s "
            f"({exc.strerror or type(exc).__name__})"
        ) from None


def make_backend(name: str, workers: int | None = None, address: str | None = None) -> Backend:
    """The backend called ``name`` (``local`` or ``ray``); ``workers`` is the local pool's size or Ray's number
    of games in flight, ``address`` the Ray cluster's (only for ``ray``)."""
    if workers is not None and workers < 1:
        raise BackendError(f"--workers must be at least 1, got {workers}")
    if name == "local":
        if address is not None:
            raise BackendError("--address is for --backend ray")
        return LocalBackend(workers)
    if name == "ray":
        return RayBackend(address, workers)
    raise BackendError(f"--backend must be one of {', '.join(BACKENDS)}, got {name!r}")

"""The Ray backend on a local Ray runtime plays the same games as the local backend (skipped without Ray)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from warband.kernel import ruleset as registry
from warband.lab.backends import LocalBackend, RayBackend
from warband.lab.records import SimulationConfig
from warband.lab.simulate import simulate
from warband.lab.store import MEMORY, Store

ray = pytest.importorskip("ray", reason="Ray is not installed (pip install 'warband[ray]')")

RULESET = "trench-crusade"


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_and_local_backends_give_the_same_run(local_ray: Any) -> None:
    config = SimulationConfig(
        RULESET,
        _warband("pilgrims_sacred_affliction.yaml"),
        _warband("new_antioch_company.yaml"),
        games=4,
        seed=5,
        agent_a="random",
        agent_b="random",
    )
    local = simulate(config, backend=LocalBackend(1))
    with Store(MEMORY) as store:
        remote = simulate(config, backend=RayBackend(), store=store)
        stored = [row.record() for row in store.games(remote.run_id or 0)]
    assert remote.summary()["backend"] == "ray"
    assert [r.index for r in remote.records] == [0, 1, 2, 3]
    assert remote.records == local.records == stored
    assert local_ray.is_initialized()  # a runtime the caller started is left running

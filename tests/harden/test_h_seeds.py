"""Issue 10 item 6: a seed outside 0..2**63-1 is refused clearly (no OverflowError from the results database)."""

from __future__ import annotations

import pytest
from hardcli import RANDOM, TC, cli, warband

from warband.kernel.errors import SeedError
from warband.kernel.rng import MAX_SEED, check_seed
from warband.lab.records import SimulationConfig
from warband.lab.simulate import check


@pytest.mark.parametrize("seed", [str(MAX_SEED + 1), "-1", str(10**30)])
def test_simulate_refuses_a_seed_out_of_range(seed: str) -> None:
    out = cli("simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM, "--games", "1", "--seed", seed)
    assert out.code == 2 and "--seed" in out.text


def test_the_largest_seed_plays_and_is_stored(tmp_path: object) -> None:
    args = ["--db", f"{tmp_path}/r.db", "--games", "1", "--seed", str(MAX_SEED), "--json"]
    out = cli("simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM, *args)
    assert out.code == 0, out.text


def test_lab_check_refuses_an_out_of_range_seed_through_the_api() -> None:
    config = SimulationConfig(TC, warband(TC, 0), warband(TC, 1), games=1, seed=MAX_SEED + 1)
    with pytest.raises(SeedError, match="0 to 9223372036854775807"):
        check(config)
    assert check_seed(0) == 0


def test_play_refuses_a_negative_seed() -> None:
    out = cli("play", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM, "--seed", "-1")
    assert out.code == 2 and "--seed" in out.text

"""warband compare: the group-sequential maths (against published tables, hand values and a Monte Carlo), the
stopping rule on scripted games, and small real runs through the CLI."""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from statistics import NormalDist

import numpy as np
import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel import ruleset as registry
from warband.kernel.errors import ParameterError
from warband.lab import compare as cmp
from warband.lab.compare import (
    CompareError,
    Paired,
    Plan,
    Variant,
    check_variants,
    crossing_probabilities,
    group_sequential_bounds,
    parse_variant,
    score_interval,
    stagewise_p_value,
)
from warband.lab.records import GameRecord, SimulationConfig
from warband.lab.stats import wilson_interval

RULESET = "trench-crusade"


def _warband(file_name: str) -> Path:
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise AssertionError(f"no bundled warband {file_name}")


A = _warband("pilgrims_sacred_affliction.yaml")
B = _warband("new_antioch_company.yaml")


def _equal(k: int) -> list[float]:
    return [i / k for i in range(1, k + 1)]


# ------------------------------------------------------------------------------------------------ boundaries
@pytest.mark.parametrize(
    ("looks", "kind", "first", "last"),
    [
        # Jennison & Turnbull (2000), tables 2.1 and 2.3: two-sided alpha = 0.05, equally spaced looks
        (1, "obf", 1.960, 1.960),
        (2, "obf", 2.797, 1.977),
        (5, "obf", 4.562, 2.040),
        (10, "obf", 6.598, 2.087),
        (2, "pocock", 2.178, 2.178),
        (5, "pocock", 2.413, 2.413),
        (10, "pocock", 2.555, 2.555),
    ],
)
def test_boundaries_match_published_tables(looks: int, kind: cmp.Boundary, first: float, last: float) -> None:
    bounds = group_sequential_bounds(_equal(looks), 0.05, kind)
    assert bounds[0] == pytest.approx(first, abs=2e-3)
    assert bounds[-1] == pytest.approx(last, abs=2e-3)
    assert sum(crossing_probabilities(_equal(looks), bounds)) == pytest.approx(0.05, abs=1e-6)


def test_obrien_fleming_shape_and_unequal_looks() -> None:
    fractions = [20 / 50, 40 / 50, 1.0]  # a last, shorter batch
    bounds = group_sequential_bounds(fractions, 0.05, "obf")
    c = bounds[-1]
    assert bounds == pytest.approx([c / math.sqrt(t) for t in fractions])
    assert sum(crossing_probabilities(fractions, bounds)) == pytest.approx(0.05, abs=1e-6)


def test_one_look_is_the_fixed_sample_test() -> None:
    assert crossing_probabilities([1.0], [1.96]) == pytest.approx([2 * (1 - NormalDist().cdf(1.96))])
    assert stagewise_p_value([1.0], [1.96], 0, 2.5) == pytest.approx(2 * (1 - NormalDist().cdf(2.5)), abs=1e-9)


def test_type_one_error_by_monte_carlo() -> None:
    """Brownian paths observed at 5 looks cross the O'Brien–Fleming boundaries about alpha of the time."""
    fractions = _equal(5)
    bounds = np.array(group_sequential_bounds(fractions, 0.05, "obf"))
    rng = np.random.default_rng(12345)
    steps = rng.normal(0.0, math.sqrt(0.2), size=(200_000, 5))
    z = np.cumsum(steps, axis=1) / np.sqrt(np.array(fractions))
    rate = float(np.mean(np.any(np.abs(z) >= bounds, axis=1)))
    assert rate == pytest.approx(0.05, abs=0.003)  # ~6 standard errors


def test_stagewise_p_value() -> None:
    fractions = _equal(5)
    bounds = group_sequential_bounds(fractions, 0.05, "obf")
    # exactly on the last boundary: alpha; nothing at all: 1
    assert stagewise_p_value(fractions, bounds, 4, bounds[4]) == pytest.approx(0.05, abs=1e-6)
    assert stagewise_p_value(fractions, bounds, 4, 0.0) == pytest.approx(1.0, abs=1e-6)
    # an early stop on the boundary: the chance of crossing by then
    by_3 = sum(crossing_probabilities(fractions, bounds)[:3])
    assert stagewise_p_value(fractions, bounds, 2, bounds[2]) == pytest.approx(by_3, abs=1e-6)
    assert stagewise_p_value(fractions, bounds, 0, math.inf) == 0.0
    # larger |z| at the same look, smaller p; below the boundary, above alpha
    assert stagewise_p_value(fractions, bounds, 4, 3.0) < stagewise_p_value(fractions, bounds, 4, 2.5) < 0.05
    assert stagewise_p_value(fractions, bounds, 4, -1.5) > 0.05


def test_plan_looks() -> None:
    plan = Plan.make(50, 20)
    assert plan.looks == (20, 40, 50)
    assert plan.fractions == [0.4, 0.8, 1.0]
    assert Plan.make(10, 20).looks == (10,)
    with pytest.raises(CompareError):
        Plan.make(0, 20)
    with pytest.raises(CompareError):
        Plan.make(100, 20, alpha=1.5)


# -------------------------------------------------------------------------------------------- paired outcomes
def test_paired_difference_by_hand() -> None:
    p = Paired.of([0.0, 0.5, 1.0, 0.0], [1.0, 0.5, 1.0, 0.5])  # diffs 1, 0, 0, 0.5
    assert p.mean == pytest.approx(0.375)
    sd = math.sqrt(((0.625**2) + 2 * (0.375**2) + 0.125**2) / 3)
    assert p.se == pytest.approx(sd / 2)
    assert p.z == pytest.approx(0.375 / (sd / 2))
    assert p.discordant == 2
    assert Paired.of([0.0, 1.0], [0.0, 1.0]).z == 0.0
    assert Paired.of([0.0, 0.0], [1.0, 1.0]).z == math.inf


def test_score_interval_is_wilson_with_whole_counts() -> None:
    for wins, n in ((0, 10), (3, 10), (10, 10), (57, 200)):
        assert score_interval(wins, n) == pytest.approx(wilson_interval(wins, n))
    low, high = score_interval(2.5, 10)
    assert wilson_interval(2, 10)[0] < low < high < wilson_interval(3, 10)[1]


def test_parse_and_check_variants() -> None:
    v = parse_variant("charge_range=3, success_threshold=9")
    assert v == Variant("charge_range=3,success_threshold=9", {"charge_range": "3", "success_threshold": "9"})
    with pytest.raises(ParameterError, match="name=value"):
        parse_variant("charge_range")
    with pytest.raises(ParameterError, match="charge_rnage"):
        check_variants(RULESET, [parse_variant("charge_rnage=3")])
    with pytest.raises(ParameterError, match="success_threshold"):
        check_variants(RULESET, [parse_variant("success_threshold=high")])
    with pytest.raises(CompareError):
        check_variants(RULESET, [])


# ------------------------------------------------------------------------------ the stopping rule, scripted
def _scripted(config: SimulationConfig, index: int) -> GameRecord:
    """A wins every game under "big"; under the defaults or "same", A wins the even games only."""
    a_wins = config.params.get("success_threshold") == "9" or index % 2 == 0
    return GameRecord(index, config.game_seed(index), "a" if a_wins else "b", "scripted", (0, 0), 1, 0, 0)


def _base() -> SimulationConfig:
    return SimulationConfig(RULESET, A, B, seed=3, agent_a="random", agent_b="random")


def test_stops_early_for_a_clear_change_and_not_for_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cmp, "play_one", _scripted)
    plan = Plan.make(200, 20)
    variants = [parse_variant("success_threshold=9"), parse_variant("medic_heal=3")]
    s = cmp.compare(_base(), variants, plan).summary
    big, same = s["variants"]
    # diffs are 1 on odd games, 0 on even: z ~ sqrt(n); first look with z >= c_k is n = 40 (c = 4.67)
    assert big["games"] == 40 and big["stopped_early"] and big["significant"]
    assert big["change"] == pytest.approx(0.5)
    assert big["ci"][0] > 0 and big["p_value"] < 0.05
    assert big["verdict"].startswith("stopped after 40 of 200 games: significant at alpha=0.05 (O'Brien–Fleming")
    assert same["games"] == 200 and not same["significant"] and not same["stopped_early"]
    assert same["change"] == 0 and same["changed_games"] == 0 and same["p_value"] == pytest.approx(1.0)
    assert same["verdict"].startswith("no significant change after 200 games")
    assert s["baseline"]["games"] == 200
    assert s["games_played"] == 200 + 40 + 200


def test_stops_when_every_variant_has(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cmp, "play_one", _scripted)
    s = cmp.compare(_base(), [parse_variant("success_threshold=9")], Plan.make(200, 20, kind="pocock")).summary
    assert s["baseline"]["games"] == s["variants"][0]["games"] < 200  # the baseline stopped with it
    assert "Pocock" in s["variants"][0]["verdict"]


# ------------------------------------------------------------------------------------------------- real runs
def test_real_compare_same_seeds_and_unused_parameter() -> None:
    """A small real run: no model has MEDIC, so medic_heal=3 replays exactly the baseline's games."""
    plan = Plan.make(6, 3)
    s = cmp.compare(_base(), [parse_variant("medic_heal=3"), parse_variant("success_threshold=9")], plan).summary
    unused, harder = s["variants"]
    assert unused["changed_games"] == 0 and unused["change"] == 0 and not unused["significant"]
    assert (unused["a_wins"], unused["draws"]) == (s["baseline"]["a_wins"], s["baseline"]["draws"])
    # a success threshold of 9 changes the samples' games enough that it may stop at the first look (3 games)
    assert (harder["games"] == 6 or (harder["games"] == 3 and harder["significant"])) and 0 <= harder["a_rate"] <= 1


def test_cli_compare_json_and_bad_variants() -> None:
    runner = CliRunner()
    args = ["compare", RULESET, "--a", str(A), "--b", str(B), "--agent-a", "random", "--agent-b", "random"]
    result = runner.invoke(app, [*args, "--games", "4", "--batch", "2", "--variant", "medic_heal=3", "--json"])
    assert result.exit_code == 0, result.output
    s = json.loads(result.stdout)
    assert set(s) >= {"design", "baseline", "variants", "games_played", "agents", "rosters"}
    assert set(s["variants"][0]) >= {"label", "games", "a_rate", "ci95", "change", "ci", "p_value", "verdict"}
    assert s["design"]["looks"] == [2, 4]
    table = runner.invoke(app, [*args, "--games", "2", "--variant", "medic_heal=3"])
    assert table.exit_code == 0 and "no significant change after 2 games" in table.stdout
    for bad, word in (("charge_rnage=3", "charge_rnage"), ("charge_range=far", "charge_range"), ("x", "name=value")):
        result = runner.invoke(app, [*args, "--games", "2", "--variant", bad], standalone_mode=False)
        assert isinstance(result.exception, ParameterError) and word in str(result.exception)


def test_cli_compare_exit_code_two(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    from warband.cli import main

    monkeypatch.setattr(
        "sys.argv", ["warband", "compare", RULESET, "--a", str(A), "--b", str(B), "--variant", "nope=1"]
    )
    with pytest.raises(SystemExit) as exc:
        main.run()
    assert exc.value.code == 2
    assert "nope" in capsys.readouterr().err


def test_configs_are_plain_data() -> None:
    """Arms differ only in params, so game i of every arm gets the same seed."""
    base = _base()
    variant = dataclasses.replace(base, params={"charge_range": "3"})
    assert [base.game_seed(i) for i in range(5)] == [variant.game_seed(i) for i in range(5)]


def test_a_game_crashing_in_one_arm_leaves_its_seed_out_of_that_pairing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 10 item 2: the variant's game 3 raises; the comparison goes on, names it, and pairs the other seeds."""

    def crashing(config: SimulationConfig, index: int) -> GameRecord:
        if config.params and index == 3:
            raise RuntimeError("boom")
        return _scripted(config, index)

    monkeypatch.setattr(cmp, "play_one", crashing)
    s = cmp.compare(_base(), [parse_variant("success_threshold=9")], Plan.make(10, 10)).summary
    (variant,) = s["variants"]
    assert [(c["arm"], c["index"], c["error"]) for c in s["crashes"]] == [
        ("success_threshold=9", 3, "RuntimeError: boom")
    ]
    assert variant["paired_games"] == 9 and variant["crashed"] == 1 and variant["a_wins"] == 9
    assert variant["changed_games"] == 4  # odd seeds 1, 5, 7, 9: A now wins where it lost; seed 3 is not paired
    assert s["baseline"]["games"] == 10 and s["baseline"]["crashed"] == 0 and s["games_played"] == 20

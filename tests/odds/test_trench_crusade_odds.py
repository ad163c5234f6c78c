"""Trench Crusade roll rules (rolls.py), exact odds and the ``odds`` CLI.

The brute-force oracles below are written directly from the rule text (seed 000
§Success Rolls / §+DICE and -DICE; digest trench-crusade.md §6) and do not use
rolls.py, so they check the rules as well as the odds arithmetic.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from functools import cache

import icepool
import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from warband.cli.odds_cmd import odds_app
from warband.rulesets.trench_crusade import rolls
from warband.rulesets.trench_crusade.odds import injury_distribution, injury_odds, success_odds
from warband.rulesets.trench_crusade.rolls import DEFAULTS

# -- independent oracles -----------------------------------------------------


@cache
def brute_kept_totals(net: int) -> dict[int, Fraction]:
    """Distribution of the kept-two total over all 6**(2+|net|) ordered rolls."""
    counts: Counter[int] = Counter()
    n = 2 + abs(net)
    for roll in itertools.product(range(1, 7), repeat=n):
        ordered = sorted(roll)
        counts[sum(ordered[:2]) if net < 0 else sum(ordered[-2:])] += 1
    return {t: Fraction(c, 6**n) for t, c in counts.items()}


@cache
def brute_all_totals(n: int) -> dict[int, Fraction]:
    counts: Counter[int] = Counter(sum(roll) for roll in itertools.product(range(1, 7), repeat=n))
    return {t: Fraction(c, 6**n) for t, c in counts.items()}


def icepool_kept_totals(net: int) -> dict[int, Fraction]:
    pool = icepool.Pool([icepool.d6] * (2 + abs(net)))
    d = (pool.lowest(2) if net < 0 else pool.highest(2)).sum()
    return {int(o): Fraction(q, d.denominator()) for o, q in d.items() if q}


def kept_totals(net: int) -> dict[int, Fraction]:
    return brute_kept_totals(net) if abs(net) <= 4 else icepool_kept_totals(net)


def success_from_totals(totals: dict[int, Fraction]) -> dict[str, Fraction]:
    # Seed 000 §Success Rolls: 2-6 failure, 7-11 success, 12 critical success.
    return {
        "failure": sum((p for t, p in totals.items() if t <= 6), Fraction(0)),
        "success": sum((p for t, p in totals.items() if t >= 7), Fraction(0)),
        "critical": sum((p for t, p in totals.items() if t >= 12), Fraction(0)),
    }


def injury_from_totals(totals: dict[int, Fraction], modifier: int) -> dict[str, Fraction]:
    # Digest §6 table: <=1 no effect, 2-6 minor, 7-8 down, 9+ out.
    out = dict.fromkeys(("none", "minor", "down", "out"), Fraction(0))
    for t, p in totals.items():
        m = t + modifier
        key = "none" if m <= 1 else "minor" if m <= 6 else "down" if m <= 8 else "out"
        out[key] += p
    return out


ALL_NETS = range(-6, 7)

# -- rolls.py ----------------------------------------------------------------


def test_defaults() -> None:
    assert DEFAULTS == {
        "success_threshold": 7,
        "critical_threshold": 12,
        "injury_minor_at": 2,
        "injury_down_at": 7,
        "injury_out_at": 9,
        "injury_negative_cap": 3,
    }


def test_net_dice_cancels_pairs() -> None:
    assert rolls.net_dice(2, 1) == 1  # the seed's own example
    assert rolls.net_dice(1, 3) == -2
    assert rolls.net_dice(2, 2) == 0
    with pytest.raises(ValueError):
        rolls.net_dice(-1, 0)


def test_dice_count() -> None:
    assert [rolls.dice_count(k) for k in (-2, -1, 0, 1, 2)] == [4, 3, 2, 3, 4]


def test_kept_total() -> None:
    assert rolls.kept_total([3, 5], 0) == 8
    assert rolls.kept_total([1, 6, 4], 1) == 10
    assert rolls.kept_total([1, 6, 4], -1) == 5
    assert rolls.kept_total([6, 2, 6, 1], 2) == 12
    assert rolls.kept_total([6, 2, 6, 1], -2) == 3
    with pytest.raises(ValueError):
        rolls.kept_total([3, 5, 6], 0)  # wrong number of dice for net 0
    with pytest.raises(ValueError):
        rolls.kept_total([3, 7], 0)  # not a D6 result


def test_success_result_table() -> None:
    assert [rolls.success_result(t, DEFAULTS) for t in range(2, 13)] == (
        ["failure"] * 5 + ["success"] * 5 + ["critical"]
    )
    assert rolls.success_result(13, DEFAULTS) == "critical"  # "12 or more"
    assert rolls.success_result(8, {**DEFAULTS, "success_threshold": 9}) == "failure"


def test_missing_param_is_a_clear_error() -> None:
    with pytest.raises(KeyError, match="success_threshold"):
        rolls.success_result(7, {})


def test_injury_modifier_caps_negatives_only() -> None:
    assert rolls.injury_modifier([], DEFAULTS) == 0
    assert rolls.injury_modifier([-2, -2], DEFAULTS) == -3
    assert rolls.injury_modifier([-2, -2, +1], DEFAULTS) == -2
    assert rolls.injury_modifier([-1, -1, -1, -1, -1], DEFAULTS) == -3
    assert rolls.injury_modifier([+1, +1, +1, +1], DEFAULTS) == 4
    assert rolls.injury_modifier([-3, -2], {**DEFAULTS, "injury_negative_cap": 5}) == -5


def test_injury_total_and_result() -> None:
    assert rolls.injury_total([4, 5], 0, -1) == 8
    assert rolls.injury_total([1, 4, 5], 1, 0) == 9
    assert rolls.injury_total([1, 4, 5], -1, 0) == 5
    assert rolls.injury_total([6, 6, 6], 0, -3, all_dice=True) == 15
    assert [rolls.injury_result(t, DEFAULTS) for t in range(-2, 12)] == (
        ["none"] * 4 + ["minor"] * 5 + ["down"] * 2 + ["out"] * 3
    )


# -- success_odds --------------------------------------------------------------


@pytest.mark.parametrize("net", ALL_NETS)
def test_success_odds_match_oracle(net: int) -> None:
    assert success_odds(net) == success_from_totals(kept_totals(net))


@pytest.mark.parametrize("net", [-6, -5, 5, 6])
def test_large_pools_icepool_agrees_with_brute_force_style_oracle(net: int) -> None:
    # rolls.py pushed through the kernel vs icepool for pools too big to brute force cheaply.
    assert success_odds(net) == success_from_totals(icepool_kept_totals(net))


def test_success_odds_known_values() -> None:
    odds = success_odds(0)
    assert odds == {"failure": Fraction(15, 36), "success": Fraction(21, 36), "critical": Fraction(1, 36)}
    assert success_odds(1)["critical"] == 1 - Fraction(5, 6) ** 3 - 3 * Fraction(1, 6) * Fraction(5, 6) ** 2
    assert success_odds(-1)["critical"] == Fraction(1, 216)


@pytest.mark.parametrize("net", ALL_NETS)
def test_success_odds_sanity(net: int) -> None:
    odds = success_odds(net)
    assert set(odds) == {"failure", "success", "critical"}
    assert odds["failure"] + odds["success"] == 1
    assert 0 < odds["critical"] <= odds["success"] < 1
    assert all(isinstance(p, Fraction) for p in odds.values())


def test_success_odds_monotone_in_net() -> None:
    table = [success_odds(k) for k in ALL_NETS]
    for worse, better in itertools.pairwise(table):
        assert worse["success"] < better["success"]
        assert worse["critical"] < better["critical"]
        assert worse["failure"] > better["failure"]


def test_success_odds_respects_params() -> None:
    easy = {**DEFAULTS, "success_threshold": 2, "critical_threshold": 11}
    assert success_odds(0, easy) == {
        "failure": Fraction(0),
        "success": Fraction(1),
        "critical": Fraction(3, 36),
    }


# -- injury_odds ---------------------------------------------------------------


@pytest.mark.parametrize("injury_dice", range(-3, 4))
def test_injury_odds_match_brute_force(injury_dice: int) -> None:
    totals = brute_kept_totals(injury_dice)
    for modifier in range(-5, 6):
        assert injury_odds(injury_dice, modifier) == injury_from_totals(totals, modifier), modifier


@pytest.mark.parametrize("injury_dice", [-6, -5, -4, 4, 5, 6])
def test_injury_odds_large_pools_match_icepool(injury_dice: int) -> None:
    totals = icepool_kept_totals(injury_dice)
    for modifier in (-3, 0, 2):
        assert injury_odds(injury_dice, modifier) == injury_from_totals(totals, modifier)


def test_injury_odds_known_values() -> None:
    assert injury_odds(0, 0) == {
        "none": Fraction(0),
        "minor": Fraction(15, 36),
        "down": Fraction(11, 36),
        "out": Fraction(10, 36),
    }
    assert injury_odds(0, -3)["none"] == Fraction(6, 36)  # totals 2..4 (1+2+3 ways) -> <= 1


@pytest.mark.parametrize("n", [3, 4])
def test_bloodbath_all_dice_added(n: int) -> None:
    for modifier in (-3, 0, 1):
        assert injury_odds(0, modifier, all_dice_count=n) == injury_from_totals(brute_all_totals(n), modifier)
    with pytest.raises(ValueError):
        injury_odds(1, 0, all_dice_count=n)


def test_injury_cap_only_through_injury_modifier() -> None:
    # The cap lives in injury_modifier: separate negative mods totalling -5 act as -3 ...
    capped = rolls.injury_modifier([-2, -2, -1], DEFAULTS)
    assert capped == -3
    assert injury_odds(0, capped) == injury_odds(0, -3)
    # ... but injury_odds takes the already-capped total at face value.
    assert injury_odds(0, -5) != injury_odds(0, -3)


@given(st.integers(-4, 4), st.integers(-10, 10))
def test_injury_odds_sum_to_one(injury_dice: int, modifier: int) -> None:
    odds = injury_odds(injury_dice, modifier)
    assert list(odds) == ["none", "minor", "down", "out"]
    assert sum(odds.values()) == 1
    assert dict(injury_distribution(injury_dice, modifier)) == {k: p for k, p in odds.items() if p}


def test_injury_more_dice_is_worse_for_target() -> None:
    outs = [injury_odds(k, 0)["out"] for k in range(-6, 7)]
    assert outs == sorted(outs)
    assert len(set(outs)) == len(outs)


# -- CLI ---------------------------------------------------------------------------

runner = CliRunner()


def run_json(*args: str) -> dict[str, dict[str, object]]:
    result = runner.invoke(odds_app, ["trench-crusade", *args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert isinstance(data, dict)
    return data


def test_cli_success_json_exact() -> None:
    data = run_json("success", "--dice", "0")
    assert data == {
        "failure": {"p": 15 / 36, "exact": "5/12"},
        "success": {"p": 21 / 36, "exact": "7/12"},
        "critical": {"p": 1 / 36, "exact": "1/36"},
    }
    assert list(data) == ["failure", "success", "critical"]
    assert list(data["failure"]) == ["p", "exact"]


@pytest.mark.parametrize("net", ALL_NETS)
def test_cli_success_json_matches_odds(net: int) -> None:
    data = run_json("success", "--dice", str(net))
    for key, p in success_odds(net).items():
        assert data[key] == {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def test_cli_success_plus_sign_and_table() -> None:
    assert run_json("success", "--dice", "+2") == run_json("success", "--dice", "2")
    result = runner.invoke(odds_app, ["trench-crusade", "success", "--dice", "0"])
    assert result.exit_code == 0
    for text in ("P(failure)", "P(success)", "P(critical)", "5/12", "7/12", "1/36", "0.5833"):
        assert text in result.stdout


@pytest.mark.parametrize("bad", ["7", "-7", "100"])
def test_cli_success_out_of_range(bad: str) -> None:
    result = runner.invoke(odds_app, ["trench-crusade", "success", "--dice", bad])
    assert result.exit_code == 2
    assert isinstance(result.exception, SystemExit)
    assert "--dice" in result.output
    assert "Traceback" not in result.output


def test_cli_injury_json_exact() -> None:
    data = run_json("injury", "--injury-dice", "0", "--modifier", "0")
    assert data == {
        "none": {"p": 0.0, "exact": "0/1"},
        "minor": {"p": 15 / 36, "exact": "5/12"},
        "down": {"p": 11 / 36, "exact": "11/36"},
        "out": {"p": 10 / 36, "exact": "5/18"},
    }
    assert list(data) == ["none", "minor", "down", "out"]


def test_cli_injury_json_matches_odds() -> None:
    data = run_json("injury", "--injury-dice", "-2", "--modifier", "-3")
    for key, p in injury_odds(-2, -3).items():
        assert data[key] == {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"}


def test_cli_injury_table() -> None:
    result = runner.invoke(odds_app, ["trench-crusade", "injury", "--injury-dice", "1", "--modifier", "2"])
    assert result.exit_code == 0
    assert "P(out of action)" in result.stdout


@pytest.mark.parametrize(
    ("args", "hint"),
    [
        (["--injury-dice", "7", "--modifier", "0"], "--injury-dice"),
        (["--injury-dice", "0", "--modifier", "11"], "--modifier"),
        (["--injury-dice", "0", "--modifier", "-11"], "--modifier"),
    ],
)
def test_cli_injury_out_of_range(args: list[str], hint: str) -> None:
    result = runner.invoke(odds_app, ["trench-crusade", "injury", *args])
    assert result.exit_code == 2
    assert hint in result.output

"""Issue 10 item 5: ``--set`` values are checked against each parameter's type and declared range."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hardcli import RANDOM, TC, TT, cli, warband

from warband.kernel.errors import ParameterError
from warband.kernel.params import ParamTable
from warband.kernel.ruleset import get


@pytest.mark.parametrize(
    ("ruleset", "name", "value", "expected"),
    [
        (TC, "charge_die_sides", "0", "allowed: 1..100"),
        (TC, "charge_range", "-5", "allowed: 0..72"),
        (TC, "charge_range", "nan", "finite"),
        (TC, "charge_range", "inf", "finite"),
        (TC, "blood_max", "-1", "allowed: 0..20"),
        (TC, "success_threshold", "1000000", "allowed: 2..13"),
        (TT, "die_sides", "0", "allowed: 2..100"),
        (TT, "pin_cap", "-3", "allowed: 0..20"),
    ],
)
def test_out_of_range_values_are_refused_with_the_range(ruleset: str, name: str, value: str, expected: str) -> None:
    with pytest.raises(ParameterError, match=expected):
        get(ruleset).params.resolve({name: value})


def test_values_in_range_still_resolve() -> None:
    values = get(TC).params.resolve({"charge_range": "8", "charge_die_sides": 3})
    assert values["charge_range"] == 8.0 and values["charge_die_sides"] == 3


@pytest.mark.parametrize("ruleset", [TC, TT])
def test_every_number_parameter_declares_a_range_holding_its_default(ruleset: str) -> None:
    for spec in get(ruleset).params.specs.values():
        if isinstance(spec.default, bool) or not isinstance(spec.default, int | float):
            continue
        assert spec.min is not None and spec.max is not None, spec.name
        assert spec.min <= spec.default <= spec.max and math.isfinite(spec.default), spec.name


def test_a_default_outside_its_own_range_is_refused(tmp_path: Path) -> None:
    toml = tmp_path / "params.toml"
    toml.write_text('[x]\ndefault = 5\nmin = 6\nmax = 9\ndoc = "d"\nsource = "s"\n')
    with pytest.raises(ParameterError, match=r"\[x\] default"):
        ParamTable.load(toml)


def test_simulate_refuses_charge_die_sides_zero_before_playing() -> None:
    out = cli(
        "simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM,
        "--db", ":memory:", "--games", "2", "--set", "charge_die_sides=0",
    )  # fmt: skip
    assert out.code == 2 and "charge_die_sides" in out.text and "1..100" in out.text


def test_params_command_shows_each_range() -> None:
    out = cli("params", TC)
    assert out.code == 0 and "charge_die_sides = 6 (allowed 1..100)" in out.text

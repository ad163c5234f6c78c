"""Gangfight params.toml: loads with the kernel's ParamTable, every number documented and sourced, the seed's
numbers as the seed states them, overrides checked."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel.errors import ParameterError
from warband.kernel.params import ParamTable
from warband.rulesets.gangfight import PARAMS_PATH


@pytest.fixture(scope="module")
def table() -> ParamTable:
    return ParamTable.load(PARAMS_PATH)


def test_every_parameter_has_doc_and_source(table: ParamTable) -> None:
    assert len(table.specs) >= 60
    assert [n for n, s in table.specs.items() if not s.doc.strip() or not s.source.strip()] == []


def test_seed_numbers_are_the_seeds(table: ParamTable) -> None:
    d = table.defaults()
    # seed 004: Charge! 2+/4+/6+, +1" a success; Jump/Climb TN 4; Run twice MV; Banding 6" and leader + four;
    # Bring it Down!/On my Mark! +1 each; Bulwark +1; IV 3 -> 3 AP; every action 1 AP.
    assert (d["charge_tn_flat"], d["charge_tn_light"], d["charge_tn_dense"]) == (2, 4, 6)
    assert (d["charge_inches_per_success"], d["jump_climb_tn"], d["run_multiplier"]) == (1, 4, 2)
    assert (d["banding_range"], d["banding_max_models"]) == (6.0, 5)
    assert (d["banding_att_bonus"], d["banding_mrk_bonus"], d["banding_dam_bonus"], d["bulwark_def"]) == (1, 1, 1, 1)
    assert (d["ap_per_iv"], d["standard_action_ap"], d["special_action_ap"], d["banding_leader_ap"]) == (1, 1, 1, 1)
    # digest B1 (confirmed): TN floor 2, natural 1 fails, TN cap 6, sizes, Bravery TN 3, initiative TN 4.
    assert (d["tn_floor"], d["natural_fail_face"], d["tn_ceiling"], d["bravery_tn"], d["initiative_tn"]) == (
        2,
        1,
        6,
        3,
        4,
    )
    assert (d["threat_small"], d["threat_medium"], d["threat_large"], d["threat_huge"]) == (0.5, 1.0, 2.0, 3.0)


def test_digest_proposed_numbers_are_flagged(table: ParamTable) -> None:
    proposed = {n for n, s in table.specs.items() if s.proposed}
    must = {
        "dice_dropped_per_tn_point",
        "min_dice_after_drop",
        "interrupt_ap",
        "held_ap_lapse",
        "medium_armour_mov",
        "power_attack_dam",
        "finesse_attack_def",
        "aoe_diameter",
        "knocked_over_def",
        "max_rounds",
        "banding_join_payer",
        "banding_bonus_counts_leader",
        "charge_terrain",
    }
    assert must <= proposed
    confirmed = {
        "charge_tn_flat",
        "jump_climb_tn",
        "banding_range",
        "tn_floor",
        "bravery_tn",
        "heavy_armour_arm",
        "archaic_start_loaded",
    }
    assert confirmed & proposed == set()


def test_overrides_are_typed_and_checked(table: ParamTable) -> None:
    assert table.resolve({"charge_tn_light": "3"})["charge_tn_light"] == 3
    assert table.resolve({"held_ap_lapse": "opponent-turn-end"})["held_ap_lapse"] == "opponent-turn-end"
    with pytest.raises(ParameterError, match="held_ap_lapse"):
        table.resolve({"held_ap_lapse": "never"})
    with pytest.raises(ParameterError, match="unknown parameter"):
        table.resolve({"charge_range": 12})


def test_every_number_declares_a_range_that_holds_its_default(table: ParamTable) -> None:
    # issue 10 item 5: every --set value is checked against its type and a documented min..max
    for spec in table.specs.values():
        if isinstance(spec.default, bool) or not isinstance(spec.default, int | float):
            assert spec.min is None and spec.max is None, spec.name
            continue
        assert spec.min is not None and spec.max is not None, spec.name
        assert spec.min <= spec.default <= spec.max, spec.name


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("charge_tn_flat", "0", "1..12"),
        ("banding_max_models", "1", "2..10"),
        ("standard_action_ap", "0", "1..6"),
        ("aoe_diameter", "-3", "0..24"),
        ("broken_fraction", "1.5", "0..1"),
        ("max_rounds", "nan", "expected int"),
        ("banding_range", "inf", "finite"),
    ],
)
def test_an_out_of_range_set_is_refused_naming_the_range(name: str, value: str, allowed: str) -> None:
    # the player's side: `warband simulate gangfight --set NAME=VALUE` stops before playing, with a clear message
    party = PARAMS_PATH.parent / "data" / "parties" / "shieldwall_sellswords.yaml"
    args = ["simulate", "gangfight", "--a", str(party), "--b", str(party), "--games", "1", "--db", ":memory:"]
    result = CliRunner().invoke(app, [*args, "--agent-a", "random", "--agent-b", "random", "--set", f"{name}={value}"])
    # the CLI's run() prints a WarbandError's message and exits 2; under CliRunner the error itself comes back
    assert isinstance(result.exception, ParameterError), result.output
    assert name in str(result.exception) and allowed in str(result.exception)
    assert "games" not in result.output  # refused before any game was played

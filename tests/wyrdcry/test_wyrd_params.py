"""params.toml loads with the kernel's ParamTable, covers every number the brief names, and agrees with the
defaults written into the pure modules (which the engine will replace by resolved parameters)."""

from __future__ import annotations

from pathlib import Path

import pytest

from warband.kernel.errors import ParameterError
from warband.kernel.params import ParamTable
from warband.rulesets.wyrdcry.activation import Limits
from warband.rulesets.wyrdcry.rolls import DEFAULT_TABLE, table_from_params

PARAMS = Path(__file__).resolve().parents[2] / "src" / "warband" / "rulesets" / "wyrdcry" / "params.toml"


def table() -> ParamTable:
    return ParamTable.load(PARAMS)


def test_loads_and_every_entry_is_documented_with_a_source() -> None:
    specs = table().specs
    assert len(specs) >= 60
    for spec in specs.values():
        assert spec.doc.strip() and spec.source.strip(), spec.name
        assert "seed 003" in spec.source or "digest" in spec.source or "data" in spec.source, spec.name


def test_the_numbers_the_rules_need_are_there() -> None:
    names = set(table().specs)
    wanted = {"battle_rounds", "initiative_dice", "large_set", "wyrd_dice_per_round", "channel_wyrd_dice",
              "actions_per_activation", "move_actions_per_activation", "same_action_limit", "rush_move_bonus",
              "hit_equal", "crit_equal", "cover_bonus", "flanked_penalty", "morale_out_fraction", "reaction_cost",
              "counter_damage", "points_limit"}  # fmt: skip
    assert wanted <= names


def test_proposed_flags_mark_the_digest_p_defaults() -> None:
    proposed = {n for n, s in table().specs.items() if s.proposed}
    # The digest's [P] items: 5-6 alike, leftover dice, reaction cost, morale pass mark, simulated battle length.
    assert {"large_set", "leftover_dice_discarded", "reaction_cost", "morale_test_dice", "battle_rounds"} <= proposed
    assert "initiative_dice" not in proposed  # confirmed in N2
    assert "actions_per_activation" not in proposed  # the seed


def test_module_defaults_match_params() -> None:
    values = table().defaults()
    assert table_from_params(values) == DEFAULT_TABLE
    limits = Limits()
    assert (limits.actions, limits.moves, limits.same_action, limits.abilities) == (
        values["actions_per_activation"],
        values["move_actions_per_activation"],
        values["same_action_limit"],
        values["abilities_per_activation"],
    )


def test_overrides_are_checked() -> None:
    assert table().resolve({"cost_respite": "double"})["cost_respite"] == "double"
    assert table().resolve({"initiative_dice": "7"})["initiative_dice"] == 7
    with pytest.raises(ParameterError, match="not one of"):
        table().resolve({"large_set": "pair"})


def test_function_defaults_match_params() -> None:
    import inspect

    from warband.rulesets.wyrdcry import dice, rolls

    def default(f: object, arg: str) -> object:
        return inspect.signature(f).parameters[arg].default  # type: ignore[arg-type]

    v = table().defaults()
    pairs = [
        (default(rolls.counter_damage, "miss"), v["counter_damage"]),
        (default(rolls.counter_damage, "on_one"), v["counter_damage_on_one"]),
        (default(rolls.take_cover, "save_from"), v["take_cover_save"]),
        (default(rolls.strike_them_down, "strike_from"), v["strike_them_down_from"]),
        (default(rolls.fall_dice, "inches_per_die"), v["fall_inches_per_die"]),
        (default(rolls.attack_skill, "floor"), v["min_characteristic"]),
        (default(rolls.target_defense, "floor"), v["min_characteristic"]),
        (default(dice.channel, "fail_face"), v["channel_fail_face"]),
        (default(dice.group_roll, "large_set"), v["large_set"]),
    ]
    assert [a for a, _ in pairs] == [b for _, b in pairs]


def test_every_number_declares_a_range_holding_its_default() -> None:
    """Issue 10 item 5: each number of params.toml has a documented min..max that holds its default."""
    for spec in table().specs.values():
        if isinstance(spec.default, bool) or not isinstance(spec.default, int | float):
            continue
        assert spec.min is not None and spec.max is not None, spec.name
        assert spec.min <= spec.default <= spec.max, spec.name


def test_an_out_of_range_override_is_refused_with_the_range() -> None:
    with pytest.raises(ParameterError, match=r"initiative_dice: 0 is out of range \(allowed: 1\.\.12\)"):
        table().resolve({"initiative_dice": "0"})
    with pytest.raises(ParameterError, match=r"morale_out_fraction: 1\.5 is out of range \(allowed: 0\.\.1\)"):
        table().resolve({"morale_out_fraction": "1.5"})
    with pytest.raises(ParameterError, match="expected int"):
        table().resolve({"battle_rounds": "four"})


def test_simulate_refuses_an_out_of_range_set_before_playing() -> None:
    """The command stops with the kernel's ParameterError (``run()`` prints it and exits 2) before any game."""
    from typer.testing import CliRunner

    from warband.cli.main import app
    from warband.kernel.errors import WarbandError

    data = PARAMS.parent / "data" / "warbands"
    out = CliRunner().invoke(
        app,
        ["simulate", "wyrdcry", "--a", str(data / "mercenaries_hardy_company.yaml"),
         "--b", str(data / "witch_hunters_pyre.yaml"), "--agent-a", "random", "--agent-b", "random",
         "--db", ":memory:", "--games", "1", "--set", "battle_rounds=0"],
    )  # fmt: skip
    assert isinstance(out.exception, WarbandError), out.output
    assert "battle_rounds: 0 is out of range (allowed: 1..20)" in str(out.exception)
    assert "games" not in out.output  # refused before playing

"""Exact odds of a Trenches and Turbines Shoot (seed 002, Make Hit Rolls / Saves): d10 hit rolls at or under
the modified Ranged, hits x damage save dice at or under SV - Pen, each failure 1 damage; damage of one attack
never carries over to the next model. By default a die succeeds at or under the target and nothing else (seed
002, so a target of 10 or more always hits); the natural 1/10 rule is an option (digest §3.1, params
``natural_success`` / ``natural_failure``). The rule is the ruleset's own (``core.succeeds``) over the resolved
params, so ``--set`` overrides reach the odds."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from warband.kernel.dice import Distribution, binomial_successes
from warband.kernel.offers import Column, OddsCommand, OddsOption, OddsTable
from warband.kernel.params import ParamTable
from warband.rulesets.trenches_and_turbines.core import succeeds

__all__ = ["ODDS_COMMANDS", "p_test", "shoot_damage"]


def p_test(target: int, params: Mapping[str, Any] | None = None) -> Fraction:
    """Chance that one die succeeds at or under ``target`` under the resolved ``params`` (default: the ruleset's
    defaults): ``die_sides``, ``natural_success``, ``natural_failure``."""
    p = ParamTable.load(Path(__file__).with_name("params.toml")).resolve() if params is None else params
    sides = int(p["die_sides"])
    return Fraction(sum(1 for v in range(1, sides + 1) if succeeds(p, v, target)), sides)


def shoot_damage(
    attacks: int,
    target: int,
    save: int,
    pen: int,
    damage: int,
    models_hp: int | None = None,
    params: Mapping[str, Any] | None = None,
) -> Distribution[int]:
    """Distribution of the damage dealt by ``attacks`` dice hitting on ``target`` or less against a save of
    ``save`` with ``pen``, ``damage`` per hit. With ``models_hp`` (HP of each model of the target unit) the
    damage of one attack that exceeds the current model's remaining HP falls off. ``params``: the resolved
    params (see :func:`p_test`)."""
    hits = binomial_successes(attacks, p_test(target, params))
    fail = 1 - p_test(save - pen, params)
    per_hit = binomial_successes(damage, fail)
    out: dict[int, Fraction] = defaultdict(Fraction)
    for h, ph in hits.items():
        # state: (remaining HP of the current model, damage dealt so far)
        states: dict[tuple[int, int], Fraction] = {(models_hp or 0, 0): ph}
        for _ in range(h):
            nxt: dict[tuple[int, int], Fraction] = defaultdict(Fraction)
            for (cur, dealt), p in states.items():
                for d, pd in per_hit.items():
                    if models_hp is None:
                        nxt[(0, dealt + d)] += p * pd
                    elif d >= cur:
                        nxt[(models_hp, dealt + cur)] += p * pd
                    else:
                        nxt[(cur - d, dealt + d)] += p * pd
            states = nxt
        for (_, dealt), p in states.items():
            out[dealt] += p
    return Distribution(out)


# --- the odds commands (``warband odds trenches-and-turbines ...``), declared as data for the faces -----------
def run_shoot(params: Mapping[str, Any], values: Mapping[str, Any]) -> OddsTable:
    """The exact damage of a Shoot (:func:`shoot_damage`); its table and ``--json`` shape are those of the
    command before it was declared as data; the d10 rule reads the resolved params (``--set die_sides=...``)."""
    attacks, target, save, pen, damage = (int(values[k]) for k in ("attacks", "target", "save", "pen", "damage"))
    hp = values.get("hp")
    dist = shoot_damage(attacks, target, save, pen, damage, None if hp is None else int(hp), params)
    mean = float(dist.mean())
    rows = tuple((str(k), f"{p.numerator}/{p.denominator}", f"{float(p):.4f}") for k, p in dist.items())
    payload = {str(k): {"p": float(p), "exact": f"{p.numerator}/{p.denominator}"} for k, p in dist.items()}
    return OddsTable(
        f"{attacks} attacks at {target}, SV {save} Pen {pen}, D{damage}",
        (Column("Damage", "right"), Column("Exact", "right"), Column("Probability", "right")),
        rows,
        {"damage": payload, "mean": mean},
        (f"mean damage {mean:.4f}",),
    )


ODDS_COMMANDS = (
    OddsCommand(
        "shoot",
        "Exact distribution of the damage dealt (fractions and decimals).",
        (
            OddsOption("attacks", int, "Attack dice (d10).", required=True, min=0, max=60),
            OddsOption("target", int, "Modified Ranged: hit on this or less.", required=True),
            OddsOption("save", int, "SV of the target (plus Cover).", required=True),
            OddsOption("pen", int, "Pen of the weapon.", 0, min=0),
            OddsOption("damage", int, "Damage per unsaved hit.", 1, min=1, max=10),
            OddsOption("hp", int, "HP per target model (excess falls off).", None, min=1),
        ),
        run_shoot,
    ),
)

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
from typing import Any

from warband.kernel.dice import Distribution, binomial_successes
from warband.rulesets.trenches_and_turbines import TrenchesAndTurbines
from warband.rulesets.trenches_and_turbines.core import succeeds

__all__ = ["p_test", "shoot_damage"]


def p_test(target: int, params: Mapping[str, Any] | None = None) -> Fraction:
    """Chance that one die succeeds at or under ``target`` under the resolved ``params`` (default: the ruleset's
    defaults): ``die_sides``, ``natural_success``, ``natural_failure``."""
    p = TrenchesAndTurbines.params.resolve() if params is None else params
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

"""Keywords of models and weapons (digest §9, §5, §6 and the profiles of §3), and where each is played.

A keyword is a word on a profile (``m.data["keywords"]``) or a weapon (``w["keywords"]``; ``w["values"]`` holds
the X of ``AUTOMATIC X``, ``CLEAVE X``, ``BLAST X"``). This module has the tests of keywords that more than one
rule asks; a rule that asks a keyword once tests it where it is played. Every keyword the rules play, and where:

=================  ==================================================================================
ASSAULT            :func:`not_assault`: ``actions._check_shoot``, ``_check_charge``, ``_check_fight``
AUTOMATIC X        :func:`attack_count`: ``attacks.begin_shoot``; the next targets ``attacks.AutoNext``
BLAST X            ``attacks.AfterHit.hit``, ``attacks._blast_victims``
BLOCK              :func:`blocks_charger`: ``attacks.attack_dice``
CLEAVE X           :func:`attack_count`: ``attacks.begin_fight``
CRITICAL           :func:`critical_injury_dice`: ``attacks.AfterHit.hit``, ``attacks.attack_preview``
DEADLY             ``attacks.Injury.run``, ``attacks.injury_terms``
FEAR, NEGATE FEAR  :func:`causes_fear`: ``attacks.attack_dice``
FLAMETHROWER       ``attacks.Attack.run``, ``attacks.attack_preview``
FLYING             no fall: ``movement.after_move_hazards``, ``movement.ChargeEnd``, ``attacks.fall_from_jump``
GRENADE            ``attacks.attack_dice`` (ignores cover), ``attacks.long_range``
HEAVY, STRONG      :func:`heavy_applies`: ``activation._heavy_then_move``, ``actions._check_shoot``,
                   ``movement.push_charge_die``
IGNORE ARMOUR      ``attacks.injury_terms``
IGNORE COVER       ``attacks.attack_dice``
IGNORE LONG RANGE  ``attacks.long_range``
LEADER             ``morale.leader_up`` (+DICE to Morale checks)
MEDIC              Tend Wounds, an "Other" action: ``actions._check_tend``, ``actions.do_action``
RELOAD             ``actions.do_action`` (``actions.EndAfter``)
RISKY              ``attacks.Attack.run``
SHOTGUN            ``attacks.attack_dice``, ``attacks.Attack.run``, ``attacks.attack_preview``
SHRAPNEL, FIRE,    ``attacks.Injury.run`` (a Blood marker after the Injury Roll)
GAS
TOUGH              :func:`tough_unused`: ``attacks.InjuryRoll.roll``, ``attacks.attack_preview``
=================  ==================================================================================

List-building keywords (CUMBERSOME, hands, one HEAVY weapon, ELITE) are checked by ``roster.py``. The keywords
and abilities of the published faction lists join here: a test named after the keyword, and a row above.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warband.kernel.state import Model
from warband.rulesets.trench_crusade.core import State, weapon_named


def has_kw(m: Model, kw: str) -> bool:
    """Whether the model's profile carries keyword ``kw``."""
    return kw in m.data["keywords"]


def wkw(w: dict[str, Any], kw: str) -> bool:
    """Whether weapon ``w`` carries keyword ``kw``."""
    return kw in w["keywords"]


def heavy_applies(m: Model, w: dict[str, Any] | None = None) -> bool:
    """HEAVY weapons (digest §9): no charge die, no shooting and moving in one activation; STRONG negates."""
    if has_kw(m, "STRONG"):
        return False
    if w is not None:
        return wkw(w, "HEAVY")
    return any(wkw(x, "HEAVY") for x in m.data["weapons"])


def not_assault(m: Model, wname: str) -> bool:
    """Whether the ranged weapon ``wname`` of ``m`` lacks ASSAULT (seed 000 Shoot: only an ASSAULT weapon may
    Shoot in an activation with a Charge or a Fight)."""
    w = weapon_named(m, wname, "ranged")
    return w is None or not wkw(w, "ASSAULT")


def attack_count(w: dict[str, Any], kw: str) -> int:
    """How many attacks one use of ``w`` makes: X for ``AUTOMATIC X`` or ``CLEAVE X`` (``kw``), else 1."""
    return int(w["values"].get(kw, 1)) if kw in w["keywords"] else 1


def critical_injury_dice(w: dict[str, Any], p: Mapping[str, Any]) -> int:
    """+INJURY DICE of a Critical Success (seed 000 §Success Rolls: +1), more with CRITICAL (digest §9: +2)."""
    return int(p["critical_keyword_injury_dice"] if "CRITICAL" in w["keywords"] else p["critical_injury_dice"])


def tough_unused(v: Model) -> bool:
    """TOUGH (digest §6): the model's first Out of Action result is Down instead, once a game."""
    return "TOUGH" in v.data["keywords"] and not v.flags.get("tough_used")


def causes_fear(t: Model, m: Model) -> bool:
    """FEAR (digest §5): -1 DICE to melee attacks on ``t`` unless the attacker ``m`` has FEAR or NEGATE FEAR."""
    tk = t.data["keywords"]
    mk = m.data["keywords"]
    return "FEAR" in tk and "FEAR" not in mk and "NEGATE FEAR" not in mk


def blocks_charger(state: State, m: Model, t: Model) -> bool:
    """BLOCK (digest §5): a target with a BLOCK melee weapon gets -1 DICE on the melee attacks of a model that
    charged this turn."""
    return m.flags.get("charged_turn") == state.turn and any(
        "BLOCK" in x["keywords"] for x in t.data["weapons"] if "melee" in x["modes"]
    )

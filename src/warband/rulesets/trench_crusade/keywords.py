"""Keywords of models and weapons (digest §9, §5, §6 and the profiles of §3), and where each is played.

A keyword is a word on a profile (``m.data["keywords"]``) or a weapon (``w["keywords"]``; ``w["values"]`` holds
the X of ``AUTOMATIC X``, ``CLEAVE X``, ``BLAST X"``). This module has the tests of keywords that more than one
rule asks; a rule that asks a keyword once tests it where it is played. Every keyword the rules play, and where:

=================  ==================================================================================
ASSAULT            :func:`not_assault`: ``actions._check_shoot``, ``_check_charge``, ``_check_fight``
AUTOMATIC X        :func:`attack_count`: ``attacks.begin_shoot``; the next targets ``attacks.AutoNext``
BLAST X            ``attacks.AfterHit.hit``, ``attacks._blast_victims``
BLAST FRINGE       ``attacks.AfterHit.hit`` (the lists' Grenades: models other than the target at -1 INJURY DICE)
SAME TARGET        ``attacks.begin_shoot`` (the lists' Automatic Rifle: its AUTOMATIC attacks all at the target)
BLOCK              :func:`blocks_charger`: ``attacks.attack_dice``
CLEAVE X           :func:`attack_count`: ``attacks.begin_fight``
CONSUMABLE         :func:`consumed`, :func:`consume`: ``actions._check_shoot``, ``actions._check_fight``,
                   ``actions.do_action``
CRITICAL           :func:`critical_injury_dice`: ``attacks.AfterHit.hit``, ``attacks.attack_preview``
DEADLY             ``attacks.Injury.run``, ``attacks.injury_terms``
FEAR, NEGATE FEAR  :func:`causes_fear`: ``attacks.attack_dice``
NEGATE X           :func:`negates`: FEAR, HEAVY (:func:`heavy_applies`), the Blood of SHRAPNEL/FIRE/GAS
DEMONIC, GOLEM     :func:`negates` (FIRE; GAS and FEAR), :func:`golem_stands` (``attacks.InjuryRoll.roll``),
                   a GOLEM's Blood cannot be removed by its own side (``actions._check_tend``)
FLAMETHROWER       ``attacks.Attack.run``, ``attacks.attack_preview``
FLYING             no fall: ``movement.after_move_hazards``, ``movement.ChargeEnd``, ``attacks.fall_from_jump``
GRENADE            ``attacks.attack_dice`` (ignores cover), ``attacks.long_range``
HEAVY, STRONG      :func:`heavy_applies`: ``activation._heavy_then_move``, ``actions._check_shoot``,
                   ``movement.push_charge_die``
IGNORE ARMOUR      ``attacks.injury_terms``
IGNORE COVER       ``attacks.attack_dice``
IGNORE LONG RANGE  ``attacks.long_range``
PISTOL             ``attacks.attack_dice`` (in melee with the Ranged characteristic; the lists' Pistol / Revolver)
LEADER             ``morale.leader_up`` (+DICE to Morale checks)
MEDIC              Tend Wounds, an "Other" action: ``actions._check_tend``, ``actions.do_action``
RELOAD             ``actions.do_action`` (``actions.EndAfter``)
RISKY              ``attacks.Attack.run``
SHOTGUN            ``attacks.attack_dice``, ``attacks.Attack.run``, ``attacks.attack_preview``
SHRAPNEL, FIRE,    :func:`extra_blood`: ``attacks.Injury.run`` (a Blood marker after the Injury Roll)
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
from warband.rulesets.trench_crusade.abilities import effects, ignores_heavy
from warband.rulesets.trench_crusade.core import State, weapon_named


def has_kw(m: Model, kw: str) -> bool:
    """Whether the model's profile carries keyword ``kw``."""
    return kw in m.data["keywords"]


def wkw(w: dict[str, Any], kw: str) -> bool:
    """Whether weapon ``w`` carries keyword ``kw``."""
    return kw in w["keywords"]


def heavy_applies(m: Model, w: dict[str, Any] | None = None) -> bool:
    """HEAVY weapons (digest §9): no charge die, no shooting and moving in one activation; STRONG (and NEGATE
    HEAVY) negates."""
    if has_kw(m, "STRONG") or has_kw(m, "NEGATE HEAVY"):
        return False
    if w is not None:
        return wkw(w, "HEAVY") and not ignores_heavy(m, w)
    return any(wkw(x, "HEAVY") and not ignores_heavy(m, x) for x in m.data["weapons"])


def not_assault(m: Model, wname: str) -> bool:
    """Whether the ranged weapon ``wname`` of ``m`` lacks ASSAULT (seed 000 Shoot: only an ASSAULT weapon may
    Shoot in an activation with a Charge or a Fight)."""
    w = weapon_named(m, wname, "ranged")
    return w is None or not wkw(w, "ASSAULT")


def consumed(m: Model, w: dict[str, Any]) -> bool:
    """CONSUMABLE (catalogue keyword): a single-use item; once used it is gone for the rest of the battle (its loss
    after the battle is the campaign's)."""
    return wkw(w, "CONSUMABLE") and w["name"] in m.flags.get("consumed", [])


def consume(m: Model, w: dict[str, Any]) -> None:
    """Use up a CONSUMABLE weapon of ``m`` (nothing for any other weapon)."""
    if wkw(w, "CONSUMABLE"):
        m.flags["consumed"] = [*m.flags.get("consumed", []), w["name"]]


def attack_count(w: dict[str, Any], kw: str) -> int:
    """How many attacks one use of ``w`` makes: X for ``AUTOMATIC X`` or ``CLEAVE X`` (``kw``), else 1."""
    return int(w["values"].get(kw, 1)) if kw in w["keywords"] else 1


def critical_injury_dice(w: dict[str, Any], p: Mapping[str, Any]) -> int:
    """+INJURY DICE of a Critical Success (seed 000 §Success Rolls: +1), more with CRITICAL (digest §9: +2)."""
    return int(p["critical_keyword_injury_dice"] if "CRITICAL" in w["keywords"] else p["critical_injury_dice"])


def tough_unused(v: Model) -> bool:
    """TOUGH (digest §6): the model's first Out of Action result is Down instead, once a game."""
    return "TOUGH" in v.data["keywords"] and not v.flags.get("tough_used")


def negates(m: Model, kw: str) -> bool:
    """NEGATE X (catalogue keyword NEGATE): the model is unaffected by keyword ``kw``. GOLEM (catalogue keyword
    GOLEM) also ignores FEAR and the extra Blood marker of GAS; DEMONIC ignores the extra Blood marker of FIRE."""
    mk = m.data["keywords"]
    if f"NEGATE {kw}" in mk or any(kw in e.keywords for e in effects(m, "negate")):
        return True
    return ("GOLEM" in mk and kw in ("FEAR", "GAS")) or ("DEMONIC" in mk and kw == "FIRE")


def causes_fear(t: Model, m: Model) -> bool:
    """FEAR (digest §5): -1 DICE to melee attacks on ``t`` unless the attacker ``m`` has FEAR or is unaffected by
    it (:func:`negates`: NEGATE FEAR, GOLEM)."""
    fearless = bool(m.flags.get("fearless"))  # Onwards, Christian Soldiers!: this activation
    return "FEAR" in t.data["keywords"] and "FEAR" not in m.data["keywords"] and not negates(m, "FEAR") and not fearless


#: The weapon keywords that put one more Blood marker on a model they hit (digest §9).
EXTRA_BLOOD = ("SHRAPNEL", "FIRE", "GAS")


def extra_blood(w: dict[str, Any] | None, v: Model) -> list[str]:
    """The keywords of ``w`` that give the model ``v`` it hits one more Blood marker (SHRAPNEL, FIRE, GAS), less
    those ``v`` is unaffected by (:func:`negates`: NEGATE X, DEMONIC against FIRE, GOLEM against GAS)."""
    if w is None:
        return []
    return [k for k in EXTRA_BLOOD if k in w["keywords"] and not negates(v, k)]


def golem_stands(v: Model, bloodbath: bool) -> bool:
    """GOLEM (catalogue keyword GOLEM): an Out of Action result makes it Down instead, unless a Bloodbath caused
    it."""
    return "GOLEM" in v.data["keywords"] and not bloodbath


def blocks_charger(state: State, m: Model, t: Model) -> bool:
    """BLOCK (digest §5): a target with a BLOCK melee weapon gets -1 DICE on the melee attacks of a model that
    charged this turn."""
    return m.flags.get("charged_turn") == state.turn and any(
        "BLOCK" in x["keywords"] for x in t.data["weapons"] if "melee" in x["modes"]
    )

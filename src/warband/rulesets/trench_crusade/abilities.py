"""Named model abilities of the catalogue, played by the kind of their effects.

``data/modelled.yaml`` ``abilities`` gives each ability's effects, e.g. ``{kind: dice_against, mode: ranged,
dice: -1}``. A model carries its ability ids in ``m.data["abilities"]`` (catalogue models); the rules ask
:func:`effects` for a kind, so abilities that share an effect share its code. Where each kind is played:

=====================  ==================================================================================
dice_against           :func:`dice_against`: ``attacks.attack_dice`` (attacks of a mode against the bearer)
enemy_aura             :func:`aura_dice`: ``attacks.attack_dice``, ``core.push_success`` (enemy ACTIONs near it)
action_dice            :func:`action_dice`: ``core.push_success`` (the bearer's roll for one action)
ignore_difficult       ``space.plan_move``, ``space._leg_cost`` (difficult terrain costs it nothing extra)
dash_factor            ``movement.AfterDash`` (the Dash's distance)
negate                 ``keywords.negates`` (like NEGATE X)
injury_dice_against    :func:`injury_dice_against`: ``attacks.Injury.run`` (weapons with a keyword)
no_retreat_from        ``actions._check_retreat`` (enemies within 1" of the bearer cannot Retreat)
no_fall, free_climb    ``movement.after_move_hazards``, ``attacks.fall_from_jump``, ``movement.Destination``
blessing_on_death      ``attacks.take_out`` (a friend gains a Blessing marker)
leaves_on_elite_kill   ``attacks.take_out`` (the bearer leaves the battle)
no_battle_effect       nothing: a campaign or list rule (selling, experience)
wheel                  ``wheel.py`` (Broken on the Wheel: the volunteer strapped on, hit first, dead afterwards)
no_action              ``activation.action_reasons``, ``activation._legal`` (an action it may not take)
injury_dice_vs_down    :func:`injury_dice_for`: ``attacks.Injury.run`` (its melee hits on Down enemies)
heal_on_activation     ``activation.start_part`` (Blood markers removed as it activates)
blood_to_blessing      ``activation.start_part`` (a Blood marker becomes a Blessing marker)
charge_dice            ``movement.ChargeRoll`` (the charge die: the highest of N)
ignore_heavy           ``keywords.heavy_applies`` (HEAVY of its melee weapons, or of the items named)
weapon_attacks         ``attacks.begin_fight`` (a named weapon attacks N times)
ignore_out_once        ``attacks.InjuryRoll.roll`` (once a battle an Out of Action result has no effect)
no_blood_spend         ``attacks.Attack.run`` (its Blood is not spent against its attacks of a mode)
bodyguard              ``attacks.AfterHit.hit``, ``attacks.Bodyguard`` (it takes a hit meant for a friend within 1")
attack_friends         ``actions._check_fight``, ``activation._tries`` (Fight friends within 1"), ``attacks.take_out``
                       and ``morale.morale_idle`` (each friend it takes out: +DICE to its side's next Morale check)
item_keywords          ``book._gifted`` (the items named gain the keywords: battle ones on the weapon),
                       ``kitrules._hands`` (SHIELD COMBO)
edge_deploy            ``setup.Deploy``, ``setup.late``, ``setup.edge_problems`` (it deploys last, on a table edge
                       away from enemies, or in its zone)
down_to_minor          ``attacks.InjuryRoll.roll`` (a Down result is a Minor Hit; TOUGH turns Out into Down first)
charge_die_sides       ``movement.push_charge_die`` (its charge die has ``count`` sides: Machine Armour's D3)
fearless_aura          ``activation.start_part``, ``keywords.causes_fear`` (friends activating within ``range``
                       ignore FEAR for the activation; ``turn._close`` ends it)
self_out_no_morale     ``attacks.take_out``, ``morale.needs_check`` (taken out by itself: no Morale casualty)
extra_fireteam         ``roster._sworn_teams`` (one more FIRETEAM than the list's, with a model of the keywords)
no_offhand_penalty     ``attacks.attack_dice`` (its off-hand melee attack has no -1 DICE)
blessing_on_kill       ``attacks.InjuryRoll.roll``, ``attacks._prize`` (a Blessing marker for taking out an enemy
                       with one of the effect's keywords in melee)
ability_weapon         ``book.to_document`` (the model carries the ability as a weapon: ``range``, ``keywords``,
                       ranged and melee)
activate_with_friend   ``activation.begin_activation``, ``activation.FollowerChoice`` (a friend within ``range``
                       activates with it, after it)
reroll_failure         ``core.SuccessRoll._eye_of_god`` (a failed roll of its own action is re-rolled; a 1 knocks
                       it Down)
=====================  ==================================================================================
"""

from __future__ import annotations

from functools import cache

from warband.kernel.space import gap
from warband.kernel.state import GameState, Model
from warband.rulesets.trench_crusade.context import Context
from warband.rulesets.trench_crusade.modelled import Effect, load_modelled

State = GameState[Context]


@cache
def _effects_of(ability: str) -> tuple[Effect, ...]:
    rules = load_modelled().abilities.get(ability)
    return rules.effects if rules is not None else ()


#: The effects of one kind among a set of abilities, per (ability ids, kind): the rules ask it of every action
#: a model might try, after every step (the catalogue's effects never change while a process runs).
_BY_KIND: dict[tuple[tuple[str, ...], str], tuple[Effect, ...]] = {}


def effects(m: Model, kind: str) -> list[Effect]:
    """The effects of ``kind`` among the abilities ``m`` has."""
    held = m.data.get("abilities")
    if not held:
        return []
    key = (tuple(held), kind)
    got = _BY_KIND.get(key)
    if got is None:
        got = _BY_KIND[key] = tuple([e for a in key[0] for e in _effects_of(a) if e.kind == kind])
    return list(got)


_BARRED: dict[tuple[str, ...], frozenset[str | None]] = {}


def barred_actions(m: Model) -> frozenset[str | None]:
    """The actions an ability of ``m`` forbids it (effect ``no_action``: Dignified Conduct, no Dash), kept per
    set of abilities: the menu asks it of every action the model might try."""
    held = m.data.get("abilities")
    if not held:
        return frozenset()
    key = tuple(held)
    got = _BARRED.get(key)
    if got is None:
        got = _BARRED[key] = frozenset([e.action for a in key for e in _effects_of(a) if e.kind == "no_action"])
    return got


def has_effect(m: Model, kind: str) -> bool:
    return bool(effects(m, kind))


def dice_against(t: Model, mode: str) -> int:
    """DICE on attacks of ``mode`` against ``t`` (Stealth Generator: -1 against ranged attacks)."""
    return sum(e.dice for e in effects(t, "dice_against") if e.mode in (None, mode))


def aura_dice(state: State, m: Model) -> int:
    """DICE on every ACTION of ``m`` from enemies' auras within range (Unholy Hymns: -1 within 8")."""
    total = 0
    for e in state.models.values():
        if e.side == m.side or not e.on_table:
            continue
        for fx in effects(e, "enemy_aura"):
            if gap(e, m) <= fx.range + 1e-9:
                total += fx.dice
    return total


def action_dice(m: Model, purpose: str) -> int:
    """DICE on ``m``'s own Success Roll for the action ``purpose`` (Loping Dash: +2 DICE to Dash)."""
    return sum(e.dice for e in effects(m, "action_dice") if e.action == purpose)


def injury_dice_against(v: Model, weapon_keywords: list[str] | None) -> int:
    """INJURY DICE on the Injury Roll against ``v`` from a weapon with one of the effect's keywords (Artificial
    Life: -1 against GAS), or, for an effect naming no keyword, on every Injury Roll against it, a fall's too
    (Martyr-Penitent: -1)."""
    kws = weapon_keywords or []
    return sum(e.dice for e in effects(v, "injury_dice_against") if not e.keywords or any(k in kws for k in e.keywords))


def dash_factor(m: Model) -> float:
    """The fraction of its Movement a Dash moves ``m`` (Slow: half)."""
    f = 1.0
    for e in effects(m, "dash_factor"):
        f *= e.factor
    return f


def injury_dice_for(m: Model, v: Model, mode: str | None) -> int:
    """INJURY DICE ``m``'s ``mode`` attack adds against ``v``: Finish the Fallen, +1 on a Down enemy in melee unless
    it has one of the effect's keywords."""
    total = 0
    for e in effects(m, "injury_dice_vs_down"):
        if mode == (e.mode or mode) and v.flags.get("down") and not any(k in v.data["keywords"] for k in e.keywords):
            total += e.dice
    return total


def ignores_heavy(m: Model, w: dict[str, object]) -> bool:
    """Whether ``m`` ignores the HEAVY of weapon ``w`` (Assault Drill: its melee weapons; Battlefield Demolition:
    the items named)."""
    for e in effects(m, "ignore_heavy"):
        if w["name"] in e.items or (e.mode is not None and list(w["modes"]) == [e.mode]):  # type: ignore[call-overload]
            return True
    return False


def weapon_attacks(m: Model, w: dict[str, object]) -> int:
    """Attacks one Fight with ``w`` makes by an ability (Lightning Speed: twice with its polearm), else 1."""
    return max([e.count for e in effects(m, "weapon_attacks") if w["name"] in e.items] or [1])


def item_keywords(abilities: list[str] | tuple[str, ...], item_name: str) -> list[str]:
    """Keywords the abilities give the item named (Martial Prowess: the Jezzail gains ASSAULT and SHIELD COMBO)."""
    return [
        k
        for a in abilities
        for e in _effects_of(a)
        if e.kind == "item_keywords" and item_name in e.items
        for k in e.keywords
    ]


def hidden(t: Model) -> bool:
    """Hide: the model cannot be shot or charged (BLAST still reaches it) until it is revealed (``core.place``)."""
    return t.flags.get("hidden") is not None

"""What the engine plays of the catalogue, and how a catalogue item becomes an engine weapon.

``data/modelled.yaml`` is the one list of what is modelled (keywords, abilities, upgrades, faction rules, item
modifiers and item rule texts); everything else a catalogue warband carries is named by :func:`gaps_of_item`,
:func:`gaps_of_profile` and the roster's ``unmodelled`` so that no result silently comes from a different game.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from warband.kernel.errors import RosterError
from warband.kernel.roster import problems_from_validation, read_document
from warband.rulesets.trench_crusade.armoury import WEAPON_KEYWORDS, WeaponItem
from warband.rulesets.trench_crusade.catalogue import Catalogue, Item, Profile, load_catalogue
from warband.rulesets.trench_crusade.document import TCModel, TCRoster

__all__ = [
    "MODELLED_PATH",
    "AbilityRules",
    "Effect",
    "Modelled",
    "UpgradeEffect",
    "custom_gaps",
    "engine_weapon",
    "gaps_of_item",
    "gaps_of_profile",
    "load_modelled",
    "unmodelled_rules",
]

MODELLED_PATH = Path(__file__).parent / "data" / "modelled.yaml"

#: Catalogue keyword -> the engine's name for it (the engine reads ``RISKY``).
ENGINE_NAMES = {"RISKY ACTION": "RISKY"}


class UpgradeEffect(BaseModel):
    """What a modelled upgrade changes on the profile."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    keywords: tuple[str, ...] = ()
    ranged: int = 0
    melee: int = 0
    abilities: tuple[str, ...] = Field(default=(), description="Abilities it grants (keys of ``abilities``).")
    armour: int = Field(default=0, description="Added to the armour (Machine Armour: -2 becomes -3).")
    base: float | None = Field(default=None, description="The base it sets, in mm (Machine Armour: 40).")


EffectKind = Literal[
    "wheel",
    "dice_against",
    "enemy_aura",
    "action_dice",
    "ignore_difficult",
    "dash_factor",
    "negate",
    "injury_dice_against",
    "no_retreat_from",
    "no_fall",
    "free_climb",
    "blessing_on_death",
    "leaves_on_elite_kill",
    "no_battle_effect",
    "no_action",
    "injury_dice_vs_down",
    "heal_on_activation",
    "blood_to_blessing",
    "charge_dice",
    "ignore_heavy",
    "weapon_attacks",
    "ignore_out_once",
    "no_blood_spend",
    "ability_action",
    "attack_friends",
    "bodyguard",
    "reroll_failure",
    "activate_with_friend",
    "ability_weapon",
    "blessing_on_kill",
    "item_keywords",
    "no_offhand_penalty",
    "extra_fireteam",
    "edge_deploy",
    "down_to_minor",
    "charge_die_sides",
    "fearless_aura",
    "self_out_no_morale",
]


#: What an ``ability_action`` does on a success (``ability_actions.py`` plays each).
Outcome = Literal[
    "blood",
    "aim",
    "heal",
    "tend",
    "sacrament",
    "advance",
    "portal",
    "bless",
    "detonate",
    "rally",
    "fortify",
    "hide",
    "command",
    "puppet",
    "free_retreat",
    "miasma",
    "devour",
    "vomit",
    "demine",
]


class Effect(BaseModel):
    """One effect of a named ability, by kind (the engine plays kinds, not names: abilities that share an effect
    share its code). Fields a kind does not use stay at their defaults."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: EffectKind
    mode: Literal["ranged", "melee"] | None = None
    action: str | None = None
    dice: int = 0
    range: float = 0.0
    factor: float = 1.0
    keywords: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    count: int = 1
    # an ``ability_action`` (an ACTION of the menu: its Success Roll, then its ``outcome`` on a success)
    outcome: Outcome | None = None
    target: Literal["enemy", "friend", "self", "any"] = "self"
    roll: bool = True
    goetic: int = Field(default=0, ge=0, description="GOETIC (X): Blood markers spent to cast it.")
    putrescere: int = Field(default=0, ge=0, description="PUTRESCERE (X): Infection markers spent to cast it.")
    risky: bool = False
    sight: bool = True
    characteristic: Literal["ranged", "melee"] | None = None
    critical_count: int = 0


class AbilityRules(BaseModel):
    """A named ability the engine plays: its effects and, in words, where the code plays them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    effects: tuple[Effect, ...] = Field(min_length=1)
    code: str


class ItemRules(BaseModel):
    """An item whose rule text the engine plays, with the engine keywords that play it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    keywords: tuple[str, ...] = ()
    abilities: tuple[str, ...] = Field(default=(), description="Abilities its bearer gains (keys of ``abilities``).")


class Modelled(BaseModel):
    """The contents of ``data/modelled.yaml`` (values are the evidence, in words)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    keywords: dict[str, str]
    abilities: dict[str, AbilityRules] = Field(default_factory=dict)
    rules: dict[str, str] = Field(default_factory=dict)
    upgrades: dict[str, UpgradeEffect]
    modifiers: dict[str, str]
    items: dict[str, ItemRules]


@cache
def load_modelled() -> Modelled:
    raw = read_document(MODELLED_PATH, RosterError)
    try:
        return Modelled.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(str(MODELLED_PATH), exc)) from None


# --------------------------------------------------------------------------------------- engine weapons


def _attacks_keyword(item: Item) -> list[str]:
    attacks = int(item.modifiers.get("attacks", 1))
    if attacks <= 1:
        return []
    return [f"AUTOMATIC {attacks}" if "ranged" in item.modes else f"CLEAVE {attacks}"]


def _modifier_keywords(item: Item) -> list[str]:
    mods = item.modifiers
    out: list[str] = []
    if mods.get("ignore_armour"):
        out.append("IGNORE ARMOUR")
    if mods.get("ignore_cover"):
        out.append("IGNORE COVER")
    if mods.get("injury_roll") == "3D6":
        out.append("DEADLY")
    if mods.get("auto_hit"):
        out.append("FLAMETHROWER")
    return out + _attacks_keyword(item)


def engine_keywords(item: Item) -> list[str]:
    """The engine's keywords for a catalogue weapon: its keywords the engine knows, the keywords its modifiers
    stand for (``attacks: 3`` -> ``AUTOMATIC 3``) and those ``modelled.yaml`` gives its rule text."""
    out: list[str] = []
    for text in item.keywords:
        name = ENGINE_NAMES.get(text, text)
        if re.sub(r"\s+\d+$", "", name) in WEAPON_KEYWORDS:
            out.append(name)
    out += _modifier_keywords(item)
    rules = load_modelled().items.get(item.id)
    out += list(rules.keywords) if rules is not None else []
    seen: list[str] = []
    for k in out:
        if k not in seen:
            seen.append(k)
    return seen


def engine_weapon(item: Item, hands: int | None = None) -> WeaponItem:
    """The catalogue weapon as the rules read it (``hands`` overrides the item's, as some lists do)."""
    ranged = "ranged" in item.modes
    return WeaponItem(
        name=item.name,
        modes=[m for m in ("ranged", "melee") if m in item.modes],
        # a ranged weapon of range 0 (the Gas Censer) works around the wielder: its reach is its blast
        range=(float(item.range or item.modifiers.get("blast", 1)) if ranged else None),
        hands=min(2, max(0, hands if hands is not None else int(item.hands or 0))),  # type: ignore[arg-type]
        dice=int(item.modifiers.get("hit_dice", 0)),
        injury_mod=int(item.modifiers.get("injury_mod", 0)),
        injury_dice=int(item.modifiers.get("injury_dice", 0)),
        keywords=engine_keywords(item),
        cost=0,
    )


# ------------------------------------------------------------------------------------------------- gaps


def _modifier_gaps(item: Item) -> list[str]:
    known = load_modelled().modifiers
    out: list[str] = []
    for key, value in item.modifiers.items():
        if key == "injury_roll" and value != "3D6":
            out.append(f"injury roll {value}")
        elif key == "immune_to":
            out += [f"immune to {x}" for x in value if x != "FEAR"]
        elif key not in known:
            out.append(_modifier_words(key, value))
    return out


def _modifier_words(key: str, value: Any) -> str:
    words = key.replace("_", " ")
    if isinstance(value, list):
        return f"{words} {', '.join(map(str, value))}"
    return words if value is True else f"{words} {value}"


def _effect_rules(effect: str) -> list[str]:
    """The rule text of an item, without the catalogue's notes on where a number came from."""
    parts = [p.strip().rstrip(".") for p in re.split(r"; |\. ", effect)]
    kept = [p for p in parts if p and "modifier list" not in p and "rules text" not in p]
    return ["; ".join(kept)] if kept else []


def _played(keyword: str, modelled: Modelled) -> bool:
    """A keyword the engine plays: listed, or NEGATE with any keyword (NEGATE GAS: keywords.negates)."""
    return keyword in modelled.keywords or (keyword.startswith("NEGATE ") and "NEGATE" in modelled.keywords)


def gaps_of_item(item: Item) -> list[str]:
    """Each rule of the item the engine does not play, in words (``-1 injury DICE``, ``CONSUMABLE``, its rule
    text when ``modelled.yaml`` does not say the engine plays it)."""
    modelled = load_modelled()
    out = [k for k in item.keyword_names if not _played(k, modelled)]
    out += _modifier_gaps(item)
    if item.id not in modelled.items:
        # the rule text, or where there is none the conditions the data gives
        out += _effect_rules(item.effect) if item.effect else list(item.conditional)
    return out


def gaps_of_profile(profile: Profile) -> list[tuple[str, str]]:
    """(kind, name) of each keyword and ability of the profile the engine does not play."""
    modelled = load_modelled()
    out = [("keyword", k) for k in profile.keywords if not _played(k, modelled)]
    out += [("ability", a) for a in profile.abilities if a not in modelled.abilities]
    return out


# ------------------------------------------------------------------------------------------ a warband's gaps


def _melee_capable(m: TCModel) -> bool:
    return any("melee" in w.modes for w in m.weapon_items or [])


def _model_gaps(cat: Catalogue, m: TCModel, modelled: Modelled) -> list[str]:
    assert m.book is not None
    out = [f"keyword {k}" for k in m.keywords if not _played(k, modelled)]
    out += [f"ability {cat.name_of(a)}" for a in m.book.abilities if a not in modelled.abilities]
    out += [f"upgrade {cat.name_of(u)}" for u in m.book.upgrades if u not in modelled.upgrades]
    for item_id in dict.fromkeys(m.book.items):
        item = cat.items.get(item_id)
        out += [f"{item.name}: {gap}" for gap in gaps_of_item(item)] if item is not None else []
    if not _melee_capable(m):
        out.append("fighting unarmed (no melee weapon)")
    return out


def custom_gaps(r: TCRoster) -> list[str]:
    """The keywords of custom (hand-typed) models that the engine accepts but does not play (INFILTRATOR ...)."""
    known = load_modelled().keywords
    out: dict[str, list[str]] = {}
    for m in r.models:
        if m.book is None:
            for k in m.keywords:
                if k not in known and m.display_name not in out.setdefault(k, []):
                    out[k].append(m.display_name)
    return [f"keyword {k} ({', '.join(who)})" for k, who in out.items()]


def unmodelled_rules(r: TCRoster) -> list[str]:
    """Every rule of the warband's catalogue models and of its list that the engine does not play, one line per
    rule naming who has it (``ability Puppet Master (Father Orobas)``). Custom (hand-typed) models carry only what
    the engine reads, so they add nothing here (``validate`` marks them as custom)."""
    cat = load_catalogue()
    modelled = load_modelled()
    found: dict[str, list[str]] = {}
    for m in r.models:
        if m.book is None:
            continue
        for gap in _model_gaps(cat, m, modelled):
            who = found.setdefault(gap, [])
            if m.display_name not in who:
                who.append(m.display_name)
    faction = cat.lists.get(r.list_id) if r.list_id is not None else None
    if faction is not None:
        for rule_id in faction.rules:
            rule = cat.rules.get(rule_id)
            if rule is not None and not rule.list_building and rule_id not in modelled.rules:
                found.setdefault(f"faction rule {rule.name}", []).append(f"{faction.label} list")
    return [f"{what} ({', '.join(who)})" for what, who in found.items()]

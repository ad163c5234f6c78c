"""The sample factions' own abilities and reactions (data digest wyrdcry-data.md §4.1-4.4) as the engine knows
them: which of a fighter's abilities are paid with ability dice and what they cost, which are traits that act
by themselves, which reactions a fighter's faction or card gives it, and which the engine does not play yet.

The effects themselves are in ``rules.py`` (they change the game state); this module only reads the bundled
data, so the menu, the refusal texts and the clause matrix share one list.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from warband.rulesets.wyrdcry.roster import AbilityData, ReactionData, load_data

#: Faction abilities paid with ability dice that the engine plays (data §4.1-4.4).
DICE_ABILITIES = frozenset(
    {
        "hunters-eye",
        "hammer-of-sigmar",
        "words-of-healing",
        "soulfire",
        "self-flagellation",
        "death-grip",
        "strategize",
        "blessed-sight",
        "condemn",
        "disengage",
        "captain-command",
        "lead-by-example",
        "driven-by-greed",
    }
)
#: Traits that act by themselves (no dice), played by the engine or applied when the roster is built.
TRAITS = frozenset(
    {
        "trick-shot",
        "armour-of-faith",
        "unshakeable",
        "indomitable",
        "voice-of-sigmar",
        "stealthy",
        "martial-discipline",  # applied on recruitment: the profile in the warband file already has it
        "penitent",  # a roster restriction, checked by roster.py
        "sigmars-blessing",  # offered at its three moments (Bravery test, hit roll, reaction) in rules.py
    }
)
#: Faction and hired-sword reactions the engine asks for (data §4.2-4.4).
REACTIONS = frozenset({"martyrdom", "sudden-accusation", "deathwish", "denounce"})
#: Data entries the engine cannot play; each says why (refused with ``wyrdcry/ability/pending``). Slayer Oath is
#: named on the Troll Slayer's card but the source never says what it does (data digest §4.4 and §6 "Undefined").
PENDING = {
    "slayer-oath": "undefined in the source (data digest §6 lists it as undefined): it has no effect to play",
}
#: The faction whose fighters all have Sigmar's Blessing lists it in ``faction_abilities`` (data §4.2).
BLESSING = "sigmars-blessing"
#: Keywords that Soulfire hits at full value (data §4.2).
SOULFIRE_FULL = ("VAMPIRE", "DAEMON", "THRALL")
#: Keywords worth more Zeal when Condemned (data §4.3).
CONDEMN_HEAVY = ("WIZARD", "DAEMON", "VAMPIRE")


def _by_id(field: str) -> dict[str, Any]:
    """Every faction's and the hired swords' entries of ``field`` (abilities or reactions), by id (the same id
    has the same text everywhere: the first one found is kept)."""
    d = load_data()
    out: dict[str, Any] = {}
    for owner in (*d.factions.values(), d.hired):
        for entry in getattr(owner, field):
            out.setdefault(entry.id, entry)
    return out


@lru_cache(maxsize=1)
def abilities() -> dict[str, AbilityData]:
    """Every faction and hired-sword ability of the data, by id."""
    return _by_id("abilities")


@lru_cache(maxsize=1)
def reactions() -> dict[str, ReactionData]:
    """Every faction and hired-sword reaction of the data, by id."""
    return _by_id("reactions")


@lru_cache(maxsize=16)
def faction_reactions(faction: str) -> frozenset[str]:
    """Reactions every fighter of ``faction`` has (Martyrdom: all Sisters of Sigmar, data §4.2)."""
    f = load_data().factions.get(faction)
    if f is None:
        return frozenset()
    return frozenset(r.id for r in f.reactions if r.id in REACTIONS and r.id != "sudden-accusation")


@lru_cache(maxsize=16)
def faction_traits(faction: str) -> frozenset[str]:
    """Abilities every (non-hired) fighter of ``faction`` has (Sigmar's Blessing: all Sisters, data §4.2)."""
    f = load_data().factions.get(faction)
    return frozenset(f.faction_abilities) if f is not None else frozenset()


def own_dice_abilities(card: dict[str, Any]) -> list[str]:
    """The dice abilities on a fighter's card that the engine plays, in card order."""
    return [a for a in card.get("abilities", []) if a in DICE_ABILITIES]


def cost_of(name: str) -> str:
    return str(abilities()[name].cost)


def is_spellbook(name: str) -> bool:
    a = abilities().get(name)
    return bool(a is not None and a.spellbook)


def has_trait(card: dict[str, Any], trait: str) -> bool:
    return trait in card.get("abilities", [])


def half_up(value: int) -> int:
    """(X/2) rounds up (digest §A3, W)."""
    return (value + 1) // 2

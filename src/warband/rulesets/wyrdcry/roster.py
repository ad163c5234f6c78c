"""Wyrdcry warband files and the faction data they are checked against.

A warband file (``data/warbands/*.yaml``) lists fighters as fighter cards: type, keywords (LEADER, HERO,
WIZARD, PRIEST...), profile, abilities, attack profiles and armour, as the player would copy them from the
compendium. :func:`load_warband` checks every card against the bundled data (``data/weapons.yaml``,
``data/universal.yaml``, ``data/factions/*.yaml``, ``data/hired_swords.yaml``) and the warband-building rules
of the data digest (wyrdcry-data.md §5), and reports every problem at once with its place
(``fighters[3].attacks[0].damage``). :func:`warband_points` totals the gold coins from the data's prices.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, Field

from warband.kernel.errors import Problem, RosterError
from warband.kernel.roster import (
    FrozenEntry,
    describe_value,
    problems_from_validation,
    read_document,
    read_mapping,
    unknown_entries,
)

__all__ = [
    "DATA_DIR",
    "Attack",
    "Catalogue",
    "FactionData",
    "Fighter",
    "FighterData",
    "GameData",
    "Warband",
    "expected_profile",
    "fighter_points",
    "load_data",
    "load_warband",
    "warband_points",
]

DATA_DIR = Path(__file__).parent / "data"

#: Sane limits of a file (not rules: they catch typos). Each appears in the error message.
MAX_ENTRY_COUNT = 15
MAX_POINTS = 10_000
MAX_RANGE = 36.0

ProfileField = Literal["move", "fight", "shoot", "defense", "health", "bravery"]
PROFILE_FIELDS: tuple[ProfileField, ...] = ("move", "fight", "shoot", "defense", "health", "bravery")
AbilityCost = Literal["double", "triple", "quad", "trait", "rule"]


class _Profile(FrozenEntry):
    """Characteristics (data digest §A5): Move inches, Fight, Shoot, Defense, Health, Bravery (a D6 target)."""

    move: int = Field(ge=1, le=12)
    fight: int = Field(ge=1, le=10)
    shoot: int = Field(ge=1, le=10)
    defense: int = Field(ge=1, le=10)
    health: int = Field(ge=1, le=40)
    bravery: int = Field(ge=1, le=6, description="D6 target of a Bravery test: 4 means 4+.")


# ------------------------------------------------------------------------------------------------ data


class WeaponData(FrozenEntry):
    name: str = Field(min_length=1)
    type: Literal["melee", "ranged"]
    range: tuple[float, float]
    attacks: int = Field(ge=1, le=12)
    damage: tuple[int, int]
    rules: list[str] = Field(default_factory=list)
    cost: int = Field(ge=0)

    def has(self, rule: str) -> bool:
        return any(r == rule or r.startswith(f"{rule} ") for r in self.rules)


class ArmourData(FrozenEntry):
    name: str = Field(min_length=1)
    defense: int = Field(ge=1, le=3)
    cost: int = Field(ge=0)
    melee_slot: bool = False
    max_move_per_action: float | None = None


class WeaponRule(FrozenEntry):
    id: str
    text: str
    valued: bool = False


class Catalogue(FrozenEntry):
    weapons: list[WeaponData]
    armour: list[ArmourData]
    weapon_rules: list[WeaponRule]

    def weapon(self, name: str) -> WeaponData | None:
        return next((w for w in self.weapons if w.name == name), None)

    def armour_item(self, name: str) -> ArmourData | None:
        return next((a for a in self.armour if a.name == name), None)


class AbilityData(FrozenEntry):
    id: str = Field(min_length=1)
    name: str
    cost: AbilityCost
    text: str
    spellbook: bool = False
    forbids_armour: bool = False
    forbids_ranged: bool = False


class ReactionData(FrozenEntry):
    id: str = Field(min_length=1)
    name: str
    timing: str
    text: str


class KeywordData(FrozenEntry):
    id: str
    text: str


class Universal(FrozenEntry):
    abilities: list[AbilityData]
    reactions: list[ReactionData]
    keywords: list[KeywordData]


class FighterData(_Profile):
    """A fighter type of a faction or a hired sword."""

    type: str = Field(min_length=1)
    keywords: list[str]
    cost: int = Field(ge=0, description="Gold coins (a hired sword: its fee, fixed kit included).")
    limit: int | None = Field(default=None, ge=1)
    abilities: list[str] = Field(default_factory=list)
    pick_abilities: int | None = Field(default=None, ge=1, description="Take this many of `abilities`.")
    weapons: list[str] = Field(default_factory=list, description="Fixed kit: natural or hired swords' weapons.")


class Effect(FrozenEntry):
    types: list[str] | None = None
    field: ProfileField
    add: int


class OptionData(FrozenEntry):
    id: str
    text: str
    effects: list[Effect] = Field(default_factory=list)
    initiative_dice: int | None = None
    forbids: list[str] = Field(default_factory=list)
    half_price: list[str] = Field(default_factory=list)


class Options(FrozenEntry):
    pick: int = Field(ge=0)
    choices: list[OptionData]


class RuleText(FrozenEntry):
    id: str
    text: str


class FactionData(FrozenEntry):
    id: str = Field(min_length=1)
    name: str
    max_fighters: int = Field(ge=1)
    fighters: list[FighterData] = Field(min_length=1)
    kit: list[str]
    hero_kit: list[str]
    hired_swords: list[str]
    half_fee_hire: bool = False
    faction_abilities: list[str] = Field(default_factory=list)
    abilities: list[AbilityData]
    reactions: list[ReactionData]
    options: Options
    rules: list[RuleText]

    def fighter(self, type_: str) -> FighterData | None:
        return next((f for f in self.fighters if f.type == type_), None)


class HiredSwords(FrozenEntry):
    fighters: list[FighterData]
    abilities: list[AbilityData]
    reactions: list[ReactionData]

    def fighter(self, type_: str) -> FighterData | None:
        return next((f for f in self.fighters if f.type == type_), None)


@dataclass(frozen=True)
class GameData:
    """Everything the bundled data files hold."""

    catalogue: Catalogue
    universal: Universal
    factions: dict[str, FactionData]
    hired: HiredSwords


def _read(path: Path, cls: type[BaseModel]) -> Any:
    raw = read_document(path, RosterError)
    try:
        return cls.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(str(path), exc)) from None


@lru_cache(maxsize=4)
def load_data(data_dir: Path = DATA_DIR) -> GameData:
    """Read and validate the bundled data (cached); a bad data file raises :class:`RosterError`."""
    factions = [_read(p, FactionData) for p in sorted((data_dir / "factions").glob("*.yaml"))]
    return GameData(
        catalogue=_read(data_dir / "weapons.yaml", Catalogue),
        universal=_read(data_dir / "universal.yaml", Universal),
        factions={f.id: f for f in factions},
        hired=_read(data_dir / "hired_swords.yaml", HiredSwords),
    )


# ------------------------------------------------------------------------------------------ warband file


class Attack(FrozenEntry):
    """One attack profile on a fighter card: a weapon and its numbers (data digest §A5, §2)."""

    weapon: str = Field(min_length=1)
    type: Literal["melee", "ranged"]
    range: tuple[float, float] = Field(description="[min, max] inches; melee: [0, reach].")
    attacks: int = Field(ge=1, le=12)
    damage: tuple[int, int] = Field(description="[per hit, per critical hit].")
    rules: list[str] = Field(default_factory=list)

    @pydantic.field_validator("range")
    @classmethod
    def _range(cls, value: tuple[float, float]) -> tuple[float, float]:
        lo, hi = value
        if not 0 <= lo <= hi <= MAX_RANGE or hi <= 0:
            raise ValueError(f"expected 0 <= min <= max <= {MAX_RANGE:g} inches and max > 0, found {list(value)}")
        return value

    @pydantic.field_validator("damage")
    @classmethod
    def _damage(cls, value: tuple[int, int]) -> tuple[int, int]:
        if not 0 <= value[0] <= value[1] <= 20:
            raise ValueError(f"expected 0 <= hit damage <= critical damage <= 20, found {list(value)}")
        return value


class Fighter(_Profile):
    """One fighter card of a warband file; ``count`` identical fighters."""

    type: str = Field(min_length=1)
    name: str | None = None
    count: int = Field(default=1, ge=1, le=MAX_ENTRY_COUNT)
    keywords: list[str] = Field(default_factory=list)
    abilities: list[str] = Field(default_factory=list)
    attacks: list[Attack] = Field(min_length=1, max_length=4)
    armour: list[str] = Field(default_factory=list, max_length=2)
    hired: bool = Field(default=False, description="A hired sword (data §4.4): fee only, not counted for size.")
    half_fee: bool = Field(default=False, description="Hired at half fee (Mercenaries: Well-connected).")


class Warband(FrozenEntry):
    """A Wyrdcry warband file."""

    ruleset: Literal["wyrdcry"]
    name: str = Field(min_length=1)
    faction: str = Field(min_length=1)
    points_limit: int = Field(gt=0, le=MAX_POINTS)
    options: list[str] = Field(default_factory=list)
    fighters: list[Fighter] = Field(min_length=1, max_length=30)


# ----------------------------------------------------------------------------------------------- points


def _source(f: Fighter, faction: FactionData, data: GameData) -> FighterData | None:
    return data.hired.fighter(f.type) if f.hired else faction.fighter(f.type)


def _chosen(faction: FactionData, options: Iterable[str]) -> list[OptionData]:
    wanted = set(options)
    return [o for o in faction.options.choices if o.id in wanted]


def fighter_points(f: Fighter, faction: FactionData, options: Iterable[str] = (), data: GameData | None = None) -> int:
    """Gold coins for ONE fighter of this card (data §5): the type's cost (half if an option halves it) plus
    bought weapons and armour; a hired sword costs its fee (fixed kit included), half with ``half_fee``.
    Unknown types and items count 0 (they are reported by :func:`load_warband`)."""
    d = data or load_data()
    src = _source(f, faction, d)
    if src is None:
        return 0
    if f.hired:
        return src.cost // 2 if f.half_fee else src.cost
    half = any(f.type in o.half_price for o in _chosen(faction, options))
    total = src.cost // 2 if half else src.cost
    for a in f.attacks:
        item = d.catalogue.weapon(a.weapon)
        total += item.cost if item is not None and a.weapon not in src.weapons else 0
    for name in f.armour:
        arm = d.catalogue.armour_item(name)
        total += arm.cost if arm is not None else 0
    return total


def warband_points(w: Warband, data: GameData | None = None) -> int:
    """Total gold coins of the warband, hired swords' fees included (data §5, [P])."""
    d = data or load_data()
    faction = d.factions.get(w.faction)
    if faction is None:
        return 0
    return sum(fighter_points(f, faction, w.options, d) * f.count for f in w.fighters)


def expected_profile(src: FighterData, options: Iterable[OptionData]) -> dict[ProfileField, int]:
    """The type's profile with the chosen faction options applied (data §4.1 State Pride)."""
    out: dict[ProfileField, int] = {k: getattr(src, k) for k in PROFILE_FIELDS}
    for option in options:
        for e in option.effects:
            if e.types is None or src.type in e.types:
                out[e.field] += e.add
    return out


# ------------------------------------------------------------------------------------------------ checks


@dataclass(frozen=True)
class _Ctx:
    file: str
    data: GameData
    faction: FactionData
    options: tuple[OptionData, ...]


def _profile_problems(ctx: _Ctx, here: str, f: Fighter, src: FighterData) -> list[Problem]:
    want = expected_profile(src, ctx.options)
    found = {k: getattr(f, k) for k in PROFILE_FIELDS}
    diff = [k for k in PROFILE_FIELDS if found[k] != want[k]]
    # Martial Discipline: +1 Fight or +1 Shoot on recruitment (data §4.1).
    if "martial-discipline" in src.abilities and len(diff) == 1 and diff[0] in ("fight", "shoot"):
        diff = [] if found[diff[0]] == want[diff[0]] + 1 else diff
    why = " with options " + ", ".join(o.id for o in ctx.options) if any(o.effects for o in ctx.options) else ""
    return [
        Problem(ctx.file, f"{here}.{k}", f"expected {want[k]} ({src.type}'s profile{why}), found {found[k]}")
        for k in diff
    ]


def _ability_problems(ctx: _Ctx, here: str, f: Fighter, src: FighterData) -> list[Problem]:
    out: list[Problem] = []
    for j, a in enumerate(f.abilities):
        if a not in src.abilities:
            known = ", ".join(src.abilities) or "none"
            out.append(
                Problem(ctx.file, f"{here}.abilities[{j}]", f"expected one of {src.type}'s ({known}), found {a!r}")
            )
    listed = [a for a in f.abilities if a in src.abilities]
    if src.pick_abilities is not None:
        if len(set(listed)) != src.pick_abilities:
            out.append(
                Problem(
                    ctx.file,
                    f"{here}.abilities",
                    f"expected exactly {src.pick_abilities} of {', '.join(src.abilities)}, found {len(set(listed))}",
                )
            )
    elif missing := [a for a in src.abilities if a not in f.abilities]:
        out.append(
            Problem(ctx.file, f"{here}.abilities", f"expected every ability of {src.type}, found {missing} missing")
        )
    return out


def _available(ctx: _Ctx, item: str, f: Fighter, src: FighterData) -> str | None:
    """Why ``item`` is not available to this fighter (data §5), or None."""
    if item in src.weapons or item == "Unarmed":
        return None
    if f.hired or "BEAST" in src.keywords:
        return f"expected only {src.type}'s fixed kit ({', '.join(src.weapons) or 'none'}), found {item!r}"
    if item in ctx.faction.kit:
        return None
    if item in ctx.faction.hero_kit:
        return None if "HERO" in src.keywords else f"expected HERO-only kit on a HERO, found {item!r} on a {src.type}"
    return f"expected {ctx.faction.name} kit ({', '.join(ctx.faction.kit + ctx.faction.hero_kit)}), found {item!r}"


def _forbidding(ctx: _Ctx, src: FighterData, flag: Literal["forbids_armour", "forbids_ranged"]) -> str | None:
    pool = ctx.faction.abilities + ctx.data.hired.abilities
    for a in pool:
        if a.id in src.abilities and getattr(a, flag):
            return a.name
    if flag == "forbids_armour" and "WIZARD" in src.keywords:
        return "WIZARD"
    return None


def _attack_problems(ctx: _Ctx, here: str, f: Fighter, src: FighterData) -> list[Problem]:
    out: list[Problem] = []
    no_ranged = _forbidding(ctx, src, "forbids_ranged")
    for j, a in enumerate(f.attacks):
        place = f"{here}.attacks[{j}]"
        item = ctx.data.catalogue.weapon(a.weapon)
        if item is None:
            known = ", ".join(w.name for w in ctx.data.catalogue.weapons)
            out.append(
                Problem(ctx.file, f"{place}.weapon", f"expected a weapon of weapons.yaml ({known}), found {a.weapon!r}")
            )
            continue
        for key in ("type", "range", "attacks", "damage", "rules"):
            want, found = getattr(item, key), getattr(a, key)
            if want != found:
                shown = list(want) if isinstance(want, tuple) else want
                out.append(
                    Problem(
                        ctx.file, f"{place}.{key}", f"expected {shown} for {a.weapon}, found {describe_value(found)}"
                    )
                )
        why = _available(ctx, a.weapon, f, src)
        if why is not None:
            out.append(Problem(ctx.file, f"{place}.weapon", why))
        if a.type == "ranged" and no_ranged is not None:
            out.append(
                Problem(ctx.file, f"{place}.weapon", f"expected no ranged weapon ({no_ranged}), found {a.weapon!r}")
            )
    return out


def _armour_problems(ctx: _Ctx, here: str, f: Fighter, src: FighterData) -> list[Problem]:
    out: list[Problem] = []
    forbidden = _forbidding(ctx, src, "forbids_armour")
    worn = 0
    for j, name in enumerate(f.armour):
        place = f"{here}.armour[{j}]"
        item = ctx.data.catalogue.armour_item(name)
        if item is None:
            known = ", ".join(a.name for a in ctx.data.catalogue.armour)
            out.append(Problem(ctx.file, place, f"expected armour of weapons.yaml ({known}), found {name!r}"))
            continue
        why = _available(ctx, name, f, src)
        if why is not None:
            out.append(Problem(ctx.file, place, why))
        if forbidden is not None and not item.melee_slot:
            out.append(Problem(ctx.file, place, f"expected no armour ({forbidden}), found {name!r}"))
        worn += 0 if item.melee_slot else 1
        if worn > 1:
            out.append(Problem(ctx.file, place, f"expected at most 1 suit of armour, found {worn}"))
    return out


def _slot_problems(ctx: _Ctx, here: str, f: Fighter) -> list[Problem]:
    """At most 2 melee slots (Two Handed = 2, a shield = 1) and 1 ranged weapon (a Brace pair = 1), data §5."""
    out: list[Problem] = []
    cat = ctx.data.catalogue
    melee = sum(2 if "Two Handed" in a.rules else 1 for a in f.attacks if a.type == "melee" and a.weapon != "Unarmed")
    melee += sum(1 for n in f.armour if (item := cat.armour_item(n)) is not None and item.melee_slot)
    if melee > 2:
        out.append(
            Problem(
                ctx.file, f"{here}.attacks", f"expected at most 2 melee slots (Two Handed 2, shield 1), found {melee}"
            )
        )
    brace = sum(1 for a in f.attacks if a.type == "ranged" and "Brace" in a.rules)
    ranged = sum(1 for a in f.attacks if a.type == "ranged" and "Brace" not in a.rules) + (brace + 1) // 2
    if ranged > 1:
        out.append(
            Problem(
                ctx.file, f"{here}.attacks", f"expected at most 1 ranged weapon (a Brace pair is 1), found {ranged}"
            )
        )
    return out


def _fighter_problems(ctx: _Ctx, i: int, f: Fighter) -> list[Problem]:
    here = f"fighters[{i}]"
    src = _source(f, ctx.faction, ctx.data)
    if src is None:
        if f.hired:
            known = ", ".join(h for h in ctx.faction.hired_swords if ctx.data.hired.fighter(h) is not None)
            return [
                Problem(
                    ctx.file,
                    f"{here}.type",
                    f"expected a hired sword of {ctx.faction.name} ({known}), found {f.type!r}",
                )
            ]
        known = ", ".join(x.type for x in ctx.faction.fighters)
        return [Problem(ctx.file, f"{here}.type", f"expected a {ctx.faction.name} fighter ({known}), found {f.type!r}")]
    out: list[Problem] = []
    if f.hired and f.type not in ctx.faction.hired_swords:
        out.append(
            Problem(ctx.file, f"{here}.type", f"expected a hired sword {ctx.faction.name} may hire, found {f.type!r}")
        )
    if sorted(f.keywords) != sorted(src.keywords):
        out.append(Problem(ctx.file, f"{here}.keywords", f"expected {src.keywords} for {src.type}, found {f.keywords}"))
    out += _profile_problems(ctx, here, f, src)
    out += _ability_problems(ctx, here, f, src)
    out += _attack_problems(ctx, here, f, src)
    out += _armour_problems(ctx, here, f, src)
    out += _slot_problems(ctx, here, f)
    if f.hired and f.count != 1:
        out.append(Problem(ctx.file, f"{here}.count", f"expected 1 for a hired sword, found {f.count}"))
    if f.half_fee and not (f.hired and ctx.faction.half_fee_hire):
        out.append(
            Problem(
                ctx.file,
                f"{here}.half_fee",
                f"expected half_fee only on a hired sword of a faction with Well-connected, found it on {f.type}",
            )
        )
    return out


def _option_problems(file: str, w: Warband, faction: FactionData) -> list[Problem]:
    out: list[Problem] = []
    known = {o.id for o in faction.options.choices}
    out += unknown_entries(
        file, "options", w.options, known, f"a {faction.name} option ({', '.join(sorted(known)) or 'none'})"
    )
    if len(set(w.options)) != faction.options.pick:
        out.append(
            Problem(file, "options", f"expected {faction.options.pick} distinct option(s), found {len(set(w.options))}")
        )
    return out


def _warband_problems(file: str, w: Warband, fighters: list[tuple[int, Fighter]], d: GameData) -> list[Problem]:
    faction = d.factions.get(w.faction)
    if faction is None:
        return [
            Problem(
                file,
                "faction",
                f"expected a faction of data/factions ({', '.join(sorted(d.factions))}), found {w.faction!r}",
            )
        ]
    ctx = _Ctx(file, d, faction, tuple(_chosen(faction, w.options)))
    out = _option_problems(file, w, faction)
    for i, f in fighters:
        out += _fighter_problems(ctx, i, f)
    out += _roster_rules(ctx, w, fighters)
    return out


def _roster_rules(ctx: _Ctx, w: Warband, fighters: list[tuple[int, Fighter]]) -> list[Problem]:
    file, faction = ctx.file, ctx.faction
    out: list[Problem] = []
    leaders = sum(f.count for _, f in fighters if "LEADER" in f.keywords)
    if leaders != 1:
        out.append(Problem(file, "fighters", f"expected exactly 1 LEADER, found {leaders}"))
    native = sum(f.count for _, f in fighters if not f.hired)
    if not 3 <= native <= faction.max_fighters:
        out.append(
            Problem(
                file,
                "fighters",
                f"expected 3 to {faction.max_fighters} fighters (hired swords not counted), found {native}",
            )
        )
    per_type = Counter[str]()
    for _, f in fighters:
        per_type[f.type] += 0 if f.hired else f.count
    for type_, n in per_type.items():
        src = faction.fighter(type_)
        if src is not None and src.limit is not None and n > src.limit:
            out.append(Problem(file, "fighters", f"expected at most {src.limit} {type_}, found {n}"))
        if any(type_ in o.forbids for o in ctx.options):
            out.append(Problem(file, "fighters", f"expected no {type_} with options {w.options}, found {n}"))
    halves = sum(1 for _, f in fighters if f.half_fee)
    if halves > 1:
        out.append(Problem(file, "fighters", f"expected at most 1 hired sword at half fee, found {halves}"))
    total = sum(fighter_points(f, faction, w.options, ctx.data) * f.count for _, f in fighters)
    if total > w.points_limit:
        out.append(
            Problem(
                file,
                "points_limit",
                f"expected a total of at most {w.points_limit} gc, found {total} ({total - w.points_limit} over)",
            )
        )
    return out


def _salvage(raw: dict[str, Any]) -> list[tuple[int, Fighter]]:
    items = raw.get("fighters")
    good: list[tuple[int, Fighter]] = []
    for i, item in enumerate(items if isinstance(items, list) else []):
        try:
            good.append((i, Fighter.model_validate(item)))
        except pydantic.ValidationError:
            continue
    return good


def load_warband(path: str | Path, data: GameData | None = None) -> Warband:
    """Read and check a warband file; raise :class:`RosterError` listing every problem."""
    file = str(path)
    d = data or load_data()
    raw = read_mapping(path, RosterError)
    try:
        w = Warband.model_validate(raw)
    except pydantic.ValidationError as exc:
        problems = problems_from_validation(file, exc)
        faction = d.factions.get(str(raw.get("faction")))
        if faction is not None:
            opts = raw.get("options")
            ctx = _Ctx(
                file, d, faction, tuple(_chosen(faction, [str(o) for o in opts] if isinstance(opts, list) else []))
            )
            for i, f in _salvage(raw):
                problems += _fighter_problems(ctx, i, f)
        raise RosterError(problems) from None
    problems = _warband_problems(file, w, list(enumerate(w.fighters)), d)
    if problems:
        raise RosterError(problems)
    return w

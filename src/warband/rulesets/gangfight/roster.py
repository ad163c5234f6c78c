"""Gangfight party files: the armoury, the bundled profiles, the party file format and the party-building rules.

A party is a YAML/JSON file (see ``data/parties/``). Each model names its ``type``; a bundled type
(``data/profiles.yaml``) brings its rank, size, cost and characteristics, which the file may repeat (they must then
agree) and a custom type must give. Equipment is named from ``data/armoury.yaml``. :func:`load_party` reports
every problem at once, each with its file and place (``models[3].weapons[0]``).

Sources: digest ``gangfight.md`` B1 (Attributes, Size, Armour, Table & forces), data digest ``gangfight-data.md``
§2-§6, seed 004 (Reload/Fire!: archaic weapons are loaded, modern ones are not; Banding Actions: ranks).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, Field, model_validator

from warband.kernel import values
from warband.kernel.errors import Problem, RosterError
from warband.kernel.params import ParamTable, Scalar
from warband.kernel.roster import (
    FrozenEntry,
    describe_value,
    problems_from_validation,
    read_document,
    read_mapping,
    require_unique,
)
from warband.rulesets.gangfight import DATA_DIR, PARAMS_PATH
from warband.rulesets.gangfight.terms import Rank, Size

__all__ = [
    "ARMOURY_PATH",
    "MAX_COUNT",
    "MAX_MODELS",
    "MAX_POINTS",
    "PROFILES_PATH",
    "Armoury",
    "Characteristics",
    "GFModel",
    "GFParty",
    "MeleeWeapon",
    "ProfileEntry",
    "Profiles",
    "RangedWeapon",
    "ResolvedModel",
    "effective_profile",
    "load_armoury",
    "load_party",
    "load_profiles",
    "model_points",
    "party_points",
    "resolve_model",
]

ARMOURY_PATH = DATA_DIR / "armoury.yaml"
PROFILES_PATH = DATA_DIR / "profiles.yaml"

#: Sane limits of a party file (ours, not the publisher's): each message names the limit.
MAX_POINTS = 5000
MAX_MODELS = 60
MAX_COUNT = 20
MAX_ITEMS = 8
MAX_STAT = 12


def _stat(low: int = 0) -> Any:
    return Field(ge=low, le=MAX_STAT)


class Characteristics(FrozenEntry):
    """The nine attributes of a profile, named as the digest names them (digest B1 Attributes)."""

    MOV: int = _stat()
    ATT: int = _stat()
    MRK: int = _stat()
    DEF: int = _stat(1)
    IV: int = _stat()
    WP: int = _stat()
    ARM: int = _stat()
    EN: int = _stat(1)
    DAM: int = _stat(1)


# --------------------------------------------------------------------------------------------- armoury


class MeleeWeapon(FrozenEntry):
    """A melee weapon: ATT dice and DAM modifiers (data digest §2)."""

    name: str = Field(min_length=1)
    hands: Literal[0, 1, 2]
    att: int = Field(ge=-3, le=3)
    dam: int = Field(ge=-3, le=3)
    cost: int = Field(ge=0)
    reach: bool = False
    knockdown: bool = False
    paired: bool = False
    natural: bool = False
    unarmed: bool = False
    proposed: bool = False


class RangedWeapon(FrozenEntry):
    """A ranged weapon: range, MRK dice modifier, its own DAM, era and loading (data digest §3; seed 004,
    Reload/Fire!: archaic weapons must be loaded, modern ones need not)."""

    name: str = Field(min_length=1)
    range: float = Field(gt=0, le=48)
    hands: Literal[1, 2]
    mrk: int = Field(ge=-3, le=3)
    dam: int = Field(ge=1, le=MAX_STAT)
    era: Literal["archaic", "modern"]
    reload: bool = Field(
        default=True, description="Needs a Reload (1 AP) before each shot (param archaic_start_loaded)."
    )
    thrown: bool = False
    one_use: bool = False
    area: bool = Field(default=False, description="Area of Effect (a blast of param aoe_diameter).")
    cost: int = Field(ge=0)
    proposed: bool = False

    @model_validator(mode="after")
    def _modern_needs_no_loading(self) -> RangedWeapon:
        if self.era == "modern" and self.reload:
            raise ValueError("expected reload: false for a modern weapon (seed 004: modern guns need no loading)")
        return self


class ArmourSuit(FrozenEntry):
    name: str = Field(min_length=1)
    key: Literal["light", "medium", "heavy"]
    cost: int = Field(ge=0)


class ShieldItem(FrozenEntry):
    name: str = Field(min_length=1)
    cost: int = Field(ge=0)


class EquipmentItem(FrozenEntry):
    name: str = Field(min_length=1)
    cost: int = Field(ge=0)
    text: str = Field(min_length=1)
    proposed: bool = False


class Armoury(FrozenEntry):
    """Everything a party file may name (data digest §2-§4)."""

    melee: list[MeleeWeapon] = Field(min_length=1)
    ranged: list[RangedWeapon]
    armour: list[ArmourSuit] = Field(min_length=3, max_length=3)
    shield: ShieldItem
    equipment: list[EquipmentItem] = Field(default_factory=list)
    free_weapon: str = Field(
        min_length=1, description="The melee weapon every model carries for free (data digest §2 common rules)."
    )

    @model_validator(mode="after")
    def _unique(self) -> Armoury:
        require_unique([w.name for w in self.melee] + [w.name for w in self.ranged] + [e.name for e in self.equipment])
        if all(w.name != self.free_weapon for w in self.melee):
            known = ", ".join(w.name for w in self.melee)
            raise ValueError(f"free_weapon: expected one of the melee weapons ({known}), found {self.free_weapon!r}")
        return self

    def free_melee(self) -> MeleeWeapon:
        """The free hand weapon every model carries (data digest §2 [P]); a creature's natural weapons count as it."""
        return next(w for w in self.melee if w.name == self.free_weapon)

    def weapon(self, name: str) -> MeleeWeapon | RangedWeapon | None:
        for w in self.melee:
            if w.name == name:
                return w
        for r in self.ranged:
            if r.name == name:
                return r
        return None

    def suit(self, key: Literal["light", "medium", "heavy"]) -> ArmourSuit:
        return {a.key: a for a in self.armour}[key]

    def item(self, name: str) -> EquipmentItem | None:
        return {e.name: e for e in self.equipment}.get(name)

    def weapon_names(self) -> str:
        return ", ".join(sorted([w.name for w in self.melee] + [r.name for r in self.ranged]))


# -------------------------------------------------------------------------------------------- profiles


class ProfileEntry(FrozenEntry):
    """A bundled model type (data digest §5)."""

    type: str = Field(min_length=1)
    rank: Rank
    size: Size
    cost: int = Field(ge=0)
    creature: bool = False
    beast: bool = False
    terrifying: int | None = Field(default=None, ge=2, le=6)
    proposed: bool = False
    profile: Characteristics


class Profiles(FrozenEntry):
    profiles: list[ProfileEntry] = Field(min_length=1)

    def get(self, type_name: str) -> ProfileEntry | None:
        return {p.type: p for p in self.profiles}.get(type_name)


def _load(path: str, cls: type[FrozenEntry]) -> Any:
    raw = read_document(path, RosterError)
    try:
        return cls.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(path, exc)) from None


@lru_cache(maxsize=8)
def _armoury(path: str) -> Armoury:
    result: Armoury = _load(path, Armoury)
    return result


@lru_cache(maxsize=8)
def _profiles(path: str) -> Profiles:
    result: Profiles = _load(path, Profiles)
    return result


def load_armoury(path: str | Path | None = None) -> Armoury:
    """The armoury (cached per path); the bundled one by default."""
    return _armoury(str(path if path is not None else ARMOURY_PATH))


def load_profiles(path: str | Path | None = None) -> Profiles:
    """The bundled model types (cached per path)."""
    return _profiles(str(path if path is not None else PROFILES_PATH))


@lru_cache(maxsize=1)
def _default_params() -> dict[str, Scalar]:
    return ParamTable.load(PARAMS_PATH).defaults()


# ----------------------------------------------------------------------------------------- party file


class GFModel(FrozenEntry):
    """One party entry. ``rank``, ``size``, ``cost``, ``profile``, ``creature``, ``beast`` and ``terrifying`` come
    from the bundled type when omitted; a custom type must give ``rank``, ``size``, ``cost`` and ``profile``."""

    type: str = Field(min_length=1)
    name: str | None = None
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    leader: bool = False
    rank: Rank | None = None
    size: Size | None = None
    cost: int | None = Field(default=None, ge=0, le=1000, description="Points of the profile, without equipment.")
    creature: bool | None = None
    beast: bool | None = None
    terrifying: int | None = Field(default=None, ge=2, le=6)
    profile: Characteristics | None = None
    weapons: list[str] = Field(default_factory=list, max_length=MAX_ITEMS, description="Bought weapons.")
    armour: Literal["light", "medium", "heavy"] = "light"
    shield: bool = False
    equipment: list[str] = Field(default_factory=list, max_length=MAX_ITEMS)

    @property
    def display_name(self) -> str:
        return self.name or self.type


class GFParty(FrozenEntry):
    """A Gangfight party file."""

    ruleset: Literal["gangfight"]
    name: str = Field(min_length=1)
    points_limit: int = Field(gt=0, le=MAX_POINTS)
    models: list[GFModel] = Field(min_length=1, max_length=MAX_MODELS)


@values.value
class ResolvedModel:
    """A party entry with its bundled type filled in (one value per entry; ``count`` still applies)."""

    entry: GFModel
    rank: Rank
    size: Size
    cost: int
    creature: bool
    beast: bool
    terrifying: int | None
    profile: Characteristics


_TYPE_FIELDS = ("rank", "size", "cost", "creature", "beast", "terrifying", "profile")


def resolve_model(m: GFModel, profiles: Profiles | None = None) -> ResolvedModel | None:
    """Fill a model's omitted type fields from the bundled profiles; None if they cannot be filled."""
    known = (profiles or load_profiles()).get(m.type)
    values: dict[str, Any] = {k: getattr(m, k) for k in _TYPE_FIELDS}
    for key in _TYPE_FIELDS:
        if values[key] is None and known is not None:
            values[key] = getattr(known, key)
    values["creature"] = bool(values["creature"])
    values["beast"] = bool(values["beast"])
    if any(values[k] is None for k in ("rank", "size", "cost", "profile")):
        return None
    return ResolvedModel(entry=m, **values)


def _size_multiplier(size: Size, params: Mapping[str, Scalar]) -> int:
    """Equipment cost x2 for Large, x4 for Huge (digest B1 Armour; data digest §2 for weapons)."""
    if size in ("Large", "Huge"):
        value = params[f"cost_multiplier_{size.lower()}"]
        return int(value)
    return 1


def model_points(r: ResolvedModel, armoury: Armoury | None = None, params: Mapping[str, Scalar] | None = None) -> int:
    """Points of ONE model: profile cost + weapons + armour + shield + equipment, equipment scaled by size (digest
    B1 Armour; data digest §6: cost = profile + bought items). Unknown items count 0."""
    arm = armoury or load_armoury()
    p = params or _default_params()
    mult = _size_multiplier(r.size, p)
    weapons = sum(w.cost for w in (arm.weapon(n) for n in r.entry.weapons) if w is not None)
    kit = arm.suit(r.entry.armour).cost + (arm.shield.cost if r.entry.shield else 0)
    kit += sum(e.cost for e in (arm.item(n) for n in r.entry.equipment) if e is not None)
    weapon_mult = mult if p["weapon_cost_scales_with_size"] is True else 1
    return r.cost + weapons * weapon_mult + kit * mult


def party_points(
    party: GFParty,
    armoury: Armoury | None = None,
    profiles: Profiles | None = None,
    params: Mapping[str, Scalar] | None = None,
) -> int:
    """Total points: model points x count, summed (entries that cannot be resolved count 0)."""
    total = 0
    for m in party.models:
        r = resolve_model(m, profiles)
        total += model_points(r, armoury, params) * m.count if r is not None else 0
    return total


def effective_profile(r: ResolvedModel, params: Mapping[str, Scalar] | None = None) -> Characteristics:
    """Characteristics with armour and shield applied: medium +1 ARM (-1 MOV, PROPOSED), heavy +2 ARM -1 MOV
    -1 DEF, shield +1 DEF (digest B1 Armour); never below 0 (DEF, EN, DAM never below 1)."""
    p = params or _default_params()
    c = r.profile
    mov, arm, dfn = c.MOV, c.ARM, c.DEF
    if r.entry.armour != "light":
        key = r.entry.armour
        arm += int(p[f"{key}_armour_arm"])
        mov += int(p[f"{key}_armour_mov"])
        dfn += int(p["heavy_armour_def"]) if key == "heavy" else 0
    dfn += int(p["shield_def"]) if r.entry.shield else 0
    return c.model_copy(update={"MOV": max(0, mov), "ARM": max(0, arm), "DEF": max(1, dfn)})


# ------------------------------------------------------------------------------------- party checks


def _plain(value: Any) -> Any:
    return value.model_dump() if isinstance(value, BaseModel) else value


def _shown(value: Any) -> str:
    return describe_value(_plain(value))


def _type_problems(file: str, here: str, m: GFModel, profiles: Profiles) -> list[Problem]:
    known = profiles.get(m.type)
    if known is None:
        missing = [k for k in ("rank", "size", "cost", "profile") if getattr(m, k) is None]
        if not missing:
            return []
        names = ", ".join(p.type for p in profiles.profiles)
        return [
            Problem(
                file,
                f"{here}.type",
                f"expected a bundled type ({names}) or the fields rank, size, cost and profile, "
                f"found {m.type!r} without {', '.join(missing)}",
            )
        ]
    out = []
    for key in _TYPE_FIELDS:
        given, bundled = getattr(m, key), getattr(known, key)
        if given is not None and given != bundled:
            shown = _plain(bundled)
            out.append(
                Problem(
                    file,
                    f"{here}.{key}",
                    f"expected {shown!r} for a {m.type} (profiles.yaml), found {_shown(given)}",
                )
            )
    return out


def _weapon_problems(file: str, here: str, r: ResolvedModel, arm: Armoury) -> list[Problem]:
    out: list[Problem] = []
    seen: dict[str, int] = {}
    for j, name in enumerate(r.entry.weapons):
        place = f"{here}.weapons[{j}]"
        w = arm.weapon(name)
        if w is None:
            out.append(
                Problem(file, place, f"expected a weapon from the armoury ({arm.weapon_names()}), found {name!r}")
            )
            continue
        if name in seen and not (isinstance(w, RangedWeapon) and w.one_use):
            out.append(
                Problem(
                    file,
                    place,
                    f"expected each weapon once (only one-use items repeat), found {name!r} again "
                    f"(first at {here}.weapons[{seen[name]}])",
                )
            )
        seen.setdefault(name, j)
        out += _weapon_user_problems(file, place, r, w)
    return out


def _weapon_user_problems(file: str, place: str, r: ResolvedModel, w: MeleeWeapon | RangedWeapon) -> list[Problem]:
    """Natural weapons are for creatures; beasts carry only natural weapons (data digest §2, §5)."""
    natural = isinstance(w, MeleeWeapon) and w.natural
    if natural and not r.creature:
        return [Problem(file, place, f"expected natural weapons only on a creature, found them on a {r.entry.type}")]
    if r.beast and not natural:
        return [Problem(file, place, f"expected only natural weapons on a beast ({r.entry.type}), found {w.name!r}")]
    return []


def _kit_problems(file: str, here: str, r: ResolvedModel, arm: Armoury) -> list[Problem]:
    """A shield takes the off-hand: none with two-handed or paired weapons (data digest §2-§4); beasts buy no
    armour, shield or gear (data digest §5)."""
    out: list[Problem] = []
    if r.entry.shield:
        busy = [
            n
            for n in r.entry.weapons
            if (w := arm.weapon(n)) is not None and (w.hands == 2 or getattr(w, "paired", False))
        ]
        if busy:
            out.append(
                Problem(
                    file,
                    f"{here}.shield",
                    f"expected no shield with a two-handed or paired weapon, found shield: true with {', '.join(busy)}",
                )
            )
    if r.beast:
        bought = [
            k
            for k, v in (
                ("armour", r.entry.armour != "light"),
                ("shield", r.entry.shield),
                ("equipment", bool(r.entry.equipment)),
            )
            if v
        ]
        out += [Problem(file, f"{here}.{k}", f"expected no {k} on a beast ({r.entry.type})") for k in bought]
    for j, name in enumerate(r.entry.equipment):
        if arm.item(name) is None:
            known = ", ".join(e.name for e in arm.equipment)
            out.append(
                Problem(
                    file, f"{here}.equipment[{j}]", f"expected equipment from the armoury ({known}), found {name!r}"
                )
            )
    return out


def _rank_problems(file: str, here: str, r: ResolvedModel) -> list[Problem]:
    """Creatures count as Regulars and never lead (data digest §5); a leader is a single Hero (digest B1)."""
    out: list[Problem] = []
    if r.creature and r.rank != "Regular":
        out.append(Problem(file, f"{here}.rank", f"expected rank Regular for a creature, found {r.rank}"))
    if r.entry.leader:
        if r.creature or r.rank != "Hero":
            what = "a creature" if r.creature else f"a {r.rank}"
            out.append(Problem(file, f"{here}.leader", f"expected the party leader to be a Hero, found {what}"))
        if r.entry.count > 1:
            out.append(Problem(file, f"{here}.count", f"expected a single leader model, found count {r.entry.count}"))
    return out


def _model_problems(file: str, i: int, m: GFModel, arm: Armoury, profiles: Profiles) -> list[Problem]:
    here = f"models[{i}]"
    out = _type_problems(file, here, m, profiles)
    r = resolve_model(m, profiles)
    if r is None:
        return out
    return (
        out + _weapon_problems(file, here, r, arm) + _kit_problems(file, here, r, arm) + _rank_problems(file, here, r)
    )


def _party_problems(
    file: str, party: GFParty, arm: Armoury, profiles: Profiles, params: Mapping[str, Scalar]
) -> list[Problem]:
    out: list[Problem] = []
    for i, m in enumerate(party.models):
        out += _model_problems(file, i, m, arm, profiles)
    out += _leader_problems(file, party)
    out += _hero_problems(file, party, profiles, params)
    size = sum(m.count for m in party.models)
    if size > MAX_MODELS:
        out.append(Problem(file, "models", f"expected at most {MAX_MODELS} models in a party, found {size}"))
    total = party_points(party, arm, profiles, params)
    if total > party.points_limit:
        out.append(
            Problem(
                file,
                "points_limit",
                f"expected a total of at most {party.points_limit} points, found {total} "
                f"({total - party.points_limit} over)",
            )
        )
    return out


def _leader_problems(file: str, party: GFParty) -> list[Problem]:
    """At least one Hero leads the party (digest B1 Table & forces); we allow exactly one leader."""
    leaders = [i for i, m in enumerate(party.models) if m.leader]
    if not leaders:
        return [Problem(file, "models", "expected one model with leader: true (a Hero), found none")]
    return [
        Problem(file, f"models[{i}].leader", f"expected one leader, found another (first at models[{leaders[0]}])")
        for i in leaders[1:]
    ]


def _hero_problems(file: str, party: GFParty, profiles: Profiles, params: Mapping[str, Scalar]) -> list[Problem]:
    """A 1000-point (pickup/tournament) party fields 2-3 Heroes (digest B1 Table & forces)."""
    if party.points_limit < int(params["large_game_points"]):
        return []
    heroes = sum(
        m.count
        for m in party.models
        if (r := resolve_model(m, profiles)) is not None and r.rank == "Hero" and not r.creature
    )
    low, high = int(params["large_game_heroes_min"]), int(params["large_game_heroes_max"])
    if low <= heroes <= high:
        return []
    return [
        Problem(
            file, "models", f"expected {low}-{high} Heroes in a party of {party.points_limit} points, found {heroes}"
        )
    ]


def _salvaged_problems(file: str, raw: dict[str, Any], arm: Armoury, profiles: Profiles) -> list[Problem]:
    """After a failed validation, still check the entries that are valid on their own."""
    models = raw.get("models")
    if not isinstance(models, list):
        return []
    out: list[Problem] = []
    for i, item in enumerate(models):
        try:
            m = GFModel.model_validate(item)
        except pydantic.ValidationError:
            continue
        out += _model_problems(file, i, m, arm, profiles)
    return out


def load_party(
    path: str | Path,
    armoury: Armoury | None = None,
    profiles: Profiles | None = None,
    params: Mapping[str, Scalar] | None = None,
) -> GFParty:
    """Read and check a party file; raise :class:`RosterError` listing every problem with its place."""
    file = str(path)
    arm, prof = armoury or load_armoury(), profiles or load_profiles()
    raw = read_mapping(path, RosterError)
    try:
        party = GFParty.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(file, exc) + _salvaged_problems(file, raw, arm, prof)) from None
    problems = _party_problems(file, party, arm, prof, params or _default_params())
    if problems:
        raise RosterError(problems)
    return party

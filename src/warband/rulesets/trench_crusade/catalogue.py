"""The Trench Crusade catalogue: every faction list, model profile, item, keyword, ability and upgrade.

The facts come from the Trench Companion data (v1.6 playtest rules, v1.6.3 campaign lists; see
``data/catalogue/README.md`` for the source and its licence). This module only reads them into typed, frozen
records and answers look-ups by id or by the names players write: ``find_list("Heretic Legion")``,
``find_profile("Heretic Priest")``, ``find_item("Pistol")`` (one part of "Pistol / Revolver").
"""

from __future__ import annotations

import re
from functools import cache, lru_cache
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from warband.kernel.errors import Problem, RosterError
from warband.kernel.roster import problems_from_validation, read_document

__all__ = [
    "CATALOGUE_DIR",
    "Ability",
    "BuyRules",
    "Catalogue",
    "FactionList",
    "Item",
    "Keyword",
    "ListItem",
    "ListModel",
    "ListUpgrade",
    "Profile",
    "Upgrade",
    "an",
    "load_catalogue",
    "norm",
]

CATALOGUE_DIR = Path(__file__).parent / "data" / "catalogue"

#: Names of the engine's armoury (``data/armoury.yaml``) that the lists spell differently: a warband file may
#: use either.
ARMOURY_NAMES: dict[str, str] = {
    "trench knife": "knife_dagger",
    "polearm": "trench_polearm",
    "great sword": "greatsword_greataxe",
    "great hammer": "double_handed_blunt_weapon",
    "bolt action rifle": "bolt_action_rifle",
}


def an(name: str) -> str:
    """``a Yeoman``, ``an Executor``."""
    return f"{'an' if name[:1].upper() in 'AEIOU' else 'a'} {name}"


@lru_cache(maxsize=8192)
def norm(text: str) -> str:
    """A name as compared: lower case, a leading "the" dropped, only letters and digits kept (remembered: a
    warband's reading compares every name it holds with the list's, and the web builder reads a plan often)."""
    low = text.strip().lower()
    low = low.removeprefix("the ")
    return re.sub(r"[^0-9a-zß]+", "", low)


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class _Priced(_Record):
    ducats: int | None = None
    glory: int | None = None

    @property
    def cost_text(self) -> str:
        """``80 ducats``, ``3 glory`` or ``free``."""
        if self.glory:
            return f"{self.glory} glory"
        return f"{self.ducats} ducat{'s' if self.ducats != 1 else ''}" if self.ducats else "free"


# ------------------------------------------------------------------------------------------- faction lists


class ListModel(_Priced):
    """A model a list may field: its cost, how many, and whether it may lead (``captain``)."""

    model: str
    min: int = 0
    max: int | Literal["unlimited", "see limit"] = 1
    limit: str | None = Field(default=None, description="A shared or conditional cap, in words.")
    captain: bool = False
    elite: bool = False
    leader: bool = False
    mercenary: bool = False
    source_id: str | None = None

    @property
    def cap(self) -> int | None:
        """The number cap; None when there is none (``unlimited`` or only the ``limit``)."""
        return self.max if isinstance(self.max, int) else None


class ListItem(_Priced):
    """An item a list sells: its cost, LIMIT (per warband) and who may take it."""

    item: str
    limit: int | None = None
    only: tuple[str, ...] = ()
    not_: tuple[str, ...] = Field(default=(), alias="not")
    needs: tuple[str, ...] = ()
    hands: int | None = None
    source_id: str | None = None


class ListUpgrade(_Priced):
    """An upgrade a faction rule sells (``for``: ``ELITE only`` or the model ids that may take it)."""

    upgrade: str
    limit: int | None = None
    for_: str | tuple[str, ...] = Field(alias="for")
    from_rule: str


class SinChoice(_Record):
    sin: str
    rule: str
    upgrades: tuple[str, ...]


class RemovedUpgrade(_Record):
    upgrade: str
    for_: tuple[str, ...] = Field(alias="for")


class FactionList(_Record):
    """One faction's list, or one variant's (a variant carries its own complete lists)."""

    id: str
    source_id: str
    name: str
    name_in_source: str | None = None
    short_name: str | None = None
    variant_of: str | None = None
    side: str
    keyword: str
    starting_ducats: int
    starting_glory: int = 0
    fireteams: int | None = None
    book: str | None = None
    models: tuple[ListModel, ...]
    equipment: tuple[ListItem, ...]
    upgrades: tuple[ListUpgrade, ...] = ()
    leader_choice: tuple[str, ...] = ()
    choose_one_sin: tuple[SinChoice, ...] = ()
    removes_model_upgrades: tuple[RemovedUpgrade, ...] = ()
    rules: tuple[str, ...] = ()
    patrons: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """How messages name the list: ``Heretic Legion``, ``New Antioch``, ``Trench Ghosts``."""
        return self.short_name or self.name.removeprefix("The ")

    def entries(self, model_id: str) -> list[ListModel]:
        return [m for m in self.models if m.model == model_id]

    def sells(self, item_id: str) -> ListItem | None:
        return next((e for e in self.equipment if e.item == item_id), None)


class Unattached(_Record):
    models: tuple[ListModel, ...]
    equipment: tuple[ListItem, ...]


class Rule(_Record):
    id: str
    source_id: str
    name: str
    list_building: bool = False
    summary: str


class Defaults(_Record):
    starting_ducats: int
    max_field_strength_by_battle: tuple[int, ...]
    threshold_ducats_by_battle: tuple[int, ...]
    max_elites: int
    carry: dict[str, Any]


# ------------------------------------------------------------------------------------------------ profiles


class ModelUpgrade(_Priced):
    upgrade: str
    limit: int | None = None


class KitSwap(_Priced):
    item: str


class BuyRules(_Record):
    """What a model may not buy, or may only buy (in the words of the data; see ``listrules``)."""

    cannot_buy: tuple[str, ...] = ()
    only: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    cannot_take: tuple[str, ...] = ()
    at_most: tuple[str, ...] = ()
    must_have: str | None = None
    max_item_cost_ducats: dict[str, int] = Field(default_factory=dict)


class Profile(_Record):
    """A model's profile (variants already merged with their base)."""

    id: str
    source_id: str
    name: str
    variant_of: str | None = None
    movement: float
    move_type: Literal["infantry", "flying"]
    ranged: int | None
    melee: int | None
    armour: int
    armour_with_kit: int | None = None
    base_mm: tuple[float, ...]
    profile_options: tuple[dict[str, Any], ...] = ()
    keywords: tuple[str, ...]
    abilities: tuple[str, ...]
    potential: str | int | None = None
    mercenary: bool = False
    kit: tuple[str, ...] = ()
    kit_swappable: tuple[KitSwap, ...] = ()
    kit_choose_one: tuple[tuple[str, ...], ...] = ()
    buy_rules: BuyRules = BuyRules()
    upgrades: tuple[ModelUpgrade, ...] = ()
    no_unarmed_penalty: bool = False
    arms: dict[str, int] = Field(default_factory=dict)
    notes: str | None = None
    book: str | None = None
    undefined_ability_ids_in_source: tuple[str, ...] = ()

    @property
    def base_diameter(self) -> float:
        """Round base: its diameter; oval: its longer side (the enclosing circle, as DESIGN.md allows)."""
        return max(self.base_mm)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords


# ------------------------------------------------------------------------------------------------- items


class Item(_Record):
    """A weapon, armour or piece of equipment."""

    id: str
    source_id: str
    name: str
    kind: Literal["ranged", "melee", "armour", "equipment"]
    modes: tuple[Literal["ranged", "melee"], ...] = ()
    hands: int | None = None
    hand_always_used: bool = False
    carried_in_hand: Literal["banner", "instrument"] | None = None
    range: float | None = None
    keywords: tuple[str, ...] = ()
    modifiers: dict[str, Any] = Field(default_factory=dict)
    conditional: tuple[str, ...] = ()
    cost: dict[str, int] | Literal["varies", "not sold"]
    effect: str | None = None
    headgear: bool = False
    shield: bool = False
    emplacement: bool = False
    book: str | None = None
    abilities: tuple[str, ...] = ()

    @property
    def keyword_names(self) -> tuple[str, ...]:
        """Keywords without their number: ``BLAST 3`` -> ``BLAST``."""
        return tuple(re.sub(r"\s+\d+$", "", k) for k in self.keywords)

    def has(self, keyword: str) -> bool:
        return keyword in self.keyword_names

    @property
    def is_weapon(self) -> bool:
        return bool(self.modes) and self.kind in ("ranged", "melee")

    @property
    def armour_value(self) -> int:
        return int(self.modifiers.get("armour", 0))


class Keyword(_Record):
    id: str
    source_id: str
    name: str
    name_in_source: str | None = None
    applies_to: str
    summary: str


class Ability(_Record):
    id: str
    source_id: str
    name: str
    type: str
    summary: str
    book: str | None = None
    choose_one_of: tuple[Any, ...] = ()


class Upgrade(_Record):
    id: str
    source_id: str
    name: str
    summary: str
    group: str | None = None


# --------------------------------------------------------------------------------------------- the catalogue


class Catalogue(_Record):
    """Every list, profile, item, keyword, ability, upgrade and faction rule, with look-ups."""

    defaults: Defaults
    lists: dict[str, FactionList]
    unattached: Unattached
    rules: dict[str, Rule]
    profiles: dict[str, Profile]
    items: dict[str, Item]
    keywords: dict[str, Keyword]
    abilities: dict[str, Ability]
    upgrades: dict[str, Upgrade]

    # --- lists
    def factions(self) -> list[FactionList]:
        """The six factions' base lists, in the catalogue's order."""
        return [f for f in self.lists.values() if f.variant_of is None]

    def variants(self, faction_id: str) -> list[FactionList]:
        return [f for f in self.lists.values() if f.variant_of == faction_id]

    def find_list(self, text: str) -> FactionList | None:
        """A list by id, name, short name or the source's spelling (case and punctuation ignored)."""
        key = norm(text)
        for f in self.lists.values():
            names = (f.id, f.name, f.short_name or "", f.name_in_source or "", f.label)
            if key in {norm(n) for n in names if n}:
                return f
        return None

    def base_of(self, faction: FactionList) -> FactionList:
        return self.lists[faction.variant_of] if faction.variant_of else faction

    def lists_fielding(self, model_id: str) -> list[FactionList]:
        return [f for f in self.lists.values() if f.entries(model_id)]

    def lists_selling(self, item_id: str) -> list[FactionList]:
        return [f for f in self.lists.values() if f.sells(item_id) is not None]

    # --- profiles, items, upgrades
    def find_profile(self, text: str) -> Profile | None:
        key = norm(text)
        return next((p for p in self.profiles.values() if key in (norm(p.id), norm(p.name))), None)

    def find_item(self, text: str) -> Item | None:
        """An item by id, name, one part of a name like "Pistol / Revolver", or an armoury spelling."""
        key = norm(text)
        alias = ARMOURY_NAMES.get(text.strip().lower())
        if alias is not None:
            return self.items[alias]
        exact = [i for i in self.items.values() if key in (norm(i.id), norm(i.name))]
        if exact:
            return exact[0]
        parts = [i for i in self.items.values() if key in {norm(p) for p in i.name.split("/")}]
        return parts[0] if len(parts) == 1 else None

    def find_upgrade(self, text: str) -> Upgrade | None:
        key = norm(text)
        return next((u for u in self.upgrades.values() if key in (norm(u.id), norm(u.name))), None)

    def name_of(self, some_id: str) -> str:
        """The display name of a profile, item, upgrade, ability, keyword or rule id (the id if unknown)."""
        for table in (self.profiles, self.items, self.upgrades, self.abilities, self.rules, self.lists):
            record = table.get(some_id)
            if record is not None:
                return str(record.name)
        return some_id


def _by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {str(r["id"]): r for r in rows}


def _read(name: str) -> dict[str, Any]:
    path = CATALOGUE_DIR / name
    raw = read_document(path, RosterError)
    if not isinstance(raw, dict):
        raise RosterError([Problem(str(path), "", "expected a mapping at the top level")])
    return raw


@cache
def load_catalogue() -> Catalogue:
    """The bundled catalogue (read once per process). A broken data file raises RosterError naming it."""
    factions, models = _read("factions.json"), _read("models.json")
    equipment, words = _read("equipment.json"), _read("keywords.json")
    raw = {
        "defaults": factions["defaults"],
        "lists": _by_id(factions["factions"]),
        "unattached": factions["unattached"],
        "rules": _by_id(factions["rules"]),
        "profiles": _by_id(models["models"]),
        "items": _by_id(equipment["equipment"]),
        "keywords": _by_id(words["keywords"]),
        "abilities": _by_id(words["abilities"]),
        "upgrades": _by_id(words["upgrades"]),
    }
    try:
        return Catalogue.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(str(CATALOGUE_DIR), exc)) from None

"""The warband document the rules engine reads: what :func:`roster.load_roster` returns, whatever the file said.

A model of the catalogue and a hand-typed (custom) model become the same shape: a profile (movement, DICE,
armour, base, keywords) and weapons. A custom model names its weapons from the armoury; a catalogue model carries
its weapons' definitions (``weapon_items``) and a :class:`BookRef` saying which catalogue model, list, items and
upgrades it is, so that it stays a model of the book wherever it shows. Fields absent from today's hand-typed
files are None by default and left out of the dumped document, so those files load to the same document as
before (their games, logs and digests are unchanged).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, model_validator

from warband.kernel.roster import FrozenEntry
from warband.rulesets.trench_crusade.armoury import Armoury, WeaponItem, load_armoury

__all__ = [
    "MAX_BASE_MM",
    "MAX_BOOK_BASE_MM",
    "MAX_COUNT",
    "MAX_DICE",
    "MAX_HANDS",
    "MAX_MODELS",
    "MIN_BASE_MM",
    "BookRef",
    "HandTyped",
    "TCModel",
    "TCRoster",
    "model_glory",
    "model_points",
    "roster_glory",
    "roster_points",
]

MAX_HANDS = 2
MIN_BASE_MM = 20
#: The largest base a hand-typed model may have; the catalogue's largest monsters stand on up to 260mm.
MAX_BASE_MM = 80
MAX_BOOK_BASE_MM = 300
#: Limits of a warband file, far beyond any real warband: an absurd file is refused with the limit named
#: instead of exhausting the memory or the table (issue 10).
MAX_COUNT = 20
MAX_MODELS = 40
MAX_DICE = 10


def _check_guessed(model: BaseModel, guessed: list[str]) -> None:
    allowed = set(type(model).model_fields) - {"guessed", "name"}
    bad = [g for g in guessed if g not in allowed]
    if bad:
        raise ValueError(f"expected names of fields of this entry ({', '.join(sorted(allowed))}), found {bad}")


class BookRef(FrozenEntry):
    """Which catalogue model a document entry is, and what it bought (catalogue ids)."""

    model: str = Field(description="Catalogue model id.")
    list_id: str = Field(description="The faction or variant list it is fielded from.")
    captain: bool = Field(default=False, description="It holds the list's leader slot.")
    items: list[str] = Field(default_factory=list, description="Kit and bought items, catalogue ids.")
    upgrades: list[str] = Field(default_factory=list, description="Upgrades bought, catalogue ids.")
    abilities: list[str] = Field(default_factory=list, description="The profile's ability ids.")
    kit_ducats: int = Field(default=0, ge=0, description="Ducats of its items and upgrades, per model.")
    glory: int = Field(default=0, ge=0, description="Glory of the model, its items and upgrades, per model.")


class HandTyped(FrozenEntry):
    """The fields of a profile typed by hand: today's warband entry (see :class:`TCModel`)."""

    type: str = Field(min_length=1, description="Profile name, e.g. 'Trench Pilgrim'.")
    name: str | None = Field(default=None, description="Optional display name.")
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="Number of identical models.")
    cost: int = Field(ge=0, le=100_000, description="Ducats for the model itself, without equipment.")
    movement: float = Field(gt=0, le=36, description="Inches.")
    ranged: int = Field(ge=-MAX_DICE, le=MAX_DICE, description="+/-DICE for ranged attacks.")
    melee: int = Field(ge=-MAX_DICE, le=MAX_DICE, description="+/-DICE for melee attacks.")
    armour: int = Field(default=0, ge=-MAX_DICE, le=0, description="Built-in armour: injury modifier, 0 or negative.")
    base: float = Field(ge=MIN_BASE_MM, le=MAX_BOOK_BASE_MM, description="Base diameter in mm.")
    keywords: list[str] = Field(default_factory=list)
    weapons: list[str] = Field(default_factory=list, description="Weapon names from the armoury.")
    armour_item: str | None = Field(default=None, description="Armour name from the armoury.")
    shield: bool = Field(default=False, description="Carries a Trench Shield.")
    guessed: list[str] = Field(default_factory=list, description="Fields whose value is a guess.")
    fireteam: int | None = Field(
        default=None, ge=1, le=9, description="The FIRETEAM (1, 2, ...) it forms with one other model of the warband."
    )

    @model_validator(mode="after")
    def _guesses(self) -> HandTyped:
        _check_guessed(self, self.guessed)
        return self

    @property
    def display_name(self) -> str:
        return self.name or self.type


class TCModel(HandTyped):
    """One roster entry as the engine reads it: a profile, its equipment and how many identical models it stands
    for; a model of the catalogue also says which (``book``) and carries its weapons (``weapon_items``)."""

    book: BookRef | None = Field(default=None, description="The catalogue model this entry is (None: custom).")
    wheel: bool | None = Field(
        default=None, description="Broken on the Wheel: strapped to its side's Anchorite Shrine."
    )
    weapon_items: list[WeaponItem] | None = Field(
        default=None, description="A catalogue model's weapons, as the rules read them (its armour is in armour)."
    )

    @property
    def is_custom(self) -> bool:
        """A hand-typed profile, not a model of the catalogue."""
        return self.book is None


class TCRoster(FrozenEntry):
    """A Trench Crusade warband, as the engine reads it."""

    ruleset: Literal["trench-crusade"]
    name: str = Field(min_length=1)
    faction: str = Field(min_length=1)
    points_limit: int = Field(gt=0, le=1_000_000, description="Ducats.")
    models: list[TCModel] = Field(min_length=1, max_length=MAX_MODELS)
    list_id: str | None = Field(
        default=None, description="The catalogue list (faction or variant id) it is built from."
    )
    glory_limit: int | None = Field(default=None, ge=0, description="Glory the warband may spend.")


def model_points(m: TCModel, armoury: Armoury | None = None) -> int:
    """Ducats for ONE model of this entry: its cost plus its equipment (unknown items count 0)."""
    if m.book is not None:
        return m.cost + m.book.kit_ducats
    arm = armoury or load_armoury()
    total = m.cost
    for w in m.weapons:
        item = arm.weapon(w)
        total += item.cost if item else 0
    if m.armour_item is not None:
        a = arm.armour_item(m.armour_item)
        total += a.cost if a else 0
    if m.shield:
        total += arm.shield.cost
    return total


def roster_points(r: TCRoster, armoury: Armoury | None = None) -> int:
    """Total ducats of the warband: (model cost + equipment) x count, summed."""
    arm = armoury or load_armoury()
    return sum(model_points(m, arm) * m.count for m in r.models)


def model_glory(m: TCModel) -> int:
    """Glory for ONE model of this entry (only catalogue models and items cost glory)."""
    return m.book.glory if m.book is not None else 0


def roster_glory(r: TCRoster) -> int:
    return sum(model_glory(m) * m.count for m in r.models)

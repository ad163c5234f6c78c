"""The engine's armoury: the weapons, armour and shields a hand-typed (custom) model names, and the keyword
vocabulary of weapons and model profiles as the rules read them.

``data/armoury.yaml`` holds the v1.0 battlekit of the rules digest; catalogue warbands take their items from the
catalogue instead (``book.py`` turns each catalogue weapon into a :class:`WeaponItem`).
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Literal

import pydantic
from pydantic import BaseModel, Field, field_validator, model_validator

from warband.kernel.errors import RosterError
from warband.kernel.roster import FrozenEntry, problems_from_validation, read_document, require_unique

__all__ = [
    "ACCEPTED_MODEL_KEYWORDS",
    "ARMOURY_PATH",
    "MODEL_KEYWORDS",
    "VALUED_KEYWORDS",
    "WEAPON_KEYWORDS",
    "ArmourItem",
    "Armoury",
    "ShieldItem",
    "WeaponItem",
    "load_armoury",
    "parse_keyword",
]

DATA_DIR = Path(__file__).parent / "data"
ARMOURY_PATH = DATA_DIR / "armoury.yaml"

#: Keywords a model profile may carry (rules keywords first, then faction tags).
MODEL_KEYWORDS: frozenset[str] = frozenset(
    {
        "ELITE",
        "LEADER",
        "TOUGH",
        "FEAR",
        "STRONG",
        "NEGATE FEAR",
        "FLYING",
        "INFILTRATOR",
        "SKIRMISHER",
        "FIRETEAM",
        "GOLEM",
        "MEDIC",
        "ARTIFICIAL",
        "DEMONIC",
        "MERCENARY",
        "PILGRIM",
        "NEW ANTIOCH",
        "HERETIC",
        "IRON SULTANATE",
        "BLACK GRAIL",
        "SERPENT",
    }
)

#: Keyword names a weapon may carry; those in ``VALUED_KEYWORDS`` need a number ("AUTOMATIC 2").
WEAPON_KEYWORDS: frozenset[str] = frozenset(
    {
        "ASSAULT",
        "AUTOMATIC",
        "BLAST",
        "BLAST FRINGE",
        "BLOCK",
        "CLEAVE",
        "CONSUMABLE",
        "CRITICAL",
        "CRITICAL PIERCES",
        "CUMBERSOME",
        "DEADLY",
        "FIRE",
        "FLAMETHROWER",
        "GAS",
        "GRENADE",
        "HEAVY",
        "IGNORE ARMOUR",
        "IGNORE COVER",
        "IGNORE LONG RANGE",
        "INJURY PER BLOOD",
        "ONE MODE",
        "PISTOL",
        "RELOAD",
        "RISKY",
        "SAME TARGET",
        "SCATTER",
        "SHOTGUN",
        "SHRAPNEL",
    }
)
VALUED_KEYWORDS: frozenset[str] = frozenset({"AUTOMATIC", "BLAST", "CLEAVE"})


#: The keywords a hand-typed profile may carry: :data:`MODEL_KEYWORDS`, and NEGATE with a model or weapon keyword
#: (NEGATE GAS, NEGATE HEAVY).
ACCEPTED_MODEL_KEYWORDS: frozenset[str] = MODEL_KEYWORDS | {f"NEGATE {k}" for k in MODEL_KEYWORDS | WEAPON_KEYWORDS}


_KEYWORD_RE = re.compile(r'^\s*([A-Z][A-Z \-]*?)\s*(?:(\d+)\s*"?)?\s*$')


def parse_keyword(text: str) -> tuple[str, int | None]:
    """``"AUTOMATIC 2"`` -> ``("AUTOMATIC", 2)``; ``"HEAVY"`` -> ``("HEAVY", None)``. Raises ValueError."""
    m = _KEYWORD_RE.match(text)
    if m is None:
        raise ValueError(f"expected an upper-case keyword like 'HEAVY' or 'AUTOMATIC 2', found {text!r}")
    name, value = m.group(1).strip(), m.group(2)
    return name, (int(value) if value is not None else None)


def _check_guessed(model: BaseModel, guessed: list[str]) -> None:
    allowed = set(type(model).model_fields) - {"guessed", "name"}
    bad = [g for g in guessed if g not in allowed]
    if bad:
        raise ValueError(f"expected names of fields of this entry ({', '.join(sorted(allowed))}), found {bad}")


class WeaponItem(FrozenEntry):
    """A weapon in the armoury."""

    name: str = Field(min_length=1)
    modes: list[Literal["ranged", "melee"]] = Field(min_length=1, max_length=2)
    range: float | None = Field(default=None, gt=0, description="Inches; null for melee-only weapons.")
    hands: Literal[0, 1, 2] = Field(description="Hands it takes; 0 for a built-in weapon or a grenade.")
    dice: int = Field(default=0, description="+/-DICE on the attack's Success Roll.")
    injury_mod: int = Field(default=0, description="+/- modifier on the Injury Roll.")
    injury_dice: int = Field(default=0, description="+/-INJURY DICE on the Injury Roll of a model it hits.")
    keywords: list[str] = Field(default_factory=list, description='e.g. "HEAVY", "AUTOMATIC 2".')
    cost: int = Field(ge=0, description="Ducats.")
    guessed: list[str] = Field(default_factory=list, description="Fields whose value is a guess.")

    @field_validator("keywords")
    @classmethod
    def _known_keywords(cls, value: list[str]) -> list[str]:
        for text in value:
            name, number = parse_keyword(text)
            if name not in WEAPON_KEYWORDS:
                raise ValueError(f"expected a weapon keyword ({', '.join(sorted(WEAPON_KEYWORDS))}), found {text!r}")
            if (number is None) == (name in VALUED_KEYWORDS):
                need = "a number" if number is None else "no number"
                raise ValueError(f"expected {name} with {need}, found {text!r}")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> WeaponItem:
        if len(set(self.modes)) != len(self.modes):
            raise ValueError(f"expected distinct modes, found {self.modes}")
        if "ranged" in self.modes and self.range is None:
            raise ValueError("expected a range for a ranged weapon, found null")
        if self.modes == ["melee"] and self.range is not None:
            raise ValueError(f"expected range null for a melee-only weapon, found {self.range}")
        _check_guessed(self, self.guessed)
        return self

    @property
    def keyword_names(self) -> list[str]:
        return [parse_keyword(k)[0] for k in self.keywords]

    @property
    def keyword_values(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for k in self.keywords:
            name, number = parse_keyword(k)
            if number is not None:
                out[name] = number
        return out

    def has(self, keyword: str) -> bool:
        return keyword in self.keyword_names


class ArmourItem(FrozenEntry):
    """A suit of armour: a negative injury modifier."""

    name: str = Field(min_length=1)
    modifier: int = Field(ge=-3, le=-1)
    cost: int = Field(ge=0)
    guessed: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _guesses(self) -> ArmourItem:
        _check_guessed(self, self.guessed)
        return self


class ShieldItem(FrozenEntry):
    """A shield: a negative injury modifier that also occupies a hand in melee."""

    name: str = Field(min_length=1)
    modifier: int = Field(ge=-3, le=-1)
    hands: Literal[1] = 1
    cost: int = Field(ge=0)
    guessed: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _guesses(self) -> ShieldItem:
        _check_guessed(self, self.guessed)
        return self


class Armoury(FrozenEntry):
    """Every weapon, armour and shield a roster may name."""

    weapons: list[WeaponItem]
    armour: list[ArmourItem]
    shields: list[ShieldItem] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_names(self) -> Armoury:
        require_unique([w.name for w in self.weapons] + [a.name for a in self.armour] + [s.name for s in self.shields])
        return self

    def weapon(self, name: str) -> WeaponItem | None:
        return self._weapons().get(name)

    def armour_item(self, name: str) -> ArmourItem | None:
        return {a.name: a for a in self.armour}.get(name)

    @property
    def shield(self) -> ShieldItem:
        """The standard shield (the first listed, the Trench Shield)."""
        return self.shields[0]

    def _weapons(self) -> dict[str, WeaponItem]:
        return {w.name: w for w in self.weapons}


@lru_cache(maxsize=8)
def _load_armoury_cached(path: str) -> Armoury:
    raw = read_document(path, RosterError)
    try:
        return Armoury.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(path, exc)) from None


def load_armoury(path: str | Path | None = None) -> Armoury:
    """The armoury (cached per path); the bundled one by default."""
    return _load_armoury_cached(str(path if path is not None else ARMOURY_PATH))

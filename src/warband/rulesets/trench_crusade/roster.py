"""Trench Crusade warband rosters: the armoury, the roster file format and the list-building rules.

A roster is a YAML/JSON file (see ``data/warbands/``) whose models carry their own profile numbers and name
their equipment from the armoury (``data/armoury.yaml``). :func:`load_roster` checks it and reports every
problem at once; :func:`model_specs` flattens it into plain dicts for the engine.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warband.kernel.errors import Problem, RosterError
from warband.kernel.offers import RosterLine, RosterSummary
from warband.kernel.roster import describe_value, problems_from_validation, read_document

__all__ = [
    "ARMOURY_PATH",
    "MODEL_KEYWORDS",
    "WEAPON_KEYWORDS",
    "ArmourItem",
    "Armoury",
    "ShieldItem",
    "TCModel",
    "TCRoster",
    "WeaponItem",
    "load_armoury",
    "load_roster",
    "model_points",
    "model_specs",
    "parse_keyword",
    "roster_points",
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
        "BLOCK",
        "CLEAVE",
        "CRITICAL",
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
        "RELOAD",
        "RISKY",
        "SCATTER",
        "SHOTGUN",
        "SHRAPNEL",
    }
)
VALUED_KEYWORDS: frozenset[str] = frozenset({"AUTOMATIC", "BLAST", "CLEAVE"})

_KEYWORD_RE = re.compile(r'^\s*([A-Z][A-Z \-]*?)\s*(?:(\d+)\s*"?)?\s*$')

MAX_HANDS = 2
MIN_BASE_MM = 20
MAX_BASE_MM = 80
#: Limits of a warband file, far beyond any real warband: an absurd file is refused with the limit named
#: instead of exhausting the memory or the table (issue 10).
MAX_COUNT = 20
MAX_MODELS = 40
MAX_DICE = 10


def parse_keyword(text: str) -> tuple[str, int | None]:
    """``"AUTOMATIC 2"`` -> ``("AUTOMATIC", 2)``; ``"HEAVY"`` -> ``("HEAVY", None)``. Raises ValueError."""
    m = _KEYWORD_RE.match(text)
    if m is None:
        raise ValueError(f"expected an upper-case keyword like 'HEAVY' or 'AUTOMATIC 2', found {text!r}")
    name, value = m.group(1).strip(), m.group(2)
    return name, (int(value) if value is not None else None)


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


def _check_guessed(model: BaseModel, guessed: list[str]) -> None:
    allowed = set(type(model).model_fields) - {"guessed", "name"}
    bad = [g for g in guessed if g not in allowed]
    if bad:
        raise ValueError(f"expected names of fields of this entry ({', '.join(sorted(allowed))}), found {bad}")


# --------------------------------------------------------------------------------------------- armoury


class WeaponItem(_Model):
    """A weapon in the armoury."""

    name: str = Field(min_length=1)
    modes: list[Literal["ranged", "melee"]] = Field(min_length=1, max_length=2)
    range: float | None = Field(default=None, gt=0, description="Inches; null for melee-only weapons.")
    hands: Literal[1, 2]
    dice: int = Field(default=0, description="+/-DICE on the attack's Success Roll.")
    injury_mod: int = Field(default=0, description="+/- modifier on the Injury Roll.")
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


class ArmourItem(_Model):
    """A suit of armour: a negative injury modifier."""

    name: str = Field(min_length=1)
    modifier: int = Field(ge=-3, le=-1)
    cost: int = Field(ge=0)
    guessed: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _guesses(self) -> ArmourItem:
        _check_guessed(self, self.guessed)
        return self


class ShieldItem(_Model):
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


class Armoury(_Model):
    """Every weapon, armour and shield a roster may name."""

    weapons: list[WeaponItem]
    armour: list[ArmourItem]
    shields: list[ShieldItem] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_names(self) -> Armoury:
        names = [w.name for w in self.weapons] + [a.name for a in self.armour] + [s.name for s in self.shields]
        dupes = sorted({n for n in names if names.count(n) > 1})
        if dupes:
            raise ValueError(f"expected unique item names, found duplicates {dupes}")
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


# ---------------------------------------------------------------------------------------------- roster


class TCModel(_Model):
    """One roster entry: a profile, its equipment and how many identical models it stands for."""

    type: str = Field(min_length=1, description="Profile name, e.g. 'Trench Pilgrim'.")
    name: str | None = Field(default=None, description="Optional display name.")
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="Number of identical models.")
    cost: int = Field(ge=0, le=100_000, description="Ducats for the model itself, without equipment.")
    movement: float = Field(gt=0, le=36, description="Inches.")
    ranged: int = Field(ge=-MAX_DICE, le=MAX_DICE, description="+/-DICE for ranged attacks.")
    melee: int = Field(ge=-MAX_DICE, le=MAX_DICE, description="+/-DICE for melee attacks.")
    armour: int = Field(default=0, ge=-MAX_DICE, le=0, description="Built-in armour: injury modifier, 0 or negative.")
    base: float = Field(ge=MIN_BASE_MM, le=MAX_BASE_MM, description="Base diameter in mm.")
    keywords: list[str] = Field(default_factory=list)
    weapons: list[str] = Field(default_factory=list, description="Weapon names from the armoury.")
    armour_item: str | None = Field(default=None, description="Armour name from the armoury.")
    shield: bool = Field(default=False, description="Carries a Trench Shield.")
    guessed: list[str] = Field(default_factory=list, description="Fields whose value is a guess.")

    @model_validator(mode="after")
    def _guesses(self) -> TCModel:
        _check_guessed(self, self.guessed)
        return self

    @property
    def display_name(self) -> str:
        return self.name or self.type


class TCRoster(_Model):
    """A Trench Crusade warband file."""

    ruleset: Literal["trench-crusade"]
    name: str = Field(min_length=1)
    faction: str = Field(min_length=1)
    points_limit: int = Field(gt=0, le=1_000_000, description="Ducats.")
    models: list[TCModel] = Field(min_length=1, max_length=MAX_MODELS)


def model_points(m: TCModel, armoury: Armoury | None = None) -> int:
    """Ducats for ONE model of this entry: its cost plus its equipment (unknown items count 0)."""
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


def _known(names: list[str]) -> str:
    return ", ".join(sorted(names))


def _check_model(file: str, i: int, m: TCModel, arm: Armoury, skip_weapons: bool = False) -> list[Problem]:
    out: list[Problem] = []
    here = f"models[{i}]"
    for k, kw in enumerate(m.keywords):
        if kw not in MODEL_KEYWORDS:
            out.append(
                Problem(
                    file,
                    f"{here}.keywords[{k}]",
                    f"expected a model keyword ({_known(list(MODEL_KEYWORDS))}), found {kw!r}",
                )
            )
    strong = "STRONG" in m.keywords
    if not m.weapons and not skip_weapons:
        out.append(Problem(file, f"{here}.weapons", "expected at least one weapon, found none"))
    items: list[tuple[int, WeaponItem]] = []
    for j, w in enumerate(m.weapons):
        item = arm.weapon(w)
        if item is None:
            known = _known([x.name for x in arm.weapons])
            out.append(
                Problem(file, f"{here}.weapons[{j}]", f"expected a weapon from the armoury ({known}), found {w!r}")
            )
        else:
            items.append((j, item))
    armour_item = None
    if m.armour_item is not None:
        armour_item = arm.armour_item(m.armour_item)
        if armour_item is None:
            known = _known([a.name for a in arm.armour])
            out.append(
                Problem(
                    file,
                    f"{here}.armour_item",
                    f"expected armour from the armoury ({known}), found {m.armour_item!r}",
                )
            )
    if m.shield and armour_item is not None and armour_item.modifier <= -3:
        out.append(Problem(file, f"{here}.shield", f"expected no shield with {armour_item.name}, found shield: true"))

    # Hands. A weapon usable at range counts as a ranged weapon for carrying, even if it also works in melee.
    ranged_used = 0
    melee_used: int = arm.shield.hands if m.shield else 0
    melee_parts = [f"{arm.shield.name} {arm.shield.hands}"] if m.shield else []
    ranged_parts: list[str] = []
    grenade_at: int | None = None
    heavy_at: int | None = None
    for j, item in items:
        if item.has("GRENADE"):
            if grenade_at is not None:
                out.append(
                    Problem(
                        file,
                        f"{here}.weapons[{j}]",
                        f"expected at most one grenade type, found {item.name!r} besides {m.weapons[grenade_at]!r}",
                    )
                )
            grenade_at = j
            continue
        if item.has("HEAVY") and not strong:
            if heavy_at is not None:
                out.append(
                    Problem(
                        file,
                        f"{here}.weapons[{j}]",
                        f"expected at most one HEAVY weapon (unless STRONG), found {item.name!r} "
                        f"besides {m.weapons[heavy_at]!r}",
                    )
                )
            else:
                heavy_at = j
        if "ranged" in item.modes:
            ranged_used += item.hands
            ranged_parts.append(f"{item.name} {item.hands}")
            if ranged_used > MAX_HANDS:
                out.append(
                    Problem(
                        file,
                        f"{here}.weapons[{j}]",
                        f"expected ranged weapons needing at most {MAX_HANDS} hands, found {ranged_used} "
                        f"({', '.join(ranged_parts)})",
                    )
                )
        else:
            hands = 1 if (strong and item.hands == 2 and not item.has("CUMBERSOME")) else item.hands
            melee_used += hands
            melee_parts.append(f"{item.name} {hands}")
            if melee_used > MAX_HANDS:
                out.append(
                    Problem(
                        file,
                        f"{here}.weapons[{j}]",
                        f"expected melee weapons (and shield) needing at most {MAX_HANDS} hands, "
                        f"found {melee_used} ({', '.join(melee_parts)})",
                    )
                )
    return out


def _check_roster(
    file: str,
    raw_models: list[tuple[int, TCModel]],
    r: TCRoster | None,
    arm: Armoury,
    skip_weapons: set[int] | None = None,
) -> list[Problem]:
    out: list[Problem] = []
    for i, m in raw_models:
        out += _check_model(file, i, m, arm, i in (skip_weapons or set()))
    leaders = 0
    first_leader = ""
    for i, m in raw_models:
        if "LEADER" not in m.keywords:
            continue
        k = m.keywords.index("LEADER")
        if m.count > 1:
            out.append(Problem(file, f"models[{i}].count", f"expected a single LEADER model, found count {m.count}"))
        if leaders:
            out.append(
                Problem(
                    file,
                    f"models[{i}].keywords[{k}]",
                    f"expected at most one LEADER in the warband, found another (first at {first_leader})",
                )
            )
        else:
            first_leader = f"models[{i}]"
        leaders += m.count
    models = sum(m.count for _, m in raw_models)
    if models > MAX_MODELS:
        out.append(Problem(file, "models", f"expected at most {MAX_MODELS} models in a warband, found {models}"))
    if r is not None:
        total = roster_points(r, arm)
        if total > r.points_limit:
            out.append(
                Problem(
                    file,
                    "points_limit",
                    f"expected a total of at most {r.points_limit} ducats, found {total} "
                    f"({total - r.points_limit} over)",
                )
            )
    return out


_PLACEHOLDERS: dict[str, Any] = {
    "type": "?",
    "name": None,
    "count": 1,
    "cost": 0,
    "movement": 1,
    "ranged": 0,
    "melee": 0,
    "armour": 0,
    "base": MIN_BASE_MM,
    "keywords": [],
    "weapons": [],
    "armour_item": None,
    "shield": False,
    "guessed": [],
}


def _salvage_model(item: Any) -> tuple[TCModel, bool] | None:
    """Validate a roster entry, replacing its invalid fields by harmless placeholders.

    Lets the list-building checks run on the valid parts of an entry whose other fields are broken.
    Returns the entry and whether its weapon list had to be replaced (so weapon checks must be skipped).
    """
    if not isinstance(item, dict):
        return None
    try:
        return TCModel.model_validate(item), False
    except pydantic.ValidationError as exc:
        bad = {str(e["loc"][0]) for e in exc.errors() if e["loc"]}
    patched = {k: v for k, v in item.items() if k in _PLACEHOLDERS and k not in bad}
    for key in bad & set(_PLACEHOLDERS):
        patched[key] = _PLACEHOLDERS[key]
    for key in ("type", "cost", "movement", "ranged", "melee", "base"):
        patched.setdefault(key, _PLACEHOLDERS[key])
    patched["guessed"] = []
    try:
        return TCModel.model_validate(patched), "weapons" in bad or "weapons" not in item
    except pydantic.ValidationError:
        return None


def load_roster(path: str | Path, armoury: Armoury | None = None) -> TCRoster:
    """Read and check a warband file; raise :class:`RosterError` listing every problem."""
    file = str(path)
    arm = armoury or load_armoury()
    raw = read_document(path, RosterError)
    if not isinstance(raw, dict):
        raise RosterError([Problem(file, "", f"expected a mapping at the top level, found {describe_value(raw)}")])
    try:
        roster = TCRoster.model_validate(raw)
    except pydantic.ValidationError as exc:
        problems = problems_from_validation(file, exc)
        models = raw.get("models")
        good: list[tuple[int, TCModel]] = []
        skip: set[int] = set()
        if isinstance(models, list):
            for i, item in enumerate(models):
                salvaged = _salvage_model(item)
                if salvaged is not None:
                    good.append((i, salvaged[0]))
                    if salvaged[1]:
                        skip.add(i)
        problems += _check_roster(file, good, None, arm, skip)
        limit = raw.get("points_limit")
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > 0:
            # Broken entries count with placeholders (cost 0), so this total is a lower bound.
            least = sum(model_points(m, arm) * m.count for _, m in good)
            if least > limit:
                problems.append(
                    Problem(
                        file,
                        "points_limit",
                        f"expected a total of at most {limit} ducats, found at least {least}",
                    )
                )
        raise RosterError(problems) from None
    problems = _check_roster(file, list(enumerate(roster.models)), roster, arm)
    if problems:
        raise RosterError(problems)
    return roster


def _weapon_spec(item: WeaponItem) -> dict[str, Any]:
    return {
        "name": item.name,
        "modes": list(item.modes),
        "range": float(item.range) if item.range is not None else None,
        "hands": item.hands,
        "dice": item.dice,
        "injury_mod": item.injury_mod,
        "keywords": item.keyword_names,
        "values": item.keyword_values,
    }


def _copy_weapon(w: dict[str, Any]) -> dict[str, Any]:
    return dict(w, modes=list(w["modes"]), keywords=list(w["keywords"]), values=dict(w["values"]))


def model_specs(r: TCRoster, armoury: Armoury | None = None) -> list[dict[str, Any]]:
    """One plain, JSON-able dict per model (``count`` expanded), in roster order.

    Shape: ``{"name", "type", "base_mm", "points", "data": {"movement", "flying", "ranged", "melee",
    "armour", "keywords", "shield", "weapons": [{"name", "modes", "range", "hands", "dice", "injury_mod",
    "keywords", "values"}]}}``. ``armour`` sums the profile, the armour item and the shield (all <= 0).
    Assumes a roster that passed :func:`load_roster` (unknown items are skipped).
    """
    arm = armoury or load_armoury()
    out: list[dict[str, Any]] = []
    totals: dict[str, int] = {}
    for m in r.models:
        totals[m.display_name] = totals.get(m.display_name, 0) + m.count
    numbered: dict[str, int] = {}
    for m in r.models:
        armour = m.armour
        if m.armour_item is not None:
            a = arm.armour_item(m.armour_item)
            armour += a.modifier if a else 0
        if m.shield:
            armour += arm.shield.modifier
        weapons = [_weapon_spec(w) for w in (arm.weapon(n) for n in m.weapons) if w is not None]
        points = model_points(m, arm)
        for _ in range(m.count):
            name = m.display_name
            if totals[name] > 1:
                numbered[name] = numbered.get(name, 0) + 1
                name = f"{name} {numbered[name]}"
            out.append(
                {
                    "name": name,
                    "type": m.type,
                    "base_mm": float(m.base),
                    "points": points,
                    "data": {
                        "movement": float(m.movement),
                        "flying": "FLYING" in m.keywords,
                        "ranged": m.ranged,
                        "melee": m.melee,
                        "armour": armour,
                        "keywords": list(m.keywords),
                        "shield": m.shield,
                        "weapons": [_copy_weapon(w) for w in weapons],
                    },
                }
            )
    return out


def describe_roster(r: TCRoster, armoury: Armoury | None = None) -> RosterSummary:
    """What the warband fields: one line per model entry (its name, count and ducats for all of them); no
    units in this game."""
    arm = armoury or load_armoury()
    lines = tuple(RosterLine(m.display_name, m.count, model_points(m, arm) * m.count) for m in r.models)
    return RosterSummary(
        r.name, roster_points(r, arm), sum(m.count for m in r.models), None, lines, points_limit=r.points_limit
    )

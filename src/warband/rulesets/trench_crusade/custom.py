"""Hand-typed (custom) models: a profile of your own, with weapons named from the armoury.

A custom entry says ``custom: true`` and types its whole profile (``type``, ``cost``, ``movement``, ``ranged``,
``melee``, ``armour``, ``base``, ``keywords``) and names its ``weapons``, ``armour_item`` and ``shield`` from
``data/armoury.yaml``; the checks here are the game's carrying rules for such a model (hands, one HEAVY weapon
unless STRONG, one grenade type) and the keywords the engine knows. It shows as custom wherever it shows.
"""

from __future__ import annotations

from typing import Any, Literal

import pydantic
from pydantic import Field

from warband.kernel.errors import Problem
from warband.kernel.roster import unknown_entries
from warband.rulesets.trench_crusade.armoury import ACCEPTED_MODEL_KEYWORDS, MODEL_KEYWORDS, Armoury, WeaponItem
from warband.rulesets.trench_crusade.document import MAX_BASE_MM, MAX_HANDS, MIN_BASE_MM, HandTyped, TCModel

__all__ = ["CustomEntry", "check_custom", "salvage_custom"]


class CustomEntry(HandTyped):
    """A hand-typed profile of your own (``custom: true``), with weapons from the armoury."""

    custom: Literal[True] = Field(description="This is a profile of your own, not a model of the catalogue.")
    base: float = Field(ge=MIN_BASE_MM, le=MAX_BASE_MM, description="Base diameter in mm.")


def _known(names: list[str]) -> str:
    return ", ".join(sorted(names))


def check_custom(file: str, i: int, m: TCModel, arm: Armoury, skip_weapons: bool = False) -> list[Problem]:
    """The carrying rules and keywords of custom entry ``models[i]``."""
    out: list[Problem] = []
    here = f"models[{i}]"
    out += unknown_entries(
        file,
        f"{here}.keywords",
        m.keywords,
        ACCEPTED_MODEL_KEYWORDS,
        f"a model keyword ({_known(list(MODEL_KEYWORDS))}, or NEGATE and a keyword)",
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


def salvage_custom(item: Any) -> tuple[TCModel, bool] | None:
    """Validate a roster entry, replacing its invalid fields by harmless placeholders.

    Lets the list-building checks run on the valid parts of an entry whose other fields are broken.
    Returns the entry and whether its weapon list had to be replaced (so weapon checks must be skipped).
    """
    if not isinstance(item, dict):
        return None
    item = {k: v for k, v in item.items() if k != "custom"}
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

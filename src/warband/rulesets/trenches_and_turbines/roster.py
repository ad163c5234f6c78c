"""Trenches and Turbines force files: units of several models with a leader (digest §3.4, §3.5).

Every profile number in the sample forces is PROPOSED (digest §3.4 and §3.5 example values): the publisher's
unit lists are not public. :func:`load_roster` validates a file and reports every problem at once;
:func:`unit_specs` flattens it into plain dicts for the engine.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import Field

from warband.kernel.errors import Problem, RosterError
from warband.kernel.roster import (
    DocumentEntry,
    describe_value,
    problems_from_validation,
    read_document,
    unknown_entries,
)

SIZES: tuple[str, ...] = ("S", "M", "L", "XL")
WEAPON_KEYWORDS = frozenset({"Semi-Automatic", "Heavy", "OPTICS", "Blast", "Suppressive", "Indirect"})
UNIT_KEYWORDS = frozenset({"VEHICLE", "INFANTRY", "ELITE", "HERO", "WALKER"})
CHARGE_REACTIONS = frozenset({"brace"})
#: Most actions a unit profile may give one activation (seed 002, List of Actions: two, rarely three).
MAX_ACTIONS = 3
#: Limits of a force file: far beyond any real force, they keep an absurd file from exhausting the table,
#: the memory or the time of a game (issue 10); each is named in the message that refuses it.
MAX_MODELS = 100
MAX_UNITS = 30
MAX_BASE_MM = 160
MAX_INCHES = 120


class Weapon(DocumentEntry):
    """A ranged weapon (digest §3.5): range, attacks per model, damage per unsaved hit, Pen, keywords."""

    name: str = Field(min_length=1)
    range: float = Field(gt=0, le=MAX_INCHES)
    attacks: int = Field(ge=1, le=20)
    damage: int = Field(default=1, ge=1, le=20)
    pen: int = Field(default=0, ge=0, le=10)
    keywords: list[str] = Field(default_factory=list)
    blast: int = Field(default=0, ge=0, le=10, description="Blast(X): each hit becomes X hits.")
    suppressive: int = Field(default=0, ge=0, le=10, description="Suppressive(X): X extra pins.")


class MeleeWeapon(DocumentEntry):
    name: str = "Close combat"
    damage: int = Field(default=1, ge=1, le=20)
    pen: int = Field(default=0, ge=0, le=10)


class Profile(DocumentEntry):
    """The unit profile of digest §3.4."""

    move: float = Field(gt=0, le=24)
    ranged: int = Field(ge=0, le=10)
    melee: int = Field(ge=0, le=10)
    attacks: int = Field(ge=0, le=20)
    sv: int = Field(ge=0, le=10)
    hp: int = Field(ge=1, le=20)
    leadership: int = Field(ge=0, le=10)
    command: float | None = Field(default=None, gt=0, le=48)


class Unit(DocumentEntry):
    name: str = Field(min_length=1)
    size: Literal["S", "M", "L", "XL"] = "M"
    act: int | None = Field(default=None, ge=1, le=4, description="Activation cards (ACT).")
    actions: int | None = Field(
        default=None,
        ge=1,
        le=MAX_ACTIONS,
        description="Actions in each of the unit's activations; none: the ruleset's actions_per_activation (2). "
        "Seed 002, List of Actions: 'rare situations in which a unit may perform three'.",
    )
    keywords: list[str] = Field(default_factory=list)
    models: int = Field(ge=1, le=20)
    base_mm: float = Field(default=25, gt=0, le=MAX_BASE_MM)
    profile: Profile
    weapons: list[Weapon] = Field(default_factory=list)
    melee: MeleeWeapon = Field(default_factory=MeleeWeapon)
    charge_reactions: list[str] = Field(default_factory=list)
    leader: dict[str, int | float] = Field(default_factory=dict, description="Profile overrides of the leader.")


class TTRoster(DocumentEntry):
    ruleset: Literal["trenches-and-turbines"]
    name: str = Field(min_length=1)
    faction: str = ""
    note: str = ""
    units: list[Unit] = Field(min_length=1, max_length=MAX_UNITS)


def _problems(file: str, roster: TTRoster) -> list[Problem]:
    out: list[Problem] = []
    for i, u in enumerate(roster.units):
        out += unknown_entries(
            file, f"units[{i}].keywords", u.keywords, UNIT_KEYWORDS, f"one of {sorted(UNIT_KEYWORDS)}"
        )
        for j, w in enumerate(u.weapons):
            out += unknown_entries(
                file,
                f"units[{i}].weapons[{j}].keywords",
                w.keywords,
                WEAPON_KEYWORDS,
                f"one of {sorted(WEAPON_KEYWORDS)}",
            )
        for j, r in enumerate(u.charge_reactions):
            if r not in CHARGE_REACTIONS:
                out.append(
                    Problem(
                        file,
                        f"units[{i}].charge_reactions[{j}]",
                        f"expected one of {sorted(CHARGE_REACTIONS)}, found {describe_value(r)}",
                    )
                )
        out += _leader_problems(file, i, u)
        if "VEHICLE" in u.keywords and u.models != 1:
            out.append(Problem(file, f"units[{i}].models", f"expected 1 model for a VEHICLE, found {u.models}"))
    total = sum(u.models for u in roster.units)
    if total > MAX_MODELS:
        out.append(Problem(file, "units", f"expected at most {MAX_MODELS} models in a force, found {total}"))
    return out


def _leader_problems(file: str, i: int, unit: Unit) -> list[Problem]:
    """The leader's overrides must name profile fields and give values the profile allows."""
    place = f"units[{i}].leader"
    bad = [k for k in unit.leader if k not in Profile.model_fields]
    if bad:
        return [Problem(file, place, f"expected profile fields, found {bad}")]
    try:
        Profile.model_validate({**unit.profile.model_dump(), **unit.leader})
    except pydantic.ValidationError as exc:
        return [Problem(file, f"{place}.{p.place}", p.message) for p in problems_from_validation(file, exc)]
    return []


def load_roster(path: str | Path) -> TTRoster:
    """Read and validate a force file; raise :class:`RosterError` listing every problem."""
    file = str(path)
    raw = read_document(path, RosterError)
    try:
        roster = TTRoster.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise RosterError(problems_from_validation(file, exc)) from None
    problems = _problems(file, roster)
    if problems:
        raise RosterError(problems)
    return roster


def unit_specs(doc: dict[str, Any], default_act: int, default_command: float) -> list[dict[str, Any]]:
    """One dict per unit: ``name, size, act, actions`` (None: the ruleset's default), ``keywords, reactions`` and
    ``models`` (each a profile dict, the leader first, with its weapons)."""
    roster = TTRoster.model_validate(doc)
    out: list[dict[str, Any]] = []
    for u in roster.units:
        base = u.profile.model_dump()
        base["command"] = float(base["command"] if base["command"] is not None else default_command)
        models = []
        for k in range(u.models):
            prof = dict(base)
            if k == 0:
                prof.update(u.leader)
            data = {
                **prof,
                "size": u.size,
                "keywords": list(u.keywords),
                "weapons": [w.model_dump() for w in u.weapons],
                "melee_weapon": u.melee.model_dump(),
                "base_mm": u.base_mm,
                "unit_name": u.name,
            }
            models.append(data)
        out.append(
            {
                "name": u.name,
                "size": u.size,
                "act": u.act if u.act is not None else default_act,
                "actions": u.actions,
                "keywords": list(u.keywords),
                "reactions": list(u.charge_reactions),
                "models": models,
            }
        )
    return out

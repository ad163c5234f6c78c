"""Trench Crusade warband files: read one, check it against its faction's list, and give the engine its document.

A warband file (see docs/trench-crusade-warbands.md and :mod:`warband_file`) names its faction from the catalogue
and each model by its catalogue name (profile, kit and costs from the catalogue; :mod:`book`) or as a custom,
hand-typed profile (:mod:`custom`). :func:`load_roster` checks everything the list says (:mod:`listrules`,
:mod:`kitrules`) and reports every problem at once, each naming the file, its place and the rule; it returns
the :class:`~document.TCRoster` the engine reads, and :func:`model_specs` flattens that into plain dicts.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pydantic

from warband.kernel import values
from warband.kernel.errors import Problem, RosterError
from warband.kernel.offers import RosterLine, RosterSummary
from warband.kernel.roster import describe_value, problems_from_validation, read_mapping
from warband.rulesets.trench_crusade.armoury import (
    ARMOURY_PATH,
    MODEL_KEYWORDS,
    WEAPON_KEYWORDS,
    ArmourItem,
    Armoury,
    ShieldItem,
    WeaponItem,
    load_armoury,
    parse_keyword,
)
from warband.rulesets.trench_crusade.book import Entry, find_in_list, read_entry, to_document
from warband.rulesets.trench_crusade.catalogue import Catalogue, FactionList, load_catalogue
from warband.rulesets.trench_crusade.custom import CustomEntry, check_custom, salvage_custom
from warband.rulesets.trench_crusade.document import (
    MAX_MODELS,
    TCModel,
    TCRoster,
    model_glory,
    model_points,
    roster_glory,
    roster_points,
)
from warband.rulesets.trench_crusade.listrules import check_warband, unchecked
from warband.rulesets.trench_crusade.modelled import UpgradeEffect, custom_gaps, load_modelled, unmodelled_rules
from warband.rulesets.trench_crusade.warband_file import WarbandHeader
from warband.rulesets.trench_crusade.wheel import wheel_problems

__all__ = [
    "ARMOURY_PATH",
    "MODEL_KEYWORDS",
    "WEAPON_KEYWORDS",
    "ArmourItem",
    "Armoury",
    "Reading",
    "ShieldItem",
    "TCModel",
    "TCRoster",
    "WeaponItem",
    "describe_roster",
    "load_armoury",
    "load_roster",
    "model_glory",
    "model_points",
    "model_specs",
    "parse_keyword",
    "read_warband",
    "roster_glory",
    "roster_points",
    "unmodelled",
]

CUSTOM_HINT = (
    "expected custom: true on a profile of your own, or model: NAME for a model of the catalogue "
    "(found a hand-typed profile without custom: true)"
)


class _Read:
    """What reading a file found so far: its problems, its catalogue entries and its custom entries."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.problems: list[Problem] = []
        self.entries: list[Entry] = []
        self.customs: list[tuple[int, TCModel]] = []
        self.legacy: set[int] = set()

    def add(self, place: str, message: str) -> None:
        self.problems.append(Problem(self.file, place, message))


def _header(r: _Read, raw: dict[str, Any]) -> WarbandHeader | None:
    try:
        return WarbandHeader.model_validate({k: v for k, v in raw.items() if k != "models"})
    except pydantic.ValidationError as exc:
        r.problems += problems_from_validation(r.file, exc)
        return None


def _faction(cat: Catalogue, r: _Read, raw: dict[str, Any]) -> FactionList | None:
    """The list the warband is built from: its variant if it names one, else its faction."""
    faction, variant = raw.get("faction"), raw.get("variant")
    if not isinstance(faction, str):
        return None
    base = cat.find_list(faction)
    if isinstance(variant, str):
        found = cat.find_list(variant)
        if base is None or found is None or cat.base_of(found).id != cat.base_of(base).id:
            names = ", ".join(v.name for v in cat.variants(cat.base_of(base).id)) if base else "none"
            r.add("variant", f"expected a variant of {faction!r} ({names}), found {variant!r}")
            return base
        return found
    return base


def _book(cat: Catalogue, faction: FactionList | None, r: _Read, i: int, item: dict[str, Any]) -> None:
    if faction is None:
        r.add(f"models[{i}].model", "a model of the catalogue needs the warband's faction from the catalogue")
        return
    if "custom" in item:
        r.add(f"models[{i}].custom", "a model of the catalogue is not custom: write model: or custom:, not both")
        item = {k: v for k, v in item.items() if k != "custom"}
    entry, problems = read_entry(cat, faction, r.file, i, item)
    r.problems += problems
    if entry is not None:
        r.entries.append(entry)


def _placed(i: int, exc: pydantic.ValidationError, file: str = "") -> list[Problem]:
    """The problems of entry ``models[i]`` validated on its own, placed in the file."""
    return [
        Problem(file, f"models[{i}].{p.place}" if p.place else f"models[{i}]", p.message)
        for p in problems_from_validation(file, exc)
    ]


def _custom(r: _Read, arm: Armoury, i: int, item: dict[str, Any]) -> None:
    try:
        CustomEntry.model_validate(item)
    except pydantic.ValidationError as exc:
        r.problems += _placed(i, exc, r.file)
    salvaged = salvage_custom(item)
    if salvaged is not None:
        r.customs.append((i, salvaged[0]))
        r.problems += check_custom(r.file, i, salvaged[0], arm, salvaged[1])


def _legacy(cat: Catalogue, faction: FactionList | None, r: _Read, arm: Armoury, i: int, item: dict[str, Any]) -> None:
    """A hand-typed profile without ``custom: true``: refused; and, where it names a model of the catalogue, read
    as that model too, so that the list's rules it breaks are named."""
    r.add(f"models[{i}]", CUSTOM_HINT)
    name = item.get("type")
    if (
        faction is None
        or not isinstance(name, str)
        or (find_in_list(cat, faction, name) or cat.find_profile(name)) is None
    ):
        _custom(r, arm, i, {**item, "custom": True})
        return
    equipment, places = _legacy_items(i, item)
    reading = {k: v for k, v in item.items() if k in ("count", "name", "cost", "movement", "ranged", "melee", "armour")}
    reading.update(model=name, equipment=equipment, keywords=item.get("keywords", []))
    entry, problems = read_entry(cat, faction, r.file, i, reading, places, key="type")
    r.problems += problems
    if entry is not None:
        r.entries.append(entry)
        r.legacy.add(i)


def _legacy_items(i: int, item: dict[str, Any]) -> tuple[list[str], list[str]]:
    """A hand-typed entry's weapons, armour and shield as catalogue item names, with their places."""
    names: list[str] = []
    places: list[str] = []
    weapons = item.get("weapons")
    for j, w in enumerate(weapons if isinstance(weapons, list) else []):
        if isinstance(w, str):
            names.append(w)
            places.append(f"models[{i}].weapons[{j}]")
    if isinstance(item.get("armour_item"), str):
        names.append(item["armour_item"])
        places.append(f"models[{i}].armour_item")
    if item.get("shield") is True:
        names.append("Trench Shield")
        places.append(f"models[{i}].shield")
    return names, places


def _models(raw: dict[str, Any], r: _Read) -> list[Any]:
    models = raw.get("models")
    if models is None:
        r.add("models", "expected a list of models, found nothing")
        return []
    if not isinstance(models, list) or not models:
        r.add("models", f"expected a list of at least one model, found {describe_value(models)}")
        return []
    if len(models) > MAX_MODELS:
        r.add("models", f"expected at most {MAX_MODELS} entries, found {len(models)}")
    return models


def _limit(raw: dict[str, Any], key: str) -> int | None:
    value = raw.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


def _totals(r: _Read, raw: dict[str, Any], faction: FactionList | None, arm: Armoury) -> tuple[int, int, int]:
    """Models, ducats and glory against the warband's limits (the limits as written, even in a header with other
    problems; a broken entry counts what could be read of it, so a total is then a lower bound)."""
    count = sum(e.count for e in r.entries) + sum(m.count for _, m in r.customs)
    if count > MAX_MODELS:
        r.add("models", f"expected at most {MAX_MODELS} models in a warband, found {count}")
    ducats = sum(e.ducats * e.count for e in r.entries) + sum(model_points(m, arm) * m.count for _, m in r.customs)
    limit = _limit(raw, "points_limit")
    if limit is not None and ducats > limit:
        r.add("points_limit", f"expected a total of at most {limit} ducats, found {ducats} ({ducats - limit} over)")
    glory = sum(e.glory * e.count for e in r.entries)
    glory_limit = _glory_limit(_limit(raw, "glory_limit"), faction)
    if glory > glory_limit:
        r.add("glory_limit", f"expected a total of at most {glory_limit} glory, found {glory} (glory_limit)")
    return ducats, glory, count


def _glory_limit(given: int | None, faction: FactionList | None) -> int:
    if given is not None:
        return given
    return faction.starting_glory if faction is not None else 0


def _list_rules(cat: Catalogue, faction: FactionList | None, r: _Read, points_limit: int) -> None:
    _fireteams(r, faction)
    r.problems += [Problem(r.file, place, why) for place, why in wheel_problems(r.entries)]
    if faction is None:
        _one_leader(r)
        return
    r.problems += check_warband(cat, faction, r.file, r.entries, r.customs, points_limit)


def _fireteams(r: _Read, faction: FactionList | None) -> None:
    """FIRETEAM (catalogue keyword; New Antioch Fireteams): each team is two single models, and a list forms at
    most its number of teams (a warband of your own, any number)."""
    members = [(f"models[{e.index}]", e.count, e.fireteam) for e in r.entries if e.fireteam is not None]
    members += [(f"models[{i}]", m.count, m.fireteam) for i, m in r.customs if m.fireteam is not None]
    teams: dict[int, list[str]] = {}
    for place, count, team in members:
        assert team is not None
        teams.setdefault(team, []).append(place)
        if count > 1:
            r.add(f"{place}.count", f"FIRETEAM: a fireteam member is a single model, found count {count}")
    for team, places in sorted(teams.items()):
        if len(places) != 2:
            found = ", ".join(places)
            r.add(f"{places[0]}.fireteam", f"FIRETEAM: fireteam {team} is two models, found {len(places)} ({found})")
    extra = _sworn_teams(r)
    if faction is not None and teams and len(teams) > (faction.fireteams or 0) + extra:
        allowed = faction.fireteams or 0
        sworn = f" and {extra} of Sworn Sword" if extra else ""
        r.add(
            "models", f"FIRETEAM: the {faction.name} list forms at most {allowed} fireteams{sworn}, found {len(teams)}"
        )


def _sworn_teams(r: _Read) -> int:
    """Sworn Sword (catalogue ability, effect ``extra_fireteam``): the extra fireteams formed by a model with it
    and a model with the effect's keywords (ELITE), each such model giving ``count`` at most."""
    rules = load_modelled().abilities
    by_team: dict[int, list[Entry]] = {}
    for e in r.entries:
        if e.fireteam is not None:
            by_team.setdefault(e.fireteam, []).append(e)
    extra = 0
    for pair in by_team.values():
        if len(pair) != 2:
            continue
        for me, mate in (pair, pair[::-1]):
            effects = [fx for a in me.profile.abilities if a in rules for fx in rules[a].effects]
            if any(fx.kind == "extra_fireteam" and set(fx.keywords) <= set(mate.profile.keywords) for fx in effects):
                extra += 1
                break
    return extra


def _one_leader(r: _Read) -> None:
    """A warband of your own (every model custom): at most one LEADER, and a LEADER is one model."""
    first = ""
    for i, m in r.customs:
        if "LEADER" not in m.keywords:
            continue
        k = m.keywords.index("LEADER")
        if m.count > 1:
            r.add(f"models[{i}].count", f"expected a single LEADER model, found count {m.count}")
        if first:
            r.add(
                f"models[{i}].keywords[{k}]",
                f"expected at most one LEADER in the warband, found another (first at {first})",
            )
        else:
            first = f"models[{i}]"


@values.value
class Reading:
    """What :func:`read_warband` found: the engine's document (None when there are problems), every problem, and
    the totals as far as they could be read (a lower bound when entries are broken)."""

    roster: TCRoster | None
    problems: list[Problem]
    ducats: int = 0
    glory: int = 0
    models: int = 0
    glory_limit: int = 0


def read_warband(file: str, raw: dict[str, Any], armoury: Armoury | None = None) -> Reading:
    """Check a warband document read from ``file`` against its list."""
    arm = armoury or load_armoury()
    cat = load_catalogue()
    r = _Read(file)
    header = _header(r, raw)
    faction = _faction(cat, r, raw)
    for i, item in enumerate(_models(raw, r)):
        if not isinstance(item, dict):
            r.add(f"models[{i}]", f"expected a mapping (a model entry), found {describe_value(item)}")
        elif "model" in item:
            _book(cat, faction, r, i, item)
        elif item.get("custom") is True:
            _custom(r, arm, i, item)
        else:
            _legacy(cat, faction, r, arm, i, item)
    if faction is None and isinstance(raw.get("faction"), str) and r.entries:
        r.add("faction", f"expected a faction of the catalogue ({_factions(cat)}), found {raw['faction']!r}")
    _list_rules(cat, faction, r, _limit(raw, "points_limit") or 0)
    ducats, glory, count = _totals(r, raw, faction, arm)
    glory_limit = _glory_limit(_limit(raw, "glory_limit"), faction)
    roster = None if r.problems or header is None else _document(cat, faction, r, header)
    return Reading(roster, sorted(r.problems, key=_order), ducats, glory, count, glory_limit)


def _order(p: Problem) -> tuple[int, int]:
    """Problems in file order: the header, each model entry, the warband's models, then its totals."""
    if m := re.match(r"models\[(\d+)\]", p.place):
        return 1, int(m.group(1))
    if p.place == "models":
        return 2, 0
    return (3, 0) if p.place in ("points_limit", "glory_limit") else (0, 0)


def _factions(cat: Catalogue) -> str:
    return ", ".join(f.label for f in cat.factions())


def _document(cat: Catalogue, faction: FactionList | None, r: _Read, header: WarbandHeader) -> TCRoster:
    models: dict[int, TCModel] = dict(r.customs)
    for e in r.entries:
        assert faction is not None  # a catalogue entry is read only against a list
        models[e.index] = to_document(cat, faction, e)
    book = faction is not None and bool(r.entries)
    return TCRoster(
        ruleset=header.ruleset,
        name=header.name,
        faction=header.faction,
        points_limit=header.points_limit,
        models=[models[i] for i in sorted(models)],
        list_id=faction.id if book and faction is not None else None,
        glory_limit=_glory_limit(header.glory_limit, faction) if book else None,
    )


def load_roster(path: str | Path, armoury: Armoury | None = None) -> TCRoster:
    """Read and check a warband file; raise :class:`RosterError` listing every problem."""
    file = str(path)
    raw = read_mapping(path, RosterError)
    reading = read_warband(file, raw, armoury)
    if reading.roster is None:
        raise RosterError(reading.problems)
    return reading.roster


# ------------------------------------------------------------------------------------------ the engine's view


def _weapon_spec(item: WeaponItem) -> dict[str, Any]:
    extra = {"injury_dice": item.injury_dice} if item.injury_dice else {}  # only the catalogue's weapons have them
    return extra | {
        "name": item.name,
        "modes": list(item.modes),
        "range": float(item.range) if item.range is not None else None,
        "hands": item.hands,
        "dice": item.dice,
        "injury_mod": item.injury_mod,
        "keywords": item.keyword_names,
        "values": item.keyword_values,
    }


def _profile_armour(m: TCModel, arm: Armoury) -> int:
    if m.book is not None:
        return m.armour  # a catalogue model's armour already adds its armour and shield
    armour = m.armour
    if m.armour_item is not None:
        a = arm.armour_item(m.armour_item)
        armour += a.modifier if a else 0
    return armour + (arm.shield.modifier if m.shield else 0)


def _weapons(m: TCModel, arm: Armoury) -> list[WeaponItem]:
    if m.weapon_items is not None:
        return list(m.weapon_items)
    return [w for w in (arm.weapon(n) for n in m.weapons) if w is not None]


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
        armour = _profile_armour(m, arm)
        weapons = [_weapon_spec(w) for w in _weapons(m, arm)]
        points = model_points(m, arm)
        for _ in range(m.count):
            name = m.display_name
            if totals[name] > 1:
                numbered[name] = numbered.get(name, 0) + 1
                name = f"{name} {numbered[name]}"
            data = {
                "movement": float(m.movement),
                "flying": "FLYING" in m.keywords,
                "ranged": m.ranged,
                "melee": m.melee,
                "armour": armour,
                "keywords": list(m.keywords),
                "shield": m.shield,
                **({"fireteam": m.fireteam} if m.fireteam is not None else {}),
                **({"wheel": True} if m.wheel else {}),
                **_abilities(m),
                "weapons": [_copy_weapon(w) for w in weapons],
            }
            out.append({"name": name, "type": m.type, "base_mm": float(m.base), "points": points, "data": data})
    return out


_NO_UPGRADE = UpgradeEffect()


def _abilities(m: TCModel) -> dict[str, Any]:
    """A catalogue model's abilities for the rules: its profile's, those its upgrades grant (a PUTRESCERE
    power bought as an upgrade) and those its items grant (a Medi-Kit's action); nothing for a custom model."""
    if m.book is None:
        return {}
    modelled = load_modelled()
    granted = [a for u in m.book.upgrades for a in modelled.upgrades.get(u, _NO_UPGRADE).abilities]
    kit = [a for i in dict.fromkeys(m.book.items) for a in (modelled.items[i].abilities if i in modelled.items else ())]
    out = list(dict.fromkeys([*m.book.abilities, *granted, *kit]))
    return {"abilities": out} if out else {}


def _copy_weapon(w: dict[str, Any]) -> dict[str, Any]:
    return dict(w, modes=list(w["modes"]), keywords=list(w["keywords"]), values=dict(w["values"]))


def _line_name(m: TCModel) -> str:
    return f"{m.display_name} (custom)" if m.is_custom else m.display_name


def describe_roster(r: TCRoster, armoury: Armoury | None = None) -> RosterSummary:
    """What the warband fields: one line per model entry (its name, count and ducats for all of them; a custom
    model says so); notes name the list rules not checked. No units in this game."""
    arm = armoury or load_armoury()
    lines = tuple(RosterLine(_line_name(m), m.count, model_points(m, arm) * m.count) for m in r.models)
    notes: list[str] = []
    glory = roster_glory(r)
    if glory or r.glory_limit:
        notes.append(f"glory: {glory} of {r.glory_limit or 0}")
    custom = [m.display_name for m in r.models if m.is_custom]
    if custom:
        notes.append(f"custom (hand-typed, not from the catalogue): {', '.join(custom)}")
        notes += [f"custom model, not played: {gap}" for gap in custom_gaps(r)]
    if r.list_id is not None:
        cat = load_catalogue()
        notes += unchecked(cat, cat.lists[r.list_id], [m.book.model for m in r.models if m.book is not None])
    return RosterSummary(
        r.name,
        roster_points(r, arm),
        sum(m.count for m in r.models),
        None,
        lines,
        points_limit=r.points_limit,
        notes=tuple(notes),
    )


def unmodelled(r: TCRoster) -> list[str]:
    """Every rule of the warband the engine does not play (see :func:`modelled.unmodelled_rules`)."""
    return unmodelled_rules(r)

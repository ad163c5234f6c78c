"""The list's rules for the whole warband: who the list fields, how many, its leader, ELITE models, LIMITs.

Each problem names the list rule it breaks in the player's words ("Trench Pilgrims may not field 'Lieutenant'
(New Antioch list)"). What a single model may carry and buy is :mod:`kitrules`. Limits written in words in the
catalogue ("at most 3 in total among ...", "must be outnumbered by HERETIC models") are read here; one this
module cannot read is returned as a note ("not checked: ...") rather than silently passed.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from warband.kernel.errors import Problem
from warband.rulesets.trench_crusade.book import UPGRADE_CHOICES, Entry
from warband.rulesets.trench_crusade.catalogue import Catalogue, FactionList, ListModel, an
from warband.rulesets.trench_crusade.document import TCModel
from warband.rulesets.trench_crusade.kitrules import check_kit, unread_buy_rules

__all__ = ["check_warband", "fielded_by", "unchecked"]

Custom = tuple[int, TCModel]


def fielded_by(cat: Catalogue, model_id: str) -> str:
    """``New Antioch list`` / ``Heretic Legion and Trench Pilgrims lists``: whose lists field the model."""
    bases: list[str] = []
    for f in cat.lists_fielding(model_id):
        label = cat.base_of(f).label
        if label not in bases:
            bases.append(label)
    if not bases:
        return "a model of no list"
    if len(bases) == 1:
        return f"{bases[0]} list"
    return f"{', '.join(bases[:-1])} and {bases[-1]} lists"


def _membership(cat: Catalogue, faction: FactionList, file: str, e: Entry) -> list[Problem]:
    if e.slot is not None:
        return []
    name = e.profile.name
    if faction.entries(e.profile.id):
        return [Problem(file, f"{e.place}.leader", f"the {faction.label} list does not let {an(name)} lead")]
    why = f"{faction.label} may not field {name!r} ({fielded_by(cat, e.profile.id)})"
    return [Problem(file, f"{e.place}.{e.key}", why)]


# ---------------------------------------------------------------------------------------------- how many


def _count(entries: Sequence[Entry], test: Callable[[Entry], bool]) -> int:
    return sum(e.count for e in entries if test(e))


def _caps(
    cat: Catalogue, faction: FactionList, file: str, entries: Sequence[Entry], points_limit: int
) -> list[Problem]:
    out: list[Problem] = []
    for slot in faction.models:
        mine = [e for e in entries if e.slot is slot]
        have = _count(mine, lambda e: True)
        cap = _threshold_cap(slot, points_limit)
        name = f"{cat.name_of(slot.model)}{' (leader)' if slot.captain else ''}"
        if cap is not None and have > cap:
            place = f"{mine[-1].place}.count" if mine[-1].count > 1 else mine[-1].place
            out.append(Problem(file, place, f"the {faction.label} list fields at most {cap} {name}, found {have}"))
        if not slot.captain and have < slot.min:
            out.append(Problem(file, "models", f"the {faction.label} list needs {slot.min} {name}, found {have}"))
    return out


def _threshold_cap(slot: ListModel, points_limit: int) -> int | None:
    m = re.fullmatch(r"(\d+) when the warband threshold is (\d+)\+ ducats", slot.limit or "")
    if m and points_limit >= int(m.group(2)):
        return int(m.group(1))
    return slot.cap


def _shared(
    cat: Catalogue, faction: FactionList, file: str, entries: Sequence[Entry], customs: Sequence[Custom]
) -> list[Problem]:
    """The limits written in words on the list's model entries, each checked once."""
    out: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    for slot in faction.models:
        for text in _limit_texts(slot):
            if (slot.model, text) in seen:
                continue
            seen.add((slot.model, text))
            found = _one_limit(cat, faction, slot, text, entries, customs)
            if found:
                out.append(Problem(file, "models", f"{found} ({faction.label} list)"))
    return out


def _limit_texts(slot: ListModel) -> list[str]:
    """The parts of a slot's ``limit`` (a lone "at most N" repeats its ``max``)."""
    return [t for t in (slot.limit or "").split("; ") if t and not re.fullmatch(r"at most \d+", t)]


def _one_limit(
    cat: Catalogue,
    faction: FactionList,
    slot: ListModel,
    text: str,
    entries: Sequence[Entry],
    customs: Sequence[Custom],
) -> str | None:
    """'' when the limit holds, why when it does not, None when it is not a limit this reads."""
    me = cat.name_of(slot.model)
    mine = _count(entries, lambda e: e.profile.id == slot.model)
    if m := re.fullmatch(r"at most (\d+) in total among (.+)", text):
        ids = [x.strip() for x in m.group(2).split(",")]
        have = _count(entries, lambda e: e.profile.id in ids)
        names = " and ".join(cat.name_of(x) for x in ids)
        return "" if have <= int(m.group(1)) else f"at most {m.group(1)} {names} in total, found {have}"
    if m := re.fullmatch(r"must be outnumbered by ([A-Z ]+) models", text):
        kw = m.group(1)
        others = _count(entries, lambda e: kw in e.profile.keywords and e.profile.id != slot.model)
        others += sum(c.count for _, c in customs if kw in c.keywords)
        return "" if mine < others or not mine else f"{me}: {mine} must be outnumbered by {kw} models, found {others}"
    if m := re.fullmatch(r"no more than the number of (\w+)", text):
        theirs = _count(entries, lambda e: e.profile.id == m.group(1))
        return "" if mine <= theirs else f"{me}: no more than the {cat.name_of(m.group(1))} ({theirs}), found {mine}"
    if text == "dogs may not outnumber the other models":
        dogs = {s.model for s in faction.models if "dogs may not outnumber" in (s.limit or "")}
        have = _count(entries, lambda e: e.profile.id in dogs)
        rest = _count(entries, lambda e: e.profile.id not in dogs) + sum(c.count for _, c in customs)
        return "" if have <= rest else f"dogs ({have}) may not outnumber the other models ({rest})"
    if re.fullmatch(r"\d+ when the warband threshold is \d+\+ ducats", text):
        return ""  # the cap itself (see _threshold_cap)
    return None


# ----------------------------------------------------------------------------------------- leader, ELITE


def _leader(
    cat: Catalogue, faction: FactionList, file: str, entries: Sequence[Entry], customs: Sequence[Custom]
) -> list[Problem]:
    """One model leads: the list's leader (a captain entry) or a custom LEADER."""
    out: list[Problem] = []
    leaders = [(e.place, e.count) for e in entries if e.captain]
    leaders += [
        (f"models[{i}].keywords[{c.keywords.index('LEADER')}]", c.count) for i, c in customs if "LEADER" in c.keywords
    ]
    for place, count in leaders:
        if count > 1:
            out.append(Problem(file, f"{place.split('.')[0]}.count", f"expected a single leader, found count {count}"))
    if len(leaders) > 1:
        first = leaders[0][0].split(".")[0]
        for place, _ in leaders[1:]:
            out.append(Problem(file, place, f"expected one leader in the warband, found another (first at {first})"))
    elif not leaders and (any(e.captain and e.min > 0 for e in faction.models) or faction.leader_choice):
        names = " or ".join(sorted({cat.name_of(e.model) for e in faction.models if e.captain}))
        out.append(Problem(file, "models", f"the {faction.label} list needs its leader ({names}), found none"))
    return out


def _elites(cat: Catalogue, file: str, entries: Sequence[Entry], customs: Sequence[Custom]) -> list[Problem]:
    cap = cat.defaults.max_elites
    have = _count(entries, lambda e: e.profile.has("ELITE")) + sum(c.count for _, c in customs if "ELITE" in c.keywords)
    if have <= cap:
        return []
    return [Problem(file, "models", f"a warband fields at most {cap} ELITE models, found {have}")]


# ------------------------------------------------------------------------------------- per-warband LIMITs


def _item_limits(cat: Catalogue, faction: FactionList, file: str, entries: Sequence[Entry]) -> list[Problem]:
    out: list[Problem] = []
    used: Counter[str] = Counter()
    for e in entries:
        for b in e.items:
            sold = faction.sells(b.id)
            if b.kit or sold is None or sold.limit is None:
                continue
            used[b.id] += e.count
            if used[b.id] > sold.limit:
                name = cat.items[b.id].name
                why = f"{name}: LIMIT {sold.limit} per warband, found {used[b.id]} ({faction.label} list)"
                out.append(Problem(file, b.place, why))
    return out


def _upgrade_limit(faction: FactionList, e: Entry, upgrade_id: str) -> tuple[str, int | None]:
    """Who shares the upgrade's limit (the model's own offer is per model type, a faction rule's is the
    warband's) and the limit."""
    for u in e.profile.upgrades:
        if u.upgrade == upgrade_id:
            return f"{e.profile.id}:{upgrade_id}", u.limit
    return upgrade_id, next((u.limit for u in faction.upgrades if u.upgrade == upgrade_id), None)


def _upgrade_limits(cat: Catalogue, faction: FactionList, file: str, entries: Sequence[Entry]) -> list[Problem]:
    out: list[Problem] = []
    used: Counter[str] = Counter()
    for e in entries:
        for b in e.upgrades:
            bought = UPGRADE_CHOICES.get(b.id, b.id)
            key, limit = _upgrade_limit(faction, e, bought)
            used[key] += e.count
            if limit is not None and used[key] > limit:
                whom = f" for {e.profile.name}" if ":" in key else ""
                found = f"found {used[key]} ({faction.label} list)"
                why = f"{cat.name_of(bought)}: at most {limit}{whom} per warband, {found}"
                out.append(Problem(file, b.place, why))
    return out


def check_warband(
    cat: Catalogue,
    faction: FactionList,
    file: str,
    entries: Sequence[Entry],
    customs: Sequence[Custom],
    points_limit: int,
) -> list[Problem]:
    """Every warband-wide rule of the list, and every rule of each model's kit (:mod:`kitrules`)."""
    out: list[Problem] = []
    for e in entries:
        out += _membership(cat, faction, file, e)
    out += _caps(cat, faction, file, entries, points_limit)
    out += _shared(cat, faction, file, entries, customs)
    out += _leader(cat, faction, file, entries, customs)
    out += _elites(cat, file, entries, customs)
    out += _item_limits(cat, faction, file, entries)
    out += _upgrade_limits(cat, faction, file, entries)
    for e in entries:
        out += check_kit(cat, faction, file, e)
    return out


def unchecked(cat: Catalogue, faction: FactionList, model_ids: Sequence[str]) -> list[str]:
    """The list's rules that :func:`check_warband` does not check, for the models fielded: list-building faction
    rules (free text), and limits or buying rules written in words it cannot read."""
    out = [
        f"not checked: list rule {rule.name}: {rule.summary}"
        for rule in (cat.rules[r] for r in faction.rules if r in cat.rules)
        if rule.list_building
    ]
    for slot in faction.models:
        for text in _limit_texts(slot):
            if slot.model in model_ids and _one_limit(cat, faction, slot, text, [], []) is None:
                out.append(f"not checked: {cat.name_of(slot.model)}: {text}")
    for model_id in dict.fromkeys(model_ids):
        out += [f"not checked: {why}" for why in unread_buy_rules(cat.profiles[model_id])]
    return out

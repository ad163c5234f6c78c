"""The Trench Crusade warband builder: the catalogue's lists as offers, and a warband file built from choices.

``warband build trench-crusade`` (and the web table's builder) draw these offers: the factions and their variants,
the models a list fields with their costs and limits, and the items and upgrades a model may take; a plan's
status reads the warband it makes exactly as ``warband validate`` reads its file (:func:`roster.read_warband`).
"""

from __future__ import annotations

from typing import Any

from warband.kernel.builder import BuildStatus, ListBuilder, Offer, Pick, Plan, Tally
from warband.kernel.errors import Problem
from warband.rulesets.trench_crusade.book import UPGRADE_CHOICES, Entry, find_in_list
from warband.rulesets.trench_crusade.catalogue import Catalogue, FactionList, Item, ListItem, ListModel, load_catalogue
from warband.rulesets.trench_crusade.kitrules import offered_to
from warband.rulesets.trench_crusade.roster import read_warband, unmodelled

__all__ = ["LEADER_SUFFIX", "TCListBuilder"]

#: Suffix of a model offer's id for a list's leader slot, where the model may also be fielded as a trooper.
LEADER_SUFFIX = "@leader"


def _slot_limit(cat: Catalogue, slot: ListModel) -> str:
    if slot.max == "unlimited":
        words = "any number"
    elif slot.max == "see limit":
        words = ""
    else:
        words = str(slot.max) if slot.min == slot.max else f"{slot.min}-{slot.max}" if slot.min else f"up to {slot.max}"
    extra = [x for x in (words, "leader" if slot.captain else "", "mercenary" if slot.mercenary else "") if x]
    if slot.limit:
        extra.append(slot.limit.replace("_", " "))
    return ", ".join(extra)


def _item_limit(cat: Catalogue, item: Item, sold: ListItem) -> str:
    words = []
    if sold.limit is not None:
        words.append(f"LIMIT {sold.limit}")
    if sold.only:
        words.append("only " + " or ".join(cat.name_of(w).replace("_", " ") for w in sold.only))
    if sold.not_:
        words.append("not " + " or ".join(sold.not_))
    if item.is_weapon or item.shield:
        hands = sold.hands if sold.hands is not None else item.hands
        words.append(f"{hands} hand{'s' if hands != 1 else ''}")
    return ", ".join(words)


def _kind(item: Item) -> str:
    return "armour" if item.kind == "armour" else item.kind


class TCListBuilder(ListBuilder):
    """The catalogue's lists behind the kernel's builder protocol."""

    def __init__(self) -> None:
        self.cat = load_catalogue()

    def _list(self, list_id: str) -> FactionList:
        found = self.cat.lists.get(list_id) or self.cat.find_list(list_id)
        if found is None:
            raise KeyError(f"no list {list_id!r}")
        return found

    def lists(self) -> list[Offer]:
        out: list[Offer] = []
        for f in self.cat.factions():
            out.append(Offer(f.id, f.label, "faction", f"{f.starting_ducats} ducats"))
            for v in self.cat.variants(f.id):
                glory = f", {v.starting_glory} glory" if v.starting_glory else ""
                out.append(Offer(v.id, v.label, "variant", f"{v.starting_ducats} ducats{glory}", f"of {f.label}"))
        return out

    def models(self, list_id: str) -> list[Offer]:
        faction = self._list(list_id)
        out: list[Offer] = []
        for slot in faction.models:
            twin = slot.captain and any(not e.captain for e in faction.entries(slot.model))
            ident = slot.model + (LEADER_SUFFIX if twin else "")
            name = self.cat.name_of(slot.model) + (" (leader)" if twin else "")
            out.append(Offer(ident, name, "model", slot.cost_text, _slot_limit(self.cat, slot)))
        return out

    def kit(self, list_id: str, model: str) -> list[Offer]:
        faction = self._list(list_id)
        profile = find_in_list(self.cat, faction, model.removesuffix(LEADER_SUFFIX))
        if profile is None:
            return []
        entry = Entry(0, profile, None)
        out: list[Offer] = []
        for swap in profile.kit_swappable:
            item = self.cat.items[swap.item]
            out.append(Offer(item.id, item.name, _kind(item), swap.cost_text, "its kit: keep it or swap it"))
        for option in profile.kit_choose_one:
            for item_id in option:
                item = self.cat.items[item_id]
                choice = " + ".join(self.cat.name_of(i) for i in option)
                out.append(Offer(item.id, item.name, _kind(item), "free", f"its kit: one of the choices ({choice})"))
        for sold in faction.equipment:
            item = self.cat.items[sold.item]
            if item.id not in profile.kit and offered_to(self.cat, faction, entry, sold):
                out.append(Offer(item.id, item.name, _kind(item), sold.cost_text, _item_limit(self.cat, item, sold)))
        return out + self._upgrades(faction, entry)

    def _upgrades(self, faction: FactionList, entry: Entry) -> list[Offer]:
        profile = entry.profile
        removed = {r.upgrade for r in faction.removes_model_upgrades if profile.id in r.for_}
        found: list[tuple[str, str, int | None]] = [
            (u.upgrade, u.cost_text, u.limit) for u in profile.upgrades if u.upgrade not in removed
        ]
        for lu in faction.upgrades:
            who = lu.for_
            elite = profile.has("ELITE")
            if (who == "ELITE only" and elite) or (who == "non-ELITE only" and not elite) or profile.id in who:
                found.append((lu.upgrade, lu.cost_text, lu.limit))
        out: list[Offer] = []
        for upgrade_id, cost, limit in found:
            words = f"at most {limit} per warband" if limit is not None else ""
            choices = [c for c, parent in UPGRADE_CHOICES.items() if parent == upgrade_id] or [upgrade_id]
            out += [Offer(c, self.cat.name_of(c), "upgrade", cost, words) for c in choices]
        return out

    def starting_pick(self, list_id: str, model: str) -> Pick:
        """The model with the kit it may swap (a Yeoman's Bolt-Action Rifle) and its first kit where it chooses one
        (a Mamluk Faris's Trench Polearm and Trench Shield): a model joins the list as the book draws it."""
        profile = find_in_list(self.cat, self._list(list_id), model.removesuffix(LEADER_SUFFIX))
        if profile is None:
            return Pick(model)
        kit = [swap.item for swap in profile.kit_swappable]
        if profile.kit_choose_one:
            kit += profile.kit_choose_one[0]
        return Pick(model, items=tuple(kit))

    def default_limits(self, list_id: str) -> tuple[int, int]:
        faction = self._list(list_id)
        return faction.starting_ducats, faction.starting_glory

    def _name(self, table: str, text: str) -> str:
        records: dict[str, Any] = getattr(self.cat, table)
        record = records.get(text)
        return str(record.name) if record is not None else text

    def document(self, plan: Plan) -> dict[str, Any]:
        faction = self._list(plan.list_id)
        base = self.cat.base_of(faction)
        doc: dict[str, Any] = {"ruleset": "trench-crusade", "name": plan.name, "faction": base.label}
        if faction.variant_of is not None:
            doc["variant"] = faction.label
        doc["points_limit"] = plan.points_limit
        if plan.glory_limit is not None and plan.glory_limit != faction.starting_glory:
            doc["glory_limit"] = plan.glory_limit
        doc["models"] = [self._entry(p.model, p.count, p.name, p.items, p.upgrades, p.leader) for p in plan.picks]
        return doc

    def _entry(
        self, model: str, count: int, name: str | None, items: tuple[str, ...], upgrades: tuple[str, ...], leader: bool
    ) -> dict[str, Any]:
        leads = leader or model.endswith(LEADER_SUFFIX)
        out: dict[str, Any] = {"model": self._name("profiles", model.removesuffix(LEADER_SUFFIX))}
        if count != 1:
            out["count"] = count
        if name:
            out["name"] = name
        if items:
            out["equipment"] = [self._name("items", i) for i in items]
        if upgrades:
            out["upgrades"] = [self._name("upgrades", u) for u in upgrades]
        if leads:
            out["leader"] = True
        return out

    def status(self, plan: Plan, file: str = "warband") -> BuildStatus:
        reading = read_warband(file, self.document(plan))
        limit = plan.glory_limit if plan.glory_limit is not None else reading.glory_limit
        totals = f"{reading.ducats} of {plan.points_limit} ducats, {reading.glory} of {limit} glory, "
        totals += f"{reading.models} model{'s' if reading.models != 1 else ''}"
        problems: list[Problem] = reading.problems
        notes = unmodelled(reading.roster) if reading.roster is not None else []
        tallies = (
            Tally("ducats", reading.ducats, plan.points_limit, "points_limit"),
            Tally("glory", reading.glory, limit, "glory_limit"),
            Tally("models", reading.models),
        )
        return BuildStatus(totals, tuple(problems), tuple(f"not modelled: {n}" for n in notes), tallies)

"""The list's rules for one model's kit: who may buy each item and upgrade, what the model may carry, hands.

Item rules come from the list (``only``, ``not``, ``needs``: "only ELITE", "only with a BAYONET LUG weapon"),
the model's own buying rules (``buy_rules``: "cannot buy ranged weapons", "at most 1 melee weapon") and the
carrying rules of the game (at most two hands of ranged and of melee weapons; a shield, a banner or an
instrument takes a hand in both; STRONG carries a two-handed melee weapon in one hand unless CUMBERSOME;
SHIELD COMBO frees the shield's hand; one HEAVY weapon unless STRONG; one grenade type; one armour, one shield,
one helmet; one of each other piece of equipment).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from warband.kernel.errors import Problem
from warband.rulesets.trench_crusade.abilities import item_keywords
from warband.rulesets.trench_crusade.book import UPGRADE_CHOICES, Bought, Entry, entry_keywords
from warband.rulesets.trench_crusade.catalogue import Catalogue, FactionList, Item, ListItem, Profile, an
from warband.rulesets.trench_crusade.document import MAX_HANDS

__all__ = ["check_kit", "offered_to", "unread_buy_rules"]


def _carries(cat: Catalogue, e: Entry, what: str) -> bool:
    """Whether the model carries or bought ``what``: an item or upgrade id, ``a KEYWORD weapon``, ``a rifle``."""
    items = [cat.items[b.id] for b in e.items]
    if m := re.fullmatch(r"an? ([A-Z][A-Z ]+) weapon", what):
        return any(i.has(m.group(1)) for i in items)
    if what == "a rifle":
        return any("rifle" in i.name.lower() for i in items)
    return any(i.id == what for i in items) or any(u.id == what for u in e.upgrades)


def _allowed(cat: Catalogue, e: Entry, who: str) -> bool:
    if who == "ELITE":
        return e.profile.has("ELITE")
    if who.startswith("with "):
        return _carries(cat, e, who.removeprefix("with "))
    return who in (e.profile.id, e.profile.variant_of)


def _who(cat: Catalogue, only: Sequence[str]) -> str:
    words = []
    for who in only:
        if who == "ELITE":
            words.append("ELITE models")
        elif who.startswith("with "):
            words.append(f"models {who.replace('_', ' ')}")
        else:
            words.append(cat.name_of(who))
    return " or ".join(words)


def _sold_by(cat: Catalogue, item_id: str) -> str:
    bases: list[str] = []
    for f in cat.lists_selling(item_id):
        base = cat.base_of(f)
        # a list named by its base faction only when the base list itself sells it; else by its variant, so the
        # message never names the buyer's own faction when only another variant of it sells the item
        label = base.label if base.sells(item_id) is not None else f.label
        if label not in bases:
            bases.append(label)
    return " and ".join(bases) if bases else "no list (it comes only as a model's kit or from a rule)"


def _sale(cat: Catalogue, faction: FactionList, e: Entry, b: Bought, file: str) -> list[Problem]:
    """The list sells the item, to this model."""
    item = cat.items[b.id]
    sold = faction.sells(b.id)
    if sold is None:
        return [Problem(file, b.place, f"{item.name}: only {_sold_by(cat, b.id)} may buy it ({faction.label} list)")]
    out: list[Problem] = []
    if sold.only and not any(_allowed(cat, e, who) for who in sold.only):
        out.append(
            Problem(file, b.place, f"{item.name}: only {_who(cat, sold.only)} may buy it ({faction.label} list)")
        )
    if "ELITE" in sold.not_ and e.profile.has("ELITE"):
        out.append(Problem(file, b.place, f"{item.name}: not for ELITE models ({faction.label} list)"))
    for need in sold.needs:
        if not _carries(cat, e, need):
            out.append(Problem(file, b.place, f"{item.name}: needs {need} ({faction.label} list)"))
    return out


# --------------------------------------------------------------------------------------- the model's rules


def _kinds(item: Item) -> set[str]:
    kinds: set[str] = {item.kind}
    if item.shield:
        kinds |= {"shields", "armour"}
    return kinds


def _matches(cat: Catalogue, faction: FactionList, e: Entry, item: Item, rule: str) -> bool:
    """Whether ``item`` is what a buying rule names: an id, ``any``, ``any HEAVY``, ``methodius-only items``."""
    if rule == "any" or rule == item.id:
        return True
    if m := re.fullmatch(r"any ([A-Z ]+)", rule):
        return item.has(m.group(1))
    if rule.endswith("-only items"):
        return _only_for_me(faction.sells(item.id), e)
    return False


def _only_for_me(sold: ListItem | None, e: Entry) -> bool:
    return sold is not None and bool(sold.only) and set(sold.only) <= {e.profile.id, e.profile.variant_of}


def _buy_rules(cat: Catalogue, faction: FactionList, e: Entry, b: Bought, file: str) -> list[Problem]:
    rules = e.profile.buy_rules
    item = cat.items[b.id]
    me = e.profile.name
    kinds = _kinds(item)
    out: list[str] = []
    if kinds & set(rules.cannot_buy):
        out.append(f"{an(me)} may not buy {'/'.join(sorted(kinds & set(rules.cannot_buy)))}")
    for kind, allowed in rules.only.items():
        if kind in kinds and not any(_matches(cat, faction, e, item, r) for r in allowed):
            out.append(f"{an(me)} may only buy {', '.join(cat.name_of(a) for a in allowed)} as {kind}")
    for rule in rules.cannot_take:
        if _matches(cat, faction, e, item, rule):
            out.append(f"{an(me)} may not take it")
    for kind, cap in rules.max_item_cost_ducats.items():
        if (kind == "any" or kind in kinds) and b.ducats > cap:
            out.append(f"{an(me)} may not buy a {'' if kind == 'any' else kind + ' '}item over {cap} ducats")
    return [Problem(file, b.place, f"{item.name}: {why}") for why in out]


def _at_most_test(faction: FactionList | None, e: Entry | None, what: str) -> Callable[[Item], bool] | None:
    """What an ``at_most`` rule counts: melee or ranged weapons, two-handed melee weapons, items with a keyword,
    one item, or the items the list sells only to this model (``brazen bull-only``, ``methodius-only``)."""
    if what in ("melee", "ranged"):
        return lambda i: i.kind == what
    if what == "two-handed melee":
        return lambda i: i.kind == "melee" and (i.hands or 0) >= 2
    if what.isupper():
        return lambda i: i.has(what)
    if what.endswith("-only") or what.endswith("-only equipment"):
        equipment = what.endswith("equipment")
        return lambda i: (
            faction is not None
            and e is not None
            and _only_for_me(faction.sells(i.id), e)
            and (i.kind == "equipment") == equipment
        )
    if " " not in what:
        return lambda i: i.id == what
    return None


def _at_most_rule(faction: FactionList | None, e: Entry | None, rule: str) -> tuple[int, str] | None:
    m = re.fullmatch(r"(\d+) (?:x )?(.+?)(?: item\(s\)| weapon\(s\))?", rule)
    return (int(m.group(1)), m.group(2)) if m is not None else None


def _at_most(cat: Catalogue, faction: FactionList, e: Entry, file: str) -> list[Problem]:
    """``at_most`` rules of the model ("1 melee weapon(s)", "2 HEAVY item(s)", "2 of any one item")."""
    bought = [b for b in e.items if not b.kit]
    out: list[Problem] = []
    for rule in e.profile.buy_rules.at_most:
        parsed = _at_most_rule(faction, e, rule)
        if parsed is None:
            continue
        cap, what = parsed
        if what == "of any one item":
            have = max(Counter(b.id for b in bought).values(), default=0)
        elif (test := _at_most_test(faction, e, what)) is not None:
            have = sum(1 for b in bought if test(cat.items[b.id]))
        else:
            continue  # named by unread_buy_rules
        if have > cap:
            out.append(Problem(file, e.place, f"{an(e.profile.name)} may have at most {rule}, found {have}"))
    return out


def unread_buy_rules(profile: Profile) -> list[str]:
    """The model's buying rules written in words this module cannot check."""
    out = []
    for rule in profile.buy_rules.at_most:
        parsed = _at_most_rule(None, None, rule)
        if parsed is None or (parsed[1] != "of any one item" and _at_most_test(None, None, parsed[1]) is None):
            out.append(f"{an(profile.name)} may have at most {rule}")
    out += [
        f"{an(profile.name)} may not take {r}"
        for r in profile.buy_rules.cannot_take
        if " " in r and not r.startswith("any ")
    ]
    return out


_NEEDS = {"ranged weapon": "a ranged weapon", "weapon": "a weapon", "armour": "armour"}


def _must_have(cat: Catalogue, e: Entry, file: str) -> list[Problem]:
    need = e.profile.buy_rules.must_have
    items = [cat.items[b.id] for b in e.items]
    tests = {
        "ranged weapon": any(i.kind == "ranged" for i in items),
        "armour": any(i.kind == "armour" and not i.shield for i in items),
        "weapon": any(i.is_weapon for i in items),
    }
    if need is None or tests.get(need, True):
        return []
    return [
        Problem(file, f"{e.place}.equipment", f"{an(e.profile.name)} must carry {_NEEDS.get(need, need)}, found none")
    ]


def _kit_choice(cat: Catalogue, e: Entry, file: str) -> list[Problem]:
    options = e.profile.kit_choose_one
    if not options:
        return []
    chosen = {b.id for b in e.items if b.kit and not b.place.endswith(".model")}
    if any(set(option) == chosen & {i for o in options for i in o} for option in options):
        return []
    words = "; ".join(", ".join(cat.name_of(i) for i in option) for option in options)
    return [Problem(file, f"{e.place}.equipment", f"{an(e.profile.name)} takes one of its kits ({words})")]


# --------------------------------------------------------------------------------------------- carrying


def _hands(cat: Catalogue, faction: FactionList, e: Entry, file: str) -> list[Problem]:
    strong = "STRONG" in entry_keywords(cat, e)
    arms = e.profile.arms
    cap = {"ranged": arms.get("special", MAX_HANDS), "melee": arms.get("melee", arms.get("special", MAX_HANDS))}
    used = {"ranged": 0, "melee": 0}
    parts: dict[str, list[str]] = {"ranged": [], "melee": []}
    items = [(b, cat.items[b.id]) for b in e.items]
    gifted = {i.id for _, i in items if "SHIELD COMBO" in item_keywords(e.profile.abilities, i.name)}  # Martial Prowess
    combo = any((i.has("SHIELD COMBO") or i.id in gifted) and (i.hands or 0) >= 2 for _, i in items)
    out: list[Problem] = []
    for b, item in items:
        hands = _hand_count(faction, item, strong)
        for mode in _hand_modes(item, combo):
            used[mode] += hands
            parts[mode].append(f"{item.name} {hands}")
            if hands and used[mode] > cap[mode] and not b.kit:
                why = f"{mode} weapons need at most {cap[mode]} hands, found {used[mode]} ({', '.join(parts[mode])})"
                out.append(Problem(file, b.place, f"{an(e.profile.name)} has two hands: {why}"))
    return out


def _hand_count(faction: FactionList, item: Item, strong: bool) -> int:
    sold = faction.sells(item.id)
    hands = sold.hands if sold is not None and sold.hands is not None else int(item.hands or 0)
    if strong and item.kind == "melee" and hands == 2 and not item.has("CUMBERSOME"):
        return 1
    return hands


def _hand_modes(item: Item, combo: bool) -> list[str]:
    """Which hands an item takes: a ranged weapon its ranged hands (also one usable in melee), a melee weapon its
    melee hands; a shield, banner or instrument both (a shield's melee hand is free beside SHIELD COMBO)."""
    if item.hand_always_used or item.shield:
        return ["ranged"] if item.shield and combo else ["ranged", "melee"]
    if item.kind == "ranged" and not item.has("GRENADE"):
        return ["ranged"]
    if item.kind == "melee":
        return ["melee"]
    return []


def _one_of_each(cat: Catalogue, e: Entry, file: str) -> list[Problem]:
    strong = "STRONG" in entry_keywords(cat, e)
    out: list[Problem] = []
    firsts: dict[str, str] = {}
    for b in e.items:
        item = cat.items[b.id]
        kinds = []
        if item.has("GRENADE"):
            kinds.append("grenade type")
        if item.has("HEAVY") and item.is_weapon and not strong:
            kinds.append("HEAVY weapon (unless STRONG)")
        if item.kind == "armour":
            kinds.append("shield" if item.shield else "suit of armour")
        if item.headgear:
            kinds.append("helmet")
        if item.kind == "equipment" and not item.is_weapon:
            kinds.append(f"{item.name}")
        for kind in kinds:
            first = firsts.get(kind)
            if first is not None and not b.kit:
                found = "it twice" if first == item.name else f"{item.name} besides {first}"
                out.append(Problem(file, b.place, f"a model carries one {kind}, found {found}"))
            firsts.setdefault(kind, item.name)
    return out


# ------------------------------------------------------------------------------------------------ upgrades


def _upgrade(cat: Catalogue, faction: FactionList, e: Entry, b: Bought, file: str) -> list[Problem]:
    bought = UPGRADE_CHOICES.get(b.id, b.id)
    name = cat.name_of(b.id)
    removed = any(r.upgrade == bought and e.profile.id in r.for_ for r in faction.removes_model_upgrades)
    if not removed and any(u.upgrade == bought for u in e.profile.upgrades):
        return []
    for lu in faction.upgrades:
        if lu.upgrade != bought:
            continue
        who = lu.for_
        elite = e.profile.has("ELITE")
        if (who == "ELITE only" and elite) or (who == "non-ELITE only" and not elite) or e.profile.id in who:
            return []
        return [Problem(file, b.place, f"{name}: only for {who if isinstance(who, str) else _who(cat, who)}")]
    return [Problem(file, b.place, f"{name}: the {faction.label} list does not offer it to {an(e.profile.name)}")]


def _upgrade_twice(cat: Catalogue, e: Entry, file: str) -> list[Problem]:
    seen: set[str] = set()
    out: list[Problem] = []
    for b in e.upgrades:
        key = UPGRADE_CHOICES.get(b.id, b.id)
        if key in seen:
            out.append(Problem(file, b.place, f"{cat.name_of(key)}: a model takes an upgrade once"))
        seen.add(key)
    return out


def offered_to(cat: Catalogue, faction: FactionList, e: Entry, sold: ListItem) -> bool:
    """Whether the list offers this item to the model at all (its ``only``/``not`` and the model's buying rules;
    conditions on what else it carries, "with a BAYONET LUG weapon", are left to the checks)."""
    item = cat.items[sold.item]
    who = [w for w in sold.only if not w.startswith("with ")]
    if who and len(who) == len(sold.only) and not any(_allowed(cat, e, w) for w in who):
        return False
    if "ELITE" in sold.not_ and e.profile.has("ELITE"):
        return False
    rules = e.profile.buy_rules
    kinds = _kinds(item)
    if kinds & set(rules.cannot_buy) or any(_matches(cat, faction, e, item, r) for r in rules.cannot_take):
        return False
    return all(
        kind not in kinds or any(_matches(cat, faction, e, item, r) for r in allowed)
        for kind, allowed in rules.only.items()
    )


def check_kit(cat: Catalogue, faction: FactionList, file: str, e: Entry) -> list[Problem]:
    """Every rule about what this model carries and buys (those written in words it cannot read are named by
    :func:`unread_buy_rules`)."""
    out: list[Problem] = []
    for b in e.items:
        if not b.kit:
            out += _sale(cat, faction, e, b, file) + _buy_rules(cat, faction, e, b, file)
    for b in e.upgrades:
        out += _upgrade(cat, faction, e, b, file)
    out += _at_most(cat, faction, e, file) + _must_have(cat, e, file) + _kit_choice(cat, e, file)
    out += _hands(cat, faction, e, file) + _one_of_each(cat, e, file) + _upgrade_twice(cat, e, file)
    return out + _machine_armour_shield(cat, faction, e, file)


def _machine_armour_shield(cat: Catalogue, faction: FactionList, e: Entry, file: str) -> list[Problem]:
    """Machine Armour (item, or the upgrade that gives it): no shield, except one the list sells only to a model
    with Machine Armour (the Heavy Ballistic Shield)."""
    if "machine_armour" not in [*(b.id for b in e.items), *(b.id for b in e.upgrades)]:
        return []
    out = []
    for b in e.items:
        sold = faction.sells(b.id)
        if cat.items[b.id].shield and not (sold is not None and "with machine_armour" in sold.only):
            why = f"{cat.items[b.id].name}: a model in Machine Armour carries no shield (Machine Armour)"
            out.append(Problem(file, b.place, why))
    return out

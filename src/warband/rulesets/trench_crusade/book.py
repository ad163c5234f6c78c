"""Models by the book: a warband file's catalogue entry (``model: Heretic Priest``) read against its list.

:func:`read_entry` finds the catalogue model in the warband's list, the list slot it takes (the leader's or an
ordinary one), its fixed kit and the items and upgrades it buys, each with its cost and its place in the file;
:func:`to_document` makes the engine's :class:`~document.TCModel` of it. The list's rules (who may field and buy
what, how many, hands, costs) are checked by :mod:`listrules`.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Any

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from warband.kernel import values
from warband.kernel.errors import Problem
from warband.kernel.roster import problems_from_validation
from warband.rulesets.trench_crusade.abilities import item_keywords
from warband.rulesets.trench_crusade.armoury import WEAPON_KEYWORDS, WeaponItem
from warband.rulesets.trench_crusade.catalogue import Catalogue, FactionList, Item, ListModel, Profile, norm
from warband.rulesets.trench_crusade.document import MAX_BOOK_BASE_MM, MAX_COUNT, MAX_DICE, BookRef, TCModel
from warband.rulesets.trench_crusade.modelled import engine_weapon, load_modelled

__all__ = [
    "UPGRADE_CHOICES",
    "BookEntry",
    "Bought",
    "Entry",
    "entry_keywords",
    "find_in_list",
    "read_entry",
    "to_document",
]

#: Upgrades bought as one of their choices: writing the choice buys the upgrade.
UPGRADE_CHOICES: dict[str, str] = {
    "ranged_legionnaire": "heretic_legionnaire",
    "melee_legionnaire": "heretic_legionnaire",
    "ranged_knight": "knight_companion_of_the_fly",
    "melee_knight": "knight_companion_of_the_fly",
}

#: Fields of a hand-typed profile that a catalogue entry takes from the catalogue instead (a file may repeat
#: them when they agree).
PROFILE_FIELDS = ("cost", "movement", "ranged", "melee", "armour", "keywords")


class BookEntry(BaseModel):
    """A model of the faction's list, named from the catalogue: its profile, kit and costs come from there."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    model: str = Field(min_length=1, description="Catalogue model name or id, e.g. 'Heretic Priest'.")
    name: str | None = Field(default=None, description="Optional display name.")
    count: int = Field(default=1, ge=1, le=MAX_COUNT, description="Number of identical models.")
    equipment: list[str] = Field(
        default_factory=list,
        description="Items bought, by catalogue name or id. Fixed kit comes with the model; a swappable kit item "
        "(a Yeoman's rifle) is kept by listing it.",
    )
    upgrades: list[str] = Field(default_factory=list, description="Upgrades bought, by name or id.")
    leader: bool = Field(
        default=False, description="Takes the list's leader slot (where the model may also be fielded as a trooper)."
    )
    base: float | None = Field(default=None, gt=0, description="A base size (mm) from the profile's options.")
    fireteam: int | None = Field(
        default=None, ge=1, le=9, description="The FIRETEAM (1, 2, ...) it forms with one other model of the warband."
    )
    choices: list[str] = Field(
        default_factory=list,
        description="What it chose where an ability says 'choose one' (the Trench Cleric's holy power), by name or id.",
    )
    wheel: bool = Field(
        default=False,
        description="Broken on the Wheel: this Trench Pilgrim or Ecclesiastic Prisoner is strapped to the "
        "warband's Anchorite Shrine before battle.",
    )


@values.value
class Bought:
    """An item or upgrade of an entry: catalogue id, where the file writes it, cost per model, kit or bought."""

    id: str
    place: str
    ducats: int = 0
    glory: int = 0
    kit: bool = False


@values.value
class Entry:
    """A catalogue entry of a warband, resolved: the profile, the list slot, what it carries and buys."""

    index: int
    profile: Profile
    slot: ListModel | None
    count: int = 1
    name: str | None = None
    items: tuple[Bought, ...] = ()
    upgrades: tuple[Bought, ...] = ()
    base: float | None = None
    movement: float | None = None
    key: str = "model"
    fireteam: int | None = None
    choices: tuple[str, ...] = ()  # ability ids chosen where an ability says 'choose one'
    wheel: bool = False  # strapped to an Anchorite Shrine (Broken on the Wheel)

    @property
    def place(self) -> str:
        return f"models[{self.index}]"

    @property
    def captain(self) -> bool:
        return self.slot is not None and self.slot.captain

    @property
    def ducats(self) -> int:
        """Per model: the list's price of the model, its items and upgrades."""
        own = (self.slot.ducats or 0) if self.slot is not None else 0
        return own + sum(b.ducats for b in (*self.items, *self.upgrades))

    @property
    def glory(self) -> int:
        own = (self.slot.glory or 0) if self.slot is not None else 0
        return own + sum(b.glory for b in (*self.items, *self.upgrades))

    @property
    def label(self) -> str:
        return self.name or self.profile.name


# --------------------------------------------------------------------------------------------- finding names


def find_in_list(cat: Catalogue, faction: FactionList, text: str) -> Profile | None:
    """The profile ``text`` names among the list's models (a variant profile also answers to its base's name)."""
    key = norm(text)
    for slot in faction.models:
        p = cat.profiles[slot.model]
        names = {norm(p.id), norm(p.name)}
        if p.variant_of is not None:
            base = cat.profiles.get(p.variant_of)
            names |= {norm(base.name), norm(base.id)} if base is not None else set()
        if key in names:
            return p
    return None


def _find_item(cat: Catalogue, faction: FactionList | None, text: str) -> Item | None:
    """An item by name: the list's own items first (so "Pistol" is the one the list sells), then any."""
    if faction is not None:
        key = norm(text)
        for sold in faction.equipment:
            item = cat.items[sold.item]
            if key in {norm(item.id), norm(item.name), *(norm(p) for p in item.name.split("/"))}:
                return item
    return cat.find_item(text)


def _suggest(text: str, names: list[str]) -> str:
    close = difflib.get_close_matches(text, names, n=3, cutoff=0.5)
    return f" (did you mean {', '.join(repr(c) for c in close)}?)" if close else ""


# ------------------------------------------------------------------------------------------------ reading


def _slot(faction: FactionList, profile: Profile, leader: bool) -> ListModel | None:
    entries = faction.entries(profile.id)
    captains = [e for e in entries if e.captain]
    others = [e for e in entries if not e.captain]
    if leader:
        return captains[0] if captains else None
    return others[0] if others else (captains[0] if captains else None)


def _shown(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return repr(value)


def _price(cat: Catalogue, faction: FactionList, profile: Profile, slot: ListModel | None) -> tuple[str, int] | None:
    """(the list, the ducats) that price the model: its slot in this list, else the first list fielding it."""
    if slot is not None:
        return faction.label, slot.ducats or 0
    for other in cat.lists_fielding(profile.id):
        return cat.base_of(other).label, other.entries(profile.id)[0].ducats or 0
    return None


def _compare(
    cat: Catalogue,
    faction: FactionList,
    file: str,
    here: str,
    raw: dict[str, Any],
    profile: Profile,
    slot: ListModel | None,
) -> list[Problem]:
    """A catalogue entry may repeat profile fields; each one that disagrees with the catalogue is a problem."""
    want: dict[str, Any] = {
        "movement": profile.movement,
        "ranged": profile.ranged or 0,
        "melee": profile.melee or 0,
        "armour": profile.armour,
        "keywords": sorted(profile.keywords),
    }
    out: list[Problem] = []
    hint = "(a profile of your own says custom: true)"
    price = _price(cat, faction, profile, slot)
    if "cost" in raw and price is not None and raw["cost"] != price[1]:
        why = f"the {price[0]} list prices a {profile.name} at {price[1]} ducats, found {_shown(raw['cost'])} {hint}"
        out.append(Problem(file, f"{here}.cost", why))
    for key, value in want.items():
        found = sorted(map(str, raw[key])) if key == "keywords" and isinstance(raw.get(key), list) else raw.get(key)
        if key in raw and found != value:
            why = f"the catalogue's {profile.name} has {key} {_shown(value)}, found {_shown(raw[key])} {hint}"
            out.append(Problem(file, f"{here}.{key}", why))
    return out


def _kit(profile: Profile, here: str) -> list[Bought]:
    return [Bought(item, f"{here}.model", kit=True) for item in profile.kit]


def _buy(
    cat: Catalogue,
    faction: FactionList,
    profile: Profile,
    names: list[str],
    places: list[str],
    file: str,
) -> tuple[list[Bought], list[Problem]]:
    swaps = {s.item: s for s in profile.kit_swappable}
    chosen = {i for option in profile.kit_choose_one for i in option}
    out: list[Bought] = []
    problems: list[Problem] = []
    for text, place in zip(names, places, strict=True):
        item = _find_item(cat, faction, text)
        if item is None:
            known = [cat.items[e.item].name for e in faction.equipment]
            problems.append(
                Problem(file, place, f"expected an item of the catalogue, found {text!r}{_suggest(text, known)}")
            )
        elif item.id in profile.kit:
            problems.append(Problem(file, place, f"{item.name}: the {profile.name} carries it already (fixed kit)"))
        elif item.id in swaps:
            out.append(Bought(item.id, place, swaps[item.id].ducats or 0, swaps[item.id].glory or 0, kit=True))
        elif item.id in chosen:
            out.append(Bought(item.id, place, kit=True))
        else:
            sold = faction.sells(item.id)
            out.append(Bought(item.id, place, (sold.ducats or 0) if sold else 0, (sold.glory or 0) if sold else 0))
    return out, problems


def _upgrade_cost(faction: FactionList, profile: Profile, upgrade_id: str) -> tuple[int, int]:
    for u in profile.upgrades:
        if u.upgrade == upgrade_id:
            return u.ducats or 0, u.glory or 0
    for lu in faction.upgrades:
        if lu.upgrade == upgrade_id:
            return lu.ducats or 0, lu.glory or 0
    return 0, 0


def _upgrades(
    cat: Catalogue, faction: FactionList, profile: Profile, names: list[str], here: str, file: str
) -> tuple[list[Bought], list[Problem]]:
    out: list[Bought] = []
    problems: list[Problem] = []
    for j, text in enumerate(names):
        place = f"{here}.upgrades[{j}]"
        found = cat.find_upgrade(text)
        if found is None:
            known = [cat.name_of(u.upgrade) for u in profile.upgrades] + [
                cat.name_of(u.upgrade) for u in faction.upgrades
            ]
            problems.append(Problem(file, place, f"expected an upgrade, found {text!r}{_suggest(text, known)}"))
            continue
        bought = UPGRADE_CHOICES.get(found.id, found.id)
        ducats, glory = _upgrade_cost(faction, profile, bought)
        out.append(Bought(found.id, place, ducats, glory))
    return out, problems


def read_entry(
    cat: Catalogue,
    faction: FactionList,
    file: str,
    index: int,
    raw: dict[str, Any],
    item_places: list[str] | None = None,
    key: str = "model",
) -> tuple[Entry | None, list[Problem]]:
    """Read ``models[index]`` of a warband of ``faction`` as a model of the catalogue (``item_places``: where
    the file writes each of ``equipment``, when it is not a list under that name)."""
    here = f"models[{index}]"
    given = {k: raw[k] for k in PROFILE_FIELDS if k in raw}
    rest = {k: v for k, v in raw.items() if k not in PROFILE_FIELDS}
    try:
        spec = BookEntry.model_validate(rest)
    except pydantic.ValidationError as exc:
        return None, [Problem(file, f"{here}.{p.place}" if p.place else here, p.message) for p in _plain(exc)]
    profile = find_in_list(cat, faction, spec.model) or cat.find_profile(spec.model)
    if profile is None:
        known = [cat.profiles[m.model].name for m in faction.models]
        why = f"expected a model of the catalogue, found {spec.model!r}{_suggest(spec.model, known)}"
        return None, [Problem(file, f"{here}.{key}", why)]
    slot = _slot(faction, profile, spec.leader)
    problems = _compare(cat, faction, file, here, given, profile, slot)
    places = item_places or [f"{here}.equipment[{j}]" for j in range(len(spec.equipment))]
    items, bad_items = _buy(cat, faction, profile, spec.equipment, places, file)
    base, movement, bad_base = _option(profile, spec.base, here, file)
    upgrades, bad_upgrades = _upgrades(cat, faction, profile, spec.upgrades, here, file)
    chosen, bad_choices = _choices(cat, profile, spec.choices, here, file)
    entry = Entry(
        index,
        profile,
        slot,
        spec.count,
        spec.name,
        (*_kit(profile, here), *items),
        tuple(upgrades),
        base,
        movement,
        key,
        spec.fireteam,
        tuple(chosen),
        spec.wheel,
    )
    return entry, problems + bad_base + bad_items + bad_upgrades + bad_choices


def _choices(
    cat: Catalogue, profile: Profile, given: list[str], here: str, file: str
) -> tuple[list[str], list[Problem]]:
    """The abilities chosen for the profile's 'choose one' abilities (Powers of the Trench Cleric), by name or id:
    each must be one of an ability's options, at most one per such ability."""
    menus = [(cat.abilities[a], [str(x) for x in cat.abilities[a].choose_one_of]) for a in profile.abilities]
    menus = [(ab, opts) for ab, opts in menus if opts]
    chosen: list[str] = []
    problems: list[Problem] = []
    for j, text in enumerate(given):
        place = f"{here}.choices[{j}]"
        found = [(ab, o) for ab, opts in menus for o in opts if norm(text) in (norm(o), norm(cat.name_of(o)))]
        if not found:
            offers = "; ".join(f"{ab.name}: {', '.join(cat.name_of(o) for o in opts)}" for ab, opts in menus)
            why = f"{text!r} is none of the {profile.name}'s choices ({offers or 'it has none'})"
            problems.append(Problem(file, place, why))
            continue
        ab, option = found[0]
        if any(c in [str(x) for x in ab.choose_one_of] for c in chosen):
            problems.append(Problem(file, place, f"{ab.name}: the {profile.name} chooses one, found a second"))
            continue
        chosen.append(option)
    return chosen, problems


def _option(
    profile: Profile, base: float | None, here: str, file: str
) -> tuple[float | None, float | None, list[Problem]]:
    """The base (and Movement, where the options differ in it) a file chose among the profile's options."""
    if base is None:
        return None, None, []
    options = [(profile.base_diameter, None)] + [
        (float(max(o.get("base_mm", profile.base_mm))), o.get("movement")) for o in profile.profile_options
    ]
    for size, movement in options:
        if abs(size - base) < 1e-9:
            return size, (float(movement) if movement is not None else None), []
    sizes = ", ".join(f"{s:g}" for s in sorted({s for s, _ in options}))
    return None, None, [Problem(file, f"{here}.base", f"the {profile.name} stands on {sizes} mm, found {base:g}")]


def _plain(exc: pydantic.ValidationError) -> list[Problem]:
    return problems_from_validation("", exc)


# --------------------------------------------------------------------------------------- the engine's view


@dataclass
class _Profile:
    movement: float
    ranged: int
    melee: int
    armour: int
    base: float
    keywords: list[str]
    shield: bool = False


def _apply_item(p: _Profile, item: Item) -> None:
    mods = item.modifiers
    p.armour += item.armour_value
    p.shield = p.shield or item.shield
    p.keywords += [k for k in mods.get("grants_keywords", []) if k not in p.keywords]
    if "FEAR" in mods.get("immune_to", []) and "NEGATE FEAR" not in p.keywords:
        p.keywords.append("NEGATE FEAR")
    # helmets, gas masks, crosses: no extra Blood marker from these keywords (NEGATE X, keywords.extra_blood)
    p.keywords += [f"NEGATE {k}" for k in mods.get("negates_extra_blood_from", []) if f"NEGATE {k}" not in p.keywords]
    p.melee += int(mods.get("adds_melee_dice", 0))
    p.ranged += int(mods.get("adds_ranged_dice", 0))
    if "sets_ranged" in mods:
        p.ranged = int(mods["sets_ranged"])
    if "sets_movement" in mods:
        p.movement = float(mods["sets_movement"])
    if mods.get("sets_movement_type") == "flying" and "FLYING" not in p.keywords:
        p.keywords.append("FLYING")
    if "sets_base_mm" in mods:
        p.base = float(max(mods["sets_base_mm"]))


def _profile(cat: Catalogue, entry: Entry) -> _Profile:
    pr = entry.profile
    keywords = list(pr.keywords) + (["FLYING"] if pr.move_type == "flying" else [])
    movement = entry.movement or pr.movement
    p = _Profile(movement, pr.ranged or 0, pr.melee or 0, pr.armour, entry.base or pr.base_diameter, keywords)
    for b in entry.items:
        _apply_item(p, cat.items[b.id])
    effects = load_modelled().upgrades
    for u in entry.upgrades:
        effect = effects.get(u.id)
        if effect is not None:
            p.keywords += [k for k in effect.keywords if k not in p.keywords]
            p.ranged += effect.ranged
            p.melee += effect.melee
            p.armour += effect.armour
            p.base = effect.base if effect.base is not None else p.base
    if entry.captain and "LEADER" not in p.keywords:
        p.keywords.append("LEADER")
    return p


def entry_keywords(cat: Catalogue, entry: Entry) -> list[str]:
    """The model's keywords with what its upgrades and items give (Zealot Strength: STRONG)."""
    return _profile(cat, entry).keywords


def _clamp(value: int, low: int, high: int) -> int:
    return max(low, min(high, value))


def _own_ducats(entry: Entry) -> int:
    return (entry.slot.ducats or 0) if entry.slot is not None else 0


def _scoped(weapons: list[WeaponItem], entry: Entry) -> list[WeaponItem]:
    """A Sniper Scope: the rifle it is fitted to ignores long range (ours: the Sniper Rifle, else the first rifle)."""
    if not any(b.id == "sniper_scope" for b in entry.items):
        return weapons
    rifles = [w for w in weapons if w.name == "Sniper Rifle"] or [w for w in weapons if "Rifle" in w.name]
    if not rifles:
        return weapons
    fitted = rifles[0]
    return [
        w.model_copy(update={"keywords": [*w.keywords, "IGNORE LONG RANGE"]}) if w is fitted else w for w in weapons
    ]


def _gifted(weapons: list[WeaponItem], entry: Entry) -> list[WeaponItem]:
    """Weapons with the battle keywords the model's abilities give them (Martial Prowess: the Jezzail's ASSAULT)."""
    out = []
    for w in weapons:
        extra = [
            k for k in item_keywords(entry.profile.abilities, w.name) if k in WEAPON_KEYWORDS and k not in w.keywords
        ]
        out.append(w.model_copy(update={"keywords": [*w.keywords, *extra]}) if extra else w)
    return out


def _ability_weapons(cat: Catalogue, entry: Entry) -> list[WeaponItem]:
    """Abilities that are attacks (effect ``ability_weapon``: Vengeful Scripture), as weapons of no hands used
    at range or in melee."""
    out = []
    rules = load_modelled().abilities
    for a in entry.profile.abilities:
        for fx in rules[a].effects if a in rules else ():
            if fx.kind == "ability_weapon":
                kws = list(fx.keywords)
                out.append(
                    WeaponItem(
                        name=cat.name_of(a), modes=["ranged", "melee"], range=fx.range, hands=0, keywords=kws, cost=0
                    )
                )
    return out


def to_document(cat: Catalogue, faction: FactionList, entry: Entry) -> TCModel:
    """The engine's entry for a catalogue model that passed the list's rules."""
    p = _profile(cat, entry)
    hands = {e.item: e.hands for e in faction.equipment if e.hands is not None}
    weapons = [cat.items[b.id] for b in entry.items if cat.items[b.id].is_weapon]
    if not any("melee" in w.modes for w in weapons):
        # no melee weapon: it fights Unarmed (-1 DICE, -1 INJURY DICE), or without the penalty where its profile says
        weapons.append(cat.items["unarmed_no_penalty" if entry.profile.no_unarmed_penalty else "unarmed"])
    ref = BookRef(
        model=entry.profile.id,
        list_id=faction.id,
        captain=entry.captain,
        items=[b.id for b in entry.items],
        upgrades=[b.id for b in entry.upgrades],
        abilities=[*entry.profile.abilities, *entry.choices],
        kit_ducats=entry.ducats - _own_ducats(entry),
        glory=entry.glory,
    )
    return TCModel(
        type=entry.profile.name,
        name=entry.name,
        count=entry.count,
        cost=_own_ducats(entry),
        movement=min(36.0, max(0.5, p.movement)),
        ranged=_clamp(p.ranged, -MAX_DICE, MAX_DICE),
        melee=_clamp(p.melee, -MAX_DICE, MAX_DICE),
        armour=_clamp(p.armour, -MAX_DICE, 0),
        base=min(float(MAX_BOOK_BASE_MM), p.base),
        keywords=p.keywords,
        shield=p.shield,
        book=ref,
        weapon_items=_gifted(_scoped([engine_weapon(w, hands.get(w.id)) for w in weapons], entry), entry)
        + _ability_weapons(cat, entry),
        fireteam=entry.fireteam,
        wheel=entry.wheel or None,
    )

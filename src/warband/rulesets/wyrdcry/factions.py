"""The factions' own rules (data digest ``wyrdcry-data.md`` §4.1-4.4): their abilities and reactions as data, the
standing states the other rules consult, and the steps of the faction abilities that stand on their own.

* Data: which of a fighter's abilities are paid with ability dice and what they cost, which are traits that act by
  themselves, which reactions a fighter's faction or card gives it, and which the engine does not play yet; the
  menu, the refusal texts and the clause matrix share these lists.
* States other rules read: the Witch Hunters' Zeal (§4.3: :func:`zeal`, :func:`add_zeal`), Sigmar's Blessing (§4.2:
  :func:`blessed`, :func:`spend_blessing`; its three moments are in ``attacks.BlessHit``, ``morale.BlessTest`` and
  ``reactions.payments``), Captain's Command tokens (§4.1: :func:`command_token_bonus`), who Lead By Example
  (§4.1), Driven by Greed (§4.1) and Denounce (§4.4) reach.
* Steps: placing a command token (:class:`PlaceCommandToken`), Condemn's accusations (:class:`Accuse`),
  Strategize's and Blessed Sight's wyrd dice (:class:`BankRoll`), Indomitable (:class:`IndomitableRoll`).

Using an ability (paying for it, its effect) is ``abilities.py``; the reactions are answered in ``reactions.py``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged, TokensChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import rolls
from warband.rulesets.wyrdcry.core import (
    R,
    State,
    Vec,
    WChance,
    WChoice,
    add_wyrd,
    damage,
    enemies_of,
    has_kw,
    is_out,
    side_name,
    standing,
    visible,
    wyrd_bank,
)
from warband.rulesets.wyrdcry.roster import AbilityData, ReactionData, load_data
from warband.rulesets.wyrdcry.scenario import carrying, near_treasure

#: Faction abilities paid with ability dice that the engine plays (data §4.1-4.4).
DICE_ABILITIES = frozenset(
    {
        "hunters-eye",
        "hammer-of-sigmar",
        "words-of-healing",
        "soulfire",
        "self-flagellation",
        "death-grip",
        "strategize",
        "blessed-sight",
        "condemn",
        "disengage",
        "captain-command",
        "lead-by-example",
        "driven-by-greed",
    }
)
#: Traits that act by themselves (no dice), played by the engine or applied when the roster is built.
TRAITS = frozenset(
    {
        "trick-shot",
        "armour-of-faith",
        "unshakeable",
        "indomitable",
        "voice-of-sigmar",
        "stealthy",
        "martial-discipline",  # applied on recruitment: the profile in the warband file already has it
        "penitent",  # a roster restriction, checked by roster.py
        "sigmars-blessing",  # offered at its three moments (Bravery test, hit roll, reaction)
    }
)
#: Faction and hired-sword reactions the engine asks for (data §4.2-4.4).
REACTIONS = frozenset({"martyrdom", "sudden-accusation", "deathwish", "denounce"})
#: Data entries the engine cannot play; each says why (refused with ``wyrdcry/ability/pending``). Slayer Oath is
#: named on the Troll Slayer's card but the source never says what it does (data digest §4.4 and §6 "Undefined").
PENDING = {
    "slayer-oath": "undefined in the source (data digest §6 lists it as undefined): it has no effect to play",
}
#: The faction whose fighters all have Sigmar's Blessing lists it in ``faction_abilities`` (data §4.2).
BLESSING = "sigmars-blessing"
#: Keywords that Soulfire hits at full value (data §4.2).
SOULFIRE_FULL = ("VAMPIRE", "DAEMON", "THRALL")
#: Keywords worth more Zeal when Condemned (data §4.3).
CONDEMN_HEAVY = ("WIZARD", "DAEMON", "VAMPIRE")


def _by_id(field: str) -> dict[str, Any]:
    """Every faction's and the hired swords' entries of ``field`` (abilities or reactions), by id (the same id
    has the same text everywhere: the first one found is kept)."""
    d = load_data()
    out: dict[str, Any] = {}
    for owner in (*d.factions.values(), d.hired):
        for entry in getattr(owner, field):
            out.setdefault(entry.id, entry)
    return out


@lru_cache(maxsize=1)
def abilities() -> dict[str, AbilityData]:
    """Every faction and hired-sword ability of the data, by id."""
    return _by_id("abilities")


@lru_cache(maxsize=1)
def reactions() -> dict[str, ReactionData]:
    """Every faction and hired-sword reaction of the data, by id."""
    return _by_id("reactions")


@lru_cache(maxsize=16)
def faction_reactions(faction: str) -> frozenset[str]:
    """Reactions every fighter of ``faction`` has (Martyrdom: all Sisters of Sigmar, data §4.2)."""
    f = load_data().factions.get(faction)
    if f is None:
        return frozenset()
    return frozenset(r.id for r in f.reactions if r.id in REACTIONS and r.id != "sudden-accusation")


@lru_cache(maxsize=16)
def faction_traits(faction: str) -> frozenset[str]:
    """Abilities every (non-hired) fighter of ``faction`` has (Sigmar's Blessing: all Sisters, data §4.2)."""
    f = load_data().factions.get(faction)
    return frozenset(f.faction_abilities) if f is not None else frozenset()


def own_dice_abilities(card: dict[str, Any]) -> list[str]:
    """The dice abilities on a fighter's card that the engine plays, in card order."""
    return [a for a in card.get("abilities", []) if a in DICE_ABILITIES]


def cost_of(name: str) -> str:
    """The ability dice a faction ability costs (data §4)."""
    return str(abilities()[name].cost)


def is_spellbook(name: str) -> bool:
    """Whether a faction ability is magical, from a spell-book (data §4.2; barred after a Channeling 1)."""
    a = abilities().get(name)
    return bool(a is not None and a.spellbook)


def has_trait(card: dict[str, Any], trait: str) -> bool:
    """Whether the fighter's card has ``trait``."""
    return trait in card.get("abilities", [])


# ------------------------------------------------------------------------------------------- states
def add_zeal(state: State, side: int, n: int, events: list[Event]) -> None:
    """Data §4.3: the Witch Hunters' warband counter (from 0, [P])."""
    zeal = int(state.sides[side].flags.get("zeal", 0)) + n
    state.sides[side].flags["zeal"] = zeal
    events.append(Note(f"side {side_name(side)} Zeal {zeal} (+{n})", f"{R}/faction/zeal"))


def zeal(state: State, m: Model) -> int | None:
    """The Zeal of a WITCH HUNTERS fighter's warband, None for any other fighter."""
    return int(state.sides[m.side].flags.get("zeal", 0)) if has_kw(m, "WITCH HUNTERS") else None


def blessed(state: State, m: Model) -> bool:
    """Sigmar's Blessing (data §4.2: every fighter of the Sisters, not a hired sword [P]) with a banked wyrd die
    to spend."""
    return (
        BLESSING in faction_traits(state.ctx.factions[m.side])
        and not m.data.get("hired")
        and wyrd_bank(state, m.side) >= int(state.ctx.params["blessing_wyrd_dice"])
    )


def spend_blessing(state: State, m: Model, what: str, events: list[Event]) -> None:
    """Sigmar's Blessing spends ``blessing_wyrd_dice`` banked wyrd dice (data §4.2)."""
    n = int(state.ctx.params["blessing_wyrd_dice"])
    state.sides[m.side].flags["wyrd"] = wyrd_bank(state, m.side) - n
    events.append(Note(f"{m.id} spends {n} banked wyrd die: Sigmar's Blessing {what}", f"{R}/ability/blessing"))


def command_token_bonus(state: State, side: int, mode: str, t: Model) -> int:
    """Captain's Command (data §4.1): a Seize token of ``side`` adds ``seize_bonus`` to Fight and Shoot against a
    target within ``command_token_reach`` of it; a Hold token adds ``hold_bonus`` to the Defense (and Bravery) of
    ``side``'s fighters that close. Tokens of one kind do not add up ([P])."""
    p = state.ctx.params
    reach = float(p["command_token_reach"])
    for s, kind, x, y in state.vars.get("command_tokens") or []:
        if int(s) == side and kind == mode and math.hypot(t.x - x, t.y - y) - t.radius <= reach + 1e-9:
            return int(p["seize_bonus" if mode == "seize" else "hold_bonus"])
    return 0


def led_henchmen(state: State, m: Model, chosen: tuple[str, ...]) -> list[Model]:
    """Lead By Example (data §4.1): visible friendly HENCHMEN within ``lead_by_example_range`` of ``m``, not yet
    given their free action."""
    r = float(state.ctx.params["lead_by_example_range"])
    return [
        f
        for f in standing(state, m.side)
        if f.id != m.id
        and f.id not in chosen
        and has_kw(f, "HENCHMAN")
        and gap(m, f) <= r + 1e-9
        and visible(state, m, f)
    ]


def greedy(state: State, m: Model) -> bool:
    """Driven by Greed's condition (data §4.1): carrying treasure or within ``treasure_range`` of a token."""
    return bool(carrying(state, m)) or any(near_treasure(state, m, oid) for oid in state.vars.get("treasure") or {})


def magic_targets(state: State, m: Model, name: str) -> list[Model]:
    """The fighters a magical (spell-book) ability targets: Soulfire the visible enemies in range, Words of
    Healing the friends in range (the caster too), Hammer of Sigmar the caster itself (data §4.2)."""
    reach = float(state.ctx.params["faction_ability_range"])
    if name == "soulfire":
        return [e for e in enemies_of(state, m) if gap(m, e) <= reach + 1e-9 and visible(state, m, e)]
    if name == "words-of-healing":
        return [f for f in standing(state, m.side) if f.id == m.id or gap(m, f) <= reach + 1e-9]
    return [m]


def denouncers(state: State, caster: Model, name: str) -> list[Model]:
    """Enemy fighters with Denounce (data §4.4) that see a fighter the ability targets within
    ``denounce_range``."""
    r = float(state.ctx.params["denounce_range"])
    targets = magic_targets(state, caster, name)
    return [
        f
        for f in enemies_of(state, caster)
        if "denounce" in f.data.get("abilities", [])
        and any(gap(f, t) <= r + 1e-9 and (t.id == f.id or visible(state, f, t)) for t in targets)
    ]


# ------------------------------------------------------------------------------------------- steps
@values.value
class PlaceCommandToken(WChoice, kind="command-token", about="model"):
    """Captain's Command (data §4.1): the player places a Seize or a Hold token within ``command_token_range`` of
    the Captain, until the battle round ends. Offered spots: the Captain's own and every fighter's on the table
    within range (a token is placed by a fighter, friend or foe, it is meant to help or hinder)."""

    by: int
    model: str

    def spots(self, state: State) -> list[Vec]:
        m = state.models[self.model]
        r = float(state.ctx.params["command_token_range"])
        out: list[Vec] = []
        for f in sorted((m, *[x for x in state.models.values() if x.on_table and not is_out(x)]), key=lambda x: x.id):
            q = (round(f.x, 2), round(f.y, 2))
            if math.hypot(q[0] - m.x, q[1] - m.y) - m.radius <= r + 1e-9 and q not in out:
                out.append(q)
        return out

    def options(self, state: State) -> list[Action]:
        return [Action("token", self.model, option=k, point=q) for k in ("seize", "hold") for q in self.spots(state)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        assert action.point is not None
        x, y = action.point
        state.vars["command_tokens"] = [*(state.vars.get("command_tokens") or []), [self.by, action.option, x, y]]
        events.append(Note(f"{self.model} places a {action.option} token at ({x:g}, {y:g})", f"{R}/ability/command"))


@values.value
class Accuse(WChoice, kind="accuse"):
    """Condemn (data §4.3): the player picks up to ``left`` visible enemies without an Accused token, one at a
    time; Zeal +1 each (+``condemn_heavy_zeal`` for a WIZARD, DAEMON or VAMPIRE)."""

    by: int
    model: str
    left: int

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        out = [
            Action("accuse", m.id, e.id)
            for e in enemies_of(state, m)
            if not e.flags.get("accused") and visible(state, m, e)
        ]
        return [*out, Action("accuse", m.id, option="done")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.option == "done" or action.target is None:
            return
        e = state.models[action.target]
        e.flags["accused"] = True
        events.append(StatusChanged(e.id, "Accused", True))
        heavy = any(has_kw(e, k) for k in CONDEMN_HEAVY)
        add_zeal(state, self.by, int(state.ctx.params["condemn_heavy_zeal"]) if heavy else 1, events)
        if self.left > 1:
            push(state, Accuse(self.by, self.model, self.left - 1))


@values.value
class BankRoll(WChance, kind="bank-roll"):
    """Strategize and Blessed Sight (data §4.1-4.2): each die of ``wyrd_roll_from``+ banks a wyrd die."""

    model: str
    n: int
    what: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(self.n, 6, self.what, self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        gained = sum(1 for v in values if v >= int(state.ctx.params["wyrd_roll_from"]))
        add_wyrd(state, m.side, gained)
        events.append(DiceRolled(self.what, values, f"+{gained} wyrd dice banked", m.id))


@values.value
class IndomitableRoll(WChance, kind="indomitable"):
    """Indomitable (data §4.4, Troll Slayer): a D3 of damage removed when it activates."""

    model: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(1, int(state.ctx.params["indomitable_die"]), "indomitable", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        before = damage(m)
        after = rolls.remove_damage(before, values[0])
        m.tokens["damage"] = after
        events.append(DiceRolled("indomitable", values, f"{before - after} damage removed", m.id))
        if after != before:
            events.append(TokensChanged(m.id, "damage", after - before, after))

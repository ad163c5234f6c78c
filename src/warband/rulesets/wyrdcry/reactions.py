"""Reactions (seed 003 "Timing" and the universal reactions, S 26-32; digest ``wyrdcry.md`` §A7; faction reactions,
data digest §4.2-4.4): the enemy's answers to an action, declared at the moment each names and paid with a reaction
die (or, with Sigmar's Blessing, a banked wyrd die); at most one per fighter for each enemy action.

A :class:`ReactWindow` is pushed at that moment, only when some fighter may react (:func:`push_window`), and is asked
again until its player declines or nobody is left to react. The window answers two moments itself: a Retreat
(Strike Them Down, :class:`StrikeRoll`) and a fighter taken out of action (Martyrdom, Sudden Accusation:
:func:`out_reactions`, opened by :func:`hurt`). At the others it stands over a :class:`Reactable` step that knows its
own reactions: an attack's hit rolls (Counter, Take Cover: ``attacks.HitRolls``), the blow a Deathwish answers
(``attacks.LandHits``) and a spell a priest may Denounce (``abilities.MagicEffect``).
"""

from __future__ import annotations

import abc
from typing import ClassVar

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged
from warband.kernel.records import Step
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import factions as fx
from warband.rulesets.wyrdcry import rolls
from warband.rulesets.wyrdcry.climbing import edge_check
from warband.rulesets.wyrdcry.core import (
    R,
    State,
    WChance,
    WChoice,
    add_wyrd,
    deal_damage,
    engaged,
    has_kw,
    is_out,
    reaction_dice,
    side_name,
    standing,
    visible,
)
from warband.rulesets.wyrdcry.factions import add_zeal, blessed, spend_blessing
from warband.rulesets.wyrdcry.movement import MoveTo


class Reactable(Step):
    """A pending step the enemy may react to before it resolves (an attack's hit rolls, a blow about to land, a
    spell). A :class:`ReactWindow` whose timing is one of :attr:`timings` stands over it: the window asks it who may
    react (:meth:`reactions`) and lets it carry out the reaction declared (:meth:`react`)."""

    __slots__ = ()
    #: The window timings this step is the moment of.
    timings: ClassVar[tuple[str, ...]] = ()

    @abc.abstractmethod
    def reactions(self, state: State, window: ReactWindow) -> list[Action]:
        """The reactions that may be declared now (see :func:`react_actions`), without "no reaction"."""

    @abc.abstractmethod
    def react(self, state: State, f: Model, name: str, window: ReactWindow, events: list[Event]) -> None:
        """Carry out the reaction ``name`` that ``f`` declared (already paid for; the window is off the stack)."""


def reacted_to(state: State, timing: str) -> Reactable | None:
    """The step a window of ``timing`` stands over: the nearest pending step of that moment."""
    return next((s for s in reversed(state.stack) if isinstance(s, Reactable) and timing in s.timings), None)


def reactions_used(f: Model, seq: int) -> int:
    """The reactions ``f`` has made to enemy action ``seq`` (fighter flag ``reacted``: [action, count])."""
    seen = f.flags.get("reacted", [0, 0])
    return int(seen[1]) if int(seen[0]) == seq else 0


def payments(state: State, f: Model, seq: int) -> list[str]:
    """How ``f`` may pay for a reaction now: ``die`` (reaction dice, S 28-30) and, for a fighter with Sigmar's
    Blessing, ``wyrd`` (a banked wyrd die instead, data §4.2); none once it reacted to this enemy action."""
    limit = int(state.ctx.params["reactions_per_enemy_action"])
    if reactions_used(f, seq) >= limit:
        return []
    out = ["die"] if reaction_dice(state, f.side) >= int(state.ctx.params["reaction_cost"]) else []
    if blessed(state, f):
        out.append("wyrd")
    return out


def can_react(state: State, f: Model, seq: int) -> bool:
    """Whether ``f`` may pay for a reaction to enemy action ``seq`` now."""
    return bool(payments(state, f, seq))


def react_actions(state: State, f: Model, other: Model, name: str, seq: int) -> list[Action]:
    """The reaction ``name`` of ``f`` (against or about ``other``), once per way it can be paid: ``[name]`` with a
    reaction die, ``[name wyrd]`` with a banked wyrd die (Sigmar's Blessing)."""
    return [
        Action("react", f.id, other.id, option=name if pay == "die" else f"{name} wyrd")
        for pay in payments(state, f, seq)
    ]


def push_window(state: State, w: ReactWindow) -> None:
    """Ask the reacting player only when some fighter of theirs may react now."""
    if w.eligible(state):
        push(state, w)


@values.value
class ReactWindow(WChoice, kind="react", prompt="reaction"):
    """S 26-32: at the moment a reaction names, the non-active player may declare one, paying reaction dice;
    at most one reaction per fighter for each enemy action. Asked again until it declines or none is left.
    ``timing``: ``melee`` / ``ranged`` (before hit rolls), ``retreat`` (before the Retreat moves), ``deathwish``
    (before a blow lands), ``magic`` (before a spell takes effect; ``target`` is the spell), ``out`` (a fighter
    taken out of action)."""

    answers = frozenset({"react", "no-reaction"})
    by: int
    timing: str
    actor: str
    target: str
    seq: int

    def eligible(self, state: State) -> list[Action]:
        actor = state.models[self.actor]
        if self.timing == "out":
            return out_reactions(state, actor, state.models[self.target], self.seq)
        if is_out(actor):
            return []
        if self.timing == "retreat":
            return strike_reactions(state, actor, self.seq)
        step = reacted_to(state, self.timing)
        return step.reactions(state, self) if step is not None else []

    def options(self, state: State) -> list[Action]:
        return [*self.eligible(state), Action("no-reaction")]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        opts = self.options(state)
        return [] if action in opts else window_reasons(state, self, action, opts)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind != "react":
            return
        f = state.models[action.model or ""]
        p = state.ctx.params
        name, _, pay = str(action.option).partition(" ")
        if pay == "wyrd":
            spend_blessing(state, f, f"reacts ({name}) without a reaction die", events)
        else:
            state.sides[f.side].flags["reaction_dice"] = reaction_dice(state, f.side) - int(p["reaction_cost"])
        f.flags["reacted"] = [self.seq, reactions_used(f, self.seq) + 1]
        events.append(Note(f"{f.id} reacts: {name}", f"{R}/reaction/{name}"))
        if name in ("martyrdom", "sudden-accusation"):
            faction_reaction(state, f, state.models[action.target or ""], name, events)
            push_window(state, self)
        elif name == "strike-them-down":
            push_window(state, self)
            push(state, StrikeRoll(f.id, self.actor))
        else:  # Counter, Take Cover, Deathwish, Denounce: the step reacted to carries it out
            step = reacted_to(state, self.timing)
            assert step is not None, self
            step.react(state, f, name, self, events)


#: The moment each reaction is declared at (seed 003 S 26-32, D §A7, data §4.2-4.4), for refusals.
MOMENTS = {
    "counter": "before the hit rolls of a melee attack on the fighter",
    "take-cover": "before the hit rolls of a ranged attack on the fighter, when it is in cover",
    "strike-them-down": 'when an enemy within 1" that the fighter can see Retreats',
    "deathwish": "when a blow would take the Troll Slayer out of action",
    "denounce": "when an enemy casts a spell at a fighter within the priest's range",
    "martyrdom": "when the Sister herself is taken out of action",
    "sudden-accusation": "when a friend the fighter can see is taken out of action by an enemy it can see",
}
WINDOWS = {
    "melee": "a melee attack's hit rolls",
    "ranged": "a ranged attack's hit rolls",
    "retreat": "a Retreat",
    "deathwish": "a blow about to land",
    "magic": "a spell about to take effect",
    "out": "a fighter taken out of action",
}


def window_reasons(state: State, w: ReactWindow, a: Action, opts: list[Action]) -> list[Reason]:
    """Why ``a`` is not a reaction the reacting player may declare at ``w``, each naming its rule: a reaction
    costs a reaction die (S 28-30), a fighter makes at most one for each enemy action (seed 003 Timing), and each
    reaction has its own moment (S 26-32, D §A7)."""
    moment = WINDOWS.get(w.timing, w.timing)
    if a.kind not in ("react", "no-reaction"):
        why = (
            f"side {side_name(w.by)} answers {w.actor}'s action now ({moment}): declare a reaction"
            " ('react FIGHTER ENEMY [NAME]') or 'no-reaction'"
        )
        return [(f"{R}/reaction/window", why)]
    if a.kind == "no-reaction":
        return [(f"{R}/reaction/syntax", "'no-reaction' names nobody: it declines every reaction at this moment")]
    f = state.models.get(a.model or "")
    if f is None or f.side != w.by or is_out(f):
        return [(f"{R}/reaction/whose", f"only a fighter of side {side_name(w.by)} still in action reacts now")]
    name, _, pay = str(a.option).partition(" ")
    limit = int(state.ctx.params["reactions_per_enemy_action"])
    if reactions_used(f, w.seq) >= limit:
        why = f"{f.id} has reacted to this enemy action already: a fighter makes at most {limit} reaction per action"
        return [(f"{R}/reaction/once", why)]
    if name not in MOMENTS:
        return [(f"{R}/reaction/name", f"{name!r} is not a reaction; the reactions are {', '.join(MOMENTS)}")]
    if pay != "wyrd" and reaction_dice(state, f.side) < int(state.ctx.params["reaction_cost"]):
        why = f"a reaction costs a reaction die and side {side_name(f.side)} has none left"
        return [(f"{R}/reaction/dice", why)]
    if pay == "wyrd" and not blessed(state, f):
        return [
            (f"{R}/reaction/blessing", f"{f.id} may pay for a reaction with a wyrd die only with Sigmar's Blessing")
        ]
    mine = [o for o in opts if o.model == f.id and str(o.option).partition(" ")[0] == name]
    if not mine:
        why = f"{name} is declared {MOMENTS[name]}; this moment is {moment}, and {f.id} may not make it here"
        return [(f"{R}/reaction/moment", why)]
    return [(f"{R}/reaction/target", f"{f.id}'s {name} answers {mine[0].target}: {mine[0]}")]


def strike_reactions(state: State, retreater: Model, seq: int) -> list[Action]:
    """Strike Them Down (D §A7): each enemy within 1" of the retreating fighter that can see it."""
    out: list[Action] = []
    for e in engaged(state, retreater):
        if visible(state, e, retreater):
            out.extend(react_actions(state, e, retreater, "strike-them-down", seq))
    return out


def out_reactions(state: State, killer: Model, fallen: Model, seq: int) -> list[Action]:
    """Reactions at the moment ``fallen`` is taken out of action by ``killer`` (data §4.2-4.3): Martyrdom by
    the fallen fighter itself (every Sister), Sudden Accusation by a friend with it on its card that can see
    both."""
    out: list[Action] = []
    if "martyrdom" in fx.faction_reactions(state.ctx.factions[fallen.side]):
        out.extend(react_actions(state, fallen, killer, "martyrdom", seq))
    if not killer.on_table or killer.flags.get("accused"):
        return out
    for f in standing(state, fallen.side):
        if (
            "sudden-accusation" in f.data.get("abilities", [])
            and visible(state, f, killer)
            and visible(state, f, fallen)
        ):
            out.extend(react_actions(state, f, killer, "sudden-accusation", seq))
    return out


def faction_reaction(state: State, f: Model, other: Model, name: str, events: list[Event]) -> None:
    """Martyrdom banks wyrd dice (HENCHMAN ``martyrdom_wyrd_dice``, HERO one more, LEADER two more); Sudden
    Accusation makes the enemy Accused and adds 1 Zeal (data §4.2-4.3)."""
    if name == "martyrdom":
        n = int(state.ctx.params["martyrdom_wyrd_dice"]) + has_kw(f, "HERO") + has_kw(f, "LEADER")
        add_wyrd(state, f.side, n)
        events.append(Note(f"{f.id}'s Martyrdom banks {n} wyrd dice", f"{R}/reaction/martyrdom"))
    else:
        other.flags["accused"] = True
        events.append(StatusChanged(other.id, "Accused", True))
        add_zeal(state, f.side, 1, events)


@values.value
class StrikeRoll(WChance, kind="strike-roll"):
    """Strike Them Down (D §A7): a D6 of 4+ deals D6 damage to the retreating enemy (two dice: the test and
    the damage); a retreater taken out of action does not move."""

    striker: str
    target: str

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(2, 6, "strike them down (test, damage)", self.striker)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        dmg = rolls.strike_them_down(values[0], values[1], int(state.ctx.params["strike_them_down_from"]))
        events.append(DiceRolled("strike them down", values, f"{dmg} damage", self.striker))
        t = state.models[self.target]
        if hurt(state, t, state.models[self.striker], dmg, f"{self.striker}'s Strike Them Down", events):
            state.stack = [
                s
                for s in state.stack
                if not (
                    isinstance(s, (MoveTo, ReactWindow))
                    and self.target in (getattr(s, "model", ""), getattr(s, "actor", ""))
                )
            ]


def hurt(state: State, t: Model, by: Model, amount: int, why: str, events: list[Event]) -> bool:
    """Damage ``t`` and, when it goes out of action, open the reactions that moment names (Martyrdom, Sudden
    Accusation: data §4.2-4.3) for ``t``'s player."""
    out = deal_damage(state, t, amount, why, events)
    if out:
        if by.side != t.side:
            by.flags["took_out"] = True  # Lead By Example (data §4.1): "after taking an enemy out"
        push_window(state, ReactWindow(t.side, "out", by.id, t.id, int(state.vars.get("action_seq", 0))))
    elif amount > 0:
        edge_check(state, t)  # D §A4: damaged near a platform's edge
    return out

"""The initiative phase (digest ``wyrdcry.md`` §A1-A2, N2 [C]; seed 003 paragraph 1): each battle round starts here.

Each side rolls its initiative dice (:class:`InitiativeRoll`), which group into singles and [double]/[triple]/[quad]
ability dice (``dice.py``); most singles takes the initiative, a tie is a roll-off (:class:`DecideInitiative`,
:class:`RollOff`). Then wyrd dice: one more per side (initiative first), a WIZARD or PRIEST may channel for another
(:class:`ChannelTurn`, :class:`ChannelRoll`), and each side spends what it wants (:class:`SpendWyrd`); changed singles
re-decide the initiative (:class:`Redecide`); leftover singles become reaction dice and the initiative holder says
who activates first (:func:`initiative_settled`, :class:`FirstActivation`, S 2). The Channel *action* of a WIZARD in
the combat phase is ``actions.py``. :class:`RollOff` also settles set-up (its ``why``: ``deployment``).
"""

from __future__ import annotations

from warband.kernel import setup as kernel_setup
from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, PhaseStarted
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry.core import (
    FighterD6,
    R,
    State,
    WAuto,
    WChance,
    WChoice,
    add_wyrd,
    has_kw,
    is_out,
    large_set,
    pool,
    set_pool,
    show_pool,
    side_name,
    standing,
    wyrd_bank,
)
from warband.rulesets.wyrdcry.setup import ChooseZone


@values.value
class RollOff(kernel_setup.RollOff[State]):
    """A roll-off (D §A9 set-up; D §A2.1 initiative tie; D §A2.5 a tie after wyrd dice)."""

    why: str

    def won(self, state: State, winner: int, events: list[Event]) -> None:
        if self.why == "deployment":
            push(state, ChooseZone(winner))
        elif self.why == "initiative":
            initiative_won(state, winner, events)
        else:
            initiative_settled(state, winner, events)


def start_round(state: State, events: list[Event]) -> None:
    """D §A1: a battle round is the initiative, combat and morale phases."""
    state.turn += 1
    state.phase = "initiative"
    state.vars.update({"active": None, "command_next": None})
    events.append(PhaseStarted(state.turn, "Initiative"))
    for m in state.models.values():
        if not is_out(m):
            m.flags.update({"status": "ready", "taken": [], "abilities_used": 0, "lost_actions": 0})
    push(state, DecideInitiative())
    push(state, InitiativeRoll(1))
    push(state, InitiativeRoll(0))


@values.value
class InitiativeRoll(WChance, kind="initiative-dice"):
    """D §A2.1: each player rolls the initiative dice (6 D6, or a faction option's count); they sort into
    singles and [double]/[triple]/[quad] groups (D §A2.2, param ``large_set`` for 5-6 alike)."""

    side: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(state.ctx.initiative_dice[self.side], 6, f"initiative dice of side {side_name(self.side)}")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        p = wd.group_roll(values, large_set(state))
        set_pool(state, self.side, p)
        events.append(DiceRolled(f"side {side_name(self.side)} initiative dice", values, show_pool(p)))


@values.value
class DecideInitiative(WAuto, kind="decide-initiative"):
    """D §A2.1: most singles takes the initiative; a tie is a roll-off."""

    def run(self, state: State, events: list[Event]) -> None:
        singles = [len(pool(state, s).singles) for s in (0, 1)]
        winner = wd.initiative_winner(*singles)
        if winner is None:
            events.append(Note(f"both sides have {singles[0]} singles: roll-off", f"{R}/initiative/tie"))
            push(state, RollOff("initiative"))
        else:
            initiative_won(state, winner, events)


def initiative_won(state: State, holder: int, events: list[Event]) -> None:
    """D §A2.3-2.5: wyrd dice (initiative player first), Channeling, spending wyrd dice, then re-deciding."""
    state.vars["initiative"] = holder
    events.append(Note(f"side {side_name(holder)} has the initiative", f"{R}/initiative/most-singles"))
    n = int(state.ctx.params["wyrd_dice_per_round"])
    for s in (holder, 1 - holder):
        add_wyrd(state, s, n)
    state.vars["singles_before"] = [len(pool(state, s).singles) for s in (0, 1)]
    push(state, Redecide())
    push(state, WyrdTurn(1 - holder))
    push(state, WyrdTurn(holder))
    push(state, ChannelTurn(1 - holder))
    push(state, ChannelTurn(holder))


def channelers(state: State, side: int) -> list[Model]:
    """The side's WIZARD and PRIEST fighters on the table (D §A2.4)."""
    return [m for m in standing(state, side) if has_kw(m, "WIZARD") or has_kw(m, "PRIEST")]


@values.value
class ChannelTurn(WAuto, kind="channel-turn"):
    """D §A2.4: a warband with a Wizard or Priest may channel (asked only when it has one)."""

    side: int

    def run(self, state: State, events: list[Event]) -> None:
        if channelers(state, self.side):
            push(state, ChannelChoice(self.side))


@values.value
class ChannelChoice(WChoice, kind="channel"):
    """D §A2.4: the player picks a Wizard or Priest to roll the Channeling die, or skips."""

    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("channel", m.id) for m in channelers(state, self.by)] + [Action("channel", option="skip")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.model is not None:
            push(state, ChannelRoll(action.model))


@values.value
class ChannelRoll(FighterD6, kind="channel-roll", label="channeling"):
    """D §A2.4: above the round number banks a wyrd die; a 1 bars that fighter's spell-book abilities."""

    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        p = state.ctx.params
        m = state.models[self.model]
        c = wd.channel(values[0], state.turn, int(p["channel_fail_face"]))
        gained = int(p["channel_wyrd_dice"]) if c.wyrd_dice else 0
        add_wyrd(state, m.side, gained)
        if c.spellbook_blocked:
            m.flags["spellbook_blocked"] = True
        outcome = f"+{gained} wyrd" if gained else "no wyrd die"
        events.append(
            DiceRolled("channeling", values, outcome + (", spell-book barred" if c.spellbook_blocked else ""), m.id)
        )


@values.value
class WyrdTurn(WAuto, kind="wyrd-turn"):
    """D §A2.3: a player with banked wyrd dice decides how to spend them (asked only when it has some)."""

    side: int

    def run(self, state: State, events: list[Event]) -> None:
        if wyrd_bank(state, self.side) > 0 and wd.wyrd_options(pool(state, self.side)):
            push(state, SpendWyrd(self.side))


@values.value
class SpendWyrd(WChoice, kind="wyrd"):
    """D §A2.3: a wyrd die adds a single or upgrades a single or group one step; bankable, so ``done`` keeps
    the rest for later rounds."""

    by: int

    def options(self, state: State) -> list[Action]:
        out = []
        for use in wd.wyrd_options(pool(state, self.by)):
            word = "add" if isinstance(use, wd.AddSingle) else "upgrade"
            out.append(Action("wyrd", option=f"{word} {use.face}"))
        return [*out, Action("wyrd", option="done")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.option == "done":
            return
        word, face = str(action.option).split()
        use: wd.WyrdUse = wd.AddSingle(int(face)) if word == "add" else wd.Upgrade(int(face))
        p = wd.apply_wyrd(pool(state, self.by), use)
        set_pool(state, self.by, p)
        state.sides[self.by].flags["wyrd"] = wyrd_bank(state, self.by) - 1
        events.append(
            Note(
                f"side {side_name(self.by)} spends a wyrd die ({action.option}): {show_pool(p)}", f"{R}/initiative/wyrd"
            )
        )
        push(state, WyrdTurn(self.by))


@values.value
class Redecide(WAuto, kind="redecide"):
    """D §A2.5: when singles changed, initiative is decided afresh (a tie: roll-off)."""

    def run(self, state: State, events: list[Event]) -> None:
        before = state.vars.get("singles_before", [0, 0])
        after = [len(pool(state, s).singles) for s in (0, 1)]
        holder = wd.redecide_initiative(int(state.vars["initiative"]), (before[0], before[1]), (after[0], after[1]))
        if holder is None:
            events.append(Note("singles changed and are level: roll-off", f"{R}/initiative/redecide"))
            push(state, RollOff("redecide"))
        else:
            initiative_settled(state, holder, events)


def initiative_settled(state: State, holder: int, events: list[Event]) -> None:
    """D §A2.6: leftover singles become reaction dice; the initiative holder picks who activates first (S 2)."""
    if holder != state.vars.get("initiative"):
        events.append(Note(f"side {side_name(holder)} now has the initiative", f"{R}/initiative/redecide"))
    state.vars["initiative"] = holder
    for s in (0, 1):
        p = pool(state, s)
        state.sides[s].flags["reaction_dice"] = wd.reaction_dice(p)
        set_pool(state, s, wd.AbilityDice((), p.groups))
    push(state, FirstActivation(holder))


@values.value
class FirstActivation(kernel_setup.ChooseSide[State], kind="first"):
    """S 2: the player with initiative decides which player makes the first activation ("me" or "opponent")."""

    by: int

    def chosen(self, state: State, first: int, events: list[Event]) -> None:
        state.vars["to_act"] = first
        state.phase = "combat"
        events.append(PhaseStarted(state.turn, "Combat"))
        events.append(Note(f"side {side_name(first)} activates first", f"{R}/combat/first"))

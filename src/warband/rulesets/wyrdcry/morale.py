"""The morale phase and the end of the round (digest ``wyrdcry.md`` §A8, N4 [C]; §A1 round and battle length):
morale tests, panic tests, then the next round, the extra round or the end of the battle.

Once half a warband is out of action (hired swords not counted) its leader, or its bravest hero, takes a morale
test (:class:`MoraleTest`; with neither it fails unrolled): failing makes the warband wavering for the battle. With
half out, rounded up, its player may withdraw it (the opponent wins) or carry on (:class:`Withdraw`).
Then panic tests, initiative player first (:class:`PanicTurn`, :class:`PanicTest`): a wavering warband's fighters
and those near a TERRIFYING enemy; a fail panics the fighter (-1 Fight and Shoot) [P]. Sigmar's Blessing may pass
either test instead (:class:`BlessTest`); Zeal, Unshakeable, Voice of Sigmar, a LEADER's Bravery and a Hold token
change them. :class:`RoundEnd` clears the round and starts the next one (``initiative.start_round``), rolls
for an extra round (:class:`ExtraRound`) or ends the battle (``scenario.finish_by_score``).
"""

from __future__ import annotations

import math

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, PhaseStarted, StatusChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import OneDie, push
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry import rolls
from warband.rulesets.wyrdcry.core import (
    FighterD6,
    R,
    State,
    WAuto,
    WChance,
    WChoice,
    enemies_of,
    has_kw,
    set_pool,
    side_name,
    standing,
    visible,
    warband_size,
)
from warband.rulesets.wyrdcry.factions import blessed, command_token_bonus, has_trait, spend_blessing, zeal
from warband.rulesets.wyrdcry.initiative import start_round
from warband.rulesets.wyrdcry.scenario import finish, finish_by_score, score_objectives, scores_each_round


def start_morale(state: State, events: list[Event]) -> None:
    """The morale phase (D §A8): the morale test of each side with half its fighters out (Sigmar's Blessing may pass
    it), then the panic tests, then the round's end."""
    state.phase = "morale"
    events.append(PhaseStarted(state.turn, "Morale"))
    holder = int(state.vars.get("initiative", 0))
    push(state, RoundEnd())
    push(state, PanicTurn(holder))
    for s in (1 - holder, holder):
        if may_withdraw(state, s):
            push(state, Withdraw(s))  # the player's choice, after its morale test
        if needs_morale(state, s):
            who = tester(state, s)
            if who is None:  # D §A8: leader and every Hero out: the test fails, no die is rolled
                events.append(Note(f"side {side_name(s)} has no leader or Hero to test: its morale fails", MORALE))
                waver(state, s, events)
            elif blessed(state, who) and not auto_pass(state, who):
                push(state, BlessTest(s, who.id, "morale"))  # Sigmar's Blessing (data §4.2)
            else:
                push(state, MoraleTest(s))


MORALE = f"{R}/morale/test"


def waver(state: State, side: int, events: list[Event]) -> None:
    """D §A8 [P]: a failed morale test makes the warband wavering for the rest of the battle."""
    state.sides[side].flags["wavering"] = True
    events.append(Note(f"side {side_name(side)}'s warband is wavering for the rest of the battle", MORALE))


def may_withdraw(state: State, side: int) -> bool:
    """D §A8: a warband with half its fighters (rounded up, hired swords not counted) out may withdraw."""
    n, out = warband_size(state, side)
    return bool(n) and out >= math.ceil(n * float(state.ctx.params["withdraw_out_fraction"]) - 1e-9)


@values.value
class Withdraw(WChoice, kind="withdraw"):
    """D §A8: in the morale phase a warband with half its fighters (rounded up) out of action may withdraw (all its
    fighters leave, not out of action; the opponent wins) or carry on: the player's choice, not the test's."""

    by: int

    def options(self, state: State) -> list[Action]:
        return [Action("carry-on"), Action("withdraw")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.kind != "withdraw":
            return
        state.sides[self.by].flags["withdrawn"] = True
        for m in standing(state, self.by):
            m.on_table = False
        finish(state, 1 - self.by, f"side {side_name(self.by)} withdrew", events)


def needs_morale(state: State, side: int) -> bool:
    """D §A8: a warband tests once ``morale_out_fraction`` of it is out of action (hired swords not counted), unless it
    already wavers."""
    n, out = warband_size(state, side)
    return (
        bool(n)
        and out >= n * float(state.ctx.params["morale_out_fraction"]) - 1e-9
        and not state.sides[side].flags.get("wavering")
    )


def tester(state: State, side: int) -> Model | None:
    """D §A8: the fighter who takes the morale test: the LEADER, else the HERO with the best Bravery; None (a fail)
    without either."""
    alive = standing(state, side)
    leader = next((m for m in alive if has_kw(m, "LEADER")), None)
    if leader is not None:
        return leader
    heroes = sorted((m for m in alive if has_kw(m, "HERO")), key=lambda m: (int(m.data["bravery"]), m.id))
    return heroes[0] if heroes else None


@values.value
class MoraleTest(WChance, kind="morale-test"):
    """D §A8: once half the warband is out of action, a D6 against the leader's Bravery (else the bravest
    hero's; with neither the test fails unrolled, :func:`start_morale`). Failing makes the warband wavering for
    the battle [P]; withdrawing is the player's choice (:class:`Withdraw`)."""

    side: int

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(int(state.ctx.params["morale_test_dice"]), 6, f"morale test of side {side_name(self.side)}")

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        who = tester(state, self.side)
        passed = who is not None and (
            auto_pass(state, who) or rolls.bravery_test(max(values), panic_bravery(state, who))
        )
        events.append(DiceRolled(f"morale ({who.id if who else 'no hero'})", values, "passed" if passed else "failed"))
        if not passed:
            waver(state, self.side, events)


def must_test_panic(state: State, m: Model) -> bool:
    """D §A8: fighters of a wavering warband, and those within ``fear_range`` of a TERRIFYING enemy."""
    if state.sides[m.side].flags.get("wavering"):
        return True
    r = float(state.ctx.params["fear_range"])
    return any(has_kw(e, "TERRIFYING") and gap(m, e) <= r + 1e-9 for e in enemies_of(state, m))


def panic_bravery(state: State, m: Model) -> int:
    """A fighter's Bravery for a panic test, or its LEADER's within ``leader_bravery_range`` (data §3 LEADER);
    one better near a visible friend with Voice of Sigmar (data §4.3, within ``voice_range``)."""
    best = int(m.data["bravery"])
    r = float(state.ctx.params["leader_bravery_range"])
    voice = float(state.ctx.params["voice_range"])
    better = 0
    for f in standing(state, m.side):
        if has_kw(f, "LEADER") and f.id != m.id and gap(m, f) <= r + 1e-9:
            best = min(best, int(f.data["bravery"]))
        if has_trait(f.data, "voice-of-sigmar") and f.id != m.id and gap(m, f) <= voice + 1e-9:
            better = 1 if visible(state, f, m) else better
    better += command_token_bonus(state, m.side, "hold", m)  # Captain's Command: Hold (data §4.1)
    return max(1, best - better)


def auto_pass(state: State, m: Model) -> bool:
    """Zeal ``zeal_frenzy_from``+: WITCH HUNTERS fighters pass Bravery tests automatically (data §4.3)."""
    z = zeal(state, m)
    return z is not None and z >= int(state.ctx.params["zeal_frenzy_from"])


@values.value
class PanicTurn(WAuto, kind="panic-turn"):
    """D §A8: panic tests, initiative player first, one fighter after another."""

    first: int

    def run(self, state: State, events: list[Event]) -> None:
        if state.phase == "over":
            return
        tested = set(state.vars.get("panic_tested", []))
        for s in (self.first, 1 - self.first):
            for m in standing(state, s):
                if m.id not in tested and must_test_panic(state, m):
                    state.vars["panic_tested"] = [*tested, m.id]
                    push(state, PanicTurn(self.first))
                    sure = has_trait(m.data, "unshakeable") or auto_pass(state, m)
                    if blessed(state, m) and not sure:
                        push(state, BlessTest(m.side, m.id, "panic"))  # Sigmar's Blessing (data §4.2)
                    else:
                        push(state, PanicTest(m.id))
                    return
        state.vars["panic_tested"] = []


@values.value
class PanicTest(FighterD6, kind="panic-test", label="panic test"):
    """D §A8 [P]: a D6 at or above Bravery passes; a fail panics the fighter (-1 Fight and Shoot) until the end
    of the next battle round (the test is taken at the end of this one)."""

    model: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        passed = has_trait(m.data, "unshakeable") or auto_pass(state, m)
        passed = passed or rolls.bravery_test(values[0], panic_bravery(state, m))
        events.append(DiceRolled("panic test", values, "passed" if passed else "panicked", m.id))
        if not passed:
            m.flags["panicked"] = state.turn + 1
            events.append(StatusChanged(m.id, "Panicked", True))


@values.value
class BlessTest(WChoice, kind="blessing-test", about="model"):
    """Sigmar's Blessing (data §4.2): before a Bravery test (a panic test, or the leader's morale test) the
    player may spend a banked wyrd die to pass it without rolling."""

    by: int
    model: str
    test: str

    def options(self, state: State) -> list[Action]:
        return [Action("blessing", self.model, option="pass"), Action("blessing", self.model, option="roll")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if action.option == "pass":
            spend_blessing(state, m, f"passes the {self.test} test", events)
            return
        push(state, MoraleTest(self.by) if self.test == "morale" else PanicTest(m.id))


@values.value
class RoundEnd(WAuto, kind="round-end"):
    """End of the round: leftover dice discarded [P]; Rampage's -1 Defense ends; then the next round, the
    extra-round roll or the end of the battle (D §A1, §A9 [P])."""

    def run(self, state: State, events: list[Event]) -> None:
        p = state.ctx.params
        if p["leftover_dice_discarded"]:
            for s in (0, 1):
                set_pool(state, s, wd.AbilityDice((), ()))
                state.sides[s].flags["reaction_dice"] = 0
        if scores_each_round(state):
            score_objectives(state, events)  # the scenario scores at the end of each battle round
        state.vars["command_tokens"] = []  # Captain's Command lasts until the round ends (data §4.1)
        for m in state.models.values():
            for k in ("rampaged", "spellbook_blocked"):
                m.flags.pop(k, None)
            if int(m.flags.get("panicked", 0)) <= state.turn:
                m.flags.pop("panicked", None)
        last = int(p["battle_rounds"])
        if state.turn < last or state.vars.get("extra_round"):
            if state.turn < last:
                start_round(state, events)
                return
            finish_by_score(state, events)
        elif state.turn == last and int(p["extra_round_from"]) <= 6:
            push(state, ExtraRound())
        else:
            finish_by_score(state, events)


@values.value
class ExtraRound(OneDie[State], kind="extra-round", label="extra round"):
    """D §A1 (W): after the last round a D6; on ``extra_round_from``+ one more round is played."""

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        more = values[0] >= int(state.ctx.params["extra_round_from"])
        events.append(DiceRolled("extra round", values, "one more round" if more else "the battle ends"))
        if more:
            state.vars["extra_round"] = True
            start_round(state, events)
        else:
            finish_by_score(state, events)

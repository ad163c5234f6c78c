"""Charge!: the declaration, the charge roll and move, the free Fight! after it, and the Counter-Charge and Flee!
interrupts that answer it.

Seed 004, Charge!: a model with line of sight to an enemy declares a charge, rolls as many dice as its MV at 2+
(flat), 4+ (light) or 6+ (dense terrain) and moves MV + 1" a success toward the enemy; a failed charge still moves
the whole distance; a charger with an enemy in its threat range may make a Fight! for free. Interrupts:
Counter-Charge (the charger moves first; attacks resolve in tandem; if the charger falls short the
counter-charger charges it) and Flee! (the target moves directly back its full movement first). Design:
``docs/design/gangfight-steps.md`` §3 (Charge!) and §5.

Where things are: :func:`check_charge` (may it be declared), :func:`declare_charge` (the declaration and its
interrupt window), :class:`ChargeRoll`, :class:`ChargeMove` (Flee!, the move, Counter-Charge),
:class:`FreeFight`. The Fire! interrupt against a charge resolves between the roll and the move.
"""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note
from warband.kernel.state import Model
from warband.kernel.steps import ModelDecision, push
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.attacks import FightGo, start_melee
from warband.rulesets.gangfight.core import (
    GFAuto,
    GFChance,
    R,
    State,
    count,
    declare,
    declared,
    density_between,
    enemy_target,
    foes_in_threat,
    move_away,
    pint,
    route_toward,
    standing,
    stat,
    visible,
    within_threat,
)
from warband.rulesets.gangfight.interrupts import FireBack, StrikeBack, open_window


def check_charge(state: State, m: Model, a: Action) -> list[Reason]:
    """Charge! may be declared at an enemy model in line of sight (seed 004, Charge!: the only condition the seed
    puts on it; a target beyond the longest charge may be declared at, and the charger then moves the whole
    distance rolled and falls short)."""
    t, bad = enemy_target(state, a, "charge")
    if t is None:
        return bad
    if not visible(state, m, t):
        return [
            (f"{R}/charge/visible", f"{m.id} may charge only a model it can see: {t.id} is out of its line of sight")
        ]
    return []


def declare_charge(state: State, m: Model, t: Model, band: bool = False) -> None:
    """``m`` declares a charge at ``t`` (its own action, or its part of a With Me! order when ``band``): the roll
    waits beneath ``t``'s interrupt window (seed 004, Interrupts: declared before any model moves)."""
    declare(state)
    push(state, ChargeRoll(m.id, t.id, False, band))
    open_window(state, m, t, "charge")


@values.value
class ChargeRoll(GFChance, kind="charge-roll", prompt="charge"):
    """Charge! (seed 004): MV dice at 2+/4+/6+ for flat/light/dense terrain; +1" per success on top of MV."""

    model: str
    target: str
    counter: bool
    band: bool

    def _pool(self, state: State) -> gd.PoolTest:
        m, t = state.models[self.model], state.models[self.target]
        return gd.charge_pool(stat(m, "MOV"), density_between(state, m.pos, t.pos), state.ctx.params)

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(max(1, self._pool(state).dice), pint(state, "die_sides"), "charge", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        pt = self._pool(state)
        s = count(state, values[: pt.dice], pt.tn) if pt.dice else 0
        dist = gd.charge_distance(stat(m, "MOV"), s, state.ctx.params)
        events.append(DiceRolled(f"charge at {pt.tn}+", values, f'{s} successes: {dist}"', m.id))
        push(state, ChargeMove(self.model, self.target, float(dist), self.counter, self.band))
        if not self.counter:
            # Fire! against a charge: after the charger's roll, before it moves (fire_interrupt_timing)
            for who in reversed(declared(state, "fire")):
                kind = next(str(d[0]) for d in state.vars["decl"] if d[1] == who)
                push(state, FireBack(who, self.model, kind[5:]))


@values.value
class ChargeMove(GFAuto, kind="charge-move"):
    """The charge move: the whole distance rolled toward the target, stopping at base contact; a failed charge
    still moves it (seed 004). Flee! moves the target away first; Counter-Charge resolves after."""

    model: str
    target: str
    distance: float
    counter: bool
    band: bool

    def run(self, state: State, events: list[Event]) -> None:
        m, t = state.models[self.model], state.models[self.target]
        if not standing(m) or not t.on_table:
            return
        fled = [] if self.counter else declared(state, "flee")
        if t.id in fled and standing(t):
            move_away(state, t, m, float(stat(t, "MOV")) * pint(state, "flee_multiplier"), events)
        left = route_toward(state, m, t, self.distance, events)
        reached = left <= 0.01
        events.append(
            Note(
                f"{m.id}'s charge {'reaches' if reached else 'falls short of'} {t.id}",
                f"{R}/charge/{'reach' if reached else 'short'}",
            )
        )
        counters = [] if self.counter else declared(state, "counter-charge")
        if self.counter:
            if standing(t) and within_threat(state, m, t, touching=True):
                start_melee(state, m, t, "fight", events, free=True)
            return
        if t.id in counters:
            if reached:
                # in tandem: the charger's attack first, then the counter-charger's, then removal (seed 004)
                push(state, StrikeBack(t.id, m.id))
            elif standing(t):
                push(state, ChargeRoll(t.id, m.id, True, False))
                return
        if foes_in_threat(state, m) and not self.band:  # With Me!: the free Fight! comes after the whole order
            push(state, FreeFight(m.id, m.side))


@values.value
class FreeFight(ModelDecision[State], kind="free-fight"):
    """After a charge, a model with an enemy in its threat range may make a free Fight! (seed 004, Charge!)."""

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        foes = foes_in_threat(state, m) if standing(m) else []
        return [*(Action("fight", m.id, e.id) for e in foes), Action("decline", m.id)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        """The free Fight! is a whole Fight! (seed 004, Charge! and Fight!): its move up to the threat range into
        base contact first (:class:`.attacks.FightGo`), then the attack."""
        if action.kind == "fight":
            push(state, FightGo(self.model, action.target or "", "fight"))

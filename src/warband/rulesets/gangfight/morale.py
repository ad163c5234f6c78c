"""Fear and Bravery: a party's nerve.

Digest B1 Fear: a Bravery test is WP dice at TN 3 (``bravery_tn``), using the leader's WP within 12"
(``leader_wp_range``); a party that saw a Hero incapacitated tests next turn, and its AP that turn are the
successes. Digest B2 End (PROPOSED): a party with ``broken_fraction`` of its models lost tests at the start of each
of its turns, AP = min(IV, successes). Terrifying creatures are not modelled (``docs/rules/gangfight.md``).
"""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import DiceSpec
from warband.kernel.events import DiceRolled, Event
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.core import (
    GFChance,
    P,
    State,
    ap,
    count,
    leader,
    pfloat,
    pint,
    pool,
    set_ap,
    standing,
    stat,
)


def bravery_wp(state: State, m: Model) -> int:
    """WP dice of a Bravery test: the leader's WP when within ``leader_wp_range`` of it (digest B1)."""
    lead = leader(state, m.side)
    wp = stat(m, "WP")
    if lead is not m and standing(lead) and gap(m, lead) <= pfloat(state, "leader_wp_range"):
        wp = max(wp, stat(lead, "WP"))
    return wp


@values.value
class BraveryRoll(GFChance, kind="bravery"):
    """A Bravery test: WP dice at TN 3; this turn's AP = min(IV, successes) (digest B1 Fear, B2 End)."""

    model: str

    def _pool(self, state: State) -> gd.PoolTest:
        return pool(state, bravery_wp(state, state.models[self.model]), pint(state, "bravery_tn"))

    def dice(self, state: State) -> DiceSpec:
        return DiceSpec(max(1, self._pool(state).dice), pint(state, "die_sides"), "bravery", self.model)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        m = state.models[self.model]
        pt = self._pool(state)
        s = count(state, values[: pt.dice], pt.tn)
        set_ap(m, gd.ap_after_bravery(stat(m, "IV"), s, state.ctx.params))
        events.append(DiceRolled("bravery", values, f"{s} successes: {ap(m)} AP", m.id))


def bravery_tests(state: State, side: int, ms: list[Model]) -> None:
    """At the start of ``side``'s turn: a broken party, or one that saw a Hero fall, tests Bravery, one roll a
    model of ``ms`` in their order (digest B1 Fear, B2 End)."""
    total = len(state.side_models(side))
    broken = state.vars["lost"][side] >= float(P(state, "broken_fraction")) * total
    if broken or state.vars["bravery_due"][side]:
        due = list(state.vars["bravery_due"])
        due[side] = False
        state.vars["bravery_due"] = due
        for m in reversed(ms):
            push(state, BraveryRoll(m.id))


def hero_fell(state: State, m: Model) -> None:
    """An incapacitated Hero leaving the table makes its party test Bravery next turn (digest B1 Fear)."""
    if m.data["rank"] == "Hero":
        due = list(state.vars["bravery_due"])
        due[m.side] = True
        state.vars["bravery_due"] = due

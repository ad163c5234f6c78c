"""Banding Actions: With Me!, Bring it Down! and On my Mark!.

Seed 004, Banding Actions: the leader spends an AP and nominates up to four other models within 6" (``banding_range``)
of its rank or lower (Hero > Veteran > Regular), none that has finished its activation, each spending an additional
AP; With Me!: all Move or Charge!, and those in base contact then make a free Fight!; Bring it Down!: all in melee
with one enemy, the leader makes one attack at +1 ATT and +1 DAM per model involved; On my Mark!: all with a
loaded ranged weapon in range of one enemy, the leader makes one ranged attack at +1 MRK and +1 DAM per model
involved; the leader's activation then ends. Digest B2 Banding; PROPOSED readings: ``banding_join_payer``,
``banding_bonus_counts_leader``, ``on_my_mark_unloads_all``. Design: ``docs/design/gangfight-steps.md`` §4.
"""

from __future__ import annotations

from typing import Any

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import Event, Note
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.gangfight import dice as gd
from warband.rulesets.gangfight.attacks import fire_reasons, start_melee, start_ranged
from warband.rulesets.gangfight.charge import FreeFight, declare_charge
from warband.rulesets.gangfight.core import (
    GFAuto,
    GFChoice,
    P,
    R,
    State,
    ap,
    declare,
    enemies_of,
    in_close_combat,
    knocked,
    pfloat,
    pint,
    set_ap,
    set_loaded,
    standing,
    stat,
    visible,
)
from warband.rulesets.gangfight.interrupts import open_window
from warband.rulesets.gangfight.movement import Destination
from warband.rulesets.gangfight.turn import end_activation

BAND_KINDS = ("with-me", "bring-it-down", "on-my-mark")


def engaged_with(state: State, m: Model, t: Model) -> bool:
    """In melee combat with ``t`` (Bring it Down!): base to base within ``close_combat_gap``, as a Fight! needs
    before it attacks (seed 004, Fight!: it moves to get base to base)."""
    return in_close_combat(state, m, t)


def mark_weapon(state: State, m: Model, t: Model) -> dict[str, Any] | None:
    """A loaded ranged weapon of ``m`` that may fire at ``t`` now (On my Mark!), the longest first."""
    ok = [w for w in m.data["ranged"] if not w.get("area") and not fire_reasons(state, m, t, w)]
    return max(ok, key=lambda w: (int(w["dam"]), float(w["range"])), default=None)


def member_reasons(state: State, kind: str, m: Model, target: str | None) -> list[Reason]:
    """What a band's kind asks of every member (the leader included): Bring it Down!: in close combat with the
    target; On my Mark!: a loaded ranged weapon with the target in range and sight, not in close combat."""
    if kind == "with-me":
        return []
    t = state.models.get(target or "")
    if t is None or not standing(t) or t.side == m.side:
        return [(f"{R}/band/target", f"{target} is not an enemy model on the table")]
    if kind == "bring-it-down" and not engaged_with(state, m, t):
        return [(f"{R}/band/same-target", f"{m.id} is not in close combat with {t.id}")]
    if kind == "on-my-mark" and mark_weapon(state, m, t) is None:
        return mark_reasons(state, m, t)
    return []


def mark_reasons(state: State, m: Model, t: Model) -> list[Reason]:
    """Why ``m`` cannot fire at ``t`` for On my Mark!: the rule its nearest-to-ready weapon breaks (out of range,
    out of sight, not loaded, in close combat), not always the loading (seed 004, Banding Actions)."""
    arms = [w for w in m.data["ranged"] if not w.get("area")]
    if not arms:
        return [(f"{R}/band/loaded", f"On my Mark!: {m.id} carries no ranged weapon to fire at {t.id}")]
    best = min((fire_reasons(state, m, t, w) for w in arms), key=len)
    return [(rule, f"On my Mark!: {text}") for rule, text in best]


def check_band(state: State, m: Model, a: Action) -> list[Reason]:
    """A Banding Action may be led (seed 004, Banding Actions): a kind of the three, what that kind asks of the
    leader, and at least one other model able to join (a Banding Action is performed by multiple models)."""
    if a.option not in BAND_KINDS:
        return [(f"{R}/band/kind", f"a Banding Action is one of {', '.join(BAND_KINDS)}")]
    if a.option == "with-me" and a.target is not None:
        return [(f"{R}/action/syntax", "With Me! names no target: 'band MODEL [with-me]'")]
    out = member_reasons(state, a.option, m, a.target)
    if not out:
        probe = BandNominate(m.id, a.option, a.target, (), m.side)
        if not any(not join_reasons(state, probe, x) for x in state.side_models(m.side)):
            out.append((f"{R}/band/several", "no other model can join: a Banding Action takes several models"))
    return out


def join_reasons(state: State, step: BandNominate, x: Model) -> list[Reason]:
    """Seed 004, Banding Actions: up to four others within 6", of the leader's rank or lower, none that has
    finished its activation, each paying an additional AP."""
    lead = state.models[step.leader]
    if x.side != lead.side or not standing(x) or x.id == lead.id:
        return [(f"{R}/band/whose", f"{x.id} is not another model of the leader's party on the table")]
    if x.id in step.joined:
        return [(f"{R}/band/twice", f"{x.id} has already joined")]
    if not gd.banding_size_ok(len(step.joined) + 1, state.ctx.params):
        return [(f"{R}/band/size", "a Banding Action takes the leader and four others at most")]
    if gap(lead, x) > pfloat(state, "banding_range") + 1e-9:
        return [(f"{R}/band/range", f'{x.id} is not within {P(state, "banding_range")}" of {lead.id}')]
    if not gd.may_band(lead.data["rank"], x.data["rank"]):
        return [(f"{R}/band/rank", f"a {lead.data['rank']} cannot include a {x.data['rank']}")]
    if x.flags.get("finished"):
        return [(f"{R}/band/finished", f"{x.id} has finished its activation")]
    if knocked(x):
        return [(f"{R}/band/knocked", f"{x.id} is knocked over")]
    payer, cost = join_payment(state, step, x)
    if ap(payer) < cost:
        return [(f"{R}/band/ap", f"{payer.id} has no Action Point left to pay for {x.id} joining")]
    return member_reasons(state, step.band, x, step.target)


def join_payment(state: State, step: BandNominate, x: Model) -> tuple[Model, int]:
    """Who pays the "additional Action Point" for ``x`` joining, and how many (seed 004, Banding Actions): each
    joiner from its own pool (``banding_join_payer = joiners``), or the leader (``leader``, PROPOSED)."""
    _, each = gd.banding_cost(len(step.joined) + 1, state.ctx.params)
    return (x, each) if each > 0 else (state.models[step.leader], pint(state, "banding_join_ap"))


@values.value
class BandNominate(GFChoice, kind="band", about="leader"):
    """The leader nominates the models that join its Banding Action, one at a time, then says 'done'."""

    leader: str
    band: str
    target: str | None
    joined: tuple[str, ...]
    by: int

    def options(self, state: State) -> list[Action]:
        lead = state.models[self.leader]
        out = [Action("join", lead.id, x.id) for x in state.side_models(lead.side) if not join_reasons(state, self, x)]
        return [*out, Action("done", lead.id)] if self.joined or not out else out

    def tries(self, state: State) -> list[Action]:
        lead = state.models[self.leader]
        return [*(Action("join", lead.id, x.id) for x in state.models.values()), Action("done", lead.id)]

    def reasons(self, state: State, action: Action) -> list[Reason]:
        if action.model != self.leader or action.kind not in ("join", "done"):
            return [(f"{R}/band/syntax", f"'join {self.leader} MODEL' or 'done {self.leader}'")]
        if action.kind == "done":
            if not self.joined and self.options(state) != [action]:
                return [(f"{R}/band/several", "nominate at least one other model (a Banding Action takes several)")]
            return []
        x = state.models.get(action.target or "")
        if x is None:
            return [(f"{R}/band/whose", f"{action.target} is not a model")]
        return join_reasons(state, self, x)

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        lead = state.models[self.leader]
        if action.kind == "join":
            x = state.models[action.target or ""]
            payer, cost = join_payment(state, self, x)
            set_ap(payer, ap(payer) - cost)
            events.append(Note(f"{x.id} joins {lead.id}'s {self.band}", f"{R}/band/join"))
            push(state, BandNominate(self.leader, self.band, self.target, (*self.joined, x.id), self.by))
            return
        execute_band(state, lead, self.band, self.target, self.joined, events)


def execute_band(
    state: State, lead: Model, kind: str, target: str | None, joined: tuple[str, ...], events: list[Event]
) -> None:
    """Carry out the band, then the leader's activation ends (seed 004: With Me!, Bring it Down!, On my Mark!)."""
    events.append(Note(f"{lead.id} leads {kind} with {len(joined)} others", f"{R}/band/{kind}"))
    end_activation(state, lead, events)
    members = (lead.id, *joined)
    if kind == "with-me":
        push(state, BandOrder(members, 0, lead.side))
        return
    t = state.models[target or ""]
    declare(state)
    push(state, BandAttack(lead.id, t.id, kind, members))
    open_window(state, lead, t, "fight" if kind == "bring-it-down" else "fire")


@values.value
class BandAttack(GFAuto, kind="band-attack"):
    """Bring it Down!: the leader's one melee attack at +1 ATT and +1 DAM per model involved; On my Mark!: its one
    ranged attack at +1 MRK and +1 DAM per model involved (seed 004). Every member's weapon is then unloaded
    (``on_my_mark_unloads_all``, PROPOSED)."""

    leader: str
    target: str
    how: str
    members: tuple[str, ...]

    def run(self, state: State, events: list[Event]) -> None:
        lead, t = state.models[self.leader], state.models[self.target]
        if not standing(lead) or not standing(t):
            return
        joined = len(self.members) - 1
        if self.how == "bring-it-down":
            att, dam = gd.bring_it_down(0, 0, joined, state.ctx.params)
            start_melee(state, lead, t, "fight", events, bonus=(att, dam))
            return
        w = mark_weapon(state, lead, t)
        if w is None:
            events.append(Note(f"{lead.id} can no longer fire at {t.id}", f"{R}/band/loaded"))
            return
        if P(state, "on_my_mark_unloads_all"):
            for mid in self.members[1:]:
                x = state.models[mid]
                xw = mark_weapon(state, x, t)
                if xw is not None and xw["reload"]:
                    set_loaded(x, xw["name"], False)
        mrk, dam = gd.on_my_mark(0, 0, joined, state.ctx.params)
        start_ranged(state, lead, t, w, mrk, dam, events)


@values.value
class BandOrder(GFChoice, kind="band-order", about="model"):
    """With Me!: each member in turn, the leader first, makes a Move or a Charge! (no AP of its own); when the
    order ends, each member in base to base contact with an enemy may make a free Fight! (seed 004)."""

    members: tuple[str, ...]
    index: int
    by: int

    @property
    def model(self) -> str:
        return self.members[self.index]

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        if not standing(m) or knocked(m):
            return [Action("hold", m.id)]
        out = [Action("move", m.id)]
        for e in enemies_of(state, m):
            if visible(state, m, e):  # seed 004, Charge!: line of sight is the only condition
                out.append(Action("charge", m.id, e.id))
        return [*out, Action("hold", m.id)]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        m = state.models[self.model]
        if self.index + 1 < len(self.members):
            push(state, BandOrder(self.members, self.index + 1, self.by))
        else:
            push(state, BandFights(self.members, 0, self.by))
        if action.kind == "move":
            push(state, Destination(m.id, float(stat(m, "MOV")), False))
        elif action.kind == "charge":
            declare_charge(state, m, state.models[action.target or ""], band=True)


@values.value
class BandFights(GFAuto, kind="band-fights"):
    """After With Me!'s order: the free Fight! of each member in base to base contact with an enemy, in order."""

    members: tuple[str, ...]
    index: int
    by: int

    def run(self, state: State, events: list[Event]) -> None:
        for i in range(self.index, len(self.members)):
            m = state.models[self.members[i]]
            # seed 004, With Me!: only the models that end in base to base contact get the free Fight!
            if standing(m) and in_close_combat(state, m):
                if i + 1 < len(self.members):
                    push(state, BandFights(self.members, i + 1, self.by))
                push(state, FreeFight(m.id, self.by))
                return

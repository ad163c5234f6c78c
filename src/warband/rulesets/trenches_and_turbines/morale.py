"""Leadership, Routed units and the casualty checks (seed 002, Resolving the Fight Action; Unit Coherency: LOSS OF
LEADER; digest §3.7 Pins, Leadership, Loss of Leader, Routed; §3.9: the loser of a Fight flees; §3.10: a VEHICLE is
Shaken instead of Routed).

Steps: a Leadership check (:class:`Leadership`), a Routed unit's Rally test when it activates (:class:`Rally`), a
flee (:class:`Flee`) and the casualty checks after a Fight (:class:`Checks`). Pins are in :mod:`pins`."""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import DiceSpec
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged
from warband.kernel.steps import push
from warband.rulesets.trenches_and_turbines.attacks import remove
from warband.rulesets.trenches_and_turbines.coherency import NewLeader
from warband.rulesets.trenches_and_turbines.context import State
from warband.rulesets.trenches_and_turbines.core import R, TTAuto, TTChance, d10s, set_unit, succeeds, ustate
from warband.rulesets.trenches_and_turbines.unit_moves import flee_goals, move_allow, place_unit, plan_flee
from warband.rulesets.trenches_and_turbines.units import is_vehicle, leader_of, members


def leadership_base(state: State, uid: str) -> int:
    ms = members(state, uid)
    lead = leader_of(state, uid) or (ms[0] if ms else None)
    return int(lead.data["leadership"]) if lead else 0


def leadership_target(state: State, uid: str, extra: int) -> int:
    """Leadership minus 1 per pin, minus the leaderless penalty, minus ``extra`` (digest §3.7)."""
    p = state.ctx.params
    u = ustate(state, uid)
    tn = leadership_base(state, uid) - int(p["pin_leadership_mod"]) * int(u["pins"]) - extra
    if u.get("leaderless"):
        tn -= int(p["leaderless_mod"])
    return tn


def push_leadership(state: State, uid: str, why: str, extra: int, flee_from: str | None = None) -> None:
    """A Leadership check; ``flee_from``: the unit that won the Fight this check is for (a fail then flees)."""
    push(state, Leadership(uid, why, leadership_target(state, uid, extra), flee_from or None))


@values.value
class Leadership(TTChance, kind="ld"):
    """A Leadership check of ``unit`` (``why``: its cause) at ``tn`` or less; ``flee_from``: the unit that won
    the Fight this check is for."""

    unit: str
    why: str
    tn: int
    flee_from: str | None = None

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, 1, f"ld {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        """Failed: a VEHICLE is Shaken (digest §3.10), any other unit Routed (and flees a lost Fight)."""
        uid = self.unit
        ok = succeeds(state.ctx.params, values[0], self.tn)
        events.append(
            DiceRolled(
                f"{self.why} Leadership check (need {self.tn} or less)", values, "passed" if ok else "failed", uid
            )
        )
        if not ok and members(state, uid):
            if is_vehicle(state, uid):
                set_unit(state, uid, shaken=int(state.ctx.params["vehicle_shaken_actions"]))
                events.append(StatusChanged(uid, "Shaken", True))
            else:
                rout(state, uid, events)
                flee_after_fight(state, self, events)


def rout(state: State, uid: str, events: list[Event]) -> None:
    """Routed, and treated as pinned (seed 002, Resolving the Fight Action)."""
    u = ustate(state, uid)
    if u["routed"]:
        return
    set_unit(state, uid, routed=True, overwatch=False, pins=max(1, u["pins"]))
    events.append(StatusChanged(uid, "Routed", True))


def flee_after_fight(state: State, step: Leadership, events: list[Event]) -> None:
    """Digest §3.9: the loser of a Fight that fails its Leadership is Routed and makes a full Move away (param
    ``fight_loss_flee``: 'away' from the winner, to its own 'edge', or 'none'); seed 002 has the winner Shift
    first, so the flee comes after the Shift."""
    mode = str(state.ctx.params["fight_loss_flee"])
    if not step.flee_from or mode == "none":
        return
    push(state, Flee(step.unit, step.flee_from if mode == "away" else None))


@values.value
class Flee(TTAuto, kind="flee"):
    """A flee Move (``unit_moves.plan_flee``): after a failed Rally toward the unit's own table edge (digest §3.7);
    with ``away`` (the Fight it lost, digest §3.9: 'makes a full Move away') straight away from that unit's
    models, else toward its own edge too. Models that reach the edge leave the table and are destroyed."""

    unit: str
    away: str | None = None

    def run(self, state: State, events: list[Event]) -> None:
        uid = self.unit
        if not members(state, uid):
            return
        placed, leaving = plan_flee(state, uid, move_allow(state, uid), flee_goals(state, uid, self.away))
        events.append(Note(f"{uid} flees", f"{R}/routed/flee"))
        for mid in leaving:
            remove(state, state.models[mid], "fled off the table", events)
        place_unit(state, placed, events)
        casualty_checks(state, uid, events)


def casualty_checks(state: State, uid: str, events: list[Event]) -> None:
    """After casualties: loss of the leader (a new coherency leader, seed 002, Unit Coherency; the LOSS OF
    LEADER test, digest §3.7) and the first drop to half strength (digest §3.7)."""
    p = state.ctx.params
    ms = members(state, uid)
    if not ms:
        return
    u = ustate(state, uid)
    if u["leader"] is not None and not state.models[u["leader"]].on_table:
        set_unit(state, uid, leaderless=True)
        events.append(Note(f"{uid} lost its leader", f"{R}/coherency/loss-of-leader"))
        push_leadership(state, uid, "loss of leader", int(p["loss_of_leader_mod"]))
        if len(ms) == 1:
            set_unit(state, uid, leader=ms[0].id)
        else:
            set_unit(state, uid, leader=None)
            push(state, NewLeader(uid))
    if p["half_strength_test"] and not u["half_tested"] and len(ms) * 2 <= u["start"] and u["start"] > 1:
        set_unit(state, uid, half_tested=True)
        push_leadership(state, uid, "half strength", 0)


@values.value
class Checks(TTAuto, kind="checks"):
    """The casualty checks of ``unit`` (:func:`casualty_checks`), after a Fight."""

    unit: str

    def run(self, state: State, events: list[Event]) -> None:
        casualty_checks(state, self.unit, events)


@values.value
class Rally(TTChance, kind="rally"):
    """Routed activation (digest §3.7): a Rally test at ``tn`` or less; pass = no longer Routed, pins halved, no
    Charge; fail = every action a Move toward its own table edge."""

    unit: str
    tn: int

    def dice(self, state: State) -> DiceSpec:
        return d10s(state, 1, f"rally {self.unit}", self.unit)

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        uid = self.unit
        ok = succeeds(state.ctx.params, values[0], self.tn)
        events.append(DiceRolled(f"rally (need {self.tn} or less)", values, "rallied" if ok else "failed", uid))
        if ok:
            pins = ustate(state, uid)["pins"]
            pins = pins // 2 if state.ctx.params["rally_halves_pins"] else pins
            set_unit(state, uid, routed=False, pins=pins)
            state.vars.update({"no_charge": True, "started_pinned": pins > 0})
            events.append(StatusChanged(uid, "Routed", False))
        else:
            for _ in range(int(state.vars["left"])):
                push(state, Flee(uid))
            state.vars["left"] = 0

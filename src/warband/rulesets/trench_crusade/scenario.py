"""The scenario's end: objectives, victory points and victory (digest §1 Winning; Claim No Man's Land scoring: the
objectives score at the end of each turn from ``objective_scoring_from_turn``, the game ends after its last turn,
or when a warband flees the field or has no model left on the table), and each model's fate for the result.
"""

from __future__ import annotations

from warband.kernel import battlefield
from warband.kernel.events import Event, GameEnded, Note
from warband.kernel.result import Fate, GameResult, ModelFate
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.core import TURN_OVER, R, State


def check_wipe(state: State, events: list[Event]) -> None:
    """A warband with no model left on the table has lost."""
    if state.phase in ("over", "deploy"):
        return
    empty = [s for s in (0, 1) if not any(m.on_table for m in state.side_models(s))]
    if len(empty) == 2:
        finish(state, None, "both warbands destroyed", events)
    elif empty:
        finish(state, 1 - empty[0], f"side {'AB'[empty[0]]} was wiped out", events)


def controller(state: State, at: tuple[float, float], radius: float) -> int | None:
    """Who holds an objective: more models within its radius (Down ones only if ``objective_down_counts``)."""
    down_counts = bool(state.ctx.params["objective_down_counts"])
    return battlefield.controller(
        state.models.values(), at, radius, lambda m: 0 if m.flags.get("down") and not down_counts else 1
    )


def end_of_turn(state: State, events: list[Event]) -> None:
    """Score the objectives, then start the next turn or end the game on victory points."""
    if state.turn >= int(state.ctx.params["objective_scoring_from_turn"]):
        vp = list(state.vars.get("vp", [0, 0]))
        for o in state.ctx.objectives:
            who = controller(state, o.at, o.radius)
            if who is not None:
                vp[who] += o.vp
                events.append(Note(f"side {'AB'[who]} holds {o.id}: +{o.vp} VP", f"{R}/scenario/objective"))
        state.vars["vp"] = vp
    if state.turn >= state.ctx.turns:
        finish(state, battlefield.vp_winner(state.vars.get("vp", [0, 0])), "victory points after the last turn", events)
        return
    state.phase = TURN_OVER


def finish(state: State, winner: int | None, reason: str, events: list[Event]) -> None:
    if state.phase == "over":
        return
    state.phase = "over"
    state.vars["winner"] = winner
    state.vars["reason"] = reason
    vp = state.vars.get("vp", [0, 0])
    events.append(GameEnded(winner, reason, (int(vp[0]), int(vp[1]))))


def result(state: State) -> GameResult | None:
    """The end of the game with each model's fate: Out of Action (``out``), else ``down``, else ``fled`` if its
    warband fled the field, else ``in play``; ``kills`` counts the enemies it took Out of Action (friends it took out,
    a shot into a melee gone astray, are ``friendly_kills``, and such a friend ``friendly_fire``); ``damage`` is its
    Blood markers."""
    if state.phase != "over":
        return None
    vp = state.vars.get("vp", [0, 0])
    models = tuple(model_fate(state, m) for m in state.models.values())
    return GameResult(
        state.vars.get("winner"), str(state.vars.get("reason", "")), (int(vp[0]), int(vp[1])), state.turn, models
    )


def model_fate(state: State, m: Model) -> ModelFate:
    spec = state.ctx.specs[m.id]
    fate: Fate = "in play"
    if m.flags.get("out") or m.flags.get("on_wheel"):  # Broken on the Wheel: the volunteer dies afterwards
        fate = "out"
    elif m.flags.get("down"):
        fate = "down"
    elif state.sides[m.side].flags.get("fled"):
        fate = "fled"
    return ModelFate(
        m.id,
        m.side,
        m.name,
        str(spec["type"]),
        int(spec["points"]),
        m.unit,
        fate,
        int(m.flags.get("kills", 0)),
        m.token("blood"),
        int(m.flags.get("friendly_kills", 0)),
        bool(m.flags.get("friendly_fire", False)),
    )

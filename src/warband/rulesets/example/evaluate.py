"""How good a position is for a side, for the agents (``Ruleset.evaluate``): the heuristic agent picks the action
whose outcomes evaluate best, and search (MCTS) judges the positions it reaches by the difference of the two
sides' values. Only the public state is read (the models, their tokens, ``state.vars``), never the rules' insides.

The value is a weighted sum of features in the game's own terms, zero-sum (``evaluate(s, 1) == -evaluate(s, 0)``):
victory points ahead, Wounds left on the table ahead, and the objectives the side would score if the round ended
now. The weights are set by hand here; the four games fit theirs to self-play results
(``scripts/calibrate_evaluation.py``).
"""

from __future__ import annotations

from warband.kernel.battlefield import controller

from .rules import State

#: Weight of each feature (victory points count 1).
WEIGHTS = {"vp": 1.0, "wounds": 0.5, "objectives": 0.3}


def held(state: State, side: int) -> int:
    """VP of the objectives ``side`` controls now (rule 10)."""
    return sum(
        o.vp for o in state.ctx.objectives if controller(state.models.values(), o.at, o.radius, lambda m: 1) == side
    )


def wounds(state: State, side: int) -> int:
    return sum(m.token("wounds") for m in state.side_models(side) if m.on_table)


def evaluate(state: State, side: int) -> float:
    """Side ``side``'s features minus the other side's, weighted."""
    other = 1 - side
    vp: list[int] = state.vars["vp"]
    return (
        WEIGHTS["vp"] * (vp[side] - vp[other])
        + WEIGHTS["wounds"] * (wounds(state, side) - wounds(state, other))
        + WEIGHTS["objectives"] * (held(state, side) - held(state, other))
    )

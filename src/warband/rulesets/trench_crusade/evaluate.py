"""A heuristic value of a Trench Crusade position, for agents (placeholder: material only)."""

from __future__ import annotations

from warband.kernel.state import GameState


def evaluate(state: GameState, side: int) -> float:
    """Points on the table for ``side`` minus the enemy's."""
    score = 0.0
    for m in state.models.values():
        if m.on_table:
            score += (1 if m.side == side else -1) * float(state.ctx.specs[m.id]["points"])
    return score

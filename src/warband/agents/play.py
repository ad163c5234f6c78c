"""Playing a whole game between two agents: the loop every face (simulate, demo, bench, lab) shares."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from warband.agents.base import Agent
from warband.kernel.engine import Game
from warband.kernel.events import Event
from warband.kernel.ruleset import GameResult

MAX_STEPS = 100_000


def play_out(
    game: Game,
    agents: Sequence[Agent],
    on_events: Callable[[Game, list[Event]], None] | None = None,
    max_steps: int = MAX_STEPS,
) -> GameResult:
    """Play ``game`` to its end: chance rolls from the game's own stream, each side's choices by its agent.

    Returns the result; raises RuntimeError if the game has not ended after ``max_steps`` steps."""
    for _ in range(max_steps):
        d = game.decision
        if d.kind == "over":
            result = game.result()
            assert result is not None
            return result
        if d.kind == "chance":
            events = game.roll()
        else:
            assert d.player is not None
            events = game.apply(agents[d.player].choose(game))
        if on_events is not None:
            on_events(game, events)
    raise RuntimeError(f"game did not end within {max_steps} steps")

"""The one play loop: every face that plays a game (``warband play``, ``warband position``, the lab, the demo,
the bench) steps it here.

At each decision point of the kernel protocol the loop asks whoever decides: a side's **player** (anything with
``choose(game) -> Action``: an agent, or a person at the console) for a choice, or the **dice** (a
:data:`DiceSource`: the game's seeded stream, forced values, or physical dice typed in) for a chance roll. Hooks
see each choice before it is applied (``on_choice``) and the events of every step (``on_events``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Protocol

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.events import Event
from warband.kernel.result import GameResult

__all__ = [
    "MAX_STEPS",
    "DiceSource",
    "Player",
    "forced_dice",
    "play",
    "play_out",
    "stream_dice",
]

MAX_STEPS = 100_000


class Player(Protocol):
    """Whoever decides a side's choices: an :class:`~warband.agents.base.Agent` or a person at the console."""

    def choose(self, game: Game) -> Action: ...


DiceSource = Callable[[Game], list[Event]]
"""Resolves the pending chance decision of a game and returns its events."""


def stream_dice(game: Game) -> list[Event]:
    """The game's own seeded stream (rolls queued with ``game.force`` first)."""
    return game.roll()


def forced_dice(rolls: Iterable[Sequence[int]], then: DiceSource | None = stream_dice) -> DiceSource:
    """Exactly these rolls, in order, for the next chance decisions; after them ``then`` (the stream by default;
    None: running out raises ``RuntimeError``)."""
    queue: Iterator[Sequence[int]] = iter(rolls)

    def roll(game: Game) -> list[Event]:
        values = next(queue, None)
        if values is not None:
            return game.roll(values)
        if then is None:
            raise RuntimeError("the forced dice ran out")
        return then(game)

    return roll


OnChoice = Callable[[Game, Player, Action], None]
"""Called with the game (still at the decision), the player who chose and the action, before it is applied."""
OnEvents = Callable[[Game, list[Event]], None]
"""Called after every step (a choice or a roll) with the events it caused."""


def play(
    game: Game,
    players: Sequence[Player] | dict[int, Player],
    dice: DiceSource = stream_dice,
    *,
    on_choice: OnChoice | None = None,
    on_events: OnEvents | None = None,
    steps: int | None = None,
) -> int:
    """Step ``game`` until it is over or ``steps`` steps (choices and rolls) have been played; return how many
    were played. Each choice goes to ``players[side]``, each roll to ``dice``. Without ``steps``, a game still
    going after :data:`MAX_STEPS` raises RuntimeError. Exceptions of a player or a hook (a person quitting)
    propagate, the game left at the decision that was asked."""
    limit = MAX_STEPS if steps is None else steps
    for n in range(limit):
        d = game.decision
        if d.kind == "over":
            return n
        if d.kind == "chance":
            events = dice(game)
        else:
            assert d.player is not None
            player = players[d.player]
            action = player.choose(game)
            if on_choice is not None:
                on_choice(game, player, action)
            events = game.apply(action)
        if on_events is not None:
            on_events(game, events)
    if steps is None and not game.over:
        raise RuntimeError(f"game did not end within {MAX_STEPS} steps")
    return limit


def play_out(
    game: Game,
    agents: Sequence[Player],
    on_events: OnEvents | None = None,
    max_steps: int = MAX_STEPS,
    dice: DiceSource = stream_dice,
) -> GameResult:
    """Play ``game`` to its end (see :func:`play`) and return its result; raises RuntimeError if it has not
    ended after ``max_steps`` steps."""
    play(game, agents, dice, on_events=on_events, steps=max_steps)
    result = game.result()
    if result is None:
        raise RuntimeError(f"game did not end within {max_steps} steps")
    return result

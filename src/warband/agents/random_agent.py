"""The ``random`` agent: a uniformly random legal action, from its own seeded stream."""

from __future__ import annotations

from typing import Any

from warband.agents.base import Agent
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.rng import Rng


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        super().__init__(seed, **options)
        self.rng = Rng(seed)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        return actions[self.rng.below(len(actions))]

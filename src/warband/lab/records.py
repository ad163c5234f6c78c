"""The records of a lab run, shared by the runner, its backends and its store: the run's configuration, one
finished game and one game that crashed (:mod:`warband.lab.simulate` plays them, :mod:`warband.lab.backends`
carries them between processes, :mod:`warband.lab.store` keeps them)."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warband.kernel.result import ModelFate
from warband.kernel.rng import derive_seed

SIDES = ("a", "b")


@dataclass(frozen=True, slots=True)
class SimulationConfig:
    """Everything that decides a run's results (``log_dir`` and ``log_first`` only decide which logs are kept
    and where)."""

    ruleset: str
    roster_a: Path
    roster_b: Path
    scenario: Path | None = None
    games: int = 100
    seed: int = 1
    agent_a: str = "random"
    agent_b: str = "random"
    params: Mapping[str, object] = field(default_factory=dict)
    log_dir: Path | None = None
    swap_sides: bool = True
    """Odd games put warband b first (the default: a warband's edge is then not mixed with the first seat's)."""
    log_first: int | None = None

    def game_seed(self, index: int) -> int:
        return derive_seed(self.seed, index)

    def log_path(self, index: int) -> Path | None:
        """Where game ``index``'s log goes: under ``log_dir``, for every game or only the first ``log_first``."""
        if self.log_dir is None or (self.log_first is not None and index >= self.log_first):
            return None
        return self.log_dir / f"game-{index:05d}.jsonl"

    def swapped(self, index: int) -> bool:
        """With ``swap_sides``, odd games put warband b (and its agent) first, to cancel any first-side edge."""
        return self.swap_sides and index % 2 == 1


@dataclass(frozen=True, slots=True)
class GameCrash:
    """A game of a run that raised instead of finishing: which one, and what it raised."""

    index: int
    seed: int
    error: str
    """The exception's type and message on one line (``ValueError: below() needs a positive bound, got 0``)."""
    trace: str = field(default="", repr=False)
    """The full traceback, for the person who fixes it."""

    def to_json(self, config: SimulationConfig | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {"index": self.index, "seed": self.seed, "error": self.error}
        if config is not None:
            out["replay"] = replay_command(config, self.index)
        return out


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One finished game, told from the run's point of view: ``winner`` and ``score`` are in a/b terms."""

    index: int
    seed: int
    winner: str | None
    reason: str
    score: tuple[int, int]
    turns: int
    decisions: int
    steps: int
    swapped: bool = False
    log: str | None = None
    models: tuple[ModelFate, ...] = ()
    """Per-model fates (``GameResult.models``) with ``side`` in the run's terms: 0 is warband a, 1 warband b
    (``SIDES[fate.side]``), also in a game with swapped seats."""
    first_player: str | None = None
    """The side (a/b) holding the first Initiative, when the ruleset exposes it (:data:`INITIATIVE_VAR`)."""
    log_text: str | None = field(default=None, repr=False)
    """The full log (JSON lines), kept only when asked for (``play_one(..., keep_log=True)``) to be stored."""
    elapsed_s: float = field(default=0.0, compare=False)
    crash: GameCrash | None = None
    """Set when the game raised instead of finishing (then the other fields say nothing about it)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "winner": self.winner,
            "reason": self.reason,
            "score": list(self.score),
            "turns": self.turns,
            "decisions": self.decisions,
            "steps": self.steps,
            "swapped": self.swapped,
            "log": self.log,
            "first_player": self.first_player,
        }


def replay_command(config: SimulationConfig, index: int) -> str:
    """The command that plays game ``index`` of the run ``config`` again, alone, showing any traceback."""
    parts = ["warband", "simulate", config.ruleset, "--a", str(config.roster_a), "--b", str(config.roster_b)]
    if config.scenario is not None:
        parts += ["--scenario", str(config.scenario)]
    parts += ["--seed", str(config.seed), "--agent-a", config.agent_a, "--agent-b", config.agent_b]
    for name, value in config.params.items():
        parts += ["--set", f"{name}={value}"]
    parts.append("--swap-sides" if config.swap_sides else "--no-swap-sides")
    parts += ["--game", str(index)]
    return shlex.join(parts)

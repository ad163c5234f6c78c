"""Typed events: what an action or a roll caused, for logs, the terminal table and reports.

Events are immutable values. The kernel defines the shapes every game needs; a ruleset may add its own
subclasses of :class:`Event`. ``describe()`` gives the one-line text a person reads.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Event:
    """Base of all events."""

    def describe(self) -> str:
        return type(self).__name__

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["event"] = type(self).__name__
        return data


@dataclass(frozen=True, slots=True)
class PhaseStarted(Event):
    turn: int
    phase: str

    def describe(self) -> str:
        return f"Turn {self.turn}: {self.phase} phase"


@dataclass(frozen=True, slots=True)
class Activated(Event):
    model: str
    side: int

    def describe(self) -> str:
        return f"{self.model} activates"


@dataclass(frozen=True, slots=True)
class ActionTaken(Event):
    model: str | None
    action: str
    side: int | None

    def describe(self) -> str:
        return f"{self.action}"


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    label: str
    values: tuple[int, ...]
    result: str
    model: str | None = None

    def describe(self) -> str:
        who = f"{self.model}: " if self.model else ""
        return f"{who}{self.label} rolled {list(self.values)} -> {self.result}"


@dataclass(frozen=True, slots=True)
class Moved(Event):
    model: str
    start: tuple[float, float]
    end: tuple[float, float]
    distance: float

    def describe(self) -> str:
        return (
            f'{self.model} moves {self.distance:.1f}" from ({self.start[0]:.1f}, {self.start[1]:.1f}) '
            f"to ({self.end[0]:.1f}, {self.end[1]:.1f})"
        )


@dataclass(frozen=True, slots=True)
class Placed(Event):
    """A model set up on the table (deployment): it came from nowhere, so no distance nor start is told."""

    model: str
    at: tuple[float, float]

    def describe(self) -> str:
        return f"{self.model} is deployed at ({self.at[0]:.1f}, {self.at[1]:.1f})"


def placements(moved: list[Event]) -> list[Event]:
    """The moves of a deployment as placements (the models' positions are set; only the telling differs)."""
    return [Placed(e.model, e.end) if isinstance(e, Moved) else e for e in moved]


@dataclass(frozen=True, slots=True)
class StatusChanged(Event):
    model: str
    status: str
    value: bool

    def describe(self) -> str:
        return f"{self.model} {'is now' if self.value else 'is no longer'} {self.status}"


@dataclass(frozen=True, slots=True)
class TokensChanged(Event):
    model: str
    token: str
    delta: int
    total: int

    def describe(self) -> str:
        sign = "+" if self.delta >= 0 else ""
        return f"{self.model}: {sign}{self.delta} {self.token} (now {self.total})"


@dataclass(frozen=True, slots=True)
class Removed(Event):
    model: str
    reason: str

    def describe(self) -> str:
        return f"{self.model} is removed ({self.reason})"


@dataclass(frozen=True, slots=True)
class Note(Event):
    text: str
    rule: str = ""

    def describe(self) -> str:
        return f"{self.text}" + (f" [{self.rule}]" if self.rule else "")


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    winner: int | None
    reason: str
    score: tuple[int, int]

    def describe(self) -> str:
        who = "a draw" if self.winner is None else f"side {'AB'[self.winner]} wins"
        return f"Game over: {who} ({self.reason}; score {self.score[0]}-{self.score[1]})"

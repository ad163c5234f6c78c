"""How a finished game ended, in terms every ruleset shares: :class:`GameResult` and one :class:`ModelFate` per
model, so the lab (simulate, report, compare, balance) reads every game the same way, with no per-game branch.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, cast

if TYPE_CHECKING:
    from warband.kernel.state import Model

__all__ = ["FATES", "Fate", "GameResult", "ModelFate", "fate_by_order"]

Fate = Literal["in play", "down", "out", "fled"]
#: The fates a model can end a game with: still ``in play``; ``down`` (the ruleset's 'hurt but on the table'
#: state); ``out`` (removed by the enemy); ``fled`` (left the table or the game by its own side's morale).
FATES: tuple[Fate, ...] = ("in play", "down", "out", "fled")


@dataclass(frozen=True, slots=True)
class ModelFate:
    """One model at the end of a game.

    ``type`` is the model's type or profile name (per-type statistics group by it); ``points`` its share of its
    warband's points (a ruleset that costs units gives each model its unit's points / models; 0 where the game
    has no points); ``unit`` the unit it belongs to, if the game has units; ``kills`` enemy models it took out
    (as the ruleset counts them, see its ``result``); ``damage`` damage it carries at the end. Friendly casualties
    are counted apart: ``friendly_kills`` models of its own side it took out (a shot into a melee that struck a
    friend), ``friendly_fire`` whether its own side took it out (it is ``out``, but no enemy's kill)."""

    id: str
    side: int
    name: str
    type: str
    points: float
    unit: str | None = None
    fate: Fate = "in play"
    kills: int = 0
    damage: int = 0
    friendly_kills: int = 0
    friendly_fire: bool = False

    def __post_init__(self) -> None:
        if self.fate not in FATES:
            raise ValueError(f"model {self.id}: fate must be one of {FATES}, found {self.fate!r}")

    @property
    def out(self) -> bool:
        """Removed by the enemy."""
        return self.fate == "out"

    @property
    def out_by_enemy(self) -> bool:
        """Removed by the enemy's doing (not by a friend's shot)."""
        return self.out and not self.friendly_fire

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "type": self.type,
            "points": self.points,
            "unit": self.unit,
            "fate": self.fate,
            "kills": self.kills,
            "damage": self.damage,
        }
        if self.friendly_kills:  # written only when it happened: results and logs of before read the same
            out["friendly_kills"] = self.friendly_kills
        if self.friendly_fire:
            out["friendly_fire"] = True
        return out

    @classmethod
    def from_json(
        cls, data: Mapping[str, Any], id: str | None = None, sides: tuple[str, ...] = ("a", "b")
    ) -> ModelFate:
        """The fate :meth:`to_json` wrote. Also reads the untyped per-model dicts stored before ModelFate
        (``side`` as ``"a"``/``"b"``, ``out``/``down`` flags, no ``type`` for Trenches and Turbines), with ``id``
        given by the key they were stored under."""
        side = data["side"]
        fate = data.get("fate")
        if fate is None:
            fate = "out" if data.get("out") else "down" if data.get("down") else "in play"
        name = str(data.get("name", ""))
        return cls(
            id=str(data.get("id", id)),
            side=sides.index(side) if isinstance(side, str) else int(side),
            name=name,
            type=str(data.get("type") or name),
            points=_number(data.get("points") or 0),
            unit=None if data.get("unit") is None else str(data["unit"]),
            fate=cast(Fate, str(fate)),
            kills=int(data.get("kills") or 0),
            damage=int(data.get("damage") or 0),
            friendly_kills=int(data.get("friendly_kills") or 0),
            friendly_fire=bool(data.get("friendly_fire", False)),
        )


def _number(value: Any) -> float:
    """Points as stored: whole numbers stay ints (so JSON and equality read as before)."""
    number = float(value)
    return int(number) if number.is_integer() else number


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a finished game ended: the winner (0, 1 or None for a draw), why, the score and per-model fates."""

    winner: int | None
    reason: str
    score: tuple[int, int]
    turns: int
    models: tuple[ModelFate, ...] = field(default_factory=tuple)

    def to_json(self) -> dict[str, Any]:
        return {
            "winner": self.winner,
            "reason": self.reason,
            "score": list(self.score),
            "turns": self.turns,
            "models": [m.to_json() for m in self.models],
        }

    def matches(self, logged: Mapping[str, Any]) -> bool:
        """Whether a logged result says the same as this one: equal to :meth:`to_json`, or, for a log written
        before ModelFate (``models`` a mapping of id to an untyped dict), the same ending and each model's side,
        whether it was taken out, and its kills."""
        mine: dict[str, Any] = json.loads(json.dumps(self.to_json()))
        models = logged.get("models")
        if not isinstance(models, Mapping):
            return bool(dict(logged) == mine)
        if {k: v for k, v in logged.items() if k != "models"} != {k: v for k, v in mine.items() if k != "models"}:
            return False
        new = {m.id: m for m in self.models}
        old = {str(k): ModelFate.from_json(v, str(k)) for k, v in models.items()}
        return old.keys() == new.keys() and all(
            (o.side, o.out, o.kills) == (new[i].side, new[i].out, new[i].kills) for i, o in old.items()
        )

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameResult:
        models = data.get("models") or []
        fates = (
            [ModelFate.from_json(v, k) for k, v in models.items()]
            if isinstance(models, Mapping)
            else [ModelFate.from_json(v) for v in models]
        )
        return cls(
            None if data.get("winner") is None else int(data["winner"]),
            str(data.get("reason", "")),
            (int(data["score"][0]), int(data["score"][1])),
            int(data.get("turns", 0)),
            tuple(fates),
        )


def fate_by_order(
    m: Model, order: Sequence[Sequence[str]], points: Sequence[Sequence[float]], fate: Fate, damage: int
) -> ModelFate:
    """The fate of ``m`` in a game that keeps each side's model ids in roster order (``order``) and each model's
    points side by side in the same order (``points``; 0 for a model past the end of its side's list). Its type
    is the model's kind, its kills the ``kills`` flag the rules count; ``fate`` and ``damage`` are the game's
    own reading of the model."""
    i = order[m.side].index(m.id)
    side = points[m.side]
    return ModelFate(
        id=m.id,
        side=m.side,
        name=m.name,
        type=m.kind,
        points=side[i] if i < len(side) else 0,
        fate=fate,
        kills=int(m.flags.get("kills", 0)),
        damage=damage,
    )

"""Game state: models, sides, the pending-step stack and the random stream; no rules live here.

The state is plain data so that it clones cheaply, round-trips through JSON exactly and never holds a
suspended Python frame. Conventions every ruleset follows (they keep ``clone()`` shallow and safe):

* values in ``Model.flags``, ``Model.tokens``, ``SideState.flags`` and ``GameState.vars`` are JSON-native
  (``None``, bool, int, float, str, lists and dicts of those); the entries of ``GameState.stack`` are typed,
  immutable step records (:mod:`warband.kernel.records`);
* they are never mutated in place: a rule replaces a list or dict instead of appending to it
  (``state.vars["done"] = [*done, m.id]``), so clones can share them;
* ``Model.data`` is the model's static profile (from its roster) and is shared by all clones.

``GameState.ctx`` is the game's immutable context (table, scenario, parameters, rosters), shared by all clones
and rebuilt by the ruleset when a state is loaded from JSON. ``GameState`` is generic over the context's type,
so a ruleset's rules code is type-checked against its own context (``GameState[TCContext]``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

from warband.kernel.records import Step, step_to_json
from warband.kernel.rng import Rng

C = TypeVar("C")
_new_model = object.__new__


class Model:
    """A model on (or off) the table: where it stands and what the game has done to it."""

    __slots__ = (
        "data",
        "flags",
        "height",
        "id",
        "kind",
        "name",
        "on_table",
        "radius",
        "side",
        "tokens",
        "unit",
        "x",
        "y",
        "z",
    )

    def __init__(
        self,
        id: str,
        side: int,
        name: str,
        kind: str,
        radius: float,
        height: float,
        data: dict[str, Any],
        x: float = 0.0,
        y: float = 0.0,
        z: float = 0.0,
        on_table: bool = False,
        unit: str | None = None,
        tokens: dict[str, int] | None = None,
        flags: dict[str, Any] | None = None,
    ) -> None:
        self.id = id
        self.side = side
        self.name = name
        self.kind = kind
        self.radius = radius
        self.height = height
        self.data = data
        self.x = x
        self.y = y
        self.z = z
        self.on_table = on_table
        self.unit = unit
        self.tokens = tokens if tokens is not None else {}
        self.flags = flags if flags is not None else {}

    @property
    def pos(self) -> tuple[float, float]:
        return (self.x, self.y)

    def copy(self) -> Model:
        # the hot path of every clone (lookahead, search): fill the slots directly instead of going through
        # __init__'s defaults; the same values as Model(...) with copies of tokens and flags
        other = _new_model(Model)
        other.id = self.id
        other.side = self.side
        other.name = self.name
        other.kind = self.kind
        other.radius = self.radius
        other.height = self.height
        other.data = self.data
        other.x = self.x
        other.y = self.y
        other.z = self.z
        other.on_table = self.on_table
        other.unit = self.unit
        other.tokens = self.tokens.copy()
        other.flags = self.flags.copy()
        return other

    def token(self, name: str) -> int:
        return self.tokens.get(name, 0)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "side": self.side,
            "name": self.name,
            "kind": self.kind,
            "radius": self.radius,
            "height": self.height,
            "x": self.x,
            "y": self.y,
            "z": self.z,
            "on_table": self.on_table,
            "unit": self.unit,
            "tokens": dict(self.tokens),  # copies, as in copy(): the rules assign their keys in place
            "flags": dict(self.flags),
        }

    @classmethod
    def from_json(cls, d: dict[str, Any], data: dict[str, Any]) -> Model:
        return cls(
            d["id"],
            int(d["side"]),
            d["name"],
            d["kind"],
            float(d["radius"]),
            float(d["height"]),
            data,
            float(d["x"]),
            float(d["y"]),
            float(d["z"]),
            bool(d["on_table"]),
            d.get("unit"),
            dict(d.get("tokens", {})),
            dict(d.get("flags", {})),
        )

    def __repr__(self) -> str:
        return f"Model({self.id} {self.name!r} at ({self.x:.2f},{self.y:.2f},{self.z:.1f}))"


class SideState:
    """One player's side: its name and side-wide flags (Shaken, fled, victory points...)."""

    __slots__ = ("flags", "name")

    def __init__(self, name: str, flags: dict[str, Any] | None = None) -> None:
        self.name = name
        self.flags = flags if flags is not None else {}

    def copy(self) -> SideState:
        return SideState(self.name, dict(self.flags))

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "flags": dict(self.flags)}


class GameState(Generic[C]):
    """Everything that changes during a game, plus a reference to the immutable context."""

    __slots__ = ("ctx", "models", "phase", "rng", "sides", "stack", "state_id", "turn", "vars")

    def __init__(self, ctx: C, models: dict[str, Model], sides: list[SideState], rng: Rng) -> None:
        self.ctx = ctx
        self.models = models
        self.sides = sides
        self.rng = rng
        self.turn = 0
        self.phase = "setup"
        self.stack: list[Step] = []
        self.vars: dict[str, Any] = {}
        self.state_id = 0

    def clone(self) -> GameState[C]:
        """An independent copy; the context and models' static data are shared."""
        other = GameState(
            self.ctx, {k: m.copy() for k, m in self.models.items()}, [s.copy() for s in self.sides], self.rng.copy()
        )
        other.turn = self.turn
        other.phase = self.phase
        other.stack = list(self.stack)
        other.vars = dict(self.vars)
        other.state_id = self.state_id
        return other

    def side_models(self, side: int) -> list[Model]:
        return [m for m in self.models.values() if m.side == side]

    def to_json(self) -> dict[str, Any]:
        """The changing part of the state as JSON-native data (the context is saved by the game header): a snapshot
        that later steps do not change (``vars`` copied as :meth:`clone` copies it: the rules assign its keys in
        place, its values they replace), so the web table's rollback and its store's writer thread save the
        position as it was."""
        return {
            "turn": self.turn,
            "phase": self.phase,
            "state_id": self.state_id,
            "rng": self.rng.to_json(),
            "sides": [s.to_json() for s in self.sides],
            "models": [m.to_json() for m in self.models.values()],
            "stack": [step_to_json(s) for s in self.stack],
            "vars": dict(self.vars),
        }

    def load_json(
        self,
        d: dict[str, Any],
        profiles: dict[str, dict[str, Any]],
        decode_step: Callable[[Any, str], Step],
    ) -> None:
        """Overwrite the changing part from :meth:`to_json` output; ``profiles`` maps model id -> static data,
        ``decode_step`` reads one pending step (the ruleset's :meth:`SteppedRules.decode_step`)."""
        self.turn = int(d["turn"])
        self.phase = str(d["phase"])
        self.state_id = int(d["state_id"])
        self.rng = Rng.from_json(d["rng"])
        self.sides = [SideState(s["name"], dict(s["flags"])) for s in d["sides"]]
        self.models = {m["id"]: Model.from_json(m, profiles[m["id"]]) for m in d["models"]}
        self.stack = [decode_step(x, f"state.stack[{i}]") for i, x in enumerate(d["stack"])]
        self.vars = dict(d["vars"])

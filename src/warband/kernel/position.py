"""Position files, like chess's FEN but JSON: their shape (pydantic), their JSON Schema and loading one into a
:class:`~warband.kernel.engine.Game`. Every face (the CLI's ``warband legal``, the web table) loads positions
here, so a file is accepted or refused the same way everywhere.

A position file is exactly ``Game.to_json()``: the log header (which rules, parameters, warbands, scenario and
seed) and the state (the changing part of the game). ``docs/position.md`` describes it and
``docs/schemas/position.schema.json`` is its JSON Schema (:func:`position_schema`;
``python -m warband.kernel.position`` prints it).
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any, Literal

import pydantic
from pydantic import BaseModel, ConfigDict, Field

from warband.kernel import ruleset as registry
from warband.kernel.engine import LOG_FORMAT, Game
from warband.kernel.errors import FileProblemsError, PositionError, Problem, WarbandError
from warband.kernel.roster import problems_from_validation, read_document

__all__ = ["Position", "load_position", "position_schema"]


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow")


class PositionHeader(_Open):
    """The log header: which game this is."""

    format: Literal["warband-log"] = Field(description=f"Always {LOG_FORMAT!r}.")
    format_version: int = Field(
        default=2, description="Version of the log/position format (2: steps are typed records)."
    )
    warband: str | None = Field(default=None, description="warband version that wrote the file.")
    ruleset: str = Field(description="Ruleset id, e.g. 'trench-crusade'.")
    ruleset_version: str = Field(description="Behaviour version of the ruleset.")
    params: dict[str, Any] = Field(description="Resolved rule parameters (name -> value).")
    rosters: list[dict[str, Any]] = Field(min_length=2, max_length=2, description="Validated warbands A, B.")
    scenario: dict[str, Any] = Field(description="Validated scenario document.")
    seed: int = Field(description="Seed of the dice stream.")


class PositionModel(BaseModel):
    """A model's changing state (its profile comes from the rosters in the header)."""

    model_config = ConfigDict(extra="forbid")

    id: str
    side: int = Field(ge=0)
    name: str
    kind: str
    radius: float = Field(ge=0, description="Base radius, inches.")
    height: float = Field(ge=0, description="Model height, inches.")
    x: float
    y: float
    z: float = Field(description="Height of the surface it stands on, inches.")
    on_table: bool
    unit: str | None = None
    tokens: dict[str, int] = Field(default_factory=dict)
    flags: dict[str, Any] = Field(default_factory=dict)


class PositionSide(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    flags: dict[str, Any] = Field(default_factory=dict)


class PositionState(BaseModel):
    """``GameState.to_json()``."""

    model_config = ConfigDict(extra="forbid")

    turn: int = Field(ge=0)
    phase: str
    state_id: int = Field(ge=0, description="Increases by one with every step; rejects stale requests.")
    rng: list[int] = Field(min_length=2, max_length=2, description="[seed, counter] of the dice stream.")
    sides: list[PositionSide]
    models: list[PositionModel]
    stack: list[dict[str, Any]] = Field(
        description="Pending steps (reactions, rolls, destinations), top last: {'step': kind, ...its fields}."
    )
    vars: dict[str, Any] = Field(description="Ruleset bookkeeping (active model, deployment zones...).")


class Position(BaseModel):
    """A position file: ``Game.to_json()``."""

    model_config = ConfigDict(extra="forbid", title="warband position")

    header: PositionHeader
    state: PositionState


def position_schema() -> dict[str, Any]:
    """The JSON Schema of a position file (kept in ``docs/schemas/position.schema.json``)."""
    schema = Position.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def load_position(path: Path) -> Game:
    """A game at the position saved in ``path``; every problem raises PositionError naming file and field."""
    file = str(path)
    raw = read_document(path, PositionError)
    try:
        Position.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise PositionError(problems_from_validation(file, exc)) from None
    problems = header_problems(file, raw["header"])
    if not problems:
        problems = roster_model_problems(file, raw)
    if problems:
        raise PositionError(problems)
    try:
        game = Game.from_json(raw, file=file)
    except WarbandError as exc:
        if isinstance(exc, FileProblemsError):
            raise
        raise PositionError([Problem(file, "header", str(exc))]) from None
    except KeyError as exc:
        raise PositionError(
            [
                Problem(
                    file,
                    "state",
                    f"cannot restore the game: no {exc} (a missing field or an id that the rosters do not have)",
                )
            ]
        ) from None
    except (IndexError, TypeError, ValueError) as exc:
        raise PositionError([Problem(file, "state", f"cannot restore the game: {_first_line(exc)}")]) from None
    _probe(game, file)
    return game


def header_problems(file: str, header: dict[str, Any]) -> list[Problem]:
    """The header's warbands and scenario checked by the ruleset's own rules, as a file of each would be: an
    edit the loader would refuse (a move of 1000, a weapon no list has, a table Infinity wide) is named with
    its place (``header.rosters[1].models[0].move``) and the loader's message."""
    try:
        rs = registry.get(str(header["ruleset"]))
    except WarbandError as exc:
        return [Problem(file, "header.ruleset", str(exc))]
    out: list[Problem] = []
    for i, doc in enumerate(header["rosters"]):
        out.extend(_under(f"header.rosters[{i}]", rs.stored_roster_problems(file, doc)))
    with tempfile.TemporaryDirectory(prefix="warband-position-") as tmp:
        path = Path(tmp) / "scenario.json"
        path.write_text(json.dumps(header["scenario"]), encoding="utf-8")
        try:
            rs.load_scenario(path)
        except FileProblemsError as exc:
            out.extend(_under("header.scenario", [Problem(file, p.place, p.message) for p in exc.problems]))
        except WarbandError as exc:
            out.append(Problem(file, "header.scenario", str(exc).replace(str(path), "the scenario")))
    return out


def roster_model_problems(file: str, raw: dict[str, Any]) -> list[Problem]:
    """Every model the header's warbands field is in the state, on the side whose warband fields it: a model
    left out, or moved to the other side, is no position a game reaches."""
    header = raw["header"]
    try:
        fresh = Game.new(
            registry.get(header["ruleset"]),
            header["rosters"],
            header["scenario"],
            int(header["seed"]),
            header["params"],
        )
    except (WarbandError, KeyError, TypeError, ValueError) as exc:
        return [Problem(file, "header", f"cannot set up a game from the header: {_first_line(exc)}")]
    expected = {m.id: m.side for m in fresh.state.models.values()}
    found = {str(m.get("id")): (i, m.get("side")) for i, m in enumerate(raw["state"]["models"])}
    out: list[Problem] = [
        Problem(file, f"state.models[{i}].id", f"{mid!r} is not a model of the header's warbands")
        for mid, (i, _) in found.items()
        if mid not in expected
    ]
    for mid, side in expected.items():
        if mid not in found:
            out.append(
                Problem(
                    file,
                    "state.models",
                    f"{mid} (side {'AB'[side]}) is missing; every model the warbands field is listed",
                )
            )
        elif found[mid][1] != side:
            i, was = found[mid]
            out.append(
                Problem(
                    file, f"state.models[{i}].side", f"{mid} belongs to side {'AB'[side]} ({side}), found side {was!r}"
                )
            )
    return out


def _under(prefix: str, problems: list[Problem]) -> list[Problem]:
    return [Problem(p.file, f"{prefix}.{p.place}" if p.place else prefix, p.message) for p in problems]


def _first_line(exc: Exception) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _probe(game: Game, file: str) -> None:
    """Ask the rules for the decision and the legal actions, so that an impossible state fails here."""
    try:
        game.legal_actions()
    except KeyError as exc:
        raise PositionError([Problem(file, "state.vars", f"the rules cannot read this state: no {exc}")]) from None
    except (IndexError, TypeError, ValueError) as exc:
        raise PositionError([Problem(file, "state", f"the rules cannot read this state: {_first_line(exc)}")]) from None


if __name__ == "__main__":  # regenerate docs/schemas/position.schema.json
    print(json.dumps(position_schema(), indent=2))

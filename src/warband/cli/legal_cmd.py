"""``warband legal POSITION.json`` and ``warband position``: positions, like chess's FEN but JSON.

A position file is exactly ``Game.to_json()``::

    {"header": {"format": "warband-log", "format_version": 2, "warband": "0.1.0",
                "ruleset": "trench-crusade", "ruleset_version": "1.0.0", "params": {...},
                "rosters": [{...side A warband...}, {...side B warband...}], "scenario": {...}, "seed": 1},
     "state": {"turn": 1, "phase": "activation", "state_id": 42, "rng": [seed, counter],
               "sides": [{"name": ..., "flags": {...}}, ...],
               "models": [{"id": "a1", "side": 0, "name": ..., "kind": ..., "radius": ..., "height": ...,
                           "x": ..., "y": ..., "z": ..., "on_table": true, "unit": null,
                           "tokens": {...}, "flags": {...}}, ...],
               "stack": [...pending steps...], "vars": {...}}}

The header is the log header (it says which rules, parameters, warbands, scenario and seed); the state is the
changing part of the game. ``docs/position.md`` describes it and ``docs/schemas/position.schema.json`` is its
JSON Schema (:func:`position_schema`). ``warband position`` writes one after K steps of play.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
import typer
from pydantic import BaseModel, ConfigDict, Field

from warband.agents.base import Agent
from warband.cli.play_cmd import build_agent, load_game
from warband.kernel import ruleset as registry
from warband.kernel.engine import LOG_FORMAT, Game
from warband.kernel.errors import FileProblemsError, PositionError, Problem, WarbandError
from warband.kernel.log import write_text_atomic
from warband.kernel.roster import problems_from_validation, read_document


# --------------------------------------------------------------------------------------------- the file shape
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
    try:
        game = Game.from_json(raw)
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


# --------------------------------------------------------------------------------------------- legal
def legal_report(game: Game, explain: bool) -> dict[str, Any]:
    """The decision, the legal actions and (with ``explain``) every other action one might try, with why not;
    ``about`` maps an action's text to what the ruleset says about it (a scenario action's name and guideline)."""
    d = game.decision
    decision = {
        "kind": d.kind,
        "prompt": d.prompt,
        "player": d.player,
        "model": d.model,
        "dice": str(d.dice) if d.dice is not None else None,
        "text": d.text,
        "state_id": game.state.state_id,
    }
    legal = game.legal_actions()
    illegal: list[dict[str, Any]] = []
    about: dict[str, str] = {}
    for action in legal:
        text = game.ruleset.describe_action(game.state, action)
        if text:
            about[str(action)] = text
    if explain and d.kind == "choice":
        for action in game.ruleset.all_actions(game.state):
            reasons = game.why_illegal(action)
            if reasons:
                illegal.append({"action": str(action), "reasons": [{"rule": r, "message": m} for r, m in reasons]})
                text = game.ruleset.describe_action(game.state, action)
                if text:
                    about[str(action)] = text
    return {"decision": decision, "legal": [str(a) for a in legal], "illegal": illegal, "about": about}


def _print_report(game: Game, report: dict[str, Any]) -> None:
    d = report["decision"]
    if d["kind"] == "over":
        result = game.result()
        typer.echo(f"The game is over: {result.to_json() if result else ''}")
    elif d["kind"] == "chance":
        typer.echo(f"Chance rolls {d['dice']} (state {d['state_id']})")
    else:
        side = "AB"[d["player"]] if d["player"] in (0, 1) else d["player"]
        model = f" for {d['model']}" if d["model"] else ""
        typer.echo(f"Side {side} decides: {d['prompt']}{model} (state {d['state_id']})")
    about = report.get("about", {})
    for i, action in enumerate(report["legal"], start=1):
        typer.echo(f"  {i:>3}. {action}" + (f"   — {about[action]}" if action in about else ""))
    if report["illegal"]:
        typer.echo("Not allowed:")
    for item in report["illegal"]:
        typer.echo(f"  {item['action']}" + (f"   — {about[item['action']]}" if item["action"] in about else ""))
        for reason in item["reasons"]:
            typer.echo(f"      [{reason['rule']}] {reason['message']}")


def legal(
    position: Annotated[Path, typer.Argument(metavar="POSITION.json", help="A position file (Game.to_json).")],
    explain: Annotated[bool, typer.Option("--explain", help="Also list illegal actions with their rules.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON.")] = False,
) -> None:
    """The decision and the legal actions of a position; --explain adds why the others are not allowed."""
    try:
        game = load_position(position)
    except FileProblemsError as exc:
        for problem in exc.problems:
            typer.echo(f"error: {problem}", err=True)
        raise typer.Exit(2) from None
    report = legal_report(game, explain)
    if as_json:
        typer.echo(json.dumps(report, indent=2))
    else:
        _print_report(game, report)


# --------------------------------------------------------------------------------------------- position
def advance(game: Game, agents: list[Agent], steps: int) -> int:
    """Play up to ``steps`` steps (rolls from the seeded stream); return how many were played."""
    for n in range(steps):
        d = game.decision
        if d.kind == "over":
            return n
        if d.kind == "chance":
            game.roll()
        else:
            assert d.player is not None
            game.apply(agents[d.player].choose(game))
    return steps


def position(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id.")],
    a: Annotated[Path, typer.Option("--a", help="Warband file of side A.")],
    b: Annotated[Path, typer.Option("--b", help="Warband file of side B.")],
    out: Annotated[Path, typer.Option("--out", help="Write the position file here.")],
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario file.")] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the dice stream.")] = 1,
    steps: Annotated[int, typer.Option("--steps", min=0, help="Steps (choices and rolls) to play.")] = 0,
    agent: Annotated[str, typer.Option("--agent", help="Agent spec for both sides.")] = "random",
    settle: Annotated[
        bool,
        typer.Option(
            "--settle/--no-settle",
            help="Then roll pending dice until a side must choose (default), or stop at the roll.",
        ),
    ] = True,
    settings: Annotated[list[str] | None, typer.Option("--set", help="Override a parameter: name=value.")] = None,
) -> None:
    """Play K steps with an agent (then roll until a side must choose) and save the position."""
    game = load_game(registry.get(ruleset), a, b, scenario, seed, settings or [])
    agents = []
    for side in (0, 1):
        built, note = build_agent(agent, seed * 2 + side)
        if note and side == 0:
            typer.echo(note, err=True)
        agents.append(built)
    played = advance(game, agents, steps)
    if settle:
        game.settle()
    write_text_atomic(out, json.dumps(game.to_json(), indent=1, sort_keys=True) + "\n")
    d = game.decision
    typer.echo(f"wrote {out}: {played} steps played, state {game.state.state_id}, next: {d.kind} {d.prompt}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("legal")(legal)
    app.command("position")(position)


if __name__ == "__main__":  # regenerate docs/schemas/position.schema.json
    print(json.dumps(position_schema(), indent=2))

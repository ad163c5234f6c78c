"""Helpers for the Wyrdcry engine tests: a game brought to a chosen moment with chosen dice and positions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game

DATA = Path(__file__).resolve().parents[2] / "src" / "warband" / "rulesets" / "wyrdcry" / "data"


def new_game(a: str = "mercenaries_hardy_company", b: str = "witch_hunters_pyre", seed: int = 1, **params: Any) -> Game:
    rs = registry.get("wyrdcry")
    rosters = [rs.load_roster(DATA / "warbands" / f"{n}.yaml") for n in (a, b)]
    return Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), seed, params or None)


def deploy(game: Game) -> None:
    """Roll off and deploy every fighter on the first spot offered."""
    while game.state.phase == "setup":
        if game.decision.is_chance:
            game.roll((6, 1) if game.decision.prompt == "roll-off" else None)
        else:
            game.apply(game.legal_actions()[0])


def initiative(game: Game, dice_a: tuple[int, ...], dice_b: tuple[int, ...], first: str = "me") -> None:
    """Roll the given initiative dice, keep every wyrd die, skip channeling, and let the holder choose."""
    game.roll(dice_a)
    game.roll(dice_b)
    while game.state.phase == "initiative":
        d = game.decision
        if d.is_chance:
            game.roll()
        elif d.prompt == "wyrd":
            game.apply(Action("wyrd", option="done"))
        elif d.prompt == "channel":
            game.apply(Action("channel", option="skip"))
        elif d.prompt == "first":
            game.apply(Action("first", option=first))
        else:  # pragma: no cover - a helper bug
            raise AssertionError(d)


def to_combat(
    game: Game, dice_a: tuple[int, ...] = (1, 2, 3, 4, 4, 4), dice_b: tuple[int, ...] = (5, 5, 6, 6, 1, 1)
) -> None:
    deploy(game)
    initiative(game, dice_a, dice_b)


def put(game: Game, mid: str, x: float, y: float) -> None:
    m = game.state.models[mid]
    m.x, m.y, m.z = x, y, 0.0
    m.on_table = True
    game.state.state_id += 1


def clear_table(game: Game, keep: tuple[str, ...]) -> None:
    """Take every fighter but ``keep`` off the table as if out of action (a small fight on an empty table)."""
    for m in game.state.models.values():
        if m.id not in keep:
            m.on_table = False
            m.flags["status"] = "out"
    game.state.state_id += 1


def kinds(game: Game) -> set[str]:
    return {a.kind for a in game.legal_actions()}


def m(game: Game, mid: str) -> Any:
    """The model ``mid`` of the game's state."""
    return game.state.models[mid]


def why(game: Game, action: Action) -> str:
    """The rule id of the first reason ``action`` is illegal ("" when it is legal)."""
    reasons = game.why_illegal(action)
    return reasons[0][0] if reasons else ""

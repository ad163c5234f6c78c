"""The one play loop (``warband.agents.play.play``): agents, forced dice, a scripted person at the console, and
a step limit (``warband position``)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console

from warband.agents.base import make_agent
from warband.agents.human import HumanConsole
from warband.agents.play import forced_dice, play, play_out
from warband.cli.play_cmd import ConsolePlayer, Table
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.events import Event


def _game(ruleset: str, seed: int = 4) -> Game:
    rs = registry.get(ruleset)
    paths = [Path(w["path"]) for w in rs.samples()["warbands"][:2]]
    return Game.new(rs, [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), seed)


RULESETS = sorted(registry.available())


@pytest.mark.parametrize("ruleset", RULESETS)
def test_agents_play_to_the_end_and_hooks_see_every_step(ruleset: str) -> None:
    game = _game(ruleset)
    seen: list[int] = []
    chosen: list[Action] = []
    agents = [make_agent("random", 1), make_agent("random", 2)]
    steps = play(
        game,
        agents,
        on_choice=lambda g, player, action: chosen.append(action),
        on_events=lambda g, events: seen.append(g.state.state_id),
    )
    assert game.over and steps == len(seen) and len(chosen) <= steps
    again = _game(ruleset)
    assert play_out(again, [make_agent("random", 1), make_agent("random", 2)]) == game.result()
    assert again.fingerprint() == game.fingerprint()


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_step_limit_stops_where_asked(ruleset: str) -> None:
    game = _game(ruleset)
    assert play(game, [make_agent("random", 1), make_agent("random", 2)], steps=7) == 7
    assert game.state.state_id - _game(ruleset).state.state_id == 7


@pytest.mark.parametrize("ruleset", RULESETS)
def test_forced_dice_are_the_dice_rolled(ruleset: str) -> None:
    game = _game(ruleset)
    rolled: list[tuple[int, ...]] = []

    def every_die_six(g: Game) -> list[Event]:
        spec = g.decision.dice
        assert spec is not None
        values = (min(6, spec.sides),) * spec.n
        rolled.append(values)
        return forced_dice([values], then=None)(g)

    play(game, [make_agent("random", 1), make_agent("random", 2)], every_die_six, steps=300)
    assert rolled
    logged = [tuple(entry["r"]) for entry in game.log or [] if "r" in entry]
    assert logged == rolled
    assert all(entry["src"] == "manual" for entry in game.log or [] if "r" in entry)


def test_forced_dice_run_out() -> None:
    game = _game(RULESETS[0])
    with pytest.raises(RuntimeError, match="ran out"):
        play(game, [make_agent("random", 1), make_agent("random", 2)], forced_dice([], then=None))


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_scripted_person_plays_through_the_console(ruleset: str) -> None:
    """A person who always types '1' for side A against an agent, through the Table of ``warband play``."""
    game = _game(ruleset, seed=2)
    asked: list[str] = []

    def reader(prompt: str) -> str | None:
        asked.append(prompt)
        return "1" if len(asked) < 40 else "quit"

    out = io.StringIO()
    table = Table(game, {1: make_agent("random", 2)}, HumanConsole(Console(file=out), reader), manual_dice=False)
    assert isinstance(table.players[0], ConsolePlayer)
    result = table.run()
    assert "choose" in out.getvalue()  # the agent's choices are narrated
    assert asked and all(p == "choice> " for p in asked)
    if result is None:  # the person quit after 40 choices: the game waits at their decision
        assert game.decision.player == 0 and len(asked) == 40
    else:
        assert game.over

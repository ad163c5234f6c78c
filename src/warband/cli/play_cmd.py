"""``warband play``: a game at the terminal between people and agents.

Each side is ``human``, or an agent spec (``random``, ``heuristic``, ``mcts:iterations=400``). Human sides see
the table, the numbered legal actions with their odds and can ask why an action is not allowed (see
:mod:`warband.agents.human`). Dice are rolled from the game's seeded stream (``--dice auto``) or typed in
from physical dice (``--dice manual``). ``--log`` writes the JSON-lines log, also after ``quit`` or the end of
input, so the game can be replayed (``warband replay``).
"""

from __future__ import annotations

import sys
from importlib.metadata import entry_points
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from warband.agents.base import Agent, AgentError, parse_spec
from warband.agents.human import HumanConsole, Quit, side_label
from warband.agents.play import Player, stream_dice
from warband.agents.play import play as play_game
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.files import check_output_file
from warband.kernel.log import write_log
from warband.kernel.names import action_label
from warband.kernel.params import parse_assignments
from warband.kernel.rng import MAX_SEED
from warband.kernel.ruleset import GameResult, Ruleset

HUMAN = "human"


def build_agent(spec: str, seed: int) -> tuple[Agent, str | None]:
    """The agent of ``spec`` (loading only its own entry point); ``heuristic`` falls back to ``random`` while
    it is not installed, with a note saying so."""
    name, opts = parse_spec(spec)
    eps = {ep.name: ep for ep in entry_points(group="warband.agents")}
    if name not in eps:
        raise AgentError(f"unknown agent {name!r}; installed: {', '.join(sorted(eps)) or 'none'}")
    try:
        cls = eps[name].load()
    except ImportError:
        if name != "heuristic" or "random" not in eps:
            raise AgentError(f"agent {name!r} is registered but cannot be imported") from None
        return build_agent("random", seed)[0], "note: the heuristic agent is not installed yet; using random"
    try:
        return cls(seed=seed, **opts), None
    except TypeError as exc:
        raise AgentError(f"agent spec {spec!r}: {exc}") from None


def load_game(rs: Ruleset, a: Path, b: Path, scenario: Path | None, seed: int, settings: list[str]) -> Game:
    """A new game from two warband files, a scenario (default: the ruleset's) and ``name=value`` settings."""
    rosters = [rs.load_roster(a), rs.load_roster(b)]
    scen = rs.load_scenario(scenario if scenario is not None else rs.default_scenario())
    return Game.new(rs, rosters, scen, seed, parse_assignments(settings))


def result_text(game: Game, result: GameResult) -> str:
    who = "a draw" if result.winner is None else f"{side_label(game, result.winner)} wins"
    return f"Result: {who} - {result.reason}; score {result.score[0]}-{result.score[1]} after {result.turns} turn(s)"


def stdin_reader(prompt: str) -> str | None:
    """One line from standard input after ``prompt``; None at the end of input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if line == "":
        sys.stdout.write("\n")
        return None
    if not sys.stdin.isatty():  # a scripted session: echo the input so the transcript reads like a dialogue
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
    return line.rstrip("\n")


class ConsolePlayer:
    """A person at the console deciding a side: the table is drawn when it has changed since last shown."""

    def __init__(self, io: HumanConsole) -> None:
        self.io = io
        self.shown_id = -1

    def choose(self, game: Game) -> Action:
        if self.shown_id != game.state.state_id:
            self.io.show_map(game)
            self.shown_id = game.state.state_id
        return self.io.choose(game)


class Table:
    """A game at the terminal: people (one :class:`ConsolePlayer` shared by the human sides) and agents, played
    by the one loop (:func:`warband.agents.play.play`); agents' choices and every step's events are shown."""

    def __init__(self, game: Game, agents: dict[int, Agent], io: HumanConsole, manual_dice: bool) -> None:
        self.game = game
        self.agents = agents
        self.io = io
        self.manual_dice = manual_dice
        person = ConsolePlayer(io)
        self.players: dict[int, Player] = {side: agents.get(side, person) for side in (0, 1)}

    def run(self) -> GameResult | None:
        """Play until the game is over (its result) or the person quits (None)."""
        try:
            play_game(
                self.game,
                self.players,
                self.io.roll if self.manual_dice else stream_dice,
                on_choice=self._narrate,
                on_events=lambda game, events: self.io.show_events(events, game),
            )
        except Quit:
            self.io.say("stopped before the end of the game")
            return None
        return self.game.result()

    def _narrate(self, game: Game, player: Player, action: Action) -> None:
        if isinstance(player, Agent):
            chosen = action_label(game.state, action)
            self.io.say(f"{self.io.describe_decision(game, game.decision)} -> {player.describe()} chooses: {chosen}")


def play(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id, e.g. trench-crusade.")],
    a: Annotated[Path, typer.Option("--a", help="Warband file of side A.")],
    b: Annotated[Path, typer.Option("--b", help="Warband file of side B.")],
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario file (default: the ruleset's).")] = None,
    seed: Annotated[int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the dice stream.")] = 1,
    agent_a: Annotated[str, typer.Option("--agent-a", help="human, random, heuristic or an agent spec.")] = HUMAN,
    agent_b: Annotated[str, typer.Option("--agent-b", help="human, random, heuristic or an agent spec.")] = "heuristic",
    dice: Annotated[str, typer.Option("--dice", help="auto: seeded dice; manual: type physical dice.")] = "auto",
    log: Annotated[Path | None, typer.Option("--log", help="Write the game log (JSON lines) here.")] = None,
    settings: Annotated[list[str] | None, typer.Option("--set", help="Override a parameter: name=value.")] = None,
) -> None:
    """Play a game at the terminal: people and agents, seeded or physical dice."""
    if dice not in ("auto", "manual"):
        raise typer.BadParameter(f"expected auto or manual, found {dice!r}", param_hint="--dice")
    rs = registry.get(ruleset)
    if log is not None:
        check_output_file(log, "--log")
    io = HumanConsole(Console(highlight=False, soft_wrap=True), stdin_reader)
    agents: dict[int, Agent] = {}
    for side, spec in enumerate((agent_a, agent_b)):
        if spec != HUMAN:
            agents[side], note = build_agent(spec, seed * 2 + side)
            if note:
                io.say(note)
    game = load_game(rs, a, b, scenario, seed, settings or [])
    io.say(
        f"{rs.title} - seed {seed}; "
        + ", ".join(f"{side_label(game, s)}: {agents[s].describe() if s in agents else HUMAN}" for s in (0, 1))
    )
    if not agents.keys() >= {0, 1}:
        io.say("type 'help' for the commands")
    try:
        result = Table(game, agents, io, dice == "manual").run()
    except KeyboardInterrupt:
        io.say("interrupted")
        _keep_log(game, log, io)
        raise typer.Exit(130) from None
    if result is not None:
        io.show_map(game)
        io.say(result_text(game, result), style="bold")
    _keep_log(game, log, io)


def _keep_log(game: Game, log: Path | None, io: HumanConsole) -> None:
    """Write the log of the game so far (finished, quit, Ctrl-D or Ctrl-C) if ``--log`` was given."""
    if log is not None:
        write_log(game, log)
        io.say(f"log written to {log}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("play")(play)

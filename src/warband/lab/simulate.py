"""Many games between two warbands: the lab's basic experiment.

A run is a pure function of its :class:`SimulationConfig`. Game ``i`` is played by :func:`play_one` with the
seed ``derive_seed(config.seed, i)``, and its agents' seeds are derived from that game seed, so any game can be
re-played alone, in any process, in any order: a run gives the same records whether it uses one process or a
pool of workers or on a Ray cluster (``simulate`` orders the results by game index; see
:mod:`warband.lab.backends`).

With a :class:`~warband.lab.store.Store`, each game is stored as soon as it finishes, and a run whose
configuration is already in the store plays only the games it lacks (resume after Ctrl-C or a kill).

A game that raises (a bug in the rules or an agent, e.g. a deployment with nowhere to go) does not stop the
run: it becomes a :class:`GameCrash` naming its index, its seed and the command that plays it again alone
(:func:`replay_command`), the other games go on, and the crash is stored like a finished game so that resuming
the run does not play into it again.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import time
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from warband.agents.base import Agent, make_agent
from warband.agents.play import play_out
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import ParameterError, WarbandError
from warband.kernel.events import Event
from warband.kernel.files import check_output_dir
from warband.kernel.log import log_lines, write_text_atomic
from warband.kernel.rng import check_seed, derive_seed
from warband.lab.backends import Backend, LocalBackend
from warband.lab.records import SIDES, GameCrash, GameRecord, SimulationConfig
from warband.lab.stats import wilson_interval

if TYPE_CHECKING:
    from warband.lab.store import Store

INITIATIVE_VAR = "initiative"
"""A generic field of ``GameState.vars``: a ruleset that keeps the side holding the Initiative there (0 or 1)
lets the lab record the first player of each game (the first value it takes); otherwise it is unknown (None)."""


class SimulationError(WarbandError):
    """A simulation that cannot run as configured (no games, no workers, a log folder that is a file)."""


@dataclass(frozen=True, slots=True)
class Documents:
    """The validated files of a run: both warbands and the scenario."""

    roster_a: dict[str, Any]
    roster_b: dict[str, Any]
    scenario: dict[str, Any]

    def names(self) -> tuple[str, str]:
        return (_name(self.roster_a, "a"), _name(self.roster_b, "b"))


def _name(doc: dict[str, Any], side: str) -> str:
    return str(doc.get("name") or f"warband {side}")


# Validated documents by (ruleset, paths, modification times): a worker validates each file once per run, and
# an edited file is read again.
_DOCUMENTS: dict[tuple[object, ...], Documents] = {}


def load_documents(config: SimulationConfig) -> Documents:
    """The run's warbands and scenario, validated by the ruleset (RosterError / ScenarioError name the file)."""
    rs = registry.get(config.ruleset)
    scenario = config.scenario if config.scenario is not None else rs.default_scenario()
    paths = (config.roster_a, config.roster_b, scenario)
    key = (config.ruleset, *((str(p), _mtime(p)) for p in paths))
    docs = _DOCUMENTS.get(key)
    if docs is None:
        docs = Documents(rs.load_roster(paths[0]), rs.load_roster(paths[1]), rs.load_scenario(paths[2]))
        if len(_DOCUMENTS) > 16:
            _DOCUMENTS.clear()
        _DOCUMENTS[key] = docs
    return docs


def _mtime(path: Path) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return -1  # the ruleset's loader reports the missing file with its own message


class _Counting(Agent):
    """Counts the choices an agent makes (the run's ``decisions``) without changing them."""

    def __init__(self, inner: Agent) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.name = inner.name
        self.calls = 0

    def choose(self, game: Game) -> Action:
        self.calls += 1
        return self.inner.choose(game)


class _FirstInitiative:
    """Watches the game for the first side to hold the Initiative (see :data:`INITIATIVE_VAR`)."""

    def __init__(self) -> None:
        self.holder: int | None = None

    def __call__(self, game: Game, events: list[Event]) -> None:
        if self.holder is None:
            value = game.state.vars.get(INITIATIVE_VAR)
            if type(value) is int and value in (0, 1):
                self.holder = value


def play_one(config: SimulationConfig, index: int, keep_log: bool = False) -> GameRecord:
    """Play game ``index`` of the run ``config`` (writing its log if ``config.log_dir``, keeping its text in the
    record if ``keep_log``); a pure function of its arguments, so a process pool can call it."""
    began = time.perf_counter()
    rs = registry.get(config.ruleset)
    docs = load_documents(config)
    seed = config.game_seed(index)
    agents = [
        _Counting(make_agent(config.agent_a, derive_seed(seed, 1))),
        _Counting(make_agent(config.agent_b, derive_seed(seed, 2))),
    ]
    rosters = [docs.roster_a, docs.roster_b]
    swapped = config.swapped(index)
    if swapped:
        agents.reverse()
        rosters.reverse()
    path = config.log_path(index)
    game = Game.new(rs, rosters, docs.scenario, seed, config.params, record=path is not None or keep_log)
    start = game.state.state_id
    first = _FirstInitiative()
    result = play_out(game, agents, on_events=first)
    text = "\n".join(log_lines(game)) + "\n" if game.log is not None else None
    if path is not None and text is not None:
        write_text_atomic(path, text)
    order = (1, 0) if swapped else (0, 1)  # seat -> index into SIDES
    winner = None if result.winner is None else SIDES[order[result.winner]]
    score = (result.score[order[0]], result.score[order[1]])
    models = tuple(dataclasses.replace(fate, side=order[fate.side]) for fate in result.models)
    return GameRecord(
        index,
        seed,
        winner,
        result.reason,
        score,
        result.turns,
        sum(a.calls for a in agents),
        game.state.state_id - start,
        swapped,
        None if path is None else str(path),
        models,
        None if first.holder is None else SIDES[order[first.holder]],
        text if keep_log else None,
        time.perf_counter() - began,
    )


def play_one_guarded(config: SimulationConfig, index: int, keep_log: bool = False) -> GameRecord:
    """:func:`play_one`, but an exception inside the game comes back as a record whose ``crash`` says what
    happened (Ctrl-C still stops the run)."""
    try:
        return play_one(config, index, keep_log)
    except Exception as exc:  # any bug inside one game: report it per game and let the run go on
        return crashed_record(config, index, exc)


def crashed_record(config: SimulationConfig, index: int, exc: BaseException) -> GameRecord:
    """The record of game ``index`` that raised ``exc`` (call it inside the ``except`` block: it keeps the
    traceback); every lab command (``simulate``, ``compare``, ``balance``) reports crashes this way."""
    first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    error = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    crash = GameCrash(index, config.game_seed(index), error, traceback.format_exc())
    return GameRecord(index, crash.seed, None, "crashed", (0, 0), 0, 0, 0, config.swapped(index), crash=crash)


Progress = Callable[[int, int, GameRecord], None]
"""Called after each game with (games done, games in the run, the game's record)."""


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """The records of a run (ordered by game index) and what they add up to."""

    config: SimulationConfig
    names: tuple[str, str]
    ruleset_version: str
    params: dict[str, object]
    records: list[GameRecord]
    elapsed_s: float
    played: int = -1
    """Games played by this call (the others were already in the store); -1 means all of them."""
    run_id: int | None = None
    db: str | None = None
    backend: str = "local"
    played_decisions: int = -1
    crashes: list[GameCrash] = field(default_factory=list)
    """Games that raised instead of finishing (stored ones included), by index; ``records`` leaves them out."""

    @property
    def games_played(self) -> int:
        return len(self.records) if self.played < 0 else self.played

    def wins(self, side: str) -> int:
        return sum(1 for r in self.records if r.winner == side)

    @property
    def draws(self) -> int:
        return sum(1 for r in self.records if r.winner is None)

    @property
    def decisions(self) -> int:
        return sum(r.decisions for r in self.records)

    @property
    def steps(self) -> int:
        return sum(r.steps for r in self.records)

    def side(self, side: str) -> dict[str, Any]:
        """One side's line of the summary: its warband, agent, wins, win rate and 95% Wilson interval."""
        n = len(self.records)
        wins = self.wins(side)
        low, high = wilson_interval(wins, n)
        i = SIDES.index(side)
        return {
            "name": self.names[i],
            "roster": str((self.config.roster_a, self.config.roster_b)[i]),
            "agent": (self.config.agent_a, self.config.agent_b)[i],
            "wins": wins,
            "win_rate": wins / n if n else 0.0,
            "ci95": [low, high],
        }

    def rate(self, count: int) -> float:
        """``count`` per second of the run's wall time."""
        return count / self.elapsed_s if self.elapsed_s > 0 else 0.0

    def summary(self) -> dict[str, Any]:
        """The run as one JSON-able object (what ``warband simulate --json`` prints)."""
        n = len(self.records)
        c = self.config
        return {
            "ruleset": c.ruleset,
            "ruleset_version": self.ruleset_version,
            "games": n,
            "seed": c.seed,
            "scenario": None if c.scenario is None else str(c.scenario),
            "swap_sides": c.swap_sides,
            "a": self.side("a"),
            "b": self.side("b"),
            "draws": self.draws,
            "draw_rate": self.draws / n if n else 0.0,
            "decisions": self.decisions,
            "steps": self.steps,
            "mean_turns": sum(r.turns for r in self.records) / n if n else 0.0,
            "elapsed_s": self.elapsed_s,
            "games_played": self.games_played,
            "games_resumed": n + len(self.crashes) - self.games_played,
            "games_per_s": self.rate(self.games_played),
            "decisions_per_s": self.rate(self._played_decisions()),
            "params": dict(self.params),
            "logs": [r.log for r in self.records if r.log is not None],
            "run_id": self.run_id,
            "db": self.db,
            "backend": self.backend,
            "crashes": [c.to_json(self.config) for c in self.crashes],
        }

    def _played_decisions(self) -> int:
        return self.decisions if self.played_decisions < 0 else self.played_decisions


def default_agent() -> str:
    """``heuristic`` when that agent is installed and loads, else ``random``."""
    try:
        make_agent("heuristic", 0)
    except (WarbandError, ImportError):
        return "random"
    return "heuristic"


def check(config: SimulationConfig, workers: int = 1) -> Documents:
    """Fail before the first game on any bad input: games or workers below 1, a log folder that is a file, an
    unknown ruleset, a bad warband or scenario file, an unknown parameter or agent."""
    if config.games < 1:
        raise SimulationError(f"--games must be at least 1, got {config.games}")
    if workers < 1:
        raise SimulationError(f"--workers must be at least 1, got {workers}")
    check_seed(config.seed)
    rs = registry.get(config.ruleset)
    docs = load_documents(config)
    try:
        rs.params.resolve(config.params)
    except ParameterError as exc:
        raise ParameterError(f"--set: {exc}") from None
    for flag, spec in (("--agent-a", config.agent_a), ("--agent-b", config.agent_b)):
        try:
            make_agent(spec, 0)
        except WarbandError as exc:
            raise type(exc)(f"{flag}: {exc}") from None
    if config.log_dir is not None:  # last: the folder is made only for a run that can start
        check_output_dir(config.log_dir, "--log-dir")
    return docs


def simulate(
    config: SimulationConfig,
    progress: Progress | None = None,
    workers: int = 1,
    store: Store | None = None,
    backend: Backend | None = None,
    resume: bool = True,
) -> SimulationResult:
    """Play the run's games on ``backend`` (default: this process, or a pool of ``workers`` processes) and
    gather their records, ordered by index. The records, and so the summary apart from timings, depend on
    neither the backend nor the number of workers.

    With a ``store``, each game (with its full log) is stored as soon as it finishes; with ``resume`` the games
    the store already holds for the same configuration (see :func:`warband.lab.store.run_key`) are not played
    again, and the result covers them too. ``progress`` is called for the stored games first, then for each game
    played."""
    docs = check(config, workers)
    rs = registry.get(config.ruleset)
    resolved = rs.params.resolve(config.params)
    overrides: dict[str, object] = {name: resolved[name] for name in config.params}
    backend = backend if backend is not None else LocalBackend(workers)
    start = time.perf_counter()
    run_id, records, crashes = _stored(config, docs, rs.version, overrides, resolved, store, resume)
    for done, record in enumerate(records, start=1):
        if progress is not None:
            progress(done, config.games, record)
    seen = {r.index for r in records} | {c.index for c in crashes}
    missing = [i for i in range(config.games) if i not in seen]
    task: Callable[[SimulationConfig, int], GameRecord] = functools.partial(
        play_one_guarded, keep_log=store is not None
    )
    played = 0
    played_decisions = 0
    for record in backend.run(task, config, missing):
        if store is not None and run_id is not None:
            store.add(run_id, record)
        played += 1
        played_decisions += record.decisions
        if record.crash is not None:
            crashes.append(record.crash)
        else:
            records.append(dataclasses.replace(record, log_text=None))
        if progress is not None:
            progress(len(records) + len(crashes), config.games, record)
    records.sort(key=lambda r: r.index)
    crashes.sort(key=lambda c: c.index)
    return SimulationResult(
        config,
        docs.names(),
        rs.version,
        overrides,
        records,
        time.perf_counter() - start,
        played,
        run_id,
        None if store is None else store.path,
        backend.name,
        played_decisions,
        crashes,
    )


def _stored(
    config: SimulationConfig,
    docs: Documents,
    version: str,
    overrides: dict[str, object],
    resolved: Mapping[str, object],
    store: Store | None,
    resume: bool,
) -> tuple[int | None, list[GameRecord], list[GameCrash]]:
    """The run's id in ``store``, the records of its games already stored and its stored crashes (below
    ``config.games``)."""
    if store is None:
        return None, [], []
    # the store builds the run's spec itself: this module never imports the store, which imports it
    rosters = (docs.roster_a, docs.roster_b)
    run = store.open_config(config, docs.names(), rosters, docs.scenario, version, overrides, resolved, resume)
    records = [_with_log(store, run.id, config, row.record()) for row in store.games(run.id, below=config.games)]
    return run.id, records, store.crashes(run.id, below=config.games)


def _with_log(store: Store, run_id: int, config: SimulationConfig, record: GameRecord) -> GameRecord:
    """A stored game's record, its log written from the store where this run asks for one (``--log-dir``) and
    the file is not there yet: resuming a run with a new log folder still gives every game's log."""
    path = config.log_path(record.index)
    if path is None:
        return record
    if not path.exists():
        text = store.log_text(run_id, record.index)
        if text is None:
            return dataclasses.replace(record, log=None)
        write_text_atomic(path, text)
    return dataclasses.replace(record, log=str(path))

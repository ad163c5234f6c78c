"""Replays: a finished game of this server, a ``--log`` file or a game of a lab database, re-played once into
the state after every step, so the replay view can jump to any step. Sources are registered by the server
(command line or its own store); the browser names a replay only by its id, never by a path."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warband.kernel.engine import Game
from warband.kernel.events import Event
from warband.kernel.log import LogFile, parse_log, read_log, replay
from warband.kernel.names import with_names
from warband.kernel.state import GameState


@dataclass
class Replay:
    """Every state of one game (``states[k]`` after ``k`` steps), each step's text and what it caused."""

    id: str
    title: str
    game: Game
    states: list[GameState[Any]] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    result: dict[str, Any] | None = None


def build_replay(replay_id: str, title: str, log: LogFile) -> Replay:
    """Re-play ``log`` keeping the state after every step."""
    from warband.web.tables import step_text

    h = log.header
    first = Game.new(h["ruleset"], h["rosters"], h["scenario"], int(h["seed"]), h["params"], record=False)
    out = Replay(replay_id, title, first, [first.state.clone()], ["0. start"])
    entries = {no: step for no, step in log.steps}

    def keep(no: int, game: Game, events: list[Event]) -> None:
        out.states.append(game.state.clone())
        said = "; ".join(e.describe() for e in events)
        # numbered by the step it leads to (state k follows line k), as the slider counts
        text = step_text(game, entries[no]).split(". ", 1)[-1]
        line = f"{len(out.states) - 1}. {text}" + (f" — {said}" if said else "")
        out.lines.append(with_names(game.state, line))

    final = replay(log, on_step=keep)
    out.game = final
    result = final.result()
    out.result = result.to_json() if result is not None else None
    return out


Loader = Callable[[], LogFile]


class ReplayShelf:
    """The replays the server offers: id -> (title, loader); each is built on first use and kept."""

    def __init__(self) -> None:
        self.sources: dict[str, tuple[str, Loader]] = {}
        self.built: dict[str, Replay] = {}

    def add(self, replay_id: str, title: str, loader: Loader) -> None:
        self.sources[replay_id] = (title, loader)

    def add_log_file(self, path: Path) -> str:
        replay_id = f"log-{len([k for k in self.sources if k.startswith('log-')]) + 1}"
        self.add(replay_id, f"log {path.name}", lambda: read_log(path))
        return replay_id

    def add_lab_db(self, path: Path) -> list[str]:
        """Every stored game of every run of a lab database (``warband simulate --db``)."""
        from warband.lab.store import Store

        ids = []
        with Store(path) as store:
            for run in store.runs():
                for row in store.games(run.id):
                    replay_id = f"lab-{run.id}-{row.index}"
                    self.add(replay_id, f"lab run {run.id} game {row.index}", _lab_loader(path, run.id, row.index))
                    ids.append(replay_id)
        return ids

    def get(self, replay_id: str) -> Replay | None:
        if replay_id not in self.built:
            if replay_id not in self.sources:
                return None
            title, loader = self.sources[replay_id]
            self.built[replay_id] = build_replay(replay_id, title, loader())
        return self.built[replay_id]

    def listing(self) -> list[dict[str, str]]:
        return [{"id": k, "title": title} for k, (title, _) in self.sources.items()]


def _lab_loader(path: Path, run_id: int, index: int) -> Loader:
    def load() -> LogFile:
        from warband.kernel.errors import ReplayError
        from warband.lab.store import Store

        with Store(path) as store:
            text = store.log_text(run_id, index)
        if text is None:
            raise ReplayError(f"lab game {run_id}/{index} was stored without its log")
        return parse_log(text.splitlines(), f"lab game {run_id}/{index}")

    return load

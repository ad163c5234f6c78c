"""Simulation results in SQLite (the standard library's ``sqlite3``): one row per run, one row per game.

``runs``
    ``id``, ``key`` (see :func:`run_key`), ``created`` (UTC, ISO 8601), ``ruleset``, ``ruleset_version``,
    ``params`` (the overrides given, JSON), ``params_resolved`` (every parameter, JSON), ``agent_a``, ``agent_b``,
    ``name_a``, ``name_b``, ``roster_a``/``roster_b`` (the validated warband documents, JSON), ``scenario`` (JSON),
    ``seed``, ``games`` (the most games asked of the run so far), ``swap_sides``, ``warband`` (the package version).
``games``
    ``run_id``, ``idx``, ``seed`` (the game's own seed), ``winner`` (``a``, ``b`` or NULL for a draw), ``reason``,
    ``turns``, ``vp_a``, ``vp_b``, ``first_player`` (``a``/``b``: the side holding the first Initiative, NULL when
    the ruleset does not expose it, see :data:`warband.lab.simulate.INITIATIVE_VAR`), ``swapped``, ``decisions``,
    ``steps``, ``models`` (a JSON list of ModelFate, side 0 = a, 1 = b), ``log`` (the full game log, JSON lines),
    ``log_path`` (the log file written by ``--log-dir``, if any), ``elapsed_s``.

Each game is inserted in its own transaction as soon as it finishes, so an interrupted run keeps every game it
finished and nothing half-written; running the same configuration again resumes it (:meth:`Store.open_run`).
"""

from __future__ import annotations

import datetime
import hashlib
import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

from warband import __version__
from warband.kernel.errors import WarbandError
from warband.kernel.result import ModelFate
from warband.lab.records import SIDES, GameCrash, GameRecord, SimulationConfig

MEMORY = ":memory:"
SCHEMA_VERSION = 1

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    created TEXT NOT NULL,
    ruleset TEXT NOT NULL,
    ruleset_version TEXT NOT NULL,
    params TEXT NOT NULL,
    params_resolved TEXT NOT NULL,
    agent_a TEXT NOT NULL,
    agent_b TEXT NOT NULL,
    name_a TEXT NOT NULL,
    name_b TEXT NOT NULL,
    roster_a TEXT NOT NULL,
    roster_b TEXT NOT NULL,
    scenario TEXT NOT NULL,
    seed INTEGER NOT NULL,
    games INTEGER NOT NULL,
    swap_sides INTEGER NOT NULL,
    warband TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_by_key ON runs (key);
CREATE TABLE IF NOT EXISTS games (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    winner TEXT CHECK (winner IN ('a', 'b')),
    reason TEXT NOT NULL,
    turns INTEGER NOT NULL,
    vp_a INTEGER NOT NULL,
    vp_b INTEGER NOT NULL,
    first_player TEXT CHECK (first_player IN ('a', 'b')),
    swapped INTEGER NOT NULL,
    decisions INTEGER NOT NULL,
    steps INTEGER NOT NULL,
    models TEXT NOT NULL,
    log TEXT,
    log_path TEXT,
    elapsed_s REAL NOT NULL,
    PRIMARY KEY (run_id, idx)
);
CREATE TABLE IF NOT EXISTS crashes (
    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    idx INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    error TEXT NOT NULL,
    trace TEXT NOT NULL,
    PRIMARY KEY (run_id, idx)
);
"""

GAME_COLUMNS = (
    "run_id",
    "idx",
    "seed",
    "winner",
    "reason",
    "turns",
    "vp_a",
    "vp_b",
    "first_player",
    "swapped",
    "decisions",
    "steps",
    "models",
    "log",
    "log_path",
    "elapsed_s",
)


#: The first bytes of every SQLite database file.
SQLITE_MAGIC = b"SQLite format 3\x00"


class StoreError(WarbandError):
    """A results database that cannot be opened, read or written (a folder, not SQLite, damaged, read-only, an
    unknown run id); the message names the file."""


def store_error(path: str, exc: sqlite3.Error | OSError) -> StoreError:
    """A clear message for what SQLite (or the file system) said about the database at ``path``."""
    text = str(exc)
    low = text.lower()
    if "readonly" in low or "read-only" in low:
        why = "the database is read-only (or its folder is): it cannot store games"
    elif "not a database" in low or "malformed" in low or "corrupt" in low:
        why = f"not a warband results database, or a damaged one ({text})"
    elif "unable to open" in low or isinstance(exc, OSError):
        why = f"cannot open or create the file; does its folder exist and can it be written? ({text})"
    elif "locked" in low or "busy" in low:
        why = f"the database is locked by another process ({text})"
    elif "disk" in low or "full" in low:
        why = f"cannot write the database ({text})"
    else:
        why = f"database error ({text})"
    return StoreError(f"--db {path}: {why}")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _guarded(method: Callable[Concatenate[Store, _P], _R]) -> Callable[Concatenate[Store, _P], _R]:
    """Turn any SQLite error inside a Store method into a StoreError naming the database file."""

    def wrapper(self: Store, /, *args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    wrapper.__doc__ = method.__doc__
    wrapper.__name__ = method.__name__
    return wrapper


@dataclass(frozen=True, slots=True)
class RunSpec:
    """What decides a run's results, as stored: the run key is the hash of all of it."""

    ruleset: str
    ruleset_version: str
    params: dict[str, object]
    params_resolved: dict[str, object]
    agents: tuple[str, str]
    names: tuple[str, str]
    rosters: tuple[dict[str, Any], dict[str, Any]]
    scenario: dict[str, Any]
    seed: int
    swap_sides: bool

    def key(self) -> str:
        return run_key(self)


def _canonical(obj: object) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), default=str)


def run_key(spec: RunSpec) -> str:
    """SHA-256 of the ruleset and its version, every parameter, both warband documents, the scenario document,
    the seed, both agents and side swapping: two runs with the same key play the same games. The number of games
    is not part of it (a longer run of the same configuration extends the shorter one)."""
    parts = {
        "ruleset": spec.ruleset,
        "version": spec.ruleset_version,
        "params": spec.params_resolved,
        "rosters": list(spec.rosters),
        "scenario": spec.scenario,
        "seed": spec.seed,
        "agents": list(spec.agents),
        "swap_sides": spec.swap_sides,
    }
    return hashlib.sha256(_canonical(parts).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class RunInfo:
    """A stored run (one row of ``runs``)."""

    id: int
    key: str
    created: str
    ruleset: str
    ruleset_version: str
    params: dict[str, object]
    params_resolved: dict[str, object]
    agents: tuple[str, str]
    names: tuple[str, str]
    rosters: tuple[dict[str, Any], dict[str, Any]]
    scenario: dict[str, Any]
    seed: int
    games: int
    swap_sides: bool
    warband: str


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game (one row of ``games``), the log left out unless asked for."""

    run_id: int
    index: int
    seed: int
    winner: str | None
    reason: str
    turns: int
    score: tuple[int, int]
    first_player: str | None
    swapped: bool
    decisions: int
    steps: int
    models: tuple[ModelFate, ...]
    log_path: str | None
    elapsed_s: float

    def record(self) -> GameRecord:
        """The :class:`GameRecord` this row was stored from (without its log text)."""
        return GameRecord(
            self.index,
            self.seed,
            self.winner,
            self.reason,
            self.score,
            self.turns,
            self.decisions,
            self.steps,
            self.swapped,
            self.log_path,
            models=self.models,
            first_player=self.first_player,
            elapsed_s=self.elapsed_s,
        )


class Store:
    """A results database; ``Store(":memory:")`` keeps nothing after it is closed. Use as a context manager.

    Opening checks what the caller will need: a store to write (the default) must be writable now, so a run
    never finds a read-only database after its first game; ``readonly=True`` (reports) opens an existing
    database without writing to it. Every SQLite error becomes a :class:`StoreError` naming the file."""

    def __init__(self, path: str | Path = MEMORY, readonly: bool = False) -> None:
        self.path = str(path)
        self.readonly = readonly
        self.last_run_id: int | None = None
        """The run most recently opened by :meth:`open_run` (what an interrupted command reports)."""
        if self.persistent:
            self._check_path()
        try:
            self.db = self._connect()
        except sqlite3.Error as exc:
            raise store_error(self.path, exc) from None

    def _check_path(self) -> None:
        where = Path(self.path)
        if where.is_dir():
            raise StoreError(f"--db {self.path} is a folder, not a database file")
        if self.readonly and not where.is_file():
            raise StoreError(f"{self.path}: no such results database")
        if where.exists() and not where.is_file():
            raise StoreError(f"--db {self.path}: not a regular file (a device, a pipe or a socket)")
        if where.is_file() and where.stat().st_size > 0:
            with where.open("rb") as fh:
                magic = fh.read(len(SQLITE_MAGIC))
            if magic != SQLITE_MAGIC:
                raise StoreError(f"--db {self.path}: not a SQLite database (a results database is made by simulate)")
        try:
            where.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise store_error(self.path, exc) from None

    def _connect(self) -> sqlite3.Connection:
        if self.readonly and self.persistent:
            uri = Path(self.path).resolve().as_uri()
            try:
                db = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=30.0)
                found = self._tables(db)
            except sqlite3.OperationalError:
                # a read-only file (or folder) in WAL mode: SQLite cannot make its shared-memory file, so the
                # database is read as an unchanging file, which it is while nobody may write it
                db = sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True, timeout=30.0)
                found = self._tables(db)
            if not {"runs", "games"} <= found:
                db.close()
                raise sqlite3.DatabaseError("file is not a database: it has no warband runs and games tables")
            return db
        db = sqlite3.connect(self.path, timeout=30.0)
        found = self._tables(db)
        if found and not {"runs", "games"} <= found:
            db.close()
            raise StoreError(
                f"--db {self.path}: this database is not a results database (it holds {', '.join(sorted(found))}); "
                "name a new file or one made by simulate"
            )
        db.execute("PRAGMA foreign_keys = ON")
        if self.persistent:
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
        with db:
            db.executescript(SCHEMA)
        db.execute("BEGIN IMMEDIATE")  # a write lock now: a read-only database fails here, before any game
        db.execute("ROLLBACK")
        return db

    @staticmethod
    def _tables(db: sqlite3.Connection) -> set[str]:
        return {str(r[0]) for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}

    @property
    def persistent(self) -> bool:
        return self.path != MEMORY

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- writing -----------------------------------------------------------------------------------
    def open_config(
        self,
        config: SimulationConfig,
        names: tuple[str, str],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        version: str,
        params: dict[str, object],
        resolved: Mapping[str, object],
        resume: bool = True,
    ) -> RunInfo:
        """:meth:`open_run` for a simulation's configuration and validated files (see :func:`spec_of`)."""
        spec = spec_of(config, names, rosters, scenario, version, params, resolved)
        return self.open_run(spec, config.games, resume)

    @_guarded
    def open_run(self, spec: RunSpec, games: int, resume: bool = True) -> RunInfo:
        """The run to store ``spec``'s games in: with ``resume``, the latest run with the same key (its ``games``
        raised to ``games`` if more are asked), else a new run."""
        key = spec.key()
        with self.db:
            row = (
                self.db.execute("SELECT id, games FROM runs WHERE key = ? ORDER BY id DESC LIMIT 1", (key,)).fetchone()
                if resume
                else None
            )
            if row is not None:
                if games > row[1]:
                    self.db.execute("UPDATE runs SET games = ? WHERE id = ?", (games, row[0]))
                run_id = int(row[0])
            else:
                run_id = self._insert_run(spec, key, games)
        self.last_run_id = run_id
        return self.run(run_id)

    def _insert_run(self, spec: RunSpec, key: str, games: int) -> int:
        created = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
        cur = self.db.execute(
            "INSERT INTO runs (key, created, ruleset, ruleset_version, params, params_resolved, agent_a, agent_b, "
            "name_a, name_b, roster_a, roster_b, scenario, seed, games, swap_sides, warband) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                key,
                created,
                spec.ruleset,
                spec.ruleset_version,
                _canonical(spec.params),
                _canonical(spec.params_resolved),
                *spec.agents,
                *spec.names,
                _canonical(spec.rosters[0]),
                _canonical(spec.rosters[1]),
                _canonical(spec.scenario),
                spec.seed,
                games,
                int(spec.swap_sides),
                __version__,
            ),
        )
        assert cur.lastrowid is not None
        return int(cur.lastrowid)

    @_guarded
    def add(self, run_id: int, record: GameRecord) -> None:
        """Store one finished game in its own transaction (a game already stored is left as it is); a crashed
        game goes to ``crashes``, so that resuming the run does not play into the crash again."""
        if record.crash is not None:
            self._add_crash(run_id, record.crash)
            return
        values = (
            run_id,
            record.index,
            record.seed,
            record.winner,
            record.reason,
            record.turns,
            record.score[0],
            record.score[1],
            record.first_player,
            int(record.swapped),
            record.decisions,
            record.steps,
            _canonical([m.to_json() for m in record.models]),
            record.log_text,
            record.log,
            record.elapsed_s,
        )
        marks = ", ".join("?" for _ in GAME_COLUMNS)
        with self.db:
            self.db.execute(f"INSERT OR IGNORE INTO games ({', '.join(GAME_COLUMNS)}) VALUES ({marks})", values)

    def _add_crash(self, run_id: int, crash: GameCrash) -> None:
        with self.db:
            self.db.execute(
                "INSERT OR IGNORE INTO crashes (run_id, idx, seed, error, trace) VALUES (?, ?, ?, ?, ?)",
                (run_id, crash.index, crash.seed, crash.error, crash.trace),
            )

    # --- reading -----------------------------------------------------------------------------------
    @_guarded
    def crashes(self, run_id: int, below: int | None = None) -> list[GameCrash]:
        """The games of ``run_id`` that crashed (those with an index below ``below`` if given), by index."""
        cur = self.db.execute(
            "SELECT idx, seed, error, trace FROM crashes WHERE run_id = ? AND idx < ? ORDER BY idx",
            (run_id, below if below is not None else 2**62),
        )
        return [GameCrash(int(i), int(seed), str(error), str(trace)) for i, seed, error, trace in cur]

    @_guarded
    def run(self, run_id: int) -> RunInfo:
        row = self.db.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: no run {run_id} (see the runs with `warband report {self.path}`)")
        return self._checked_run(_as_dict(self.db, row))

    @_guarded
    def runs(self) -> list[RunInfo]:
        cur = self.db.execute("SELECT * FROM runs ORDER BY id")
        return [self._checked_run(_as_dict(self.db, row, cur.description)) for row in cur.fetchall()]

    @_guarded
    def latest_run(self) -> RunInfo:
        row = self.db.execute("SELECT max(id) FROM runs").fetchone()
        if row is None or row[0] is None:
            raise StoreError(f"{self.path}: no runs stored yet (run `warband simulate ... --db {self.path}`)")
        return self.run(int(row[0]))

    @_guarded
    def indices(self, run_id: int) -> set[int]:
        """The indices of the games of ``run_id`` already stored."""
        return {int(r[0]) for r in self.db.execute("SELECT idx FROM games WHERE run_id = ?", (run_id,))}

    @_guarded
    def games(self, run_id: int, below: int | None = None) -> list[GameRow]:
        """The stored games of ``run_id`` (those with an index below ``below`` if given), by index."""
        limit = below if below is not None else 2**62
        cur = self.db.execute(
            "SELECT run_id, idx, seed, winner, reason, turns, vp_a, vp_b, first_player, swapped, decisions, steps, "
            "models, log_path, elapsed_s FROM games WHERE run_id = ? AND idx < ? ORDER BY idx",
            (run_id, limit),
        )
        return [self._checked_game(row) for row in cur]

    def _checked_run(self, row: dict[str, Any]) -> RunInfo:
        try:
            return _run_info(row)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise StoreError(f"--db {self.path}: the row of run {row.get('id')!r} is damaged ({exc})") from None

    def _checked_game(self, row: tuple[Any, ...]) -> GameRow:
        try:
            return _game_row(row)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            where = f"game {row[1]!r} of run {row[0]!r}" if len(row) > 1 else "a game"
            raise StoreError(f"--db {self.path}: the row of {where} is damaged ({exc})") from None

    @_guarded
    def log_text(self, run_id: int, index: int) -> str | None:
        """Game ``index``'s full log (JSON lines), or None if it was not stored."""
        row = self.db.execute("SELECT log FROM games WHERE run_id = ? AND idx = ?", (run_id, index)).fetchone()
        return None if row is None or row[0] is None else str(row[0])

    def rows(self, table: str, run_id: int) -> Iterator[dict[str, Any]]:
        """Raw rows of ``games`` or ``runs`` for one run (tests compare whole rows)."""
        column = {"games": "run_id", "runs": "id"}[table]
        order = " ORDER BY idx" if table == "games" else ""
        cur = self.db.execute(f"SELECT * FROM {table} WHERE {column} = ?{order}", (run_id,))
        for row in cur.fetchall():
            yield _as_dict(self.db, row, cur.description)


def _as_dict(db: sqlite3.Connection, row: tuple[Any, ...], description: Any = None) -> dict[str, Any]:
    if description is None:
        description = db.execute("SELECT * FROM runs LIMIT 0").description
    return {d[0]: value for d, value in zip(description, row, strict=True)}


def _run_info(r: Mapping[str, Any]) -> RunInfo:
    return RunInfo(
        id=int(r["id"]),
        key=r["key"],
        created=r["created"],
        ruleset=r["ruleset"],
        ruleset_version=r["ruleset_version"],
        params=json.loads(r["params"]),
        params_resolved=json.loads(r["params_resolved"]),
        agents=(r["agent_a"], r["agent_b"]),
        names=(r["name_a"], r["name_b"]),
        rosters=(json.loads(r["roster_a"]), json.loads(r["roster_b"])),
        scenario=json.loads(r["scenario"]),
        seed=int(r["seed"]),
        games=int(r["games"]),
        swap_sides=bool(r["swap_sides"]),
        warband=r["warband"],
    )


def _game_row(r: tuple[Any, ...]) -> GameRow:
    (
        run_id,
        idx,
        seed,
        winner,
        reason,
        turns,
        vp_a,
        vp_b,
        first,
        swapped,
        decisions,
        steps,
        models,
        log_path,
        elapsed,
    ) = r
    return GameRow(
        int(run_id),
        int(idx),
        int(seed),
        winner,
        reason,
        int(turns),
        (int(vp_a), int(vp_b)),
        first,
        bool(swapped),
        int(decisions),
        int(steps),
        read_fates(models),
        log_path,
        float(elapsed),
    )


def read_fates(text: str) -> tuple[ModelFate, ...]:
    """The stored ``models`` column: a list of :class:`ModelFate` JSON objects, or (rows stored before
    ModelFate) a mapping of model id to an untyped dict with ``side`` "a"/"b", read the same way."""
    data = json.loads(text)
    if isinstance(data, dict):
        return tuple(ModelFate.from_json(v, k, SIDES) for k, v in sorted(data.items()))
    return tuple(ModelFate.from_json(v) for v in data)


def spec_of(
    config: SimulationConfig,
    names: tuple[str, str],
    rosters: tuple[dict[str, Any], dict[str, Any]],
    scenario: dict[str, Any],
    version: str,
    params: dict[str, object],
    resolved: Mapping[str, object],
) -> RunSpec:
    """The stored description of ``config`` once its files are validated and its parameters resolved."""
    return RunSpec(
        config.ruleset,
        version,
        dict(params),
        dict(resolved),
        (config.agent_a, config.agent_b),
        names,
        rosters,
        scenario,
        config.seed,
        config.swap_sides,
    )

"""The SQLite store of web tables: each table's header and state, seats, dice mode and every logged step.

A table is saved after every step, so a restarted server resumes every game where it stood. Steps are
appended (one row each), the state row is replaced.

The saves are written by one thread of the store (``save_later``), not by the server's event loop: turning a
game into JSON and committing it (at times waiting for the disk) would otherwise hold every browser's request
behind it. Saves that queue up while the thread writes are merged per table (every new step kept, in order;
the latest state replaces the earlier ones) and committed in one transaction. Every read (``load``,
``finished``) and ``flush`` first waits for the saves queued before it, so nothing reads an older game than
the server has; the server flushes before it stops."""

from __future__ import annotations

import json
import os
import sqlite3
import stat
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from warband.kernel.errors import WarbandError

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    ruleset TEXT NOT NULL,
    seats TEXT NOT NULL,
    tokens TEXT NOT NULL,
    dice TEXT NOT NULL,
    game TEXT NOT NULL,
    version INTEGER NOT NULL,
    over INTEGER NOT NULL DEFAULT 0,
    public INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


class StoreError(WarbandError):
    """A table store that cannot be used: a folder, a read-only file, a file that is not a table store."""


def _create_private(path: Path) -> None:
    """Make sure the store is a regular file readable by this user only (mode 0600: it holds every game and
    the hashes of their links), creating it if need be."""
    if path.is_dir():
        raise StoreError(f"--store {path}: is a folder; name a file (e.g. {path / 'tables.db'})")
    if not path.parent.is_dir():
        raise StoreError(f"--store {path}: the folder {path.parent} does not exist")
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK, 0o600)
    except OSError as exc:
        raise StoreError(f"--store {path}: cannot open the file for writing ({exc.strerror or exc})") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise StoreError(f"--store {path}: is not a regular file")
        os.fchmod(fd, 0o600)
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    ruleset: str
    seats: list[str]
    tokens: dict[str, str]
    dice: str
    game: dict[str, Any]
    log: list[dict[str, Any]]
    #: the finished game's replay is open to every visitor
    public: bool = False


@dataclass
class PendingSave:
    """What is queued for one table: its latest state, every step not yet written, and who waits for it."""

    game: dict[str, Any]
    version: int
    over: bool
    steps: list[tuple[int, Any]] = field(default_factory=list)
    done: list[Future[int]] = field(default_factory=list)


class TableStore:
    """One SQLite file (or ``:memory:``); safe to share between the server's threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.mutex = threading.Lock()
        #: the saves waiting for the writer thread, per table; ``writing``: a batch is being committed
        self.queued: dict[str, PendingSave] = {}
        self.writing = False
        self.changed = threading.Condition()
        self.writer: threading.Thread | None = None
        if self.path != ":memory:":
            _create_private(Path(self.path))
            if not os.access(self.path, os.W_OK):
                raise StoreError(f"--store {self.path}: the file is read-only; the server saves every step in it")
        try:
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._open()
        except sqlite3.Error as exc:
            raise StoreError(f"--store {self.path}: cannot use this file as the table store ({exc})") from None

    def _open(self) -> None:
        """Set the journal, check the file is a table store (or empty), and create the tables."""
        if self.path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if names and not {"tables", "steps"} <= names:
            raise StoreError(
                f"--store {self.path}: this database is not a table store (it holds {', '.join(sorted(names))}); "
                "name a new file"
            )
        self.db.executescript(SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
        if "public" not in columns:  # a store written before games could be made public
            self.db.execute("ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0")

    def create(self, t: StoredTable, created: float) -> None:
        with self.mutex:
            self.db.execute(
                "INSERT INTO tables (id, created, ruleset, seats, tokens, dice, game, version, over, public) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, ?)",
                (
                    t.id,
                    created,
                    t.ruleset,
                    json.dumps(t.seats),
                    json.dumps(t.tokens),
                    t.dice,
                    json.dumps(t.game),
                    0,
                    int(t.public),
                ),
            )

    def save(self, table_id: str, game: dict[str, Any], version: int, over: bool, new_steps: list[Any]) -> None:
        """Replace the state and append the steps logged since the last save (``new_steps``: (idx, entry)), now."""
        self.save_later(table_id, game, version, over, new_steps).result()

    def save_later(
        self, table_id: str, game: dict[str, Any], version: int, over: bool, new_steps: list[Any]
    ) -> Future[int]:
        """Queue a save for the writer thread; the future gives ``version`` once it is committed (or the error).
        ``game`` and the steps must not change afterwards (the server builds a new game JSON per version)."""
        done: Future[int] = Future()
        with self.changed:
            pending = self.queued.get(table_id)
            if pending is None:
                pending = self.queued[table_id] = PendingSave(game, version, over)
            pending.game, pending.version, pending.over = game, version, over
            pending.steps.extend(new_steps)
            pending.done.append(done)
            if self.writer is None or not self.writer.is_alive():
                self.writer = threading.Thread(target=self._write_queued, name="table-store-writer", daemon=True)
                self.writer.start()
            self.changed.notify_all()
        return done

    def flush(self) -> None:
        """Wait until every save queued so far is committed."""
        with self.changed:
            while self.queued or self.writing:
                self.changed.wait()

    def _write_queued(self) -> None:
        """The writer thread: commit what is queued, one transaction per batch, until nothing has come for a
        second."""
        while True:
            with self.changed:
                if not self.queued:
                    self.changed.wait(timeout=1.0)
                if not self.queued:
                    self.writer = None
                    return
                batch, self.queued, self.writing = self.queued, {}, True
            try:
                self._write(batch)
            except Exception as exc:  # a full disk, a closed store: every waiting save hears of it
                for pending in batch.values():
                    for done in pending.done:
                        done.set_exception(exc)
            else:
                for pending in batch.values():
                    for done in pending.done:
                        done.set_result(pending.version)
            finally:
                with self.changed:
                    self.writing = False
                    self.changed.notify_all()

    def _write(self, batch: dict[str, PendingSave]) -> None:
        steps = [(tid, idx, json.dumps(entry)) for tid, p in batch.items() for idx, entry in p.steps]
        states = [(json.dumps(p.game), p.version, int(p.over), tid) for tid, p in batch.items()]
        with self.mutex:
            self.db.execute("BEGIN")
            try:
                self.db.executemany("INSERT OR REPLACE INTO steps (table_id, idx, entry) VALUES (?, ?, ?)", steps)
                self.db.executemany("UPDATE tables SET game = ?, version = ?, over = ? WHERE id = ?", states)
            except BaseException:
                self.db.execute("ROLLBACK")
                raise
            self.db.execute("COMMIT")

    def load(self, table_id: str) -> StoredTable | None:
        self.flush()
        with self.mutex:
            row = self.db.execute(
                "SELECT id, ruleset, seats, tokens, dice, game, public FROM tables WHERE id = ?", (table_id,)
            ).fetchone()
            if row is None:
                return None
            steps = self.db.execute("SELECT entry FROM steps WHERE table_id = ? ORDER BY idx", (table_id,)).fetchall()
        return StoredTable(
            row[0],
            row[1],
            json.loads(row[2]),
            json.loads(row[3]),
            row[4],
            json.loads(row[5]),
            [json.loads(s[0]) for s in steps],
            bool(row[6]),
        )

    def finished(self) -> list[tuple[str, str]]:
        """(id, ruleset) of every finished table, newest first."""
        self.flush()
        with self.mutex:
            rows = self.db.execute("SELECT id, ruleset FROM tables WHERE over = 1 ORDER BY created DESC").fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def close(self) -> None:
        self.flush()
        with self.mutex:
            self.db.close()

"""The SQLite store of web tables: each table's header and state, seats, dice mode and every logged step.

A table is saved after every step, so a restarted server resumes every game where it stood. Steps are
appended (one row each), the state row is replaced."""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
    over INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS steps (
    table_id TEXT NOT NULL,
    idx INTEGER NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (table_id, idx)
);
"""


@dataclass(frozen=True, slots=True)
class StoredTable:
    id: str
    ruleset: str
    seats: list[str]
    tokens: dict[str, str]
    dice: str
    game: dict[str, Any]
    log: list[dict[str, Any]]


class TableStore:
    """One SQLite file (or ``:memory:``); safe to share between the server's threads."""

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self.mutex = threading.Lock()
        if self.path != ":memory:":
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)

    def create(self, t: StoredTable, created: float) -> None:
        with self.mutex:
            self.db.execute(
                "INSERT INTO tables (id, created, ruleset, seats, tokens, dice, game, version, over) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (t.id, created, t.ruleset, json.dumps(t.seats), json.dumps(t.tokens), t.dice, json.dumps(t.game), 0),
            )

    def save(self, table_id: str, game: dict[str, Any], version: int, over: bool, new_steps: list[Any]) -> None:
        """Replace the state and append the steps logged since the last save (``new_steps``: (idx, entry))."""
        with self.mutex:
            self.db.execute("BEGIN")
            self.db.executemany(
                "INSERT OR REPLACE INTO steps (table_id, idx, entry) VALUES (?, ?, ?)",
                [(table_id, idx, json.dumps(entry)) for idx, entry in new_steps],
            )
            self.db.execute(
                "UPDATE tables SET game = ?, version = ?, over = ? WHERE id = ?",
                (json.dumps(game), version, int(over), table_id),
            )
            self.db.execute("COMMIT")

    def load(self, table_id: str) -> StoredTable | None:
        with self.mutex:
            row = self.db.execute(
                "SELECT id, ruleset, seats, tokens, dice, game FROM tables WHERE id = ?", (table_id,)
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
        )

    def finished(self) -> list[tuple[str, str]]:
        """(id, ruleset) of every finished table, newest first."""
        with self.mutex:
            rows = self.db.execute("SELECT id, ruleset FROM tables WHERE over = 1 ORDER BY created DESC").fetchall()
        return [(str(r[0]), str(r[1])) for r in rows]

    def close(self) -> None:
        with self.mutex:
            self.db.close()

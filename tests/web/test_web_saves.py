"""Saving the web tables off the event loop (``warband.web.store``): every step is still written, in order,
a seat's action is answered only once it is stored, a stopped server leaves nothing unsaved, and a slow disk
no longer holds the browsers' requests."""

from __future__ import annotations

import sqlite3
import statistics
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from warband.kernel import ruleset as registry
from warband.web.app import Server, create_app
from warband.web.replays import ReplayShelf
from warband.web.store import StoredTable, TableStore

TT = "trenches-and-turbines"


def new_game(c: TestClient, seats: tuple[str, str] = ("human", "human"), ruleset: str = "trench-crusade") -> Any:
    w = [Path(s["path"]).stem for s in registry.get(ruleset).samples()["warbands"]]
    body = {"ruleset": ruleset, "a": {"sample": w[0]}, "b": {"sample": w[1]}, "seats": list(seats), "seed": 3}
    if ruleset == TT:
        body["params"] = {"rounds": 1}
    r = c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    out = r.json()
    out["tokens"] = {k: v.split("token=")[1] for k, v in out["links"].items()}
    return out


def snap(c: TestClient, g: Any, who: str = "A") -> Any:
    r = c.get(f"/api/games/{g['id']}", params={"token": g["tokens"][who]})
    assert r.status_code == 200, r.text
    return r.json()


class SlowCommits:
    """The store's SQLite connection with a slow disk: every COMMIT takes ``seconds``."""

    def __init__(self, db: sqlite3.Connection, seconds: float) -> None:
        self.db = db
        self.seconds = seconds

    def execute(self, sql: str, *args: Any) -> Any:
        if sql.strip().upper() == "COMMIT":
            time.sleep(self.seconds)
        return self.db.execute(sql, *args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


def slow_client(path: Path, seconds: float) -> TestClient:
    store = TableStore(path)
    store.db = SlowCommits(store.db, seconds)  # type: ignore[assignment]
    return TestClient(create_app(Server(store, ReplayShelf(), ai_delay=0.0, agent_workers=0)))


def stored_version(path: Path, table_id: str) -> int:
    """The state version in the file, read through a connection of its own (as a restarted server would)."""
    with sqlite3.connect(path) as db:
        return int(db.execute("SELECT version FROM tables WHERE id = ?", (table_id,)).fetchone()[0])


def test_saves_that_queue_up_keep_every_step_in_order_and_the_last_state(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    store = TableStore(path)
    store.create(StoredTable("t", "trench-crusade", ["human", "human"], {}, "digital", {"v": 0}, []), 0.0)
    with store.mutex:  # the writer is busy (a slow commit): the saves of 40 steps queue meanwhile
        for v in range(1, 41):
            store.save_later("t", {"v": v}, v, v == 40, [(v - 1, {"step": v})])
    store.flush()
    again = TableStore(path).load("t")
    assert again is not None
    assert again.log == [{"step": v} for v in range(1, 41)], "every step, once, in order"
    assert again.game == {"v": 40} and stored_version(path, "t") == 40
    assert ("t", "trench-crusade") in TableStore(path).finished()


def test_a_slow_disk_does_not_hold_the_legal_actions(tmp_path: Path) -> None:
    """Agents play on while each commit takes half a second; a spectator's request for the legal actions is
    still answered at once (the saves wait in the store's thread, not in the event loop)."""
    with slow_client(tmp_path / "web.db", 0.5) as c:
        g = new_game(c, ("random", "random"), TT)
        times: list[float] = []
        deadline = time.monotonic() + 60
        # ask while the agents play (and their half-second commits queue), until they have taken 6 steps
        while snap(c, g, "spectator")["version"] <= 6 or len(times) < 6:
            assert time.monotonic() < deadline, f"the agents did not play on: {len(times)} requests"
            t0 = time.perf_counter()
            r = c.get(f"/api/games/{g['id']}/legal", params={"token": g["tokens"]["spectator"]})
            times.append(time.perf_counter() - t0)
            assert r.status_code == 200
            time.sleep(0.05)
        assert statistics.median(times) < 0.25, times


def test_an_action_is_answered_once_it_is_stored(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    with slow_client(path, 0.3) as c:
        g = new_game(c)
        s = snap(c, g)
        deadline = time.monotonic() + 10
        while s["decider"] is None and time.monotonic() < deadline:  # the server's dice are stored one by one
            time.sleep(0.05)
            s = snap(c, g)
        mine = g["tokens"]["AB"[s["decider"]]]
        legal = c.get(f"/api/games/{g['id']}/legal", params={"token": mine}).json()["actions"][0]
        action = {k: legal[k] for k in ("kind", "model", "target", "point", "option") if k in legal}
        body = {"version": s["version"], "action": action}
        r = c.post(f"/api/games/{g['id']}/act", json=body, headers={"X-Token": mine})
        assert r.status_code == 200, r.text
        assert stored_version(path, g["id"]) >= r.json()["version"] > s["version"]


def test_a_stopped_server_has_saved_every_step(tmp_path: Path) -> None:
    """Agents play with slow commits (saves pile up in the queue); when the server stops, every step the
    table had is in the file, and a new server resumes from the last one."""
    path = tmp_path / "web.db"
    with slow_client(path, 0.05) as c:
        g = new_game(c, ("random", "random"), TT)
        while snap(c, g, "spectator")["version"] < 20:
            time.sleep(0.02)
        table = c.app.state.server.tables[g["id"]]  # type: ignore[attr-defined]
    steps, version = len(table.steps), table.version
    stored = TableStore(path).load(g["id"])
    assert stored is not None
    assert len(stored.log) == steps and stored_version(path, g["id"]) == version
    with TestClient(create_app(Server(TableStore(path), ReplayShelf(), ai_delay=0.0, agent_workers=0))) as c:
        assert snap(c, g, "spectator")["version"] >= version

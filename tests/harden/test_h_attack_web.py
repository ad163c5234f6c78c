"""Issue 24 items 4, 6 and 10 (web): the Host header is checked against the bound address, link tokens are
stored as hashes in a 0600 file, a web game's replay needs one of its links, a step that cannot be stored
stops the game (the person hears 503, the state stays where it was saved), NaN points are refused, and the
server answers GET /api/meta within 1 s while a hostile request is in flight."""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from attack import web
from fastapi.testclient import TestClient

from warband.kernel.ruleset import get
from warband.web.guard import allowed_hosts
from warband.web.store import TableStore
from webgame import new_game
from webgame import snap as seat_snap

TC = "trench-crusade"
TT = "trenches-and-turbines"


def snap(c: TestClient, g: dict[str, Any], who: str = "spectator") -> dict[str, Any]:
    return seat_snap(c, g, who)


# --- the Host header ---------------------------------------------------------------------------------------
REFUSED_HOSTS = ["evil.example", "127.0.0.1.evil.example", "localhost.evil", "127.0.0.2", "10.0.0.1:8000", "[::2]"]
ALLOWED_HOSTS = ["127.0.0.1", "127.0.0.1:8000", "localhost", "LOCALHOST:80", "[::1]:8000"]


@pytest.fixture(scope="module")
def local() -> Iterator[TestClient]:
    """A server bound to 127.0.0.1."""
    with web(allowed_hosts=allowed_hosts("127.0.0.1")) as c:
        yield c


@pytest.mark.parametrize("host", REFUSED_HOSTS)
@pytest.mark.parametrize("path", ["/api/meta", "/", "/api/replays"])
def test_a_foreign_host_header_is_refused(host: str, path: str, local: TestClient) -> None:
    r = local.get(path, headers={"host": host})
    assert r.status_code == 421 and "Host header" in r.json()["error"]


@pytest.mark.parametrize("host", ALLOWED_HOSTS)
def test_the_bound_address_is_served(host: str, local: TestClient) -> None:
    assert local.get("/api/meta", headers={"host": host}).status_code == 200


def test_a_server_bound_to_one_address_serves_that_address_only() -> None:
    with web(allowed_hosts=allowed_hosts("192.168.1.5")) as c:
        assert c.get("/api/meta", headers={"host": "192.168.1.5:8000"}).status_code == 200
        assert c.get("/api/meta", headers={"host": "localhost:8000"}).status_code == 421


def test_a_websocket_from_a_foreign_host_is_closed() -> None:
    from starlette.websockets import WebSocketDisconnect

    with (
        web(allowed_hosts=allowed_hosts("localhost")) as c,
        pytest.raises(WebSocketDisconnect) as info,
        c.websocket_connect("/api/games/x/ws", headers={"host": "evil.example"}) as ws,
    ):
        ws.receive_text()
    assert info.value.code == 4421


# --- tokens, the store file, replays ---------------------------------------------------------------------
def test_tokens_are_stored_as_hashes_in_a_private_file(tmp_path: Path) -> None:
    path = tmp_path / "web.db"
    with web(path) as c:
        g = new_game(c)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = path.read_bytes()
    for token in g["tokens"].values():
        assert token.encode() not in text
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT tokens FROM tables").fetchone()
    assert all(len(v) == 64 for v in __import__("json").loads(stored).values())
    with web(path) as c:  # a restarted server still knows every link
        assert snap(c, g, "A")["version"] >= 0


@pytest.fixture(scope="module")
def game() -> Iterator[tuple[TestClient, dict[str, Any]]]:
    with web() as c:
        yield c, new_game(c)


@pytest.mark.parametrize("token", ["", "x", "A" * 24, "../" * 10, "A" * 5000])
def test_a_wrong_token_is_refused(token: str, game: tuple[TestClient, dict[str, Any]]) -> None:
    c, g = game
    r = c.get(f"/api/games/{g['id']}", params={"token": token})
    assert r.status_code in (403, 422), r.text
    hashed = c.app.state.server.tables[g["id"]].tokens  # type: ignore[attr-defined]
    assert token not in hashed.values()


def test_a_web_games_replay_needs_one_of_its_links() -> None:
    with web() as c:
        g = new_game(c, ("random", "random"), TT, params={"rounds": 1})
        deadline = time.monotonic() + 60
        while snap(c, g)["result"] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        rid = f"game-{g['id']}"
        assert all(r["id"] != rid for r in c.get("/api/replays").json()["replays"])
        assert c.get(f"/api/replays/{rid}").status_code == 403
        assert c.get(f"/api/replays/{rid}/view", params={"token": "nope"}).status_code == 403
        assert c.get(f"/api/replays/{rid}", params={"token": g["tokens"]["A"]}).status_code == 200
        listed = c.get("/api/replays", params={"token": g["tokens"]["B"]}).json()["replays"]
        assert any(r["id"] == rid for r in listed)


def test_a_game_made_public_is_everyones_replay() -> None:
    with web() as c:
        g = new_game(c, ("random", "random"), TT, params={"rounds": 1}, public=True)
        deadline = time.monotonic() + 60
        while snap(c, g)["result"] is None and time.monotonic() < deadline:
            time.sleep(0.05)
        rid = f"game-{g['id']}"
        assert any(r["id"] == rid for r in c.get("/api/replays").json()["replays"])
        assert c.get(f"/api/replays/{rid}").status_code == 200


def test_a_store_written_before_games_could_be_public_still_opens(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as db:
        db.executescript(
            "CREATE TABLE tables (id TEXT PRIMARY KEY, created REAL NOT NULL, ruleset TEXT NOT NULL,"
            " seats TEXT NOT NULL,"
            " tokens TEXT NOT NULL, dice TEXT NOT NULL, game TEXT NOT NULL, version INTEGER NOT NULL,"
            " over INTEGER NOT NULL DEFAULT 0);"
            "CREATE TABLE steps (table_id TEXT NOT NULL, idx INTEGER NOT NULL, entry TEXT NOT NULL,"
            " PRIMARY KEY (table_id, idx));"
        )
    with web(path) as c:
        g = new_game(c)
        assert snap(c, g)["version"] >= 0


@pytest.mark.parametrize("kind", ["folder", "foreign", "missing-folder"])
def test_a_store_that_cannot_be_used_is_a_clear_error(kind: str, tmp_path: Path) -> None:
    from warband.kernel.errors import WarbandError

    if kind == "folder":
        path = tmp_path
    elif kind == "foreign":
        path = tmp_path / "lab.db"
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE runs (id INTEGER)")
    else:
        path = tmp_path / "nope" / "web.db"
    with pytest.raises(WarbandError, match="--store"):
        TableStore(path)


# --- a step that cannot be stored --------------------------------------------------------------------------
class FullDisk(TableStore):
    """A store whose commits fail once ``full`` is set, as on a full disk."""

    full = False

    def _write(self, batch: Any) -> None:
        if self.full:
            raise sqlite3.OperationalError("database or disk is full")
        super()._write(batch)


def _client(store: TableStore) -> TestClient:
    from warband.web.app import Server, create_app
    from warband.web.replays import ReplayShelf

    return TestClient(create_app(Server(store, ReplayShelf(), ai_delay=0.0, agent_workers=0)))


def test_an_action_that_cannot_be_stored_is_a_503_and_the_game_stays(tmp_path: Path) -> None:
    store = FullDisk(tmp_path / "web.db")
    with _client(store) as c:
        g = new_game(c)
        s = snap(c, g)
        while s["decider"] is None:
            time.sleep(0.02)
            s = snap(c, g)
        me = g["tokens"]["AB"[s["decider"]]]
        legal = c.get(f"/api/games/{g['id']}/legal", params={"token": me}).json()["actions"][0]
        action = {k: legal[k] for k in ("kind", "model", "target", "point", "option") if k in legal}
        store.full = True
        r = c.post(
            f"/api/games/{g['id']}/act", json={"version": s["version"], "action": action}, headers={"X-Token": me}
        )
        assert r.status_code == 503 and "could not save" in r.json()["error"]
        after = snap(c, g)
        assert after["version"] == s["version"] and "could not save" in (after["fault"] or "")
        store.full = False
        r = c.post(
            f"/api/games/{g['id']}/act", json={"version": s["version"], "action": action}, headers={"X-Token": me}
        )
        assert r.status_code == 503, "a halted game takes no step until the server restarts"


def test_agents_stop_playing_a_game_that_cannot_be_stored(tmp_path: Path) -> None:
    store = FullDisk(tmp_path / "web.db")
    with _client(store) as c:
        g = new_game(c, ("random", "random"), TT)
        while snap(c, g)["version"] < 5:
            time.sleep(0.02)
        store.full = True
        deadline = time.monotonic() + 5
        while not snap(c, g)["fault"] and time.monotonic() < deadline:
            time.sleep(0.02)
        halted = snap(c, g)
        assert "could not save" in halted["fault"]
        time.sleep(0.5)
        assert snap(c, g)["version"] == halted["version"], "no agent plays on"
    stored = TableStore(tmp_path / "web.db").load(g["id"])
    assert stored is not None and len(stored.log) == halted["version"], "memory never ran ahead of the store"


# --- numbers and a free server -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "point", ["[NaN, 1]", "[1, Infinity]", "[-Infinity, 0]", "[1e400, 1]", "[1e308, -1e308]", "[true, 1]"]
)
def test_measure_with_a_point_that_is_not_finite_is_a_422(point: str, game: tuple[TestClient, dict[str, Any]]) -> None:
    c, g = game
    body = '{"a": {"point": ' + point + '}, "b": {"point": [4, 5]}}'
    r = c.post(
        f"/api/games/{g['id']}/measure",
        params={"token": g["tokens"]["spectator"]},
        content=body,
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422, r.text


def _hostile_requests() -> list[tuple[str, dict[str, Any]]]:
    """One request of each class of the corpus that a server used to choke on."""
    from attack import alias_bomb

    w = [Path(x["path"]).stem for x in get(TC).samples()["warbands"]]
    upload = {"ruleset": TC, "kind": "warband"}
    return [
        ("/api/validate", {**upload, "doc": {"text": alias_bomb()}}),
        ("/api/validate", {**upload, "doc": {"text": "x: " + "[" * 5000 + "]" * 5000}}),
        ("/api/validate", {**upload, "doc": {"text": "name: " + "x" * 250_000}}),
        ("/api/validate", {"ruleset": TC, "kind": "scenario", "doc": {"text": "table: {width: .inf, depth: 1}"}}),
        (
            "/api/games",
            {"ruleset": TC, "a": {"sample": w[0]}, "b": {"sample": w[1]}, "seats": ["mcts:seconds=inf"] * 2},
        ),
        (
            "/api/games",
            {
                "ruleset": TC,
                "a": {"sample": w[0]},
                "b": {"sample": w[1]},
                "seats": ["mcts:iterations=99999999999999999999"] * 2,
            },
        ),
    ]


@pytest.mark.parametrize("index", range(6))
def test_meta_answers_within_a_second_while_a_hostile_request_is_in_flight(index: int) -> None:
    path, body = _hostile_requests()[index]
    with web() as c:
        assert c.get("/api/meta").status_code == 200
        answered: list[int] = []
        hostile = threading.Thread(target=lambda: answered.append(c.post(path, json=body).status_code))
        hostile.start()
        times = []
        for _ in range(3):
            started = time.monotonic()
            assert c.get("/api/meta").status_code == 200
            times.append(time.monotonic() - started)
        hostile.join(timeout=5)
    assert max(times) < 1.0, times
    assert answered and 400 <= answered[0] < 500, answered


def test_meta_answers_within_a_second_while_a_long_valid_upload_is_checked() -> None:
    """The heaviest upload a person may send (a warband file of ~4,000 entries, just under the upload limit) is
    checked in a process of its own, so it does not hold the server's GIL: ``/api/meta`` is answered meanwhile."""
    from warband.web import documents
    from warband.web.documents import ELSEWHERE_CHARS
    from warband.web.schemas import UPLOAD_LIMIT

    head = "ruleset: trench-crusade\nname: Big\nfaction: Heretic Legion\npoints_limit: 700\nmodels:\n"
    entry = "  - model: Heretic Trooper\n    equipment: [Bolt-Action Rifle]\n"
    text = head + entry * ((UPLOAD_LIMIT - len(head)) // len(entry) - 1)
    assert ELSEWHERE_CHARS < len(text) <= UPLOAD_LIMIT
    body = {"ruleset": TC, "kind": "warband", "doc": {"text": text}}
    with web() as c:
        assert c.get("/api/meta").status_code == 200
        c.post("/api/validate", json=body)  # the checking process is started once, as a server's first upload does
        assert documents._upload_pool is not None, "a long upload was checked in the server's own process"
        answered: list[Any] = []
        upload = threading.Thread(target=lambda: answered.append(c.post("/api/validate", json=body)))
        upload.start()
        times = []
        while upload.is_alive() and len(times) < 20:
            started = time.monotonic()
            assert c.get("/api/meta").status_code == 200
            times.append(time.monotonic() - started)
        upload.join(timeout=30)
    assert times and max(times) < 1.0, times
    assert answered and answered[0].status_code == 422, answered
    # every problem with its place, as the thread path answers it: the list's limits are broken
    assert answered[0].json()["problems"], answered[0].json()

"""The web table's API without a browser: seats and links, stale versions, malformed bodies, uploads, errors
as JSON, live updates, measuring, and a game that survives a server restart."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from warband.kernel import ruleset as registry
from warband.web.app import Server, create_app
from warband.web.replays import ReplayShelf
from warband.web.schemas import UPLOAD_LIMIT
from warband.web.store import TableStore
from webgame import new_game, snap

TC = "trench-crusade"
TT = "trenches-and-turbines"


def client_for(store: Path, agent_workers: int = 1) -> TestClient:
    return TestClient(create_app(Server(TableStore(store), ReplayShelf(), ai_delay=0.0, agent_workers=agent_workers)))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path / "web.db") as c:
        yield c


def decider_token(g: dict[str, Any], s: dict[str, Any]) -> tuple[str, str]:
    """(the deciding seat's token, the other seat's token)."""
    me = "AB"[s["decider"]]
    return g["tokens"][me], g["tokens"]["B" if me == "A" else "A"]


def first_legal(c: TestClient, g: dict[str, Any]) -> dict[str, Any]:
    r = c.get(f"/api/games/{g['id']}/legal", params={"token": g["tokens"]["spectator"]})
    action: dict[str, Any] = r.json()["actions"][0]
    return {k: action[k] for k in ("kind", "model", "target", "point", "option") if k in action}


def act(c: TestClient, g: dict[str, Any], token: str, version: int, action: dict[str, Any]) -> Any:
    return c.post(f"/api/games/{g['id']}/act", json={"version": version, "action": action}, headers={"X-Token": token})


def test_the_deciding_seat_acts_and_the_version_moves(client: TestClient) -> None:
    g = new_game(client)
    s = snap(client, g)
    mine, _ = decider_token(g, s)
    r = act(client, g, mine, s["version"], first_legal(client, g))
    assert r.status_code == 200, r.text
    assert r.json()["version"] > s["version"]
    assert snap(client, g)["log"], "the step is in the log"


def test_the_wrong_seat_gets_403(client: TestClient) -> None:
    g = new_game(client)
    s = snap(client, g)
    _, other = decider_token(g, s)
    r = act(client, g, other, s["version"], first_legal(client, g))
    assert r.status_code == 403
    assert "not your decision" in r.json()["error"]
    assert snap(client, g)["version"] == s["version"], "nothing changed"


def test_a_spectator_or_a_stranger_cannot_act(client: TestClient) -> None:
    g = new_game(client)
    s = snap(client, g)
    r = act(client, g, g["tokens"]["spectator"], s["version"], first_legal(client, g))
    assert r.status_code == 403 and "spectators" in r.json()["error"]
    r = act(client, g, "not-a-token", s["version"], first_legal(client, g))
    assert r.status_code == 403
    assert client.get(f"/api/games/{g['id']}", params={"token": "nope"}).status_code == 403


def test_a_stale_version_gets_409_naming_the_expected_one(client: TestClient) -> None:
    g = new_game(client)
    s = snap(client, g)
    mine, _ = decider_token(g, s)
    r = act(client, g, mine, s["version"] + 5, first_legal(client, g))
    assert r.status_code == 409
    assert r.json()["expected"] == s["version"]
    assert f"version {s['version']}" in r.json()["error"]


@pytest.mark.parametrize(
    "body",
    [
        {"version": 0},
        {"version": "x", "action": {"kind": "pass"}},
        {"version": 0, "action": {"kind": "pass", "extra": 1}},
        {"version": 0, "action": {"kind": "Bad Kind!"}},
        {"version": 0, "action": {"kind": "move", "model": "../../etc/passwd"}},
    ],
)
def test_a_malformed_body_gets_422_with_its_places(client: TestClient, body: dict[str, Any]) -> None:
    g = new_game(client)
    r = client.post(f"/api/games/{g['id']}/act", json=body, headers={"X-Token": g["tokens"]["A"]})
    assert r.status_code == 422
    assert r.json()["error"] == "malformed request" and r.json()["problems"]


def test_not_json_gets_a_json_error(client: TestClient) -> None:
    r = client.post("/api/games", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and "error" in r.json()


def test_an_illegal_action_says_which_rule_forbids_it(client: TestClient) -> None:
    g = new_game(client)
    s = snap(client, g)
    mine, _ = decider_token(g, s)
    r = act(client, g, mine, s["version"], {"kind": "charge", "model": "a1", "target": "b1"})
    assert r.status_code == 422
    reasons = r.json()["reasons"]
    assert reasons and all(x["rule"] and x["text"] for x in reasons)


def test_an_oversized_upload_gets_413(client: TestClient) -> None:
    text = "name: x\n" + "#" * (UPLOAD_LIMIT + 10)
    r = client.post("/api/validate", json={"ruleset": TC, "kind": "warband", "doc": {"text": text}})
    assert r.status_code == 413 and str(UPLOAD_LIMIT) in r.json()["error"]
    huge = client.post("/api/games", content=b"x" * 2_000_000, headers={"Content-Type": "application/json"})
    assert huge.status_code == 413


def test_an_invalid_upload_lists_every_problem_with_its_place(client: TestClient) -> None:
    rs = registry.get(TC)
    doc = yaml.safe_load(Path(rs.samples()["warbands"][0]["path"]).read_text(encoding="utf-8"))
    doc["models"][0]["weapons"] = ["Rifel of Nowhere"]
    doc["models"][1]["weapons"] = ["Spoon of Doom"]
    r = client.post("/api/validate", json={"ruleset": TC, "kind": "warband", "doc": {"text": yaml.safe_dump(doc)}})
    assert r.status_code == 422
    places = [p["place"] for p in r.json()["problems"]]
    assert len(places) >= 2 and any("models[0]" in p for p in places) and any("models[1]" in p for p in places)


def test_a_sample_is_named_never_a_path(client: TestClient) -> None:
    r = client.post("/api/validate", json={"ruleset": TC, "kind": "warband", "doc": {"sample": "../../secret"}})
    assert r.status_code == 422
    r = client.post("/api/validate", json={"ruleset": TC, "kind": "warband", "doc": {"sample": "no_such_band"}})
    assert r.status_code == 422 and "no sample" in r.json()["error"]


def test_live_updates_arrive_over_the_websocket(client: TestClient) -> None:
    g = new_game(client)
    s = snap(client, g)
    mine, _ = decider_token(g, s)
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['tokens']['spectator']}") as ws:
        assert ws.receive_json()["version"] == s["version"]
        act(client, g, mine, s["version"], first_legal(client, g))
        assert ws.receive_json()["version"] > s["version"]


def test_agent_seats_play_to_the_end_and_the_game_becomes_a_replay(client: TestClient) -> None:
    g = new_game(client, ("random", "random"), TT, params={"rounds": 1})
    s = wait_until_over(client, g)
    assert s["result"] is not None and s["version"] == len(s["log"])
    seen = {"token": g["tokens"]["spectator"]}
    rep = client.get(f"/api/replays/game-{g['id']}", params=seen).json()
    assert len(rep["lines"]) == s["version"] + 1
    end = client.get(f"/api/replays/game-{g['id']}/view", params={"step": 10_000, **seen}).json()
    assert end["step"] == s["version"]
    assert end["view"] == snap(client, g)["view"], "the replay's last step is the game's final table"


def wait_until_over(c: TestClient, g: dict[str, Any], seconds: float = 60) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        s = snap(c, g, "spectator")
        if s["result"] is not None:
            return s
        time.sleep(0.05)
    raise AssertionError("the agents did not finish the game")


def test_agents_think_in_worker_processes_and_choose_as_they_would_in_a_thread(tmp_path: Path) -> None:
    """An agent seat's search runs in the server's process pool (off the event loop and its GIL) on the game
    rebuilt from its saved JSON, with its random stream carried there and back: the same seed plays the same
    game as agents thinking in a thread of the server."""
    games = []
    for workers in (0, 1):
        with client_for(tmp_path / f"web-{workers}.db", agent_workers=workers) as c:
            g = new_game(c, ("random", "random"), TT, params={"rounds": 1})
            s = wait_until_over(c, g)
            table = c.app.state.server.tables[g["id"]]  # type: ignore[attr-defined]
            agent_moves = sum(1 for line in s["log"] if ". A: " in line or ". B: " in line)
            assert table.moved_elsewhere == (agent_moves if workers else 0)
            games.append(s["log"])
    assert agent_moves > 10
    assert games[0] == games[1]


def test_a_game_resumes_after_a_restart(tmp_path: Path) -> None:
    store = tmp_path / "web.db"
    with client_for(store) as c:
        g = new_game(c)
        s = snap(c, g)
        mine, _ = decider_token(g, s)
        assert act(c, g, mine, s["version"], first_legal(c, g)).status_code == 200
        before = snap(c, g)
    with client_for(store) as c:
        after = snap(c, g)
        assert after["version"] == before["version"] and after["view"] == before["view"]
        assert after["log"] == before["log"]
        mine, _ = decider_token(g, after)
        assert act(c, g, mine, after["version"], first_legal(c, g)).status_code == 200


def test_agent_seats_carry_on_after_a_restart(tmp_path: Path) -> None:
    store = tmp_path / "web.db"
    with client_for(store) as c:
        g = new_game(c, ("random", "random"), TT, params={"rounds": 1})
    with client_for(store) as c:
        s = wait_until_over(c, g)
        assert s["result"] is not None


def test_measure_gives_distances_and_line_of_sight(client: TestClient) -> None:
    g = new_game(client)
    r = client.post(
        f"/api/games/{g['id']}/measure",
        params={"token": g["tokens"]["spectator"]},
        json={"a": {"point": [1, 1]}, "b": {"point": [4, 5]}},
    )
    assert r.status_code == 200
    assert r.json()["centre"] == 5.0 and isinstance(r.json()["line_of_sight"], bool)


def test_the_page_and_its_assets_are_served_locally(client: TestClient) -> None:
    page = client.get("/").text
    assert "/static/app.js" in page and "http" not in page.replace('"http-equiv', "")
    for asset in ("app.js", "board.js", "style.css"):
        r = client.get(f"/static/{asset}")
        assert r.status_code == 200 and "cdn" not in r.text.lower()
    assert client.get("/api/meta").json()["rulesets"]


def test_lab_games_open_as_replays_and_the_report_links_to_them(tmp_path: Path) -> None:
    from warband.lab.records import SimulationConfig
    from warband.lab.report import write_report
    from warband.lab.simulate import simulate
    from warband.lab.store import Store

    rs = registry.get(TC)
    paths = [Path(s["path"]) for s in rs.samples()["warbands"][:2]]
    config = SimulationConfig(TC, paths[0], paths[1], games=2, seed=5, agent_a="random", agent_b="random")
    db = tmp_path / "results.db"
    with Store(db) as store:
        simulate(config, workers=1, store=store)
    page = (write_report(db, tmp_path / "report").index).read_text(encoding="utf-8")
    shelf = ReplayShelf()
    ids = shelf.add_lab_db(db)
    linked = [i for i in ids if f"/replay/{i}'" in page]
    assert linked, "the report's lopsided games link to the replay view"
    with TestClient(create_app(Server(TableStore(tmp_path / "web.db"), shelf, 0.0))) as c:
        assert {r["id"] for r in c.get("/api/replays").json()["replays"]} >= set(ids)
        rep = c.get(f"/api/replays/{linked[0]}").json()
        assert rep["result"] is not None and len(rep["lines"]) > 10
        view = c.get(f"/api/replays/{linked[0]}/view", params={"step": 5}).json()
        assert view["step"] == 5 and view["view"]["view_version"] == 1
        assert c.get("/api/replays/nope").status_code == 404


def test_a_log_file_opens_as_a_replay(tmp_path: Path) -> None:
    from warband.agents.play import play_out
    from warband.agents.random_agent import RandomAgent
    from warband.kernel.engine import Game
    from warband.kernel.log import write_log

    rs = registry.get(TT)
    paths = [Path(s["path"]) for s in rs.samples()["warbands"][:2]]
    game = Game.new(rs, [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), 9, {"rounds": 1})
    play_out(game, [RandomAgent(seed=1), RandomAgent(seed=2)])
    write_log(game, tmp_path / "game.jsonl")
    shelf = ReplayShelf()
    replay_id = shelf.add_log_file(tmp_path / "game.jsonl")
    rep = shelf.get(replay_id)
    assert rep is not None and len(rep.states) == len(game.log or []) + 1
    assert rep.game.ruleset.view(rep.states[-1]) == rs.view(game.state)


def test_warband_serve_prints_its_url(tmp_path: Path) -> None:
    import subprocess
    import sys

    from conftest import free_port

    port = free_port()
    cmd = [sys.executable, "-m", "warband", "serve", "--port", str(port), "--store", str(tmp_path / "w.db")]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert f"http://127.0.0.1:{port}/" in line
        import httpx

        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            try:
                assert httpx.get(f"http://127.0.0.1:{port}/api/meta").status_code == 200
                break
            except httpx.TransportError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
    finally:
        proc.terminate()
        proc.wait(10)


def test_an_agent_that_fails_is_reported_not_fatal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from warband.agents.random_agent import RandomAgent

    def broken(self: RandomAgent, game: Any) -> Any:
        raise RuntimeError("agent bug")

    monkeypatch.setattr(RandomAgent, "choose", broken)  # a patch lives in this process: agents think in threads
    with client_for(tmp_path / "web.db", agent_workers=0) as client:
        fails_and_lives_on(client)


def fails_and_lives_on(client: TestClient) -> None:
    g = new_game(client, ("random", "random"))
    deadline = time.monotonic() + 20
    while (s := snap(client, g))["fault"] is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert s["fault"] is not None and "agent bug" in s["fault"]
    assert client.get("/api/meta").status_code == 200, "the server lives on"

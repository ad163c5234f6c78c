"""The web table's builder API (``/api/builder``) and short simulations (``/api/simulate``) without a browser: the
lists, models and kit with their costs and limits, a plan's totals and problems naming the list rule, the rules
a next choice would break, the saved file (the one ``warband build`` writes), bad input answered 4xx with its
rule, and any ruleset with a builder served by the same code."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import httpx
import pytest
import yaml
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from warband.cli.main import app as cli
from warband.kernel import ruleset as registry
from warband.kernel.builder import BuildStatus, ListBuilder, Offer, Plan, Tally
from warband.kernel.errors import Problem
from warband.web import builder as web_builder
from warband.web.app import Server, create_app
from warband.web.replays import ReplayShelf
from warband.web.store import TableStore

TC = "trench-crusade"
B = f"/api/builder/{TC}"
SILENCED = (
    "Usable in melee with the Ranged characteristic, also off-hand; +1 DICE to hit when firing from behind terrain"
)
CHOIR = {
    "name": "The Choir",
    "list_id": "heretic_legion",
    "points_limit": 700,
    "picks": [
        {
            "model": "heretic_priest",
            "name": "Father Orobas",
            "items": ["pistol_revolver", "sword_axe", "standard_armour"],
        },
        {"model": "heretic_trooper", "count": 3, "items": ["bolt_action_rifle", "trench_club"]},
        {"model": "war_wolf_assault_beast"},
    ],
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    server = Server(TableStore(tmp_path / "web.db"), ReplayShelf(), ai_delay=0.0, agent_workers=1)
    with TestClient(create_app(server)) as c:
        yield c


def with_picks(*picks: dict[str, Any], **header: Any) -> dict[str, Any]:
    return {**CHOIR, **header, "picks": [*CHOIR["picks"], *picks]}


def check(client: TestClient, plan: dict[str, Any], focus: int | None = None) -> dict[str, Any]:
    r = client.post(f"{B}/check", json={"plan": plan, "focus": focus})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def messages(result: dict[str, Any]) -> list[str]:
    return [p["message"] for p in result["problems"]]


# --- the lists -----------------------------------------------------------------------------------------------


def test_the_rulesets_with_a_builder_and_their_lists(client: TestClient) -> None:
    rulesets = client.get("/api/builder").json()["rulesets"]
    assert [r["id"] for r in rulesets] == [TC]  # the other games have no lists to build from
    lists = {x["name"]: x for x in rulesets[0]["lists"]}
    assert (
        lists["Heretic Legion"] | {"cost": "700 ducats", "points": 700, "glory": 0, "faction": None}
        == lists["Heretic Legion"]
    )
    trench_ghosts = lists["Trench Ghosts"]
    assert trench_ghosts["kind"] == "variant" and trench_ghosts["faction"] == "heretic_legion"
    papal = lists["Papal States Intervention Force"]
    assert (papal["points"], papal["glory"], papal["faction"]) == (500, 11, "new_antioch")


def test_a_lists_models_with_their_costs_and_limits(client: TestClient) -> None:
    r = client.get(f"{B}/lists/heretic_legion/models")
    assert r.status_code == 200
    models = {m["name"]: m for m in r.json()["models"]}
    assert (models["Heretic Priest"]["cost"], models["Heretic Priest"]["limit"]) == ("80 ducats", "1, leader")
    assert models["Heretic Trooper"]["limit"] == "any number"
    assert models["Goetic Warlock"]["cost"] == "4 glory"
    assert "Lieutenant" not in models


def test_a_models_kit_is_what_its_list_sells_it(client: TestClient) -> None:
    r = client.get(f"{B}/lists/heretic_legion/kit", params={"model": "Heretic Trooper"})
    assert r.status_code == 200
    kit = {o["name"]: o for o in r.json()["kit"]}
    assert (kit["Bolt-Action Rifle"]["cost"], kit["Bolt-Action Rifle"]["limit"]) == ("10 ducats", "2 hands")
    assert kit["Machine Gun"]["limit"] == "LIMIT 1, 2 hands"
    assert kit["Melee Legionnaire"]["kind"] == "upgrade"
    assert "Scourge / Battle-Whip / Flail" not in kit  # only Trench Pilgrims may buy it
    yeoman = client.get(f"{B}/lists/new_antioch/kit", params={"model": "yeoman"}).json()
    assert yeoman["start"]["items"] == ["bolt_action_rifle"]  # a Yeoman joins with the rifle it may swap


def test_unknown_lists_rulesets_and_models_of_other_lists_are_refused_with_the_rule(client: TestClient) -> None:
    r = client.get(f"{B}/lists/heretic_horde/models")
    assert r.status_code == 404 and "no faction or variant 'heretic_horde'" in r.json()["error"]
    assert "Heretic Legion" in r.json()["error"]  # it names the factions there are
    r = client.get("/api/builder/gangfight/lists/x/models")
    assert r.status_code == 404 and "gangfight has no warband builder" in r.json()["error"]
    assert client.get("/api/builder/chess/lists/x/models").status_code == 404
    r = client.get(f"{B}/lists/heretic_legion/kit", params={"model": "Lieutenant"})
    assert r.status_code == 422
    assert r.json()["error"] == "Heretic Legion may not field 'Lieutenant' (New Antioch list)"
    r = client.post(f"{B}/check", json={"plan": {**CHOIR, "list_id": "heretic_horde"}})
    assert r.status_code == 422 and "no faction or variant 'heretic_horde'" in r.json()["error"]


def test_malformed_plans_are_refused_with_their_place(client: TestClient) -> None:
    bad_count = with_picks({"model": "heretic_trooper", "count": 0})
    r = client.post(f"{B}/check", json={"plan": bad_count})
    assert r.status_code == 422 and r.json()["problems"][0]["place"] == "body.plan.picks.3.count"
    r = client.post(f"{B}/check", json={"plan": {**CHOIR, "cost": 5}})
    assert r.status_code == 422 and r.json()["problems"][0]["place"] == "body.plan.cost"
    r = client.post(f"{B}/check", json={"plan": with_picks(*[{"model": "heretic_trooper"}] * 60)})
    assert r.status_code == 422 and "picks" in r.json()["problems"][0]["place"]


# --- checking a plan -----------------------------------------------------------------------------------------


def test_a_legal_plan_its_totals_entry_costs_and_unmodelled_rules(client: TestClient) -> None:
    result = check(client, CHOIR)
    assert result["ok"] and result["problems"] == []
    assert result["totals"] == "374 of 700 ducats, 0 of 0 glory, 5 models"
    assert result["tallies"][0] == {"name": "ducats", "amount": 374, "limit": 700}
    assert [e["cost"] for e in result["entries"]] == ["105 ducats", "129 ducats", "140 ducats"]
    assert result["entries"][0]["label"] == "Father Orobas (Heretic Priest)"
    assert result["entries"][1]["items"] == [
        {"id": "bolt_action_rifle", "name": "Bolt-Action Rifle"},
        {"id": "trench_club", "name": "Trench Club"},
    ]
    assert not [n for n in result["notes"] if "not modelled" in n]  # every rule of the Choir is played
    commando = check(client, with_picks({"model": "death_commando", "items": ["silenced_pistol", "sword_axe"]}))
    assert f"not modelled: Silenced Pistol: {SILENCED} (Death Commando)" in commando["notes"]


def test_every_problem_names_its_list_rule_and_its_entry(client: TestClient) -> None:
    plan = with_picks(
        {"model": "heretic_priest"},
        {"model": "lieutenant"},
        {"model": "heretic_trooper", "items": ["flail"]},
        points_limit=300,
    )
    result = check(client, plan)
    assert not result["ok"]
    found = {(p["entry"], p["where"], p["message"]) for p in result["problems"]}
    assert (3, "Heretic Priest", "the Heretic Legion list fields at most 1 Heretic Priest (leader), found 2") in found
    assert (4, "lieutenant", "Heretic Legion may not field 'Lieutenant' (New Antioch list)") in found
    flail = "Scourge / Battle-Whip / Flail: only Trench Pilgrims may buy it (Heretic Legion list)"
    assert (5, "Heretic Trooper", flail) in found
    over = [p for p in result["problems"] if p["place"] == "points_limit"]
    assert over[0]["where"] == "ducats" and over[0]["message"].startswith("expected a total of at most 300 ducats")
    assert result["notes"] == []  # named once the warband can be read as the engine's
    r = client.post(f"{B}/save", json=plan)
    assert r.status_code == 422
    refused = [p["message"] for p in r.json()["problems"]]
    assert "Heretic Legion may not field 'Lieutenant' (New Antioch list)" in refused


def test_a_model_or_an_item_that_would_break_a_rule_says_which(client: TestClient) -> None:
    result = check(client, CHOIR, focus=1)
    blocked = {m["name"]: m["blocked"] for m in result["models"]}
    assert blocked["Heretic Priest"] == "the Heretic Legion list fields at most 1 Heretic Priest (leader), found 2"
    assert blocked["War Wolf Assault Beast"].startswith("the Heretic Legion list fields at most 1 War Wolf")
    assert blocked["Heretic Trooper"] is None and blocked["Death Commando"] is None
    # a model that lacks kit on its own is not refused for it, nor for ducats it would overspend
    tight = {m["name"]: m["blocked"] for m in check(client, with_picks(points_limit=380))["models"]}
    assert tight["Heretic Trooper"] is None and tight["Annointed Heavy Infantry"] is None
    kit = {o["name"]: o for o in result["kit"]["offers"]}
    assert result["kit"]["entry"] == 1
    assert kit["Trench Club"]["held"] and not kit["Knife / Dagger"]["held"]
    assert kit["Shotgun"]["blocked"].startswith("a Heretic Trooper has two hands: ranged weapons need at most 2 hands")
    assert kit["Machine Gun"]["blocked"] == "Machine Gun: LIMIT 1 per warband, found 3 (Heretic Legion list)"
    assert kit["Gas Mask"]["blocked"] is None


def test_a_model_joins_with_the_kit_it_may_swap_or_must_choose(client: TestClient) -> None:
    plan = {"name": "Sword Congress", "list_id": "new_antioch", "points_limit": 700, "picks": []}
    models = {m["name"]: m for m in check(client, plan)["models"]}
    assert models["Yeoman"]["start"] == {"items": ["bolt_action_rifle"], "upgrades": []}
    assert models["Mamluk Faris"]["start"]["items"] == ["trench_polearm", "trench_shield"]


# --- saving --------------------------------------------------------------------------------------------------


def test_the_saved_file_is_the_one_warband_build_writes(client: TestClient) -> None:
    r = client.post(f"{B}/save", json=CHOIR)
    assert r.status_code == 200
    assert r.headers["content-disposition"] == 'attachment; filename="the_choir.yaml"'
    args = ["build", TC, "--faction", "Heretic Legion", "--name", "The Choir"]
    args += ["--model", 'Heretic Priest "Father Orobas": Pistol, Sword, Standard Armour']
    args += ["--model", "3 x Heretic Trooper: Bolt-Action Rifle, Trench Club", "--model", "War Wolf Assault Beast"]
    built = CliRunner().invoke(cli, args)
    assert built.exit_code == 0, built.output
    assert r.text == built.stdout
    assert yaml.safe_load(r.text)["models"][0] == {
        "model": "Heretic Priest",
        "name": "Father Orobas",
        "equipment": ["Pistol / Revolver", "Sword / Axe", "Standard Armour"],
    }


def test_a_warband_that_breaks_a_rule_is_not_saved(client: TestClient) -> None:
    r = client.post(f"{B}/save", json=with_picks({"model": "heretic_priest"}))
    assert r.status_code == 422
    body = r.json()
    assert body["error"] == "the warband breaks 2 rule(s): nothing saved"
    assert body["problems"][0] == {
        "file": "the_choir.yaml",
        "place": "models[3]",
        "message": "the Heretic Legion list fields at most 1 Heretic Priest (leader), found 2",
    }


# --- a simulation ---------------------------------------------------------------------------------------------


def test_a_short_simulation_of_a_built_warband_against_a_sample(client: TestClient) -> None:
    plan = with_picks({"model": "death_commando", "items": ["silenced_pistol", "sword_axe"]})
    text = client.post(f"{B}/save", json=plan).text
    body: dict[str, Any] = {
        "ruleset": TC,
        "a": {"text": text},
        "b": {"sample": "new_antioch_company"},
        "games": 2,
        "agent_a": "random",
        "agent_b": "random",
    }
    r = client.post("/api/simulate", json=body)
    assert r.status_code == 422 and "allow unmodelled rules" in r.json()["error"]
    unplayed = f"not modelled: Silenced Pistol: {SILENCED} (Death Commando)"
    assert {"file": "side A", "place": "models", "message": unplayed} in r.json()["problems"]
    assert client.post("/api/simulate", json={**body, "games": 201}).status_code == 422
    r = client.post("/api/simulate", json={**body, "agent_b": "grandmaster", "allow_unmodelled": True})
    assert r.status_code == 422 and r.json()["error"].startswith("agent B:")
    r = client.post("/api/simulate", json={**body, "allow_unmodelled": True})
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["games"] == 2 and s["a"]["name"] == "The Choir" and s["a"]["agent"] == "random"
    assert s["a"]["wins"] + s["b"]["wins"] + s["draws"] == 2 and s["crashes"] == []
    assert s["command"].endswith("--agent-a random --agent-b random --allow-unmodelled")


def test_one_simulation_at_a_time(tmp_path: Path) -> None:
    """A second simulation while one runs is answered 429: a browser cannot fill the server's machine."""
    server = Server(TableStore(tmp_path / "web.db"), ReplayShelf(), ai_delay=0.0, agent_workers=1)
    body = {"ruleset": TC, "a": {"sample": "heretic_legion_raiders"}, "b": {"sample": "new_antioch_company"}}
    body |= {"games": 1, "agent_a": "random", "agent_b": "random"}

    async def both() -> list[int]:
        transport = httpx.ASGITransport(app=create_app(server))
        async with httpx.AsyncClient(transport=transport, base_url="http://table") as c:
            answers = await asyncio.gather(c.post("/api/simulate", json=body), c.post("/api/simulate", json=body))
        return sorted(r.status_code for r in answers)

    try:
        assert asyncio.run(both()) == [200, 429]
    finally:
        server.close()
        server.store.close()


# --- any ruleset with a builder --------------------------------------------------------------------------------


class ToyBuilder(ListBuilder):
    """A game of one list: a Captain (at most one) and Spearmen, bought with points."""

    COSTS: ClassVar[dict[str, int]] = {"captain": 50, "spearman": 10}

    def lists(self) -> list[Offer]:
        return [Offer("band", "The Band", "faction", "100 points")]

    def models(self, list_id: str) -> list[Offer]:
        return [Offer("captain", "Captain", "model", "50 points", "0-1"), Offer("spearman", "Spearman", "model", "10")]

    def kit(self, list_id: str, model: str) -> list[Offer]:
        return [Offer("spear", "Spear", "melee", "free")]

    def default_limits(self, list_id: str) -> tuple[int, int]:
        return 100, 0

    def document(self, plan: Plan) -> dict[str, Any]:
        return {"name": plan.name, "models": [p.model for p in plan.picks]}

    def status(self, plan: Plan, file: str = "warband") -> BuildStatus:
        spent = sum(self.COSTS.get(p.model, 0) * p.count for p in plan.picks)
        captains = [i for i, p in enumerate(plan.picks) if p.model == "captain"]
        problems = [Problem(file, f"models[{i}]", "at most 1 Captain") for i in captains[1:]]
        if spent > plan.points_limit:
            problems.append(Problem(file, "points_limit", f"{spent} points, over {plan.points_limit}"))
        tallies = (Tally("points", spent, plan.points_limit, "points_limit"),)
        return BuildStatus(f"{spent} points", tuple(problems), (), tallies)


def test_any_ruleset_that_offers_a_builder_gets_one(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    toy = SimpleNamespace(id="toy", title="Toy game", list_builder=ToyBuilder)

    def get(ruleset_id: str) -> Any:
        return toy if ruleset_id == "toy" else registry.get(ruleset_id)

    fake = SimpleNamespace(available=lambda: {"toy": None, **registry.available()}, get=get)
    monkeypatch.setattr(web_builder, "registry", fake)
    rulesets = client.get("/api/builder").json()["rulesets"]
    assert [r["id"] for r in rulesets] == ["toy", TC]
    assert rulesets[0]["lists"] == [
        {"id": "band", "name": "The Band", "kind": "faction", "cost": "100 points", "limit": "", "points": 100}
        | {"glory": 0, "faction": None}
    ]
    plan = {"name": "Toys", "list_id": "band", "points_limit": 100, "picks": [{"model": "captain"}]}
    r = client.post("/api/builder/toy/check", json={"plan": plan, "focus": 0})
    result = r.json()
    assert result["entries"][0] == {"label": "Captain", "cost": "50 points", "items": [], "upgrades": []}
    assert {m["name"]: m["blocked"] for m in result["models"]} == {"Captain": "at most 1 Captain", "Spearman": None}
    assert result["kit"]["offers"][0]["name"] == "Spear"
    r = client.post("/api/builder/toy/save", json=plan)
    assert r.status_code == 200 and yaml.safe_load(r.text) == {"name": "Toys", "models": ["captain"]}

"""Seed 002, Mission-Based Actions ("listed in the scenario", with their own guidelines and restrictions) and the
Shoot eligibility rule ("did not perform a ... Mission-Based Action already this activation that would prohibit it
from shooting"): every requirement, effect, limit and restriction a scenario action can declare."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from rich.console import Console
from ttpos import RS, act, line, position, rules_of, set_unit, unit, unit_vars
from typer.testing import CliRunner

from warband.agents.heuristic import HeuristicAgent
from warband.agents.human import HumanConsole
from warband.cli.main import app
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import ScenarioError
from warband.kernel.events import Note
from warband.kernel.log import log_lines, parse_log, replay
from warband.kernel.rng import Rng
from warband.rulesets.trenches_and_turbines.activation import begin_activation
from warband.rulesets.trenches_and_turbines.scoring import finish
from warband.rulesets.trenches_and_turbines.turn import end_round

M = "trenches-and-turbines/mission"
OBJS: list[dict[str, Any]] = [{"id": "o1", "at": [20, 20]}, {"id": "o2", "at": [40, 20]}]
NEAR = line(20, 21.2, 3)  # the leader's base edge is 0.7" from o1
FAR_ENEMY = line(10, 40, 3)
SCENARIOS = Path(__file__).resolve().parents[2] / "src/warband/rulesets/trenches_and_turbines/data/scenarios"


def secure(**over: Any) -> dict[str, Any]:
    """The sample 'Secure the Intel': within 1" of a cache, no enemy within 1": 2 VP, cache removed, no Shoot."""
    base: dict[str, Any] = {
        "id": "secure",
        "name": "Secure the Intel",
        "text": "A unit within 1 inch of a cache secures it: 2 VP, the cache is removed. No Shoot afterwards.",
        "requires": [
            {"kind": "near-objective", "objectives": ["o1", "o2"], "within": 1},
            {"kind": "no-enemy-within", "within": 1},
        ],
        "effects": [{"kind": "score", "vp": 2}, {"kind": "remove-objective"}],
        "forbids": ["shoot"],
    }
    return {**base, **over}


def plain(id: str = "signal", **over: Any) -> dict[str, Any]:
    """An action on no objective that scores 1 VP."""
    return {"id": id, "name": id.title(), "text": "Signal.", "effects": [{"kind": "score", "vp": 1}], **over}


def game(
    actions: list[dict[str, Any]],
    at: dict[str, list[tuple[float, float]]] | None = None,
    a: list[dict[str, Any]] | None = None,
    objectives: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Game:
    g = position(
        a or [unit()],
        [unit()],
        at or {"a1": NEAR, "b1": FAR_ENEMY},
        objectives=OBJS if objectives is None else objectives,
        actions=actions,
        **kw,
    )
    set_unit(g, "b1", activated=True)  # no reactions in the way
    return g


def vp(g: Game) -> list[int]:
    return list(g.state.vars["vp"])


def mark(g: Game, oid: str) -> dict[str, Any]:
    m: dict[str, Any] = g.state.vars["marks"][oid]
    return m


def legal_missions(g: Game) -> list[str]:
    return [str(x) for x in g.legal_actions() if x.kind == "mission"]


def end_round_now(g: Game, turn: int = 2) -> None:
    """Score the end of round ``turn`` as the rules do (the objectives score from round 2)."""
    g.state.turn = turn
    end_round(g.state, [])
    g.state.state_id += 1


# --------------------------------------------------------------------------------------------- listing
def test_mission_actions_are_listed_with_name_and_text() -> None:
    g = game([secure()])
    assert legal_missions(g) == ["mission a1 o1 [secure]"]  # o2 is too far
    about = RS.describe_action(g.state, Action.parse("mission a1 o1 [secure]"))
    assert about.startswith("Secure the Intel: A unit within 1 inch of a cache")
    tried = {str(x) for x in RS.all_actions(g.state)}
    assert {"mission a1 o1 [secure]", "mission a1 o2 [secure]"} <= tried
    assert RS.describe_action(g.state, Action.parse("move a1")) == ""
    assert [x for x in g.legal_actions() if x.kind == "mission"] == [Action("mission", "a1", "o1", option="secure")]


def test_unknown_mission_and_wrong_target_are_refused() -> None:
    g = game([secure(), plain()])
    assert rules_of(g, "mission a1 o1 [loot]") == [f"{M}/unknown"]
    assert rules_of(g, "mission a1 [secure]") == [f"{M}/target"]
    assert rules_of(g, "mission a1 o9 [secure]") == [f"{M}/target"]
    assert rules_of(g, "mission a1 o1 [signal]") == [f"{M}/target"]
    assert rules_of(g, "mission a1 [signal]") == []
    assert "trenches-and-turbines/activation/active-unit" in rules_of(g, "mission b1 [signal]")


# --------------------------------------------------------------------------------------------- requirements
def test_near_objective_counts_models_in_coherency_only() -> None:
    g = game([secure()])
    (why,) = g.why_illegal(Action.parse("mission a1 o2 [secure]"))
    assert why[0] == f"{M}/near-objective" and 'within 1" of objective o2' in why[1] and "Secure the Intel" in why[1]
    far = game([secure()], {"a1": [(20, 30), (20, 21.2)], "b1": FAR_ENEMY}, a=[unit(models=2)])
    assert rules_of(far, "mission a1 o1 [secure]") == [f"{M}/near-objective"]  # the close model is out of coherency
    wide = game([secure(requires=[{"kind": "near-objective", "within": 10}])], {"a1": [(20, 30)], "b1": FAR_ENEMY})
    assert rules_of(wide, "mission a1 o1 [secure]") == []  # no list: any objective; 10" reach
    assert rules_of(wide, "mission a1 o2 [secure]") == [f"{M}/near-objective"]


def test_no_enemy_within() -> None:
    close = game([secure()], {"a1": NEAR, "b1": line(24, 21.2, 3)})
    assert rules_of(close, "mission a1 o1 [secure]") == [f"{M}/no-enemy-within"]
    clear = game([secure()], {"a1": NEAR, "b1": line(25.5, 21.2, 3)})
    assert rules_of(clear, "mission a1 o1 [secure]") == []


def test_unit_is_and_unit_is_not() -> None:
    need = [{"kind": "unit-is-not", "statuses": ["routed", "prone", "engaged"]}]
    g = game([plain(requires=need)])
    assert rules_of(g, "mission a1 [signal]") == []
    set_unit(g, "a1", routed=True, prone=True)
    (why,) = g.why_illegal(Action.parse("mission a1 [signal]"))
    assert why[0] == f"{M}/unit-is-not" and "a1 is routed and prone" in why[1]
    eng = game([plain(requires=need)], {"a1": [(20, 21.2)], "b1": [(20, 22.2)]}, a=[unit(models=1)])
    assert f"{M}/unit-is-not" in rules_of(eng, "mission a1 [signal]")  # in base contact: engaged
    prone = game([plain(requires=[{"kind": "unit-is", "statuses": ["prone"]}])])
    assert rules_of(prone, "mission a1 [signal]") == [f"{M}/unit-is"]
    act(prone, "prone a1")
    assert rules_of(prone, "mission a1 [signal]") == []


def test_a_pinned_unit_sheds_its_pin_first_and_pinned_is_a_status() -> None:
    g = game([plain(requires=[{"kind": "unit-is-not", "statuses": ["pinned"]}])], status={"a1": {"pins": 1}})
    g.force([1])  # the pinned test passes
    g.settle()
    assert set(rules_of(g, "mission a1 [signal]")) == {"trenches-and-turbines/pin/shed-first", f"{M}/unit-is-not"}


def test_not_done_this_activation() -> None:
    g = game([plain(requires=[{"kind": "not-done", "actions": ["prone", "other"]}]), plain("other")])
    act(g, "mission a1 [other]")
    (why,) = g.why_illegal(Action.parse("mission a1 [signal]"))
    assert why[0] == f"{M}/not-done" and "already performed other" in why[1]
    h = game([plain(requires=[{"kind": "not-done", "actions": ["prone", "mission"]}])])
    act(h, "prone a1")
    assert rules_of(h, "mission a1 [signal]") == [f"{M}/not-done"]


def test_in_zone_own_or_enemy_any_or_all() -> None:
    own = [{"kind": "in-zone", "zone": "own", "models": "all"}]
    enemy = [{"kind": "in-zone", "zone": "enemy"}]
    g = game([plain("home", requires=own), plain("raid", requires=enemy)], {"a1": line(20, 8, 3), "b1": FAR_ENEMY})
    assert rules_of(g, "mission a1 [home]") == []
    assert rules_of(g, "mission a1 [raid]") == [f"{M}/in-zone"]
    edge = game([plain("home", requires=own)], {"a1": [(20, 11), (20, 13), (21, 12)], "b1": FAR_ENEMY})
    assert rules_of(edge, "mission a1 [home]") == [f"{M}/in-zone"]  # one model outside: not all
    deep = game([plain("raid", requires=enemy)], {"a1": [(20, 35), (20, 37)], "b1": line(5, 44, 3)}, a=[unit(2)])
    assert rules_of(deep, "mission a1 [raid]") == []  # one model in the enemy zone is enough


def test_turn_window() -> None:
    g = game([plain(requires=[{"kind": "turn", "first": 2, "last": 3}])])
    (why,) = g.why_illegal(Action.parse("mission a1 [signal]"))
    assert why[0] == f"{M}/turn" and "turns 2 to 3; this is turn 1" in why[1]
    for turn, ok in ((2, True), (3, True), (4, False)):
        g.state.turn = turn
        g.state.state_id += 1
        assert (rules_of(g, "mission a1 [signal]") == []) is ok


# --------------------------------------------------------------------------------------------- cost
def test_cost_in_actions() -> None:
    g = game([plain(cost=2)], deck=["b1"])
    act(g, "prone a1")
    (why,) = g.why_illegal(Action.parse("mission a1 [signal]"))
    assert why == (f"{M}/cost", "Signal costs 2 action(s); a1 has 1 left")
    h = game([plain(cost=2)], deck=["b1"])
    act(h, "mission a1 [signal]")
    assert unit_vars(h, "a1")["activated"] and h.state.vars["active"] == "b1"  # both actions used
    assert unit_vars(h, "a1")["acts_round"] == 2
    free = game([plain(cost=0)])
    act(free, "mission a1 [signal]")
    assert free.state.vars["left"] == 2 and free.state.vars["acts"] == ["mission:signal"]


def test_a_mission_action_counts_before_a_shoot() -> None:
    """Shoot: a cumulative -1 for each action performed before it this turn (the mission action is one)."""
    first = game([plain()])
    first.apply(Action.parse("shoot a1 b1 [Rifle]"))
    after = game([plain()])
    act(after, "mission a1 [signal]")
    after.apply(Action.parse("shoot a1 b1 [Rifle]"))
    assert int(after.state.stack[-1].group.tn) == int(first.state.stack[-1].group.tn) - 1


# --------------------------------------------------------------------------------------------- limits
def test_limit_per_activation_then_per_turn_then_per_game() -> None:
    limits = [{"per": "activation"}, {"per": "turn", "times": 2}, {"per": "game", "times": 3}]
    g = game([plain(limits=limits, cost=0)])
    act(g, "mission a1 [signal]")
    (why,) = g.why_illegal(Action.parse("mission a1 [signal]"))
    assert why[0] == f"{M}/limit" and "1 time(s) this activation by this unit: at most 1" in why[1]

    def again(turn: int) -> None:
        g.state.turn = turn
        begin_activation(g.state, "a1", [])
        g.state.state_id += 1

    again(1)
    act(g, "mission a1 [signal]")  # a new activation, the second use this turn
    again(1)
    assert rules_of(g, "mission a1 [signal]") == [f"{M}/limit"]  # twice this turn
    again(2)
    act(g, "mission a1 [signal]")  # the third use in the game
    again(3)
    assert rules_of(g, "mission a1 [signal]") == [f"{M}/limit"]
    assert vp(g) == [3, 0]


def test_limit_per_side_and_per_objective() -> None:
    units = [unit(), unit()]
    at = {"a1": NEAR, "a2": line(20, 18.8, 3), "b1": FAR_ENEMY}
    side = game([plain(limits=[{"per": "game", "scope": "side"}])], at, a=units)
    act(side, "mission a1 [signal]")
    begin_activation(side.state, "a2", [])
    side.state.state_id += 1
    assert rules_of(side, "mission a2 [signal]") == [f"{M}/limit"]  # the side has used it
    each = [{"per": "game", "each_objective": True}]
    objs = [{"id": "o1", "at": [20, 20]}, {"id": "o2", "at": [22.4, 20]}]
    keep = secure(effects=[{"kind": "score", "vp": 1}], limits=each, forbids=[])
    g = game([keep], objectives=objs)
    act(g, "mission a1 o1 [secure]")
    assert rules_of(g, "mission a1 o1 [secure]") == [f"{M}/limit"]
    assert rules_of(g, "mission a1 o2 [secure]") == []  # counted per objective


# --------------------------------------------------------------------------------------------- effects
def test_score_counts_in_the_result() -> None:
    g = game([secure()], deck=[])
    events = g.apply(Action.parse("mission a1 o1 [secure]"))
    assert vp(g) == [2, 0]
    assert any(isinstance(e, Note) and e.rule == f"{M}/score" for e in events)
    finish(g.state, [])
    result = g.result()
    assert result is not None and result.score == (2, 0) and result.winner == 0


def test_remove_objective_takes_the_marker_off_the_table() -> None:
    g = game([secure()])
    act(g, "mission a1 o1 [secure]")
    assert mark(g, "o1")["at"] is None
    assert "mission a1 o1 [secure]" not in {str(x) for x in RS.all_actions(g.state)}
    assert rules_of(g, "mission a1 o1 [secure]") == [f"{M}/target"]
    end_round_now(g)
    assert vp(g) == [2, 0]  # a1 stands by the removed cache: it scores nothing


def _enemy_crowds_o1(g: Game) -> None:
    for i, mid in enumerate(("b1.1", "b1.2", "b1.3")):
        g.state.models[mid].x, g.state.models[mid].y = 19 + i, 19.5
    for mid in ("a1.1", "a1.2", "a1.3"):
        g.state.models[mid].y = 5


def test_claim_holds_an_objective_whoever_stands_there() -> None:
    claim = secure(effects=[{"kind": "claim"}], forbids=[])
    g = game([claim])
    act(g, "mission a1 o1 [secure]")
    assert mark(g, "o1")["owner"] == 0
    _enemy_crowds_o1(g)
    end_round_now(g)
    assert vp(g) == [1, 0]  # claimed by A: A scores it
    unclaimed = game([claim])
    _enemy_crowds_o1(unclaimed)
    end_round_now(unclaimed)
    assert vp(unclaimed) == [0, 1]


def test_the_other_side_claims_it_back() -> None:
    g = game([secure(effects=[{"kind": "claim"}], forbids=[])], {"a1": NEAR, "b1": line(20, 18.8, 3)}, deck=["b1"])
    act(g, "mission a1 o1 [secure]")
    assert mark(g, "o1")["owner"] == 0
    begin_activation(g.state, "b1", [])
    g.state.state_id += 1
    act(g, "mission b1 o1 [secure]")
    assert mark(g, "o1")["owner"] == 1


def test_place_objective_puts_a_marker_down_at_the_leader() -> None:
    objs: list[dict[str, Any]] = [*OBJS, {"id": "beacon", "at": [0, 0], "vp": 3, "on_table": False}]
    plant = plain("plant", effects=[{"kind": "place-objective", "objective": "beacon"}])
    g = game([plant], {"a1": line(30, 30, 3), "b1": FAR_ENEMY}, objectives=objs)
    assert mark(g, "beacon")["at"] is None
    act(g, "mission a1 [plant]")
    assert mark(g, "beacon")["at"] == [30, 30]
    end_round_now(g)
    assert vp(g) == [3, 0]  # a1 holds the beacon it planted


def test_end_activation() -> None:
    g = game([plain(effects=[{"kind": "score", "vp": 1}, {"kind": "end-activation"}])], deck=["b1"])
    act(g, "mission a1 [signal]")
    assert unit_vars(g, "a1")["activated"] and g.state.vars["active"] == "b1"


# --------------------------------------------------------------------------------------------- restrictions
def test_shoot_refused_after_a_mission_action_that_forbids_it() -> None:
    g = game([secure()])
    assert rules_of(g, "shoot a1 b1 [Rifle]") == []
    act(g, "mission a1 o1 [secure]")
    reasons = g.why_illegal(Action.parse("shoot a1 b1 [Rifle]"))
    assert reasons == [
        ("trenches-and-turbines/shoot/after-mission", "Secure the Intel forbids Shoot for the rest of this activation")
    ]
    assert "shoot" not in {x.kind for x in g.legal_actions()}
    begin_activation(g.state, "a1", [])  # its next activation: the restriction is over
    g.state.state_id += 1
    assert rules_of(g, "shoot a1 b1 [Rifle]") == []


def test_shoot_allowed_after_a_mission_action_that_does_not_forbid_it() -> None:
    g = game([secure(forbids=[])])
    act(g, "mission a1 o1 [secure]")
    assert rules_of(g, "shoot a1 b1 [Rifle]") == []


def test_forbids_other_kinds_and_mission_actions() -> None:
    hold = plain("hold", forbids=["move", "charge", "signal"])
    g = game([hold, plain(), plain("other")], {"a1": NEAR, "b1": line(20, 27, 3)})
    assert rules_of(g, "charge a1 b1 [walking]") == []
    act(g, "mission a1 [hold]")
    assert rules_of(g, "move a1") == ["trenches-and-turbines/move/after-mission"]
    assert rules_of(g, "charge a1 b1 [walking]") == ["trenches-and-turbines/charge/after-mission"]
    assert rules_of(g, "mission a1 [signal]") == ["trenches-and-turbines/mission/after-mission"]
    assert rules_of(g, "mission a1 [other]") == []
    lock = game([plain("lock", forbids=["mission"]), plain()])
    act(lock, "mission a1 [lock]")
    assert rules_of(lock, "mission a1 [signal]") == ["trenches-and-turbines/mission/after-mission"]


# --------------------------------------------------------------------------------------------- state and files
def test_json_round_trip_in_the_middle_of_an_activation() -> None:
    g = Game.from_json(json.loads(json.dumps(game([secure()]).to_json())))  # positions as floats
    act(g, "mission a1 o1 [secure]")
    text = json.dumps(g.to_json(), sort_keys=True)
    back = Game.from_json(json.loads(text))
    assert json.dumps(back.to_json(), sort_keys=True) == text
    shoot = Action.parse("shoot a1 b1 [Rifle]")
    assert back.why_illegal(shoot) == g.why_illegal(shoot) != []
    assert back.legal_actions() == g.legal_actions()
    copy = g.clone()
    act(copy, "prone a1")
    assert g.state.vars["acts"] == ["mission:secure"] and g.state.vars["forbidden"] == {"shoot": "Secure the Intel"}


def test_scenario_files_name_the_ruleset_words_they_get_wrong(tmp_path: Path) -> None:
    doc = yaml.safe_load((SCENARIOS / "recover_the_intel.yaml").read_text(encoding="utf-8"))
    doc["actions"][0]["forbids"] = ["shoot", "dance"]
    doc["actions"][0]["requires"][2]["statuses"] = ["pinned", "asleep"]
    doc["actions"][1]["requires"].append({"kind": "near-objective", "objectives": ["intel-north"]})
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc), encoding="utf-8")
    with pytest.raises(ScenarioError) as exc:
        RS.load_scenario(path)
    got = {p.place: p.message for p in exc.value.problems}
    assert set(got) == {
        "actions[0].forbids[1]",
        "actions[0].requires[2].statuses[1]",
        "actions[1].requires[2].objectives[0]",
    }
    assert "'dance'" in got["actions[0].forbids[1]"] and "shoot" in got["actions[0].forbids[1]"]
    assert (
        "'asleep'" in got["actions[0].requires[2].statuses[1]"]
        and "pinned" in got["actions[0].requires[2].statuses[1]"]
    )
    assert all(p.file == str(path) for p in exc.value.problems)


def test_recover_the_intel_loads() -> None:
    doc = RS.load_scenario(SCENARIOS / "recover_the_intel.yaml")
    assert [a["id"] for a in doc["actions"]] == ["secure-intel", "signal-turbines"]
    assert doc["actions"][0]["forbids"] == ["shoot"]


# --------------------------------------------------------------------------------------------- whole games
def _closest_to_a_marker(game: Game, legal: list[Action]) -> Action | None:
    goals = [at for at in (m["at"] for m in game.state.vars["marks"].values()) if at is not None]
    points = [(x, x.point) for x in legal if x.point is not None]
    if not goals or not points:
        return None
    return min(points, key=lambda xp: min((xp[1][0] - g[0]) ** 2 + (xp[1][1] - g[1]) ** 2 for g in goals))[0]


def _mission_minded_playout(game: Game, seed: int) -> dict[str, int]:
    """Random play that always takes a legal mission action and mostly walks toward an objective marker; the
    JSON round trip is checked at every choice. Returns how often each mission action was performed."""
    pick = Rng(seed)
    done: dict[str, int] = {}
    for _ in range(20_000):
        d = game.decision
        if d.is_over:
            return done
        if d.is_chance:
            game.roll()
            continue
        text = json.dumps(game.to_json(), sort_keys=True)
        back = Game.from_json(json.loads(text))
        assert json.dumps(back.to_json(), sort_keys=True) == text and back.legal_actions() == game.legal_actions()
        legal = game.legal_actions()
        if "shoot" in (game.state.vars.get("forbidden") or {}) and d.prompt == "action":
            assert not [x for x in legal if x.kind == "shoot"]  # no Shoot after Secure the Intel
        choice = next((x for x in legal if x.kind == "mission"), None)
        if choice is None and d.prompt == "action" and pick.below(10) < 6:
            choice = next((x for x in legal if x.kind == "move"), None)
        if choice is None and d.prompt == "dest" and pick.below(10) < 8:
            choice = _closest_to_a_marker(game, legal)
        choice = choice or legal[pick.below(len(legal))]
        assert game.why_illegal(choice) == []
        if choice.kind == "mission":
            done[str(choice.option)] = done.get(str(choice.option), 0) + 1
        game.apply(choice)
    raise AssertionError("the playout did not end")


def test_a_whole_game_of_recover_the_intel() -> None:
    samples = RS.samples()
    rosters = [RS.load_roster(Path(w["path"])) for w in samples["warbands"][:2]]
    scenario = RS.load_scenario(SCENARIOS / "recover_the_intel.yaml")
    g = Game.new(RS, rosters, scenario, 3)
    done = _mission_minded_playout(g, 3)
    assert done.get("secure-intel", 0) >= 1
    result = g.result()
    assert result is not None and result.score == tuple(g.state.vars["vp"])
    uses = g.state.vars["mission_uses"]
    for side in (0, 1):  # every VP scored by a mission action is in the final score
        scored = sum(2 if u["id"] == "secure-intel" else 1 for u in uses if u["side"] == side)
        assert result.score[side] >= scored
    again = replay(parse_log(log_lines(g)), verify=True)
    assert again.fingerprint() == g.fingerprint()


def test_evaluation_values_standing_ready_for_a_scoring_mission_action() -> None:
    ready = game([secure()])
    holding = game([secure()], {"a1": line(20, 22.6, 3), "b1": FAR_ENEMY})  # 2.1" away: holds o1, cannot secure it
    assert RS.evaluate(ready.state, 0) > RS.evaluate(holding.state, 0) + 0.5
    assert RS.evaluate(ready.state, 1) < RS.evaluate(holding.state, 1) - 0.5


def test_heuristic_secures_the_intel_when_it_can() -> None:
    g = game([secure()], {"a1": NEAR, "b1": line(10, 44, 3)})
    assert HeuristicAgent(seed=1).choose(g) == Action.parse("mission a1 o1 [secure]")


# --------------------------------------------------------------------------------------------- the faces
def test_legal_command_shows_name_text_and_why_not(tmp_path: Path) -> None:
    pos = tmp_path / "pos.json"
    pos.write_text(json.dumps(game([secure()]).to_json()), encoding="utf-8")
    out = CliRunner().invoke(app, ["legal", str(pos), "--explain"])
    assert out.exit_code == 0, out.output
    assert "mission a1 o1 [secure]   — Secure the Intel: A unit within 1 inch of a cache" in out.output
    assert "[trenches-and-turbines/mission/near-objective] Secure the Intel: no model of a1" in out.output
    data = json.loads(CliRunner().invoke(app, ["legal", str(pos), "--json"]).output)
    assert data["about"]["mission a1 o1 [secure]"].startswith("Secure the Intel: ")


def test_play_shows_mission_actions_to_a_person() -> None:
    g = game([secure()])
    buf = io.StringIO()
    HumanConsole(Console(file=buf, width=200), lambda _: None).show_choices(g)
    line_of = next(x for x in buf.getvalue().splitlines() if "mission a1 (Squad) o1 [secure]" in x)  # named
    assert "Secure the Intel: A unit within 1 inch of a cache secures it" in line_of
    assert "objectives: o1 at (20.0,20.0); o2 at (40.0,20.0)" in RS.render(g.state)
    act(g, "mission a1 o1 [secure]")
    assert "objectives: o1 off the table; o2 at (40.0,20.0)" in RS.render(g.state)


def test_validate_summarises_scenario_actions() -> None:
    out = CliRunner().invoke(app, ["validate", str(SCENARIOS / "recover_the_intel.yaml")])
    assert out.exit_code == 0, out.output
    assert "scenario actions: secure-intel, signal-turbines" in out.output

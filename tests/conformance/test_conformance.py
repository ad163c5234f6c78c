"""The conformance suite: every installed ruleset, and the example ruleset of docs/new-ruleset.md, through the
same checks (DESIGN.md, Tests).

Seeded random playouts never raise; every non-terminal state has a legal action; every listed legal action is
accepted by ``why_illegal``; JSON round-trips are exact at every step (also mid-attack and mid-reaction);
clones are independent; replaying the log reproduces the final state; dice probabilities sum to 1.

A ruleset that is not installed as an entry point (the example) is registered for the duration of each test
(:func:`warband.kernel.ruleset.registered`), so saved positions and replays find it like any other.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.log import log_lines, parse_log, replay
from warband.kernel.rng import Rng
from warband.rulesets.example import Example

#: Rulesets with no entry point that the suite checks too.
UNINSTALLED = tuple(cls for cls in (Example,) if cls.id not in registry.available())
RULESETS = sorted([*registry.available(), *(cls.id for cls in UNINSTALLED)])

with registry.registered(*UNINSTALLED):
    SAMPLE_SCENARIOS = [
        (rid, Path(item["path"])) for rid in RULESETS for item in registry.get(rid).samples()["scenarios"]
    ]


@pytest.fixture(autouse=True)
def _uninstalled_rulesets() -> Iterator[None]:
    with registry.registered(*UNINSTALLED):
        yield


def _new_game(rid: str, seed: int, scenario: Path | None = None) -> Game:
    rs = registry.get(rid)
    samples = rs.samples()
    a = rs.load_roster(Path(samples["warbands"][0]["path"]))
    b = rs.load_roster(Path(samples["warbands"][1]["path"]))
    return Game.new(rs, [a, b], rs.load_scenario(scenario or rs.default_scenario()), seed)


def _dump(game: Game) -> str:
    return json.dumps(game.to_json(), sort_keys=True)


def _random_playout(game: Game, seed: int, check_every: int = 1, max_steps: int = 20_000) -> list[str]:
    pick = Rng(seed)
    prompts: list[str] = []
    for step in range(max_steps):
        d = game.decision
        if d.is_over:
            return prompts
        if step % check_every == 0:
            text = _dump(game)
            back = Game.from_json(json.loads(text))
            assert _dump(back) == text, f"JSON round trip changed the state at step {step}"
            assert back.decision == d
            assert back.legal_actions() == game.legal_actions()
        if d.is_chance:
            game.roll()
            continue
        actions = game.legal_actions()
        assert actions, f"no legal action at a {d.prompt} decision (step {step})"
        prompts.append(d.prompt)
        choice = actions[pick.below(len(actions))]
        assert game.why_illegal(choice) == []
        game.apply(choice)
    raise AssertionError("the playout did not end")


@pytest.mark.parametrize("rid", RULESETS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_playout_round_trips_and_ends(rid: str, seed: int) -> None:
    game = _new_game(rid, seed)
    prompts = _random_playout(game, seed, check_every=1 if seed == 1 else 7)
    assert game.result() is not None
    assert len(prompts) > 20


@pytest.mark.parametrize(("rid", "scenario"), SAMPLE_SCENARIOS, ids=lambda v: getattr(v, "stem", v))
def test_every_sample_scenario_plays_out(rid: str, scenario: Path) -> None:
    """Every bundled scenario (scenario actions included) through a seeded playout with round trips."""
    game = _new_game(rid, 6, scenario)
    _random_playout(game, 6, check_every=3)
    assert game.result() is not None


@pytest.mark.parametrize("rid", RULESETS)
def test_many_seeded_playouts_never_raise(rid: str) -> None:
    for seed in range(10, 22):
        game = _new_game(rid, seed)
        _random_playout(game, seed, check_every=10_000)
        assert game.result() is not None


@pytest.mark.parametrize("rid", RULESETS)
def test_replay_reproduces_final_state(rid: str) -> None:
    game = _new_game(rid, 5)
    _random_playout(game, 5, check_every=10_000)
    log = parse_log(log_lines(game))
    again = replay(log, verify=True)
    assert _dump(again) == _dump(game)
    assert again.fingerprint() == game.fingerprint()


@pytest.mark.parametrize("rid", RULESETS)
def test_clone_is_independent(rid: str) -> None:
    game = _new_game(rid, 9)
    pick = Rng(9)
    for _ in range(60):
        if game.over:
            break
        if game.decision.is_chance:
            game.roll()
        else:
            acts = game.legal_actions()
            game.apply(acts[pick.below(len(acts))])
    before = _dump(game)
    copy = game.clone()
    _random_playout(copy, 4, check_every=10_000)
    assert _dump(game) == before


@pytest.mark.parametrize("rid", RULESETS)
def test_same_seed_same_game(rid: str) -> None:
    g1, g2 = _new_game(rid, 77), _new_game(rid, 77)
    _random_playout(g1, 3, check_every=10_000)
    _random_playout(g2, 3, check_every=10_000)
    assert log_lines(g1) == log_lines(g2)


@pytest.mark.parametrize("rid", RULESETS)
def test_illegal_action_leaves_state_unchanged(rid: str) -> None:
    from warband.kernel.actions import Action
    from warband.kernel.errors import IllegalActionError

    game = _new_game(rid, 4)
    game.settle()
    before = _dump(game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(Action("no-such-action", "zz9"))
    assert info.value.reasons
    assert _dump(game) == before


def test_probabilities_sum_to_one() -> None:
    from warband.rulesets.trench_crusade.odds import injury_odds, success_odds

    for k in range(-6, 7):
        assert sum(success_odds(k).values()) - success_odds(k)["critical"] == Fraction(1)
    for k in range(-3, 4):
        for mod in range(-3, 4):
            assert sum(injury_odds(k, mod).values()) == Fraction(1)

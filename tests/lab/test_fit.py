"""The evaluation learned from games (:mod:`warband.lab.fit`): the logistic fit recovers known weights, a
seeded refit reproduces its committed fixture, features are antisymmetric, and the agents' ``eval=learned``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from warband.agents.base import AgentError, make_agent
from warband.agents.play import play
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.learned import DECIDED, LearnedEvaluationError, NoFeaturesError, read_weights, weights_of
from warband.kernel.rng import Rng
from warband.lab.fit import Sample, SelfPlay, fit_logistic, fit_ruleset, fit_samples, log_loss
from warband.rulesets.example import Example

DATA = Path(__file__).parent / "data"
RULESETS = ("trench-crusade", "trenches-and-turbines", "wyrdcry", "gangfight")


def _normal(rng: Rng) -> float:
    """A standard normal draw (Box-Muller) from the project's seeded stream."""
    u = max(rng.random(), 1e-12)
    return math.sqrt(-2.0 * math.log(u)) * math.cos(2.0 * math.pi * rng.random())


def _draw(n: int, true_w: list[float], true_b: float, seed: int) -> tuple[list[list[float]], list[float]]:
    rng = Rng(seed)
    xs: list[list[float]] = []
    ys: list[float] = []
    for _ in range(n):
        x = [_normal(rng) for _ in true_w]
        p = 1.0 / (1.0 + math.exp(-(true_b + sum(w * v for w, v in zip(true_w, x, strict=True)))))
        xs.append(x)
        ys.append(1.0 if rng.random() < p else 0.0)
    return xs, ys


def test_recovers_the_weights_of_a_known_logistic_model() -> None:
    """Outcomes drawn from sigmoid(b + w.x): the fit finds w and b within about 3 standard errors (n = 6000
    standard normal features: the standard error of each weight is about 0.04 here)."""
    true_w, true_b = [1.2, -0.7, 0.0, 0.35], 0.4
    xs, ys = _draw(6000, true_w, true_b, seed=11)
    w, b, iterations = fit_logistic(xs, ys, l2=1e-6)
    assert iterations < 20
    for got, want in zip(w, true_w, strict=True):
        assert got == pytest.approx(want, abs=0.12)
    assert b == pytest.approx(true_b, abs=0.12)
    # and the fitted model predicts fresh draws from the same model better than the constant
    tx, ty = _draw(3000, true_w, true_b, seed=12)
    ps = [1.0 / (1.0 + math.exp(-(b + sum(a * v for a, v in zip(w, x, strict=True))))) for x in tx]
    mean = sum(ys) / len(ys)
    assert log_loss(ps, ty) < log_loss([mean] * len(ty), ty) - 0.1


def test_draws_alone_fit_an_even_model_and_l2_shrinks() -> None:
    xs = [[float(i % 3 - 1), float(i % 5 - 2)] for i in range(60)]
    w, b, _ = fit_logistic(xs, [0.5] * 60)
    assert b == pytest.approx(0.0, abs=1e-9)
    assert all(abs(x) < 1e-9 for x in w)
    ys = [1.0 if x[0] > 0 else 0.0 for x in xs]  # separable: only the penalty keeps the weight finite
    small, _, _ = fit_logistic(xs, ys, l2=10.0)
    large, _, _ = fit_logistic(xs, ys, l2=0.1)
    assert 0.0 < small[0] < large[0]


def test_held_out_split_is_by_game_and_reports_the_constant_model() -> None:
    samples = [Sample(g, (1.0 if g % 2 else -1.0,), 1.0 if g % 2 else 0.0) for g in range(10) for _ in range(3)]
    fit = fit_samples(("lead",), samples, holdout=0.2)
    assert (fit.train, fit.test) == (24, 6)  # games 8 and 9 held out, three positions each
    assert fit.test_accuracy == 1.0
    assert fit.constant_log_loss == pytest.approx(math.log(2.0), abs=1e-9)  # training mean 1/2
    assert fit.test_log_loss < fit.constant_log_loss


def test_a_seeded_refit_reproduces_the_committed_fixture() -> None:
    """``warband fit-eval trench-crusade --games 8 --seed 5 --rate 0.25`` as the fixture records it (regenerate
    the fixture with that command and ``--out`` when the features change on purpose)."""
    want = json.loads((DATA / "fit-trench-crusade-small.json").read_text(encoding="utf-8"))
    got = fit_ruleset(SelfPlay("trench-crusade", games=8, seed=5, rate=0.25)).to_json()
    assert got == want


@pytest.mark.parametrize("ruleset", RULESETS)
def test_features_are_antisymmetric_and_weights_match_them(ruleset: str) -> None:
    rs = registry.get(ruleset)
    path = [Path(w["path"]) for w in rs.samples()["warbands"]][:2]
    rosters = [rs.load_roster(p) for p in (path[0], path[-1])]
    game = Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), 3, record=False)
    agents = [make_agent("random", 1), make_agent("random", 2)]
    checked = 0
    for _ in range(6):
        play(game, agents, steps=40)
        if game.over:
            break
        f0, f1 = rs.features(game.state, 0), rs.features(game.state, 1)
        assert list(f0) == list(f1)
        for name in f0:
            assert f0[name] == pytest.approx(-f1[name], abs=1e-9), name
        # the shipped weights name exactly these features, and the learned value is their sum
        w = weights_of(rs)
        assert set(w.names) == set(f0)
        want = w.intercept + sum(x * f0[n] for n, x in zip(w.names, w.weights, strict=True))
        assert rs.learned_evaluation(game.state, 0) == pytest.approx(want)
        checked += 1
    assert checked >= 2


def test_a_finished_game_is_decided_for_the_learned_evaluation() -> None:
    rs = registry.get("gangfight")
    paths = [Path(w["path"]) for w in rs.samples()["warbands"]][:2]
    game = Game.new(rs, [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), 4)
    play(game, [make_agent("random", 1), make_agent("random", 2)])
    result = game.result()
    assert result is not None
    want = 0.0 if result.winner is None else DECIDED
    side = 0 if result.winner is None else result.winner
    assert rs.learned_evaluation(game.state, side) == want


def test_a_ruleset_without_features_says_so() -> None:
    rs = Example()
    with pytest.raises(NoFeaturesError, match="ruleset 'example' names no features"):
        rs.features(None, 0)  # type: ignore[arg-type]


def test_a_bad_weights_file_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "evaluation.json"
    bad.write_text('{"format": "warband-evaluation/1", "features": ["a"], "weights": []}', encoding="utf-8")
    with pytest.raises(LearnedEvaluationError, match=r"evaluation\.json: 'features' and 'weights'"):
        read_weights(bad)
    with pytest.raises(LearnedEvaluationError, match="no learned evaluation"):
        read_weights(tmp_path / "missing.json")


def test_agents_take_eval_learned() -> None:
    assert make_agent("heuristic:eval=learned").describe().endswith(",eval=learned")
    assert "eval=learned,scale=1" in make_agent("mcts:search=uct,eval=learned,iterations=5").describe()
    assert make_agent("mcts:eval=learned,iterations=5").describe().endswith(",eval=learned")
    with pytest.raises(AgentError, match="option eval='deep' is not one of heuristic, learned"):
        make_agent("heuristic:eval=deep")
    rs = registry.get("gangfight")
    paths = [Path(w["path"]) for w in rs.samples()["warbands"]][:2]
    game = Game.new(rs, [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), 2, record=False)
    play(game, [make_agent("heuristic:eval=learned,samples=1", 1), make_agent("random", 2)], steps=60)
    assert game.state.state_id > 0


def test_the_fit_eval_command_writes_the_weights_and_refuses_bad_input(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from warband.cli.main import app

    runner = CliRunner()
    out = tmp_path / "w.json"
    got = runner.invoke(app, ["fit-eval", "trench-crusade", "--games", "3", "--seed", "2", "--out", str(out)])
    assert got.exit_code == 0, got.output
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert doc["command"] == "warband fit-eval trench-crusade --games 3 --seed 2 --agent random --rate 0.25"
    assert doc["features"][:2] == ["points_standing", "points_down"] and len(doc["weights"]) == 9
    assert doc["positions"]["train"] > 0 and "log_loss" in doc["held_out"]
    bad = runner.invoke(app, ["fit-eval", "trench-crusade", "--games", "0"])
    assert bad.exit_code != 0
    assert "--games must be at least 1" in str(bad.exception) + bad.output

"""The heuristic agent: deterministic, always legal, sensible in small hand-built situations, and clearly
stronger than the random agent."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from warband.agents.base import AgentError, make_agent
from warband.agents.heuristic import HeuristicAgent
from warband.agents.play import play_out
from warband.agents.random_agent import RandomAgent
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action, Decision
from warband.kernel.engine import Game
from warband.kernel.rng import Rng, derive_seed
from warband.kernel.ruleset import Ruleset

RS: Ruleset = registry.get("trench-crusade")
DATA: Path = RS.data_dir() / "warbands"


def rosters() -> list[dict[str, Any]]:
    return [RS.load_roster(DATA / "pilgrims_sacred_affliction.yaml"), RS.load_roster(DATA / "pilgrims_iron_path.yaml")]


def new_game(seed: int) -> Game:
    return Game.new(RS, rosters(), RS.load_scenario(RS.default_scenario()), seed)


class CheckingAgent(HeuristicAgent):
    """The heuristic agent, asserting that every choice is legal."""

    def choose(self, game: Game) -> Action:
        action = super().choose(game)
        assert game.is_legal(action), (str(action), game.why_illegal(action))
        assert action in game.legal_actions()
        return action


def test_options_and_registration() -> None:
    agent = make_agent("heuristic:samples=2,refine=1,depth=0", seed=3)
    assert isinstance(agent, HeuristicAgent)
    assert (agent.samples, agent.refine, agent.depth) == (2, 1, 0)
    with pytest.raises(AgentError):
        make_agent("heuristic:samples=zero")
    with pytest.raises(AgentError):
        make_agent("heuristic:bogus=1")


def test_same_seed_same_game() -> None:
    logs = []
    for _ in range(2):
        game = new_game(11)
        play_out(game, [HeuristicAgent(seed=5), HeuristicAgent(seed=6)])
        assert game.log is not None
        logs.append([entry.get("a") or entry.get("r") for entry in game.log])
    assert logs[0] == logs[1]


def test_only_legal_actions_against_random() -> None:
    for seed in (1, 2):
        game = new_game(seed)
        result = play_out(game, [CheckingAgent(seed=seed), RandomAgent(seed=seed + 100)])
        assert result.winner in (0, 1, None)


# ------------------------------------------------------------------------------------------- hand-built positions
def shooter_position(enemies: dict[str, tuple[float, float]], seed: int = 4) -> Game:
    """Side A's rifle pilgrim ``a4`` activated at (28, 4) with only ``enemies`` of side B on the table.

    The game is played with random agents up to the first time side A may activate ``a4``; then every other
    model is taken off the table and the enemies are placed (open ground, well beyond charge range)."""
    game = new_game(seed)
    pick = Rng(seed)
    for _ in range(2000):
        d = game.decision
        if (
            d.kind == "choice"
            and d.prompt == "activate"
            and d.player == 0
            and Action("activate", "a4") in game.legal_actions()
        ):
            break
        if d.kind == "chance":
            game.roll()
        else:
            acts = game.legal_actions()
            game.apply(acts[pick.below(len(acts))])
    else:  # pragma: no cover - the scenario always reaches an activation
        raise AssertionError("side A never got to activate a4")
    for m in game.state.models.values():
        if m.id != "a4" and m.id not in enemies:
            m.on_table = False
            m.flags["out"] = True
    a4 = game.state.models["a4"]
    a4.x, a4.y, a4.z, a4.on_table = 28.0, 4.0, 0.0, True
    a4.flags.pop("down", None)
    a4.tokens.pop("blood", None)
    for mid, (x, y) in enemies.items():
        e = game.state.models[mid]
        e.x, e.y, e.z, e.on_table = x, y, 0.0, True
        e.flags.pop("down", None)
        e.tokens.pop("blood", None)
    game.state.state_id += 1000  # positions changed: drop the engine's cached decision and legal actions
    game.apply(Action("activate", "a4"))
    return game


def activation_actions(game: Game, agent: HeuristicAgent) -> list[Action]:
    """Let ``agent`` play a4's whole activation; the actions it took."""
    taken: list[Action] = []
    for _ in range(200):
        d = game.decision
        if d.kind == "over" or game.state.vars.get("active") != "a4":
            break
        if d.kind == "chance":
            game.roll()
            continue
        assert d.player == 0
        a = agent.choose(game)
        taken.append(a)
        game.apply(a)
    return taken


def test_shoots_the_only_enemy_in_range_rather_than_ending() -> None:
    game = shooter_position({"b5": (28.0, 21.0)})
    assert Action("shoot", "a4", "b5", option="Bolt-Action Rifle") in game.legal_actions()
    taken = activation_actions(game, HeuristicAgent(seed=1))
    assert any(a.kind == "shoot" and a.target == "b5" for a in taken), [str(a) for a in taken]


def test_shoots_the_target_likelier_to_go_out_of_action() -> None:
    # b5: a Trench Pilgrim without armour; b2: the Shrine Anchorite, armour -3 and TOUGH. Enough dice streams
    # that the expectation, not the luck of a few rolls, decides.
    game = shooter_position({"b2": (24.0, 21.0), "b5": (28.0, 21.0)})
    legal = game.legal_actions()
    assert Action("shoot", "a4", "b5", option="Bolt-Action Rifle") in legal
    assert Action("shoot", "a4", "b2", option="Bolt-Action Rifle") in legal
    taken = activation_actions(game, HeuristicAgent(seed=2, samples=64))
    shots = [a for a in taken if a.kind == "shoot"]
    assert shots and shots[0].target == "b5", [str(a) for a in taken]


# ------------------------------------------------------------------------------------------- strength
def test_beats_random_agent() -> None:
    wins = 0
    for i in range(6):
        seed = derive_seed(77, i)
        side = i % 2
        agents = [HeuristicAgent(seed=seed), RandomAgent(seed=seed + 1)]
        if side == 1:
            agents.reverse()
        result = play_out(new_game(seed), agents)
        wins += result.winner == side
    assert wins >= 5


class _PerSampleAgent(HeuristicAgent):
    """The reference for :meth:`HeuristicAgent._value`: every sample clones the game and applies the action
    itself (what the agent did before it shared the position right after an action that draws no die)."""

    def _value(self, game: Game, action: Action, me: int, samples: int, depth: int) -> float:
        root = game.decision.prompt
        if action.kind in self.single:
            samples = 1
        total = 0.0
        n = 0
        for i in range(samples):
            c = game.clone()
            c.state.rng = Rng(self._seeds[i % len(self._seeds)] if self._seeds else i)
            c.apply(action)
            rolled, searched = self._settle(c, me, root, depth, action.kind not in self.shallow)
            total += self.evaluate_here(c, me)
            n += 1
            if not rolled or searched:
                break
        return total / n

    def evaluate_here(self, c: Game, me: int) -> float:
        return float(c.ruleset.evaluate(c.state, me))


def choices(game: Game, steps: int) -> Iterator[Decision]:
    """Each choice decision ``game`` reaches within ``steps`` steps, the dice rolled on the way; the caller applies
    one action at each before asking for the next."""
    for _ in range(steps):
        d = game.decision
        if d.kind == "over":
            return
        if d.kind == "chance":
            game.roll()
            continue
        yield d


def test_shared_position_after_an_action_gives_the_same_values() -> None:
    """Applying an action once for all the dice streams (when applying it drew no die) values every action as
    playing it out per stream does, and the agents choose the same: checked at every decision of a seeded game,
    whose actions include shots and fights (chance right after the action) and moves (none)."""
    game = new_game(23)
    agents = [HeuristicAgent(seed=1), HeuristicAgent(seed=2)]
    refs = [_PerSampleAgent(seed=1), _PerSampleAgent(seed=2)]
    compared = 0
    for d in choices(game, 120):
        side = int(d.player or 0)
        actions = game.legal_actions()
        if len(actions) > 1 and not any(a.point is not None for a in actions) and d.prompt != "activate":
            agent, ref = agents[side], refs[side]
            agent._seeds = ref._seeds = tuple(Rng(compared).next64() for _ in range(agent.samples))
            for a in actions:
                assert agent._value(game, a, side, agent.samples, agent.depth) == ref._value(
                    game, a, side, agent.samples, agent.depth
                ), str(a)
                compared += 1
        choice = agents[side].choose(game)
        assert refs[side].choose(game.clone()) == choice
        game.apply(choice)
    assert compared > 20


@pytest.mark.parametrize("kind", ["heuristic", "learned"])
def test_static_ranking_leaves_the_game_as_it_was(kind: str) -> None:
    """Destinations are ranked by standing the model at each point of the game itself (no probe clone): every
    model is back where it was, on or off the table, afterwards, at each destination prompt of a seeded game
    (by the ruleset's ``evaluate_points`` and, with the learned evaluation, by the agent's own loop)."""
    game = new_game(29)
    agents = [HeuristicAgent(seed=3, eval=kind), HeuristicAgent(seed=4, eval=kind)]
    ranked = 0
    for d in choices(game, 150):
        actions = game.legal_actions()
        agent = agents[int(d.player or 0)]
        if any(a.point is not None for a in actions):
            before = game.state.to_json()
            pointed = [a for a in actions if a.point is not None]
            found = agent._static_rank(game, [a for a in pointed if a.model == pointed[0].model], int(d.player or 0))
            assert found is not None
            assert game.state.to_json() == before
            ranked += 1
        game.apply(agent.choose(game))
    assert ranked > 5

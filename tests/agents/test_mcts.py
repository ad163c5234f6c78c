"""The mcts agent: options, determinism, legality, a tactical position, and every installed ruleset."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from warband.agents.base import AgentError, make_agent
from warband.agents.heuristic import STOP_PROMPTS, HeuristicAgent
from warband.agents.mcts import DEFAULT_ITERATIONS, DEFAULT_ROLLOUTS, RULESET_DEFAULTS, MCTSAgent
from warband.agents.random_agent import RandomAgent
from warband.agents.rollout import RolloutSearch, play_activations, play_rounds
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.rng import Rng, derive_seed
from warband.kernel.ruleset import Ruleset

TC: Ruleset = registry.get("trench-crusade")


def sample_game(rs: Ruleset, seed: int) -> Game:
    """A new game of ``rs`` between its first two sample warbands (the first twice if it has only one)."""
    warbands = [Path(w["path"]) for w in rs.samples()["warbands"]]
    pair = (warbands * 2)[:2]
    rosters: list[dict[str, Any]] = [rs.load_roster(p) for p in pair]
    return Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), seed)


def random_until(game: Game, seed: int, stop: Any, limit: int = 3000) -> None:
    """Play random legal actions (and dice) until ``stop(game)`` holds."""
    pick = Rng(seed)
    for _ in range(limit):
        d = game.decision
        if stop(game):
            return
        if d.kind == "chance":
            game.roll()
        else:
            acts = game.legal_actions()
            game.apply(acts[pick.below(len(acts))])
    raise AssertionError("position never reached")


def searched_position(rs: Ruleset, seed: int) -> Game:
    """The first choice with several legal actions after the deployment of a random game."""
    game = sample_game(rs, seed)
    random_until(
        game,
        seed,
        lambda g: (
            g.decision.kind == "over"
            or (
                g.decision.kind == "choice"
                and g.state.turn >= 1
                and len(g.legal_actions()) > 1
                and g.decision.prompt not in ("deploy", "zone")
            )
        ),
    )
    return game


# ------------------------------------------------------------------------------------------- options
def test_options_and_registration() -> None:
    agent = make_agent("mcts:iterations=40,rollout=random,depth=3,c=0.7,top=5,scale=50", seed=3)
    assert isinstance(agent, MCTSAgent)
    assert (agent.iterations, agent.rollout, agent.depth, agent.c, agent.top, agent.scale) == (
        40,
        "random",
        3,
        0.7,
        5,
        50.0,
    )
    assert agent.seconds is None
    default = make_agent("mcts")
    assert isinstance(default, MCTSAgent) and default.iterations == DEFAULT_ROLLOUTS
    timed = make_agent("mcts:seconds=0.5")
    assert isinstance(timed, MCTSAgent) and timed.seconds == 0.5
    assert "iterations=40" in agent.describe()
    tuned = make_agent("mcts:search=uct,crn=all,prior_samples=4,init=0", seed=1)
    assert isinstance(tuned, MCTSAgent)
    assert (tuned.crn, tuned.prior_samples, tuned.init) == ("all", 4, 0)
    assert "crn=all" in tuned.describe()


@pytest.mark.parametrize(
    "spec",
    [
        "mcts:iterations=zero",
        "mcts:iterations=0",
        "mcts:rollout=greedy",
        "mcts:bogus=1",
        "mcts:c=-1",
        "mcts:depth=x",
        "mcts:seconds=0",
        "mcts:scale=nan?",
        "mcts:crn=maybe",
        "mcts:prior_samples=0",
        "mcts:init=-1",
        "mcts:prior=maybe",
        "mcts:search=maybe",
        "mcts:width=0",
        "mcts:horizon=0",
        "mcts:policy_depth=-1",
        "mcts:width=1e9",
        "mcts:policy_samples=0",
        "mcts:margin=-1",
        "mcts:opponent=greedy",
    ],
)
def test_bad_options_raise_agent_error(spec: str) -> None:
    with pytest.raises(AgentError):
        make_agent(spec)


# ------------------------------------------------------------------------------------------- behaviour
def test_same_seed_same_choice_and_only_legal_actions() -> None:
    game = searched_position(TC, 3)
    legal = game.legal_actions()
    picks = [MCTSAgent(seed=9, iterations=60, search="uct").choose(game.clone()) for _ in range(2)]
    assert picks[0] == picks[1]
    assert picks[0] in legal and game.is_legal(picks[0])


def test_trivial_decision_returns_at_once() -> None:
    game = sample_game(TC, 5)
    random_until(game, 5, lambda g: g.decision.kind == "choice" and len(g.legal_actions()) == 1)
    agent = MCTSAgent(seed=1, iterations=10_000)
    assert agent.choose(game) == game.legal_actions()[0]
    assert agent.last_iterations == 0


@pytest.mark.parametrize("rollout", ["none", "random", "heuristic"])
def test_legal_choices_through_a_stretch_of_play(rollout: str) -> None:
    game = searched_position(TC, 7)
    agents = [
        MCTSAgent(seed=1, iterations=25, rollout=rollout, depth=3, search="uct"),
        MCTSAgent(seed=2, iterations=25, rollout=rollout, depth=3, search="uct"),
    ]
    choices = 0
    while choices < 6 and not game.over:
        d = game.decision
        if d.kind == "chance":
            game.roll()
            continue
        assert d.player is not None
        action = agents[d.player].choose(game)
        assert action in game.legal_actions()
        game.apply(action)
        choices += 1


def shooter_position(enemy: str, at: tuple[float, float], seed: int = 4) -> Game:
    """Side A's rifle pilgrim ``a4`` activated at (28, 4), alone on the table with one enemy of side B."""
    # the hand-typed warbands the position was written for (the bundled samples now come from the catalogue)
    data = Path(__file__).resolve().parents[1] / "trench_crusade" / "hand_typed"
    rosters = [TC.load_roster(data / w) for w in ("pilgrims_sacred_affliction.yaml", "pilgrims_iron_path.yaml")]
    game = Game.new(TC, rosters, TC.load_scenario(TC.default_scenario()), seed)
    random_until(
        game,
        seed,
        lambda g: (
            g.decision.kind == "choice"
            and g.decision.prompt == "activate"
            and g.decision.player == 0
            and Action("activate", "a4") in g.legal_actions()
        ),
    )
    for m in game.state.models.values():
        if m.id not in ("a4", enemy):
            m.on_table = False
            m.flags["out"] = True
    for mid, (x, y) in (("a4", (28.0, 4.0)), (enemy, at)):
        m = game.state.models[mid]
        m.x, m.y, m.z, m.on_table = x, y, 0.0, True
        m.flags.pop("down", None)
        m.tokens.pop("blood", None)
    game.state.state_id += 1000  # positions changed: drop the engine's cached decision and legal actions
    game.apply(Action("activate", "a4"))
    return game


def test_prior_counts_the_dice_an_action_sets_rolling() -> None:
    # The widening prior of an attack is judged after its dice have fallen: a shot that may take the enemy
    # leader out of action is worth more than ending the activation. Judged before its dice (the shot merely
    # declared), the two would be worth the same.
    game = shooter_position("b1", (28.0, 12.0))
    agent = MCTSAgent(seed=5, prior_samples=16)
    agent._base = 99
    shot = agent._prior(game, Action("shoot", "a4", "b1", option="Bolt Action Rifle"), 0)
    end = agent._prior(game, Action("end", "a4"), 0)
    assert shot > end + 0.01, (shot, end)


def test_heuristic_prior_values_a_move_by_where_it_goes() -> None:
    # prior=heuristic: at the root a Move is worth its best destination (the heuristic's lookahead answers
    # the destination prompt), not the position before it. The enemy leader 26" off, beyond the rifle's 24":
    # judged before it moves, the Move is worth what ending the activation is; moved into range, more.
    game = shooter_position("b1", (28.0, 30.0))
    move = Action("move", "a4")
    assert move in game.legal_actions()
    assert not any(a.kind == "shoot" for a in game.legal_actions())
    rolled, looked = MCTSAgent(seed=5, search="uct"), MCTSAgent(seed=5, prior="heuristic", search="uct")
    rolled._base = looked._base = 99
    before = rolled._prior(game, move, 0)
    assert abs(before - rolled._prior(game, Action("end", "a4"), 0)) < 1e-9
    after = looked._prior(game, move, 0, lookahead=looked._lookahead)
    assert looked._lookahead is not None and rolled._lookahead is None
    assert after > before + 0.01, (after, before)
    assert "prior=heuristic" in looked.describe() and "prior=" not in rolled.describe()
    # only the root takes the lookahead; the search stays legal and deterministic
    picks = {MCTSAgent(seed=3, iterations=40, prior="heuristic", search="uct").choose(game.clone()) for _ in range(2)}
    assert len(picks) == 1 and picks <= set(game.legal_actions())


def test_tactics_shoots_the_enemy_in_range() -> None:
    # The enemy leader 8" away in the open: the rifle shot may take 113 points out of action (material and
    # the enemy's morale); moving, dashing or ending the activation does not. A close call (a cheap pilgrim far
    # off) would be decided by the dice of a few hundred iterations, so the position makes the shot clearly best.
    game = shooter_position("b1", (28.0, 12.0))
    shot = Action("shoot", "a4", "b1", option="Bolt Action Rifle")
    assert shot in game.legal_actions()
    assert len(game.legal_actions()) > 1
    for seed in (1, 2, 3):
        choice = MCTSAgent(seed=seed, iterations=150, search="uct").choose(game)
        assert choice == shot, f"seed {seed}: {choice}"


# ------------------------------------------------------------------------------------------- every ruleset
@pytest.mark.parametrize("search", ["rollout", "uct"])
@pytest.mark.parametrize("ruleset_id", sorted(registry.available()))
def test_plays_every_installed_ruleset(ruleset_id: str, search: str) -> None:
    rs = registry.get(ruleset_id)
    game = searched_position(rs, 2)
    agent = MCTSAgent(seed=4, iterations=20 if search == "uct" else 6, depth=3, horizon=2, search=search)
    searched = 0
    for _ in range(200):
        d = game.decision
        if d.kind == "over" or searched >= 3:
            break
        if d.kind == "chance":
            game.roll()
            continue
        action = agent.choose(game)
        assert action in game.legal_actions()
        searched += len(game.legal_actions()) > 1
        game.apply(action)


@pytest.mark.parametrize("crn", ["root", "off"])
def test_common_random_numbers_give_sibling_root_actions_the_same_dice(crn: str) -> None:
    # With crn=root the j-th iteration through each root action plays the same dice stream after it (so two
    # actions are compared on the same luck); with crn=off every iteration draws its own.
    game = shooter_position("b1", (28.0, 12.0))
    root_id = game.state.state_id
    seen: dict[Action, list[tuple[int, int]]] = {}
    real_apply = Game.apply

    def spy(self: Game, action: Action) -> Any:
        if self.state.state_id == root_id and self is not game:  # a root action, applied on a clone
            seen.setdefault(action, []).append((self.state.rng.seed, self.state.rng.counter))
        return real_apply(self, action)

    agent = MCTSAgent(seed=2, iterations=60, crn=crn, prior_samples=1, search="uct")
    try:
        Game.apply = spy  # type: ignore[method-assign]
        agent._base = 0
        agent.choose(game)
    finally:
        Game.apply = real_apply  # type: ignore[method-assign]
    streams = [v for a, v in seen.items() if len(v) >= 3]
    assert len(streams) >= 2  # at least two root actions were visited a few times
    first, second = streams[0], streams[1]
    n = min(len(first), len(second))
    # the prior's probes come first and share their streams in both modes; compare the iterations after them
    shared = sum(1 for i in range(n) if first[i] == second[i])
    if crn == "root":
        assert shared == n
    else:
        assert shared < n


# ------------------------------------------------------------------------------------------- search=rollout
def test_rollout_search_is_the_default_and_deterministic() -> None:
    default = make_agent("mcts")
    assert isinstance(default, MCTSAgent) and default.search == "rollout"
    assert default.iterations == DEFAULT_ROLLOUTS and default.describe().startswith("mcts:search=rollout,")
    uct = make_agent("mcts:search=uct")
    assert isinstance(uct, MCTSAgent) and uct.iterations == DEFAULT_ITERATIONS and "search=uct" in uct.describe()
    tuned = make_agent("mcts:width=3,horizon=2,policy_depth=0,iterations=9,policy_samples=3,margin=1.5")
    assert isinstance(tuned, MCTSAgent) and (tuned.width, tuned.horizon, tuned.policy_depth) == (3, 2, 0)
    assert (tuned.policy_samples, tuned.margin) == (3, 1.5) and "policy_samples=3" in tuned.describe()
    game = searched_position(TC, 3)
    picks = [MCTSAgent(seed=9, iterations=8, horizon=2).choose(game.clone()) for _ in range(2)]
    assert picks[0] == picks[1] and picks[0] in game.legal_actions()


def test_heuristic_ranking_puts_its_own_choice_first() -> None:
    game = searched_position(TC, 3)
    ranked = HeuristicAgent(seed=4).ranked(game.clone())
    assert ranked[0] == HeuristicAgent(seed=4).choose(game.clone())
    assert sorted(map(str, ranked)) == sorted(map(str, game.legal_actions()))


@pytest.mark.parametrize(("iterations", "width"), [(7, 3), (2, 4), (1, 4)])
def test_rollout_search_spends_exactly_its_budget(iterations: int, width: int) -> None:
    # every rollout is counted where it is played: a search that ignored its budget (more or fewer rollouts,
    # candidates beyond the width) fails here
    game = shooter_position("b1", (28.0, 12.0))
    played: list[Action] = []
    real = RolloutSearch.rollout

    def spy(self: RolloutSearch, game: Game, action: Action, me: int, dice: int, policy_seed: int) -> float:
        played.append(action)
        return real(self, game, action, me, dice, policy_seed)

    agent = MCTSAgent(seed=2, iterations=iterations, width=width, horizon=2)
    try:
        RolloutSearch.rollout = spy  # type: ignore[method-assign]
        agent.choose(game)
    finally:
        RolloutSearch.rollout = real  # type: ignore[method-assign]
    assert len(played) == agent.last_iterations == (iterations if iterations > 1 else 0)
    assert len(set(played)) == min(width, iterations, len(game.legal_actions())) or iterations == 1


def test_rollouts_of_sibling_candidates_share_their_dice() -> None:
    # common random numbers: the j-th rollout of every candidate starts from the same dice stream and policy seed
    game = shooter_position("b1", (28.0, 12.0))
    seen: dict[Action, list[tuple[int, int]]] = {}
    real = RolloutSearch.rollout

    def spy(self: RolloutSearch, game: Game, action: Action, me: int, dice: int, policy_seed: int) -> float:
        seen.setdefault(action, []).append((dice, policy_seed))
        return real(self, game, action, me, dice, policy_seed)

    try:
        RolloutSearch.rollout = spy  # type: ignore[method-assign]
        MCTSAgent(seed=2, iterations=9, width=3, horizon=2).choose(game)
    finally:
        RolloutSearch.rollout = real  # type: ignore[method-assign]
    streams = list(seen.values())
    assert len(streams) == 3 and all(s == streams[0] for s in streams)
    assert len(set(streams[0])) == 3  # and each round draws its own


def test_rollout_search_leaves_the_heuristic_only_when_clearly_better() -> None:
    search = RolloutSearch(seed=1, width=4, horizon=2, policy_depth=0, eval_kind="heuristic", margin=1.0)
    assert search._clearly_better([3.0, 4.0, 5.0], [1.0, 2.0, 3.0])  # +2 on every paired rollout
    assert not search._clearly_better([9.0, -5.0, 1.0], [0.0, 0.0, 0.0])  # mean +5/3, error larger
    assert not search._clearly_better([1.0, 1.0], [1.0, 1.0]) and not search._clearly_better([5.0], [0.0])
    search.margin = 0.0
    assert search._clearly_better([9.0, -5.0, 1.0], [0.0, 0.0, 0.0]) and search._clearly_better([5.0], [0.0])
    # one round of rollouts tells no error: the search plays the heuristic's own choice
    game = searched_position(TC, 3)
    agent = MCTSAgent(seed=6, iterations=4, width=4, horizon=2, margin=1)
    assert agent.choose(game.clone()) == HeuristicAgent(seed=derive_seed(6, 11)).choose(game.clone())


def test_a_slow_ruleset_takes_its_own_defaults_unless_the_spec_gives_them() -> None:
    rs = registry.get("gangfight")
    game = searched_position(rs, 2)
    tuned, given = MCTSAgent(seed=1), MCTSAgent(seed=1, iterations=4, horizon=1)
    for agent in (tuned, given):
        assert agent.choose(game.clone()) in game.legal_actions()
    expected = RULESET_DEFAULTS["gangfight"]
    assert (tuned.iterations, tuned.width, tuned.horizon, tuned.policy_depth) == (
        expected["iterations"],
        expected["width"],
        expected["horizon"],
        expected["policy_depth"],
    )
    assert (given.iterations, given.horizon, given.width) == (4, 1, expected["width"])
    assert tuned.last_iterations <= expected["iterations"] and given.last_iterations <= 4


def test_rollout_search_under_a_time_budget_plays_at_least_one_round() -> None:
    game = shooter_position("b1", (28.0, 12.0))
    agent = MCTSAgent(seed=3, seconds=0.001, width=3, horizon=1)
    assert agent.choose(game) in game.legal_actions()
    assert agent.last_iterations >= min(3, len(game.legal_actions()))
    assert agent.describe().startswith("mcts:search=rollout,seconds=0.001,")


# ------------------------------------------------------------------------ Trenches and Turbines' defaults
TT: Ruleset = registry.get("trenches-and-turbines")


def tt_action_position(seed: int = 5) -> Game:
    """The first action decision of a unit's activation (two actions left) with several legal actions."""
    game = sample_game(TT, seed)
    random_until(
        game,
        seed,
        lambda g: (
            g.decision.kind == "choice"
            and g.decision.prompt == "action"
            and g.state.turn >= 1
            and not g.state.vars.get("acts")
            and len(g.legal_actions()) > 1
        ),
    )
    return game


def test_a_horizon_in_activations_ends_where_the_next_activation_begins() -> None:
    game = tt_action_position()
    unit = game.decision.model
    seen: list[tuple[str, str | None]] = []

    def choose(g: Game) -> Action:
        seen.append((g.decision.prompt, g.decision.model))
        return g.legal_actions()[0]

    g = game.clone()
    g.apply(game.legal_actions()[0])
    play_activations(g, 1, unit, choose)
    # it stops at another unit's first action (or a new activation), the unit's own later actions played
    assert g.decision.kind == "choice" and g.decision.prompt in STOP_PROMPTS
    assert g.decision.model != unit or g.decision.prompt == "activate"
    assert all(model == unit for prompt, model in seen if prompt in STOP_PROMPTS)
    # the activation counter of the rules (digest §3.2: one card, one activation) moved on by one, then by two
    start = int(game.state.vars["activation"])
    two = game.clone()
    two.apply(game.legal_actions()[0])
    play_activations(two, 2, unit, lambda x: x.legal_actions()[0])
    assert two.decision.kind != "over"
    assert int(g.state.vars["activation"]) == start + 1 and int(two.state.vars["activation"]) == start + 2


def test_a_horizon_in_rounds_ends_after_the_end_phase() -> None:
    # digest §3.2/§3.3: a round ends when the deck is empty; the End phase scores the objectives and the Start
    # phase of the next deals a new deck, so a rollout of rounds=1 is judged after the scoring, at the next
    # round's first choice (or the game's end)
    game = tt_action_position()
    start = game.state.turn
    g = game.clone()
    g.apply(game.legal_actions()[0])
    turns: list[int] = []

    def choose(x: Game) -> Action:
        turns.append(x.state.turn)
        return x.legal_actions()[0]

    play_rounds(g, 1, choose)
    assert turns and all(t == start for t in turns)  # every choice it played was in the root's round
    assert g.decision.kind == "choice" and g.state.turn == start + 1  # the fixture is not in the last round
    assert len(g.state.vars["deck"]) > 0  # the new round's deck, built after the scoring
    two = game.clone()
    two.apply(game.legal_actions()[0])
    play_rounds(two, 2, lambda x: x.legal_actions()[0])
    assert two.decision.kind == "over" or two.state.turn == start + 2
    agent = MCTSAgent(seed=1, rounds=1, iterations=4)
    assert agent.choose(game.clone()) in game.legal_actions()
    assert agent._rollouts is not None and agent._rollouts.rounds == 1 and agent.last_iterations == 4
    assert make_agent("mcts:rounds=1").describe().endswith("rounds=1")
    # a budget in rollout decisions (steps): rounds of one rollout per candidate until the policy has answered
    # that many choices, never fewer than one round, never more than the iterations
    one = MCTSAgent(seed=1, rounds=1, iterations=16, steps=1, margin=0)
    one.choose(game.clone())
    assert one._rollouts is not None and one.last_iterations == one.width == 4
    assert one._rollouts.steps_used > 0
    ample = MCTSAgent(seed=1, rounds=1, iterations=8, steps=10**6)
    ample.choose(game.clone())
    assert ample.last_iterations == 8
    assert make_agent("mcts:rounds=1,steps=300").describe().endswith("rounds=1,steps=300")
    with pytest.raises(AgentError):
        make_agent("mcts:rounds=-1")


def test_rollout_ends_judged_by_the_search_evaluation_when_asked() -> None:
    # rule facts (seed 002, Actions: two actions an activation; digest §3.2 the deck) make an activation the
    # natural point to judge at; leaf=search judges rollout ends by the ruleset's search_evaluate face
    agent = MCTSAgent(seed=1, leaf="search", activations=1, margin=0)
    game = tt_action_position()
    assert agent.choose(game.clone()) in game.legal_actions()
    search = agent._rollouts
    assert search is not None and (search.activations, search.leaf, search.margin) == (1, "search", 0.0)
    deep = TT.face("search_evaluate")
    assert deep is not None
    assert search.judge(game, 0) == pytest.approx(deep(game.state, 0))
    assert search.judge(game, 0) != pytest.approx(TT.evaluate(game.state, 0))
    # the default judges by the evaluation itself, and keeps the measured Trenches and Turbines defaults
    default = MCTSAgent(seed=1)
    default.choose(game.clone())
    assert default._rollouts is not None and default._rollouts.leaf == "plain" and default.activations == 0
    assert default._rollouts.judge(game, 0) == pytest.approx(TT.evaluate(game.state, 0))
    assert (default.horizon, default.margin) == (2, 1.0)
    # rollouts to the round's end, 8 of them (measured: docs/evaluation.md, branch tt21c)
    assert (default.iterations, default.rounds, default._rollouts.rounds) == (8, 1, 1)
    # a ruleset without the face: the evaluation itself
    tc = searched_position(TC, 3)
    assert search.judge(tc, 0) == pytest.approx(TC.evaluate(tc.state, 0))
    assert make_agent("mcts:leaf=search,activations=2").describe().endswith("leaf=search,activations=2")


def test_rollouts_against_a_random_opponent_play_only_its_choices_at_random() -> None:
    # opponent=random (issue 21's ceiling: a search against the random agent as it really plays): in the rollouts
    # the other side's choices come from a random policy, the searching side's still from the heuristic one
    game = searched_position(TC, 3)
    me = int(game.decision.player or 0)
    asked: dict[str, list[int]] = {"random": [], "heuristic": []}
    real_random, real_heuristic = RandomAgent.choose, HeuristicAgent.choose

    def by_random(self: RandomAgent, g: Game) -> Action:
        asked["random"].append(int(g.decision.player or 0))
        return real_random(self, g)

    def by_heuristic(self: HeuristicAgent, g: Game) -> Action:
        asked["heuristic"].append(int(g.decision.player or 0))
        return real_heuristic(self, g)

    agent = make_agent("mcts:opponent=random,iterations=6,width=3,horizon=6", seed=4)
    assert isinstance(agent, MCTSAgent) and "opponent=random" in agent.describe()
    assert "opponent" not in make_agent("mcts").describe()
    try:
        RandomAgent.choose = by_random  # type: ignore[method-assign]
        HeuristicAgent.choose = by_heuristic  # type: ignore[method-assign]
        choice = agent.choose(game.clone())
    finally:
        RandomAgent.choose = real_random  # type: ignore[method-assign]
        HeuristicAgent.choose = real_heuristic  # type: ignore[method-assign]
    assert game.is_legal(choice)
    assert asked["random"] and set(asked["random"]) == {1 - me}
    # the heuristic answered the root (the ranker) and the searching side's choices in the rollouts only
    assert set(asked["heuristic"]) == {me}

"""Policy improvement by simulation: the ``mcts`` agent's ``search=rollout`` (its default).

At a decision with several legal actions the ``heuristic`` agent ranks them (its own choice first, then the
others by its values; see :meth:`HeuristicAgent.ranked`). The first ``width`` become the candidates, and each
is judged by playing it on a clone of the game and then letting a cheap heuristic policy (the ``heuristic``
agent with ``policy_samples`` dice streams and refined destinations, 1 by default, and ``policy_depth``, for
both sides; with ``opponent`` ``random`` the other side's choices are uniformly random instead, the policy of the
``random`` agent) play on up to a **horizon**: the
``horizon``-th top-level decision (an activation, an action, a deployment) after the candidate, or the end of
the game; or, with ``activations`` N > 0, until N activations have ended (the root's and those after it, see
:func:`play_activations`); or, with ``rounds`` N > 0, until N rounds have ended (:func:`play_rounds`).
Pending dice are rolled and the position judged by the evaluation
(``Ruleset.evaluate``, or the learned one), or by the ruleset's ``search_evaluate`` face where it has one and
``leaf`` is ``search`` (a slower evaluation meant for the few ends of rollouts: Trenches and Turbines adds each
unit's threat). The candidate with the best mean wins (ties going to the earlier one, so to the heuristic's own
choice) if its paired differences with the heuristic's choice (rollout ``j`` of each, on the same dice) have a
mean more than ``margin`` standard errors above zero; otherwise the heuristic's choice stands. With ``margin``
0 (the default: it measured stronger than 1 in Trench Crusade) the best mean wins outright.

This is Tesauro's and Bertsekas's rollout: a policy improved by simulating it. It sees what the one-ply
lookahead does not (the enemy's answer to a move, the second action of an activation, a charge the next
activation makes possible); its rollout policy is a cheaper heuristic than the one it improves, so it is not
guaranteed to be better, and the ladder measures it.

The rollouts are played in rounds (round ``j`` plays the ``j``-th rollout of every candidate) until the budget,
``iterations`` rollouts in all (or ``seconds``), is spent, so every candidate gets the same number give or take
one. With ``steps`` N > 0 the rounds also stop (after the first) once the rollouts have answered N choices in
all: long rollouts (early in a Trenches and Turbines round, with ``rounds``) get fewer, short ones more, and the
time a decision takes stays bounded without the clock.

**Common random numbers**: the ``j``-th rollout of every candidate starts from the same dice stream and
uses the same policy seed, so candidates are compared on the same luck.

Deployment decisions (prompts ``deploy`` and ``zone``) are left to the heuristic: a horizon of a few
decisions does not reach the fighting.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from warband.agents.base import evaluation
from warband.agents.heuristic import STOP_PROMPTS, HeuristicAgent
from warband.agents.random_agent import RandomAgent
from warband.kernel.actions import Action, Decision
from warband.kernel.engine import Game
from warband.kernel.rng import Rng, derive_seed

#: Decisions left to the heuristic's own choice.
DEPLOY_PROMPTS = frozenset({"deploy", "zone"})
#: Safety cap on the steps (choices and rolls) of one rollout.
MAX_STEPS = 4000
#: Salt of the dice streams of the rollouts (apart from the policy seeds).
_DICE = 0x6A09E667


class RolloutSearch:
    """Judges the heuristic's best ``width`` candidates by rollouts of a cheap heuristic policy; see the
    module docstring. ``played`` is the number of rollouts of the last decision searched."""

    def __init__(
        self,
        seed: int,
        width: int,
        horizon: int,
        policy_depth: int,
        eval_kind: str,
        margin: float = 1.0,
        policy_samples: int = 1,
        leaf: str = "plain",
        activations: int = 0,
        rounds: int = 0,
        steps: int = 0,
        opponent: str = "heuristic",
    ) -> None:
        self.width = width
        self.opponent = opponent
        self.margin = margin
        self.horizon = horizon
        self.policy_depth = policy_depth
        self.policy_samples = policy_samples
        self.eval = eval_kind
        self.leaf = leaf
        self.activations = activations
        self.rounds = rounds
        self.steps = steps
        self.steps_used = 0
        self.ranker = HeuristicAgent(seed=derive_seed(seed, 11), eval=eval_kind)
        self.played = 0
        self.last_values: dict[Action, float] = {}

    def choose(self, game: Game, base: int, budget: int, deadline: float | None) -> Action:
        """The best candidate at ``game``'s decision after ``budget`` rollouts (or until ``deadline``, a
        ``time.perf_counter`` value, with at least one round), their dice drawn from ``base``."""
        ranked = self.ranker.ranked(game)
        self.played = 0
        self.steps_used = 0
        self.last_values = {}
        if len(ranked) <= 1 or game.decision.prompt in DEPLOY_PROMPTS:
            return ranked[0]
        candidates = ranked[: max(1, min(self.width, len(ranked), budget if deadline is None else len(ranked)))]
        if len(candidates) == 1:
            return candidates[0]
        me = int(game.decision.player or 0)
        values: list[list[float]] = [[] for _ in candidates]
        j = 0
        while True:
            if deadline is None and self.played >= budget:
                break
            if deadline is not None and j > 0 and time.perf_counter() >= deadline:
                break
            if self.steps > 0 and j > 0 and self.steps_used >= self.steps:
                break
            dice = derive_seed(base ^ _DICE, j)
            policy_seed = derive_seed(base, j)
            for i, action in enumerate(candidates):
                if deadline is None and self.played >= budget:
                    break
                values[i].append(self.rollout(game, action, me, dice, policy_seed))
                self.played += 1
            j += 1
        means = [sum(v) / len(v) if v else float("-inf") for v in values]
        self.last_values = dict(zip(candidates, means, strict=True))
        best = 0
        for i in range(1, len(candidates)):
            if means[i] > means[best] + 1e-9:
                best = i
        if best == 0 or not self._clearly_better(values[best], values[0]):
            return candidates[0]
        return candidates[best]

    def _clearly_better(self, mine: list[float], base: list[float]) -> bool:
        """Whether the paired differences ``mine[j] - base[j]`` (rollout ``j`` of both on the same dice) have a
        positive mean more than ``margin`` standard errors above 0 (any positive mean with ``margin`` 0)."""
        diffs = [a - b for a, b in zip(mine, base, strict=False)]
        n = len(diffs)
        if n == 0:
            return False
        mean = sum(diffs) / n
        if mean <= 0:
            return False
        if self.margin <= 0:
            return True
        if n == 1:
            return False  # one pair tells no error
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        return mean > self.margin * math.sqrt(var / n)

    def rollout(self, game: Game, action: Action, me: int, dice: int, policy_seed: int) -> float:
        """``action`` played on a clone of ``game`` with the dice stream ``dice``, then both sides played by
        the cheap heuristic policy (seeded ``policy_seed``) to the horizon; the evaluation for ``me``."""
        g = game.clone()
        g.state.rng = Rng(dice)
        piece = game.decision.model
        g.apply(action)
        policy = HeuristicAgent(
            seed=policy_seed,
            samples=self.policy_samples,
            refine=self.policy_samples,
            depth=self.policy_depth,
            eval=self.eval,
        )
        # the other side's choices: the same heuristic policy, or uniformly random ones (opponent=random)
        other = RandomAgent(seed=derive_seed(policy_seed, 3)) if self.opponent == "random" else policy
        answered = 0

        def choose(x: Game) -> Action:
            nonlocal answered
            answered += 1
            return (policy if x.decision.player == me else other).choose(x)

        if self.rounds > 0:
            play_rounds(g, self.rounds, choose)
        elif self.activations > 0:
            play_activations(g, self.activations, piece, choose)
        else:
            play_to_horizon(g, self.horizon, choose)
        self.steps_used += answered
        return self.judge(g, me)

    def judge(self, g: Game, me: int) -> float:
        """The value of a rollout's end for ``me``: the ruleset's ``search_evaluate`` face where it has one
        (a slower evaluation meant for the few ends of rollouts) and ``leaf`` is ``search`` and the evaluation
        is the heuristic one; otherwise the agents' evaluation (:func:`~warband.agents.base.evaluation`)."""
        if self.leaf == "search" and self.eval == "heuristic":
            deep = g.ruleset.face("search_evaluate")
            if deep is not None:
                value: float = deep(g.state, me)
                return value
        return evaluation(g, me, self.eval)


def play_on(g: Game, choose: Callable[[Game], Action], stop: Callable[[Decision], bool]) -> None:
    """Play ``g`` on in place with ``choose`` answering every choice (a lone legal action is taken without
    asking) until the game ends or ``stop`` says so of a choice decision (asked once per choice decision, before
    it is answered); pending dice are rolled before it returns."""
    for _ in range(MAX_STEPS):
        d = g.decision
        if d.kind == "over":
            return
        if d.kind == "chance":
            g.roll()
            continue
        if stop(d):
            return
        actions = g.legal_actions()
        g.apply(actions[0] if len(actions) == 1 else choose(g))


def play_to_horizon(g: Game, horizon: int, choose: Callable[[Game], Action]) -> None:
    """Play ``g`` on (:func:`play_on`) until the ``horizon``-th top-level decision
    (:data:`~warband.agents.heuristic.STOP_PROMPTS`) is reached or the game ends."""
    reached = 0

    def stop(d: Decision) -> bool:
        nonlocal reached
        if d.prompt not in STOP_PROMPTS:
            return False
        reached += 1
        return reached >= horizon

    play_on(g, choose, stop)


def play_activations(g: Game, activations: int, piece: str | None, choose: Callable[[Game], Action]) -> None:
    """Play ``g`` on (:func:`play_on`) until ``activations`` activations have ended: the one under way (of
    ``piece``, the model or unit the root decision was about) and those after it. An activation ends when a
    top-level decision (:data:`~warband.agents.heuristic.STOP_PROMPTS`) names another piece, or the same piece at
    a new ``activate`` prompt. So every candidate of a decision is judged at the same natural point (the end of
    its activation, whatever it spent its actions on: a unit that goes on Overwatch is not judged an action later
    than one that moves twice)."""
    ended = 0

    def stop(d: Decision) -> bool:
        nonlocal ended, piece
        if d.prompt in STOP_PROMPTS and (d.model != piece or d.prompt == "activate"):
            ended += 1
            if ended >= activations:
                return True
            piece = d.model
        return False

    play_on(g, choose, stop)


def play_rounds(g: Game, rounds: int, choose: Callable[[Game], Action]) -> None:
    """Play ``g`` on (:func:`play_on`) until ``rounds`` round ends have passed (``state.turn`` has grown by
    ``rounds``: the first choice decision of a later round) or the game ends. So the rollout's end has been
    through the End phase's scoring (Trenches and Turbines: objectives score at the end of each round, digest
    §3.3), and every candidate is judged at the same point of the game, whatever the activation deck drew."""
    end = g.state.turn + rounds

    def stop(d: Decision) -> bool:
        return g.state.turn >= end

    play_on(g, choose, stop)

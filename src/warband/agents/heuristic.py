"""The ``heuristic`` agent: greedy one-ply lookahead on the ruleset's public evaluation.

For every legal action the agent plays it out on a clone of the game: the dice are rolled from a few
independent streams (the same streams for every action, so the comparison between actions is fair), and any
follow-up decisions the action itself asks for (a destination, spending markers, a reaction) are answered
cheaply, until the game comes back to a top-level decision (another activation, the next action of the same
model) or ends. The average of ``game.ruleset.evaluate(state, side)`` over the samples is the action's value;
the best value wins, ties going to the earlier action in the legal order.

Destinations (any choice whose actions carry a point) are ranked statically first: the model is put at each
candidate point (and put back) and the position evaluated, with no rules run; only the best few are then
applied for real (so terrain hazards, falls and heights count). Where a destination names no model but a unit (a
formation move), the ruleset's ``evaluate_destinations`` hook, if it has one, gives the static values (the unit
stood where the move's plan puts it); without one every destination is played for real. Choosing which model to
activate looks one first a model that has something to attack (an action with a target).

Only the public kernel protocol is used (``Game``, ``Action``, ``Decision``, the state's models and random
stream) plus ``Ruleset.evaluate``, so the agent plays any ruleset. Options (strings from the CLI spec):

* ``samples`` (3): dice streams per action whose outcome depends on chance;
* ``refine`` (3): how many of the statically best destinations are checked by really moving there;
* ``depth`` (1): how many levels of follow-up decisions inside an action are searched rather than defaulted;
* ``single`` (``charge``): action kinds (joined by ``+``) valued with one dice stream only, because playing
  them out is slow (a charge plans its route round every base on the table);
* ``shallow`` (none by default): action kinds whose destination is not searched when the action is weighed
  (the move is judged as "the model may still go anywhere"; where it goes is decided at the destination
  prompt itself). ``shallow=move+dash`` is about twice as fast in Trench Crusade and plays a little worse; in a
  game of units (Trenches and Turbines) it makes the agent prefer short moves it can search, so the default
  searches every kind;
* ``static`` (``on``): ``off`` ranks no destination statically: every one is played for real (slower; the
  agent as it was before units' destinations had static values);
* ``chain`` (none by default): action kinds (joined by ``+``) valued through the same model's best next action
  rather than by the position right after them: ``chain=ability`` judges an ability (Rush, Onslaught) that pays
  off only through the action it improves by that action, so a Rush is bought before the moves it lengthens;
* ``eval`` (``heuristic``): ``learned`` values positions by ``Ruleset.learned_evaluation`` (the weights fitted
  to self-play games, ``warband fit-eval``) instead of ``Ruleset.evaluate``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from warband.agents.base import Agent, AgentError, eval_option, evaluation, number_option
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.rng import Rng

#: Decision prompts that start something new: a lookahead stops there and evaluates.
STOP_PROMPTS = frozenset({"activate", "action", "deploy", "zone"})
#: Safety cap on the steps of one lookahead.
MAX_STEPS = 400
#: Follow-up choices with more options than this are answered with the first legal one.
MAX_NESTED_OPTIONS = 8


def _int_option(options: dict[str, Any], key: str, default: int, low: int) -> int:
    value: int = number_option("heuristic", options, key, default, (low, _HIGH[key]), int)
    return value


#: The largest value of each numeric option (a deeper or wider lookahead would not end in a person's time).
_HIGH = {"samples": 1000, "refine": 100, "depth": 20}


def _switch(key: str, raw: object) -> bool:
    value = str(raw).lower()
    if value not in ("on", "off"):
        raise AgentError(f"agent 'heuristic': option {key}={raw!r} is not 'on' or 'off'")
    return value == "on"


def _kinds(raw: object) -> frozenset[str]:
    return frozenset(k for k in str(raw).replace("+", " ").split() if k)


class HeuristicAgent(Agent):
    """Greedy one-ply lookahead over ``ruleset.evaluate``; deterministic for a given seed."""

    name = "heuristic"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        opts = dict(options)
        self.samples = _int_option(opts, "samples", 3, 1)
        self.refine = _int_option(opts, "refine", 3, 0)
        self.depth = _int_option(opts, "depth", 1, 0)
        self.single = _kinds(opts.pop("single", "charge"))
        self.shallow = _kinds(opts.pop("shallow", ""))
        self.static = _switch("static", opts.pop("static", "on"))
        self.chain = _kinds(opts.pop("chain", ""))
        self.eval = eval_option("heuristic", opts)
        super().__init__(seed, **opts)
        self.rng = Rng(seed)
        self._seeds: tuple[int, ...] = ()
        # prompts seen to ask for a point (destinations): a shallow lookahead stops there without listing them
        self._point_prompts: set[str] = set()

    def describe(self) -> str:
        learned = ",eval=learned" if self.eval == "learned" else ""
        static = "" if self.static else ",static=off"
        chain = f",chain={'+'.join(sorted(self.chain))}" if self.chain else ""
        return f"heuristic:samples={self.samples},refine={self.refine},depth={self.depth}{learned}{static}{chain}"

    # --- the choice --------------------------------------------------------------------------------
    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if len(actions) == 1:
            return actions[0]
        d = game.decision
        me = int(d.player or 0)
        self._seeds = tuple(self.rng.next64() for _ in range(self.samples))
        if any(a.point is not None for a in actions):
            self._point_prompts.add(d.prompt)
            return self._best_point(game, actions, me, self.refine, self.depth)
        if d.prompt == "activate" and all(a.model is not None for a in actions):
            return self._best_activation(game, actions, me)
        return self._best_action(game, actions, me, self.samples, self.depth)

    def ranked(self, game: Game) -> list[Action]:
        """The legal actions of ``game``'s (choice) decision, this agent's choice first, then the others by
        its values best first (ties in the legal order). The mcts agent's ``search=rollout`` takes its
        candidates from the front. Destinations are ranked statically (the best ``refine`` of them then
        checked for real to pick the first); activations put the agent's choice first and keep the legal
        order after it (the agent gives them no values)."""
        actions = game.legal_actions()
        if len(actions) <= 1:
            return list(actions)
        d = game.decision
        me = int(d.player or 0)
        if not any(a.point is not None for a in actions) and not (
            d.prompt == "activate" and all(a.model is not None for a in actions)
        ):
            self._seeds = tuple(self.rng.next64() for _ in range(self.samples))
            order = {a: i for i, a in enumerate(actions)}
            values = {a: self._value(game, a, me, self.samples, self.depth) for a in actions}
            return sorted(actions, key=lambda a: (-values[a], order[a]))
        choice = self.choose(game)
        rest: list[Action]
        if any(a.point is not None for a in actions):
            pointed = [a for a in actions if a.point is not None]
            found = self._static_rank(game, [a for a in pointed if a.model == pointed[0].model], me)
            rest = [a for _, a in found[0]] if found is not None else []
            seen = set(rest)
            rest += [a for a in actions if a not in seen]
        else:
            rest = list(actions)
        return [choice, *(a for a in rest if a != choice)]

    # --- values ------------------------------------------------------------------------------------
    def _value(self, game: Game, action: Action, me: int, samples: int, depth: int) -> float:
        """Mean evaluation after ``action`` and everything it sets off, over up to ``samples`` dice streams
        (one if no die was rolled)."""
        root = game.decision.prompt
        if action.kind in self.single:
            samples = 1
        total = 0.0
        n = 0
        # the game right after ``action`` where applying it drew nothing from the stream and a die is to be rolled
        # next: every sample starts from there (the same position whatever the stream), so the action is applied
        # once rather than once per sample; the last sample plays on the shared copy itself
        after: Game | None = None
        for i in range(samples):
            rng = Rng(self._seeds[i % len(self._seeds)] if self._seeds else i)
            if after is not None:
                c = after if i == samples - 1 else after.clone()
                c.state.rng = rng
            else:
                c = game.clone()
                c.state.rng = rng
                c.apply(action)
                if samples > 1 and c.decision.kind == "chance" and c.state.rng is rng and rng.counter == 0:
                    after, c = c, c.clone()
            rolled, searched = self._settle(c, me, root, depth, action.kind not in self.shallow)
            if action.kind in self.chain and self._same_turn(game, c):
                total += self._next_best(c, me, depth)
            else:
                total += evaluation(c, me, self.eval)
            n += 1
            if not rolled or searched:
                break  # no chance involved, or a costly nested search: one sample will do
        return total / n

    @staticmethod
    def _same_turn(game: Game, c: Game) -> bool:
        """Whether ``c`` (played on from ``game`` after one action) asks the same side about the same model at the
        same prompt again: the model's next action."""
        d, e = game.decision, c.decision
        return e.kind == "choice" and e.prompt == d.prompt and e.player == d.player and e.model == d.model

    def _next_best(self, c: Game, me: int, depth: int) -> float:
        """A chained action's value: the best of the model's next actions at ``c`` (each valued as a first action
        is, with no further chaining), or the position as it stands where none is left."""
        actions = c.legal_actions()
        if not actions:
            return evaluation(c, me, self.eval)
        chain, self.chain = self.chain, frozenset()
        try:
            return max(self._value(c, a, me, self.samples, depth) for a in actions)
        finally:
            self.chain = chain

    def settle(self, c: Game, me: int, root: str) -> bool:
        """Play ``c`` on in place, as this agent's lookahead does after one of ``me``'s actions taken at a
        decision whose prompt was ``root``: dice rolled, ``me``'s follow-ups (a destination, a target) searched
        ``depth`` levels, the opponent's answered with their first legal option, up to the next top-level
        decision; whether any die was rolled. The mcts agent's ``prior=heuristic`` values its root actions so."""
        return self._settle(c, me, root, self.depth)[0]

    def _settle(self, c: Game, me: int, root: str, depth: int, points: bool = True) -> tuple[bool, bool]:
        """Play ``c`` on until a top-level decision or the end; returns (any dice rolled, any of our own
        follow-up decisions searched). With ``points`` false our own destination choices are not searched:
        the position is judged before the move."""
        rolled = False
        searched = False
        for _ in range(MAX_STEPS):
            d = c.decision
            if d.kind == "over":
                break
            if d.kind == "chance":
                c.roll()
                rolled = True
                continue
            if d.prompt in STOP_PROMPTS or d.prompt == root:
                break
            if depth <= 0 and d.player == me:
                break  # a follow-up of our own we do not search: judge the position as it is
            if d.player == me and not points and d.prompt in self._point_prompts:
                break
            actions = c.legal_actions()
            if not actions:
                break
            if any(a.point is not None for a in actions):
                self._point_prompts.add(d.prompt)
                if d.player == me and not points:
                    break
            searched = searched or (d.player == me and len(actions) > 1)
            c.apply(self._follow_up(c, actions, me, depth))
        return rolled, searched

    def _follow_up(self, c: Game, actions: Sequence[Action], me: int, depth: int) -> Action:
        """A cheap answer to a decision inside an action: ours searched one level down, the opponent's the
        first legal option."""
        if len(actions) == 1 or c.decision.player != me:
            return actions[0]
        if any(a.point is not None for a in actions):
            return self._best_point(c, actions, me, 0, depth - 1)
        if len(actions) <= MAX_NESTED_OPTIONS:
            return self._best_action(c, actions, me, 1, depth - 1)
        return actions[0]

    def _best_action(self, game: Game, actions: Sequence[Action], me: int, samples: int, depth: int) -> Action:
        best = actions[0]
        best_v = float("-inf")
        for a in actions:
            v = self._value(game, a, me, samples, depth)
            if v > best_v + 1e-9:
                best, best_v = a, v
        return best

    # --- destinations ------------------------------------------------------------------------------
    def _best_point(self, game: Game, actions: Sequence[Action], me: int, refine: int, depth: int) -> Action:
        """Rank the point actions of one model statically, then check the best ``refine`` for real; actions
        without a point (``stay``) are valued for real."""
        pointed = [a for a in actions if a.point is not None]
        first = pointed[0].model
        pointed = [a for a in pointed if a.model == first]
        others = [a for a in actions if a.point is None]
        # the other actions' static values serve only a search without refinement (else they are played for real)
        found = self._static_rank(game, pointed, me, others if refine <= 0 else ())
        if found is None:
            return self._best_action(game, [*pointed, *others], me, 1, depth)
        ranked, static_others = found
        if refine <= 0:
            best_static = ranked[0]
            if not others:
                return best_static[1]
            # the other actions (``stay``) valued as the destinations were if the ruleset could, else for real
            values = static_others or [self._value(game, a, me, 1, 0) for a in others]
            stay = max(
                ((v, i, a) for i, (v, a) in enumerate(zip(values, others, strict=True))), key=lambda t: (t[0], -t[1])
            )
            return best_static[1] if best_static[0] >= stay[0] else stay[2]
        shortlist = [a for _, a in ranked[:refine]] + others
        return self._best_action(game, shortlist, me, min(2, self.samples), depth)

    def _static_rank(
        self, game: Game, pointed: Sequence[Action], me: int, others: Sequence[Action] = ()
    ) -> tuple[list[tuple[float, Action]], list[float] | None] | None:
        """Each point action valued by standing its model there (no rules run; put back after), best first, and
        the values of ``others`` (the same decision's actions without a point) where the ruleset gives them
        statically too (else None). Actions that name no model of the state (a unit's destinations) are valued
        by the ruleset's ``evaluate_destinations`` hook, ``others`` with them. None when neither applies (or the
        ``static`` option is off): the caller plays every destination for real."""
        if not self.static:
            return None
        m = game.state.models.get(pointed[0].model or "")
        if m is None:
            return self._hook_rank(game.clone(), pointed, me, others)
        # the model is stood at each point in the game itself and put back where it was (no rule runs, nothing
        # else changes): cheaper than standing it in a probe clone of the whole game
        x, y, on_table = m.x, m.y, m.on_table
        m.on_table = True
        scored: list[tuple[float, int, Action]] = []
        try:
            # a ruleset may value all the points at once (incrementally: only the moved model's terms change);
            # it must give the same values as the loop below
            at_points = getattr(game.ruleset, "evaluate_points", None) if self.eval == "heuristic" else None
            if at_points is not None:
                values = at_points(game.state, me, m.id, [a.point for a in pointed])
                scored = [(v, i, a) for i, (v, a) in enumerate(zip(values, pointed, strict=True))]
            else:
                for i, a in enumerate(pointed):
                    assert a.point is not None
                    m.x, m.y = a.point
                    scored.append((evaluation(game, me, self.eval), i, a))
        finally:
            m.x, m.y, m.on_table = x, y, on_table
        scored.sort(key=lambda t: (-t[0], t[1]))
        return [(v, a) for v, _, a in scored], None

    def _hook_rank(
        self, probe: Game, pointed: Sequence[Action], me: int, others: Sequence[Action]
    ) -> tuple[list[tuple[float, Action]], list[float] | None] | None:
        """:meth:`_static_rank` by the ruleset's ``evaluate_destinations(state, side, actions)`` (a value per
        action as ``evaluate`` would give right after it, or None where it does not know the decision)."""
        hook = getattr(probe.ruleset, "evaluate_destinations", None) if self.eval == "heuristic" else None
        if hook is None:
            return None
        values = hook(probe.state, me, [*pointed, *others])
        if values is None:
            return None
        n = len(pointed)
        scored = sorted(
            ((float(v), i, a) for i, (v, a) in enumerate(zip(values[:n], pointed, strict=True))),
            key=lambda t: (-t[0], t[1]),
        )
        return [(v, a) for v, _, a in scored], [float(v) for v in values[n:]]

    # --- activations -------------------------------------------------------------------------------
    def _best_activation(self, game: Game, actions: Sequence[Action], me: int) -> Action:
        """Activate first a model that has something to attack now (a targeted action), so that the blows
        land before the enemy can answer; otherwise the first in the legal order. Which target and how is
        decided by the lookahead at the model's own decisions."""
        for a in actions:
            c = game.clone()
            c.apply(a)
            d = c.decision
            if d.kind != "choice" or d.player != me:
                continue
            if any(x.target is not None for x in c.legal_actions()):
                return a
        return actions[0]

"""Every refusal names its rule in the player's words (issue 23): random games of every ruleset (and the example
ruleset), and at random decisions random wrong actions: kinds of other moments, other models, the other side's
models, points off the table and numbers out of range, reactions and interrupts when none is open, any action while
the dice decide. No refusal may read "expected one of" or "no choice is pending", or be a rule id without words;
none may raise anything but the refusal itself.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import IllegalActionError
from warband.kernel.rng import Rng
from warband.rulesets.example import Example

UNINSTALLED = tuple(cls for cls in (Example,) if cls.id not in registry.available())
RULESETS = sorted([*registry.available(), *(cls.id for cls in UNINSTALLED)])

#: Kinds tried at any moment: every game's vocabulary of answers that belong to a moment of their own.
KINDS = (
    "react",
    "interrupt",
    "no-reaction",
    "pass",
    "end",
    "end-turn",
    "activate",
    "move",
    "charge",
    "fight",
    "shoot",
    "fire",
    "deploy",
    "attack",
    "spend",
    "blessing",
    "decline",
    "zone",
    "nonsense",
)
GENERIC = ("expected one of", "no choice is pending", "no roll is pending")


@pytest.fixture(autouse=True)
def _uninstalled_rulesets() -> Iterator[None]:
    with registry.registered(*UNINSTALLED):
        yield


def _new_game(rid: str, seed: int) -> Game:
    rs = registry.get(rid)
    samples = rs.samples()
    a = rs.load_roster(Path(samples["warbands"][0]["path"]))
    b = rs.load_roster(Path(samples["warbands"][1]["path"]))
    return Game.new(rs, [a, b], rs.load_scenario(rs.default_scenario()), seed, record=False)


def _wrong_actions(game: Game, pick: Rng) -> list[Action]:
    """A handful of actions that are most likely not legal now, of every sort the issue names."""
    models = sorted(game.state.models)
    legal = game.legal_actions()
    out: list[Action] = []
    some = models[pick.below(len(models))]
    other = models[pick.below(len(models))]
    out.append(Action(KINDS[pick.below(len(KINDS))], some))  # another kind, any model, either side
    out.append(Action(KINDS[pick.below(len(KINDS))], some, other, option="counter-charge"))
    out.append(Action("react", some, other, option="counter"))  # a reaction at a random moment
    out.append(Action("interrupt", some, other, option="fight"))  # an interrupt at a random moment
    out.append(Action("no-reaction"))
    if legal:
        base = legal[pick.below(len(legal))]
        out.append(Action(base.kind, other, base.target, base.point, base.option))  # another model
        out.append(Action(base.kind, base.model, other, base.point, base.option))  # another target
        out.append(Action(base.kind, base.model, base.target, (999.0, -999.0), base.option))  # off the table
        out.append(Action(base.kind, base.model, base.target, base.point, "=99"))  # a number out of range
        out.append(Action(base.kind, "zz9", base.target, base.point, base.option))  # nobody of that name
    return [a for a in out if a not in legal]


def _check(game: Game, action: Action) -> None:
    try:
        reasons = game.why_illegal(action)
    except IllegalActionError:  # pragma: no cover - why_illegal answers, it never raises
        raise
    if action in game.legal_actions():
        return
    d = game.decision
    if d.kind == "choice" and not reasons:
        return  # any point of the table may be legal (a destination): nothing to explain
    assert reasons, f"{action} refused without a reason at {d.prompt}"
    for rule, text in reasons:
        where = f"{game.ruleset.id} at {d.kind} {d.prompt!r}: {action} -> {rule}: {text}"
        assert "/" in rule and rule.split("/")[0] == game.ruleset.id, where
        assert not any(g in text for g in GENERIC), where
        assert len(text.split()) >= 3 and text.strip() != rule, where


def _play(rid: str, seed: int, tries_every: int, steps: int) -> None:
    game = _new_game(rid, seed)
    pick = Rng(seed + 1)
    for step in range(steps):
        d = game.decision
        if d.is_over:
            _check(game, Action("end", next(iter(game.state.models))))
            return
        if step % tries_every == 0:
            for a in _wrong_actions(game, pick):
                _check(game, a)
        if d.is_chance:
            game.roll()
            continue
        legal = game.legal_actions()
        game.apply(legal[pick.below(len(legal))])


@pytest.mark.parametrize("rid", RULESETS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(min_value=0, max_value=10_000), every=st.integers(min_value=1, max_value=7))
def test_no_refusal_is_generic(rid: str, seed: int, every: int) -> None:
    _play(rid, seed, every, 160)

"""The answers kept while the rules list a menu or destinations (``spots.listing_cache``: the positions hashed once
per listing, each line of sight, coherency, a Shift's enemies, a plan's refusals) are speed only: on random
positions, every action the active unit is offered, and every destination a Move or a Shift is offered, is exactly
what the same checks say asked one by one outside any listing (no cache), and the plan remembered for a
destination is the plan made afresh."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import box, position, unit

from warband.kernel.actions import Action
from warband.rulesets.trenches_and_turbines import actions as tt_actions
from warband.rulesets.trenches_and_turbines import movement

SHOTGUN = {"name": "Shotgun", "range": 8, "attacks": 2, "damage": 1, "pen": 0, "keywords": ["Heavy"]}
RIFLE = {"name": "Rifle", "range": 24, "attacks": 1, "damage": 1, "pen": 0}

coord = st.floats(1.0, 47.0, allow_nan=False)


@st.composite
def positions(draw: st.DrawFn) -> dict[str, Any]:
    sides = []
    at: dict[str, list[tuple[float, float]]] = {}
    for side in "ab":
        units = []
        for k in range(draw(st.integers(1, 3))):
            n = draw(st.integers(1, 4))
            weapons = draw(st.sampled_from(([RIFLE], [RIFLE, SHOTGUN], [SHOTGUN])))
            units.append(unit(models=n, weapons=weapons, move=draw(st.sampled_from((4, 6, 8)))))
            x, y = draw(coord), draw(coord)
            spread = draw(st.sampled_from((0.0, 1.0, 3.0)))
            at[f"{side}{k + 1}"] = [
                (min(47.0, x + spread * i + draw(st.floats(0, 1.5))), min(47.0, y + draw(st.floats(-1.5, 1.5))))
                for i in range(n)
            ]
        sides.append(units)
    # walls and blocks in the way of sight and moves (blocking most often), craters and obstacles for cover
    kinds = st.sampled_from(("blocking", "blocking", "impassable", "obstacle", "difficult"))
    pieces = st.tuples(kinds, st.floats(2, 40), st.floats(2, 40), st.sampled_from((1.0, 6.0)), st.floats(1.0, 6.0))
    terrain = [
        box(f"t{i}", kind, x0, y0, x0 + w, y0 + d, 3.0)
        for i, (kind, x0, y0, w, d) in enumerate(draw(st.lists(pieces, max_size=6)))
    ]
    return {"sides": sides, "at": at, "terrain": terrain}


def _game(p: dict[str, Any]) -> Any:
    try:
        return position(p["sides"][0], p["sides"][1], p["at"], terrain=p["terrain"])
    except Exception:  # a table the scenario loader refuses: nothing to compare
        return None


def _uncached(state: Any, listing: Any) -> Any:
    """What ``listing`` (a function of nothing) answers with no listing open, so that every check computes its
    own answer (``frozen_models`` does nothing), from an empty memo."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tt_actions, "frozen_models", contextlib.nullcontext)
        mp.setattr(movement, "frozen_models", contextlib.nullcontext)
        state.ctx.memo.clear()
        out = listing()
        assert state.ctx.frozen is None
    state.ctx.memo.clear()
    return out


def _check_destinations(game: Any, first: str) -> None:
    g = game.clone()
    g.apply(Action.parse(first))
    step = g.state.stack[-1] if g.state.stack else None
    assert isinstance(step, movement.Dest)
    state = g.state
    listed = g.legal_actions()
    assert listed == _uncached(state, lambda: movement.dest_candidates(state, step))
    for a in listed[:-1]:
        fresh = _uncached(state, lambda a=a: movement.dest_plan(state, step, a))
        assert movement.dest_plan(state, step, a) == fresh
    assert any(a.kind == "to" for a in listed) or len(listed) == 1


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions())
def test_listed_menu_and_destinations_equal_the_checks_one_by_one(p: dict[str, Any]) -> None:
    game = _game(p)
    if game is None:
        return
    state = game.state
    listed = game.legal_actions()
    assert listed == _uncached(state, lambda: tt_actions.menu(state, "a1"))
    for first in ("move a1", "shift a1"):
        if Action.parse(first) in listed:
            _check_destinations(game, first)

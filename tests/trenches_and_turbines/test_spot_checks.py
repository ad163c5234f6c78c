"""The compiled free-spot checks (``_spot_checks``, the fast path of ``spots.spot_problem`` inside
``frozen_models``) must give exactly the answer of the Python reference (None, or the same kind and the same piece
or model in the way) for every model, spot, set of placed models, movers, enemy gap and ignored unit, on random
tables (impassable and blocking pieces, platforms) with bases of every size; spots on a grid and at exact touching
distances, so that ties and touches occur. Skipped where the extension is not built; it runs under
``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import box, position, random_units, table_game, unit

from compiled import compiled
from warband.rulesets.trenches_and_turbines import spots as spots_module

FAST, needs_build = compiled("warband.rulesets.trenches_and_turbines._spot_checks")


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled module in use whatever WARBAND_PURE says (each check forces one path or the other)."""
    monkeypatch.setattr(spots_module, "_spot_checks", FAST)
    yield


coord = st.one_of(st.integers(0, 480).map(lambda k: k / 10), st.floats(0.0, 48.0, allow_nan=False))


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    terrain = []
    for i in range(draw(st.integers(0, 6))):
        x0, y0 = draw(coord), draw(coord)
        w, d = draw(st.floats(0.2, 10.0)), draw(st.floats(0.2, 10.0))
        kind = draw(st.sampled_from(("blocking", "impassable", "platform", "obstacle")))
        terrain.append(box(f"t{i}", kind, x0, y0, min(48.0, x0 + w), min(48.0, y0 + d), 2.0))
    sides, at = random_units(draw, coord)
    return {"terrain": terrain, "sides": sides, "at": at}


#: gaps between bases around the thresholds (touching less 1e-6, 1" less 1e-6), on either side of them
GAPS = (0.0, 1e-6, -5e-7, -1e-6, -2e-6, 1.0, 1.0 - 5e-7, 1.0 - 1e-6, 1.0 - 2e-6, 2.0, 2.0 - 5e-7)


def _spots(draw: st.DrawFn, models: list[Any], m: Any) -> list[tuple[float, float]]:
    """Spots on a grid, anywhere, and at gaps around the thresholds from another base (:data:`GAPS`)."""
    out = [(draw(coord), draw(coord)) for _ in range(6)]
    for o in models:
        ang = draw(st.sampled_from((0.0, math.pi / 2, math.pi / 4, 1.0)))
        for gap in GAPS:
            d = m.radius + o.radius + gap
            out.append((o.x + d * math.cos(ang), o.y + d * math.sin(ang)))
    return out


def _compare(state: Any, data: st.DataObject, rounds: int = 6) -> int:
    models = list(state.models.values())
    units = sorted({m.unit for m in models})
    asked = 0
    with spots_module.frozen_models(state):
        for _ in range(rounds):
            m = data.draw(st.sampled_from(models))
            mates = [o for o in models if o.unit == m.unit]
            placed = {
                o.id: (data.draw(coord), data.draw(coord), 0.0)
                for o in mates
                if o is not m and data.draw(st.booleans())
            }
            moving: Any = [o.id for o in mates] if data.draw(st.booleans()) else []
            if data.draw(st.booleans()):
                moving = set(moving)
            gap = data.draw(st.sampled_from((0.0, 1.0, 2.0, -1.0, 0.5)))
            ignore = data.draw(st.sampled_from(["", *units]))
            for p in _spots(data.draw, models, m):
                args = (state, m, p, placed, moving, gap, ignore)
                fast = spots_module.spot_problem(*args, compiled=True)
                ref = spots_module.spot_problem(*args, compiled=False)
                assert fast == ref, (m.id, p, fast, ref)
                # a mover given as an iterator is read once, as the reference reads it
                assert spots_module.spot_problem(state, m, p, placed, iter(list(moving)), gap, ignore) == ref
                asked += 1
    return asked


@needs_build
@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_compiled_spot_checks_equal_the_reference(t: dict[str, Any], data: st.DataObject) -> None:
    game = table_game(t)
    if game is not None:
        _compare(game.state, data)


@needs_build
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_distances_near_a_threshold_taken_from_cpython_give_the_same_answers(
    t: dict[str, Any], data: st.DataObject
) -> None:
    """With the margin widened, every distance to another base is CPython's."""
    game = table_game(t)
    if game is None:
        return
    FAST.set_margin(1e9)
    try:
        _compare(game.state, data)
    finally:
        FAST.set_margin(1e-9)


@needs_build
def test_every_kind_of_problem_occurs_and_matches() -> None:
    """A fixed table where each answer occurs (the property test may see mostly one kind)."""
    game = position(
        [unit(models=2)],
        [unit(models=1)],
        {"a1": [(10, 10), (12, 10)], "b1": [(30, 10)]},
        active=None,
        terrain=[box("rock", "impassable", 20, 20, 24, 24, 2.0)],
    )
    state = game.state
    a = state.models["a1-1"] if "a1-1" in state.models else next(iter(state.models.values()))
    spots = {
        "table": (0.1, 10.0),
        "impassable": (22.0, 22.0),
        "overlap": (11.5, 10.0),
        "enemy": (28.9, 10.0),
    }
    placed = {}
    with spots_module.frozen_models(state):
        kinds = set()
        for p in [*spots.values(), (40.0, 40.0)]:
            args = (state, a, p, placed, [a.id], 1.0)
            fast = spots_module.spot_problem(*args, compiled=True)
            assert fast == spots_module.spot_problem(*args, compiled=False)
            kinds.add(None if fast is None else fast[0])
        mate = next(o for o in state.models.values() if o.unit == a.unit and o is not a)
        placed = {mate.id: (40.5, 40.0, 0.0)}
        args = (state, a, (40.0, 40.0), placed, [a.id, mate.id], 1.0)
        fast = spots_module.spot_problem(*args, compiled=True)
        assert fast == spots_module.spot_problem(*args, compiled=False) == ("overlap", mate.id)
    assert kinds == {"table", "impassable", "overlap", "enemy", None}

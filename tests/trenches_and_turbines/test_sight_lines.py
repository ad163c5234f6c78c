"""The compiled lines of sight (``_sight_lines``, the fast path of ``sight.sight``) must give exactly the answer of
the Python reference (None, Conceal 0 or 1) for every pair of models, on random tables (blocking pieces of every
size, woods, platforms, smaller obstacles) with units of every size in the way, grid ties and touches included.
Skipped where the extension is not built; it runs under ``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import box, position, random_units, unit

from compiled import compiled
from warband.rulesets.trenches_and_turbines import sight as sight_module

FAST, needs_build = compiled("warband.rulesets.trenches_and_turbines._sight_lines")


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled module in use whatever WARBAND_PURE says (each test forces one path or the other)."""
    if FAST is not None:
        FAST.set_pairs(sight_module._SIGHT_PAIRS)
    monkeypatch.setattr(sight_module, "_sight_lines", FAST)
    yield


coord = st.one_of(st.integers(0, 4800).map(lambda k: k / 100), st.floats(0.0, 48.0, allow_nan=False))


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    terrain = []
    woods = []
    for i in range(draw(st.integers(0, 8))):
        x0, y0 = draw(coord), draw(coord)
        w, d = draw(st.floats(0.2, 10.0)), draw(st.floats(0.2, 10.0))
        kind = draw(st.sampled_from(("blocking", "obstacle", "platform", "difficult", "impassable")))
        height = draw(st.sampled_from((0.5, 1.0, 2.0, 3.0, 5.0, 8.0)))
        terrain.append(box(f"t{i}", kind, x0, y0, min(48.0, x0 + w), min(48.0, y0 + d), height, draw(st.booleans())))
        if draw(st.integers(0, 3)) == 0:
            woods.append(f"t{i}")
    sides, at = random_units(draw, coord)
    return {
        "terrain": terrain,
        "woods": woods,
        "sides": sides,
        "at": at,
        "woods_sight": draw(st.sampled_from((1.0, 2.0, 3.0))),
    }


def _game(t: dict[str, Any]) -> Any:
    try:
        return position(
            t["sides"][0],
            t["sides"][1],
            t["at"],
            active=None,
            terrain=t["terrain"],
            rules={"woods": " ".join(t["woods"])},
            params={"woods_sight": t["woods_sight"]},
        )
    except Exception:  # a table the scenario loader refuses: nothing to compare
        return None


def _compare(game: Any) -> int:
    state = game.state
    models = [m for m in state.models.values() if m.on_table]
    asked = 0
    for a in models:
        for b in models:
            if a is b:
                continue
            fast = sight_module.sight(state, a, b, compiled=True)
            ref = sight_module.sight(state, a, b, compiled=False)
            assert fast == ref and type(fast) is type(ref), (a.id, b.id, fast, ref)
            asked += 1
    return asked


@needs_build
@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_compiled_sight_equals_the_reference(t: dict[str, Any]) -> None:
    game = _game(t)
    if game is not None:
        _compare(game)


@needs_build
@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_distances_near_a_threshold_taken_from_cpython_give_the_same_answers(t: dict[str, Any]) -> None:
    """With the margin widened, every distance (woods' length, a base's distance to a line) is CPython's."""
    game = _game(t)
    if game is None:
        return
    FAST.set_margin(1e9)
    try:
        _compare(game)
    finally:
        FAST.set_margin(1e-9)


@needs_build
def test_blocked_concealed_and_clear_lines_all_occur() -> None:
    """A fixed table where the answers differ (the property test may see mostly one kind)."""
    terrain = [
        box("wall", "blocking", 8, 19, 12, 20, height=2, blocks_los=True),
        box("low", "obstacle", 20, 19, 24, 19.5, height=1),
        box("wood", "difficult", 30, 18, 34, 22, height=3),
    ]
    game = position(
        [unit(models=3), unit(models=1, size="S", base_mm=40)],
        [unit(models=3)],
        {"a1": [(10, 10), (22, 10), (32, 10)], "a2": [(40, 20)], "b1": [(10, 28), (22, 28), (32, 28)]},
        active=None,
        terrain=terrain,
        rules={"woods": "wood"},
    )
    state = game.state
    answers = set()
    for a in state.models.values():
        for b in state.models.values():
            if a is not b and a.on_table and b.on_table:
                fast = sight_module.sight(state, a, b, compiled=True)
                assert fast == sight_module.sight(state, a, b, compiled=False)
                answers.add(fast)
    assert answers == {None, 0, 1}

"""The compiled candidate loop (``_straight_moves``, the fast path of ``space._move_candidates``) must return exactly
what the Python reference returns: the same candidates, in the same order, the same floats, on random tables (every
terrain kind, platforms and heights, difficult ground at any cost) with models anywhere, edges and grid ties
included. Skipped where the extension is not built (the reference then runs everywhere); it runs under
``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

import math
import struct
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tc import box, position, trooper

from compiled import compiled
from warband.rulesets.trench_crusade import charge_spots, space

FAST, needs_build = compiled("warband.rulesets.trench_crusade._straight_moves")

KINDS = ("difficult", "dangerous", "impassable", "blocking", "obstacle", "platform", "open")


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled module in use whatever WARBAND_PURE says (each test forces one path or the other)."""
    monkeypatch.setattr(space, "_straight_moves", FAST)
    yield


def _bits(points: list[tuple[float, float]]) -> list[tuple[bytes, bytes]]:
    """The exact floats (a -0.0 or an ulp would show)."""
    return [(struct.pack("<d", x), struct.pack("<d", y)) for x, y in points]


coord = st.one_of(
    st.integers(0, 2400).map(lambda k: k / 100),  # the 0.01" grid candidates are rounded to: ties and touches
    st.floats(0.0, 24.0, allow_nan=False),
)


@st.composite
def tables(draw: st.DrawFn) -> dict[str, Any]:
    terrain = []
    for i in range(draw(st.integers(0, 6))):
        x0, y0 = draw(coord), draw(coord)
        w, d = draw(st.floats(0.5, 8.0)), draw(st.floats(0.5, 8.0))
        kind = draw(st.sampled_from(KINDS))
        height = draw(st.sampled_from((0.0, 0.5, 1.0, 2.0, 3.0)))
        terrain.append(
            box(f"t{i}", kind, x0, y0, min(24.0, x0 + w), min(24.0, y0 + d), height, cover=draw(st.booleans()))
        )
    n_a, n_b = draw(st.integers(1, 3)), draw(st.integers(1, 3))
    at = {f"a{i + 1}": (draw(coord), draw(coord)) for i in range(n_a)}
    at |= {f"b{i + 1}": (draw(coord), draw(coord)) for i in range(n_b)}
    return {
        "terrain": terrain,
        "at": at,
        "n": (n_a, n_b),
        "bases": [draw(st.sampled_from((25, 32, 40, 50))) for _ in range(n_a + n_b)],
        "cost": draw(st.sampled_from((1, 2, 3))),
        "allowance": draw(st.sampled_from((0.3, 2.0, 3.0, 5.0, 6.0, 8.0, 12.5))),
        "objectives": [{"at": [draw(coord), draw(coord)]} for _ in range(draw(st.integers(0, 3)))],
    }


def _game(t: dict[str, Any]) -> Any:
    n_a, n_b = t["n"]
    bases = t["bases"]
    a = [trooper(base=bases[i]) for i in range(n_a)]
    b = [trooper(base=bases[n_a + i]) for i in range(n_b)]
    try:
        return position(a, b, t["at"], terrain=t["terrain"], params={"difficult_cost": t["cost"]})
    except Exception:  # a table the scenario loader refuses (a degenerate piece): nothing to compare
        return None


def _moves(state: Any, allowance: float) -> Iterator[tuple[Any, float]]:
    """Each model on the table with the table's drawn allowance and then its own Movement."""
    for m in state.models.values():
        if m.on_table:
            for a in (allowance, float(m.data["movement"])):
                yield m, a


@needs_build
@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_compiled_candidates_equal_the_reference(t: dict[str, Any]) -> None:
    game = _game(t)
    if game is None:
        return
    state = game.state
    for m, allowance in _moves(state, t["allowance"]):
        fast = space._move_candidates(state, m, allowance, compiled=True)
        ref = space._move_candidates(state, m, allowance, compiled=False)
        assert _bits(fast) == _bits(ref), (m.id, allowance)


@needs_build
@settings(max_examples=40, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_what_the_compiled_loop_hands_back_to_python_is_answered_the_same(t: dict[str, Any]) -> None:
    """With its margins widened, every near decision (a footprint's distance, the reach, the cost, quick_ok's
    failures) goes to the Python reference through ``ask``, mid-loop: the answers stay the same."""
    game = _game(t)
    if game is None:
        return
    state = game.state
    FAST.set_margins(1e9, 1e9)
    try:
        for m in state.models.values():
            if m.on_table:
                fast = space._move_candidates(state, m, t["allowance"], compiled=True)
                assert _bits(fast) == _bits(space._move_candidates(state, m, t["allowance"], compiled=False))
    finally:
        FAST.set_margins(1e-9, 1e-9)


def _busy_terrain() -> list[Any]:
    """Difficult ground, a wall, a platform and an impassable rock: the busy tables' terrain."""
    return [
        box("wood", "difficult", 8, 8, 12, 12, cover=True),
        box("wall", "obstacle", 14, 6, 14.5, 14, height=2.0),
        box("tower", "platform", 4, 14, 8, 18, height=3.0),
        box("rock", "impassable", 16, 16, 19, 19, height=3.0),
    ]


@needs_build
def test_candidates_on_a_busy_table_are_found_and_equal() -> None:
    """A fixed position where both paths keep several candidates (the test above may see few)."""
    terrain = _busy_terrain()
    game = position(
        [trooper(), trooper()],
        [trooper(), trooper(base=40)],
        {"a1": (6.0, 6.0), "a2": (10.0, 4.0), "b1": (12.0, 18.0), "b2": (20.0, 10.0)},
        terrain=terrain,
        params={"difficult_cost": 2},
    )
    state = game.state
    kept = 0
    for m in state.models.values():
        fast = space._move_candidates(state, m, 6.0, compiled=True)
        assert _bits(fast) == _bits(space._move_candidates(state, m, 6.0, compiled=False))
        kept += len(fast)
    assert kept >= 20


@needs_build
@settings(max_examples=2000)
@given(
    st.one_of(
        st.floats(-100.0, 100.0, allow_nan=False),
        st.integers(-10000, 10000).map(lambda k: k / 100 + 0.005),  # halves of the 0.01 grid (as decimals)
        st.integers(-10000, 10000).map(lambda k: (2 * k + 1) / 200),
    )
)
def test_round2_is_pythons_round(x: float) -> None:
    got = FAST.round_2(x)
    want = round(x, 2)
    assert struct.pack("<d", got) == struct.pack("<d", want), (x, got, want)
    assert math.copysign(1.0, got) == math.copysign(1.0, want)


@needs_build
def test_the_loader_refuses_a_stale_build_and_obeys_warband_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build of another source than the .pyx beside it is not used, nor any build under WARBAND_PURE=1."""
    from warband.kernel import native

    name = "warband.rulesets.trench_crusade._straight_moves"
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    assert native.load(name) is FAST
    monkeypatch.setenv(native.PURE_ENV, "1")
    assert native.load(name) is None
    assert any("off (WARBAND_PURE=1)" in line for line in native.report())
    monkeypatch.delenv(native.PURE_ENV)
    monkeypatch.setattr(FAST, "SOURCE_SHA", "0" * 64)
    assert native.load(name) is None
    assert any("stale" in line for line in native.report())


def _charges(state: Any, allowances: tuple[float, ...]) -> Iterator[tuple[Any, Any, float]]:
    for m in state.models.values():
        for t in state.models.values():
            if m.on_table and t.on_table and t.side != m.side:
                for allowance in allowances:
                    yield m, t, allowance


def _same_charge(state: Any, m: Any, t: Any, allowance: float) -> Any:
    for first_only in (False, True):
        fast = charge_spots._charge_spots(state, m, t, allowance, first_only, compiled=True)
        ref = charge_spots._charge_spots(state, m, t, allowance, first_only, compiled=False)
        assert _bits(list(fast.spots)) == _bits(list(ref.spots)), (m.id, t.id, allowance, first_only)
        assert (fast.reached, fast.closest) == (ref.reached, ref.closest)
    return ref


@needs_build
@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_compiled_charge_spots_equal_the_reference(t: dict[str, Any]) -> None:
    """A Charge's end spots (seed 000 Charge; digest §7): the ring's destination checks and the straight plans
    to it in C give the same spots, in the same order, as the Python (each charger at each enemy)."""
    game = _game(t)
    if game is None:
        return
    for m, target, allowance in _charges(game.state, (t["allowance"], 7.0, 12.0)):
        _same_charge(game.state, m, target, allowance)


@needs_build
@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_what_the_charge_loop_hands_back_to_python_is_answered_the_same(t: dict[str, Any]) -> None:
    """With the margins widened every near decision of the ring's checks goes to the Python reference."""
    game = _game(t)
    if game is None:
        return
    FAST.set_margins(1e9, 1e9)
    try:
        for m, target, allowance in _charges(game.state, (t["allowance"], 9.0)):
            _same_charge(game.state, m, target, allowance)
    finally:
        FAST.set_margins(1e-9, 1e-9)


@needs_build
def test_charges_on_a_busy_table_reach_and_fall_short_alike() -> None:
    """A fixed position with difficult ground, a wall, a platform and bases in the way: charges that reach (by a
    straight line and round a base) and charges that fall short, compiled and Python alike."""
    terrain = _busy_terrain()
    game = position(
        [trooper(), trooper()],
        [trooper(), trooper(base=40)],
        {"a1": (6.0, 6.0), "a2": (10.0, 4.0), "b1": (12.0, 14.0), "b2": (16.0, 10.0)},
        terrain=terrain,
        params={"difficult_cost": 2},
    )
    reached = set()
    for m, target, allowance in _charges(game.state, (3.0, 8.0, 14.0)):
        reached.add(_same_charge(game.state, m, target, allowance).reached)
    assert reached == {True, False}


def _plan_bits(plan: Any) -> Any:
    """A plan's every field with its floats as bits (a refusal's reasons as they are)."""
    if not isinstance(plan, space.MovePlan):
        return plan
    fields = (plan.cost, plan.end_z, plan.climb, plan.drop)
    return (_bits(list(plan.path)), [struct.pack("<d", v) for v in fields], plan.jump, plan.dangerous)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(tables())
def test_the_plan_of_a_listed_candidate_is_the_plan_made_from_nothing(t: dict[str, Any]) -> None:
    """``plan_move`` of a destination the Move's menu listed (``move_candidates`` in the memo, so ``_listed``: the
    destination checks and the straight line's tests are skipped) is the plan ``_plan_move`` makes with a fresh env
    and every check; and a point that is not listed (another model's spot, a compass point at full reach) is
    planned, or refused, as from nothing. Both loops (compiled where built)."""
    game = _game(t)
    if game is None:
        return
    state = game.state
    for m, allowance in _moves(state, t["allowance"]):
        state.ctx.move_memo.clear()
        listed = space.move_candidates(state, m, allowance)
        others = [(o.x, o.y) for o in state.models.values() if o is not m and o.on_table]
        compass = [(m.x + c * allowance, m.y + s * allowance) for c, s in space._COMPASS]
        for p in [*listed, *others, *compass]:
            assert space._listed(state, m, p, allowance, "move", None, space._here(state)) == (p in listed)
            fresh = space._plan_move(state, m, p, allowance, "move", None, False, space.MoveEnv(state, m, "move"), True)
            assert _plan_bits(space.plan_move(state, m, p, allowance)) == _plan_bits(fresh), (m.id, p)


@settings(max_examples=60)
@given(coord, coord, coord, coord, st.sampled_from((25, 32, 40, 50)), st.sampled_from((0.5, 1.0, 1.5)))
def test_the_charge_ring_is_three_gaps_in_each_of_24_directions(
    mx: float, my: float, tx: float, ty: float, base: int, rng: float
) -> None:
    """``_ring``: round the target, first the direction facing the charger, then alternately either side of it
    in 15 degree steps; in each direction the bases 0.01", half the range and the range less 0.05" apart (each
    point's floats as ``target + (cos, sin) * (target.radius + charger.radius + gap)``)."""
    game = position([trooper(base=base)], [trooper()], {"a1": (mx, my), "b1": (tx, ty)})
    m, t = game.state.models["a1"], game.state.models["b1"]
    facing = math.atan2(m.y - t.y, m.x - t.x)
    want = []
    for k in range(24):
        turn = (k + 1) // 2 * (1 if k % 2 else -1) * 2 * math.pi / 24
        for g in (0.01, rng / 2, rng - 0.05):
            d = t.radius + m.radius + g
            want.append((t.x + math.cos(facing + turn) * d, t.y + math.sin(facing + turn) * d))
    assert _bits(charge_spots._ring(m, t, rng)) == _bits(want)


def test_a_kept_env_answers_for_where_the_models_stood_when_it_was_made() -> None:
    """The movement memo keeps a move's env for every state with the models where they stand: the state that made
    it may go on and move its models (the game after its menu, a lookahead's clone), and another state standing
    where it stood then must get the same answers as from a fresh env (seed 000 Move: no base overlaps another)."""
    game = position([trooper()], [trooper(), trooper()], {"a1": (4.0, 4.0), "b1": (7.0, 4.0), "b2": (20.0, 20.0)})
    before = game.state.clone()
    m = game.state.models["a1"]
    space.move_candidates(game.state, m, 6.0)  # makes and keeps the env of a1's move
    game.state.models["b1"].x, game.state.models["b1"].y = 12.0, 12.0  # the maker moves on
    mb = before.models["a1"]
    onto_b1 = (7.0, 4.0)
    want = space.check_destination(before, mb, onto_b1, "move", space.MoveEnv(before, mb, "move"))
    assert any(rule.endswith("bases-overlap") for rule, _ in want)
    got = space.plan_move(before, mb, onto_b1, 6.0)
    assert got == want

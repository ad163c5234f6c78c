"""The compiled move check (``_spot_checks.SpotIndex.fits``, the fast path of ``paths.fits`` inside
``frozen_models``) must give exactly the answer of the Python reference (None, or the same cost) for every model,
destination, allowance, enemy gap, ignored unit and set of placed models, on random tables (``tables.random_pieces``:
impassable, blocking, platform, obstacle and difficult pieces, rectangles and slanted triangles) with bases of every
size, models standing on platforms included; allowances and destinations are drawn at and beside the thresholds
(a leg exactly ``allow`` long, an enemy exactly ``allow`` beyond the zone round it) as well as anywhere. Skipped
where the extension is not built; it runs under ``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ttpos import box, position, random_units, table_game, unit

from compiled import compiled
from tables import COORD_24, random_pieces
from warband.kernel.geometry.terrain import TerrainPiece
from warband.rulesets.trenches_and_turbines import paths, unit_moves
from warband.rulesets.trenches_and_turbines import spots as spots_module

FAST, needs_build = compiled("warband.rulesets.trenches_and_turbines._spot_checks")

KINDS = ("blocking", "impassable", "platform", "obstacle", "difficult")


@pytest.fixture(autouse=True)
def _compiled(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The compiled module in use whatever WARBAND_PURE says (each check forces one path or the other)."""
    monkeypatch.setattr(spots_module, "_spot_checks", FAST)
    if FAST is not None:  # the answer that hands a leg back (the modules took it at import: None under PURE)
        for module in (spots_module, paths, unit_moves):
            monkeypatch.setattr(module, "ASK_MOVE_COST", FAST.ASK)
    yield


def _as_scenario(piece: TerrainPiece) -> dict[str, Any]:
    return {
        "id": piece.id,
        "kind": piece.kind,
        "polygon": [list(v) for v in piece.polygon],
        "height": piece.height,
        "blocks_los": piece.blocks_los,
        "cover": False,
    }


@st.composite
def tables(draw: st.DrawFn, formed: bool = False) -> dict[str, Any]:
    """Random pieces and units; ``formed``: each unit's models in a line by its leader (in coherency), else
    anywhere."""
    terrain = [_as_scenario(p) for p in draw(random_pieces(6, KINDS, heights=(1.0, 2.0, 3.0)))]
    sides, at = random_units(draw, COORD_24, formed)
    return {"terrain": terrain, "sides": sides, "at": at}


def _allowances(draw: st.DrawFn, state: Any, m: Any, gap: float) -> list[float]:
    """Anywhere, and where an enemy is exactly ``allow`` beyond the widest zone round it (and just beside)."""
    out = [draw(st.floats(0.0, 20.0)), draw(st.sampled_from((2.0, 3.0, 6.0, 12.0)))]
    for o in state.models.values():
        if o.on_table and o.side != m.side and len(out) < 10:
            edge = math.hypot(o.x - m.x, o.y - m.y) - (o.radius + m.radius + max(gap, 0.0))
            for off in (0.0, 1e-9, -1e-9, 1e-6, 0.3, 0.8):
                if edge + off >= 0.0:
                    out.append(edge + off)
    return out


def _destinations(draw: st.DrawFn, state: Any, m: Any, allow: float, gap: float) -> list[tuple[float, float]]:
    """Anywhere, exactly ``allow`` away (and just beside) in a few directions, across each piece (a leg that
    crosses it) and just past each enemy (a leg through the zone round it, or grazing it)."""
    out = [(draw(COORD_24), draw(COORD_24)) for _ in range(4)]
    for ang in (0.0, math.pi / 4, 1.0, 2.5):
        for d in (allow + 1e-6, allow + 2e-6, allow - 1e-6, allow / 2):
            out.append((m.x + d * math.cos(ang), m.y + d * math.sin(ang)))
    for k in range(24):  # every way round at full length: some clip the zone round an enemy and leave it
        out.append((m.x + allow * math.cos(k * math.pi / 12), m.y + allow * math.sin(k * math.pi / 12)))
    for piece in state.ctx.table.terrain:
        x0, y0, x1, y1 = piece.bbox
        cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
        out.append((cx + (cx - m.x) * 0.6, cy + (cy - m.y) * 0.6))
    for o in state.models.values():
        d = math.hypot(o.x - m.x, o.y - m.y)
        if o.on_table and o.side != m.side and d > 1e-6:
            ux, uy = (o.x - m.x) / d, (o.y - m.y) / d
            beyond = d + o.radius + m.radius + max(gap, 0.0) + 0.5
            out.append((m.x + ux * beyond, m.y + uy * beyond))
            side = o.radius + m.radius + max(gap, 0.0) + draw(st.sampled_from((-0.3, 0.0, 1e-7, 0.3)))
            out.append((m.x + ux * beyond - uy * side, m.y + uy * beyond + ux * side))
    return out


def _compare(state: Any, data: st.DataObject, seen: Counter[str], rounds: int = 4) -> None:
    models = [m for m in state.models.values() if m.on_table]
    units = sorted({m.unit for m in models})
    with spots_module.frozen_models(state):
        for _ in range(rounds):
            m = data.draw(st.sampled_from(models))
            mates = [o for o in models if o.unit == m.unit]
            placed = {
                o.id: (data.draw(COORD_24), data.draw(COORD_24), 0.0)
                for o in mates
                if o is not m and data.draw(st.booleans())
            }
            moving = [o.id for o in mates]
            gap = data.draw(st.sampled_from((1.0, 0.0, 2.0, 0.5, -1.0)))
            ignore = data.draw(st.sampled_from(["", *units]))
            route = data.draw(st.booleans())
            others = [o for o in mates if o is not m]
            touch = bool(others) and data.draw(st.booleans())
            for allow in [*_allowances(data.draw, state, m, gap), 30.0]:
                for i, p in enumerate(_destinations(data.draw, state, m, allow, gap)):
                    if touch:  # a mate placed touching the spot, and just off touching, either way
                        o = others[i % len(others)]
                        d = m.radius + o.radius + (-1e-6, -5e-7, -2e-6, 0.0)[i % 4]
                        placed = {o.id: (p[0] + d * math.cos(i), p[1] + d * math.sin(i), 0.0)}
                    args = (state, m, p, allow, placed, moving, gap, ignore, route)
                    ref = paths.fits(*args, compiled=False)
                    fast = paths.fits(*args)
                    assert fast == ref, (m.id, p, allow, gap, ignore, fast, ref)
                    got = spots_module.compiled_index(state).fits(
                        m.id, m.radius, m.side, m.x, m.y, m.z, p, placed, moving, gap, ignore, state.models, allow
                    )
                    seen["ask" if got is FAST.ASK else "none" if got is None else "cost"] += 1


@needs_build
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_compiled_fits_equals_the_reference(t: dict[str, Any], data: st.DataObject) -> None:
    game = table_game(t)
    if game is not None:
        _compare(game.state, data, Counter())


@needs_build
def test_every_answer_of_the_compiled_check_occurs_and_matches() -> None:
    """A fixed table where the spot is taken (None), a plain leg is priced in C, a leg too long is refused in C,
    and the reference is asked (ASK): a leg near a piece, a model on a platform, an enemy within reach."""
    game = position(
        [unit(models=2), unit(models=1)],
        [unit(models=1)],
        {"a1": [(10, 10), (12, 10)], "a2": [(31, 31)], "b1": [(40, 10)]},
        active=None,
        terrain=[box("rock", "impassable", 20, 20, 24, 24, 2.0), box("deck", "platform", 30, 30, 33, 33, 2.0)],
    )
    state = game.state
    a, mate = (state.models[mid] for mid in state.ctx.units["a1"]["models"])
    high = state.models[state.ctx.units["a2"]["models"][0]]
    assert high.z > 0.0
    seen: Counter[str] = Counter()
    blocked = {mate.id: (10.0, 14.0, 0.0)}
    cases = [
        (a, (10.0, 14.0), 6.0, blocked),  # where the mate was placed: taken
        (a, (10.0, 14.0), 6.0, {}),  # open ground: its length
        (a, (10.0, 20.0), 6.0, {}),  # open ground, too far: None
        (a, (25.0, 22.0), 20.0, {}),  # past the rock, the leg's box meets its box: the trace
        (a, (14.0, 10.0), 40.0, {}),  # the enemy within reach of a long move: its zone
        (high, (31.0, 28.0), 6.0, {}),  # from a platform: the trace
    ]
    with spots_module.frozen_models(state):
        index = spots_module.compiled_index(state)
        for m, p, allow, placed in cases:
            moving = [a.id, mate.id] if m is a else [m.id]
            args = (state, m, p, allow, placed, moving, 1.0)
            assert paths.fits(*args) == paths.fits(*args, compiled=False)
            got = index.fits(m.id, m.radius, m.side, m.x, m.y, m.z, p, placed, moving, 1.0, "", state.models, allow)
            seen["ask" if got is FAST.ASK else "none" if got is None else "cost"] += 1
    assert seen == Counter({"ask": 3, "none": 2, "cost": 1})


def _plans(state: Any, uid: str, dests: list[tuple[float, float]], allow: float) -> list[Any]:
    with spots_module.frozen_models(state):
        return [unit_moves.plan_unit_move(state, uid, d, allow) for d in dests]


@needs_build
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(formed=True), st.data())
def test_unit_move_plans_with_the_compiled_followers_equal_the_reference(
    t: dict[str, Any], data: st.DataObject
) -> None:
    """A whole unit's move plan (``unit_moves.plan_unit_move``: the first followers placed by
    ``SpotIndex.place_followers``, the slots round the leader searched by ``SpotIndex.first_slot``, the rest in
    Python) is the plan of the Python reference (no extension)."""
    game = table_game(t)
    if game is None:
        return
    state = game.state
    uid = data.draw(st.sampled_from(sorted({m.unit for m in state.models.values() if m.on_table})))
    lead = next(m for m in state.models.values() if m.unit == uid and m.on_table)
    allow = data.draw(st.sampled_from((2.0, 3.0, 6.0, 10.0)))
    dests = [(data.draw(COORD_24), data.draw(COORD_24)) for _ in range(3)]
    dests += [
        (lead.x + allow * math.cos(k * math.pi / 4), lead.y + allow * math.sin(k * math.pi / 4)) for k in range(8)
    ]
    fast = _plans(state, uid, dests, allow)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(spots_module, "_spot_checks", None)
        assert _plans(state, uid, dests, allow) == fast

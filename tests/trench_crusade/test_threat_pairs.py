"""The compiled attacker-target pairs (``_threat_pairs``, the fast path of the evaluation's ``_attacker`` and
``_on_target``) must answer exactly what the Python references answer: the same engaged flag and the same float
bits of the best melee and shot, for attackers and targets anywhere (gaps exactly on the engagement, charge, range
and long-range thresholds included), with and without blocking terrain, cover, height and Down targets; and the
evaluation of whole positions along seeded games must not change with it. Skipped where the extension is not
built; it runs under ``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tc import random_game_states

from compiled import compiled
from warband.kernel import ruleset as registry
from warband.kernel.state import Model
from warband.rulesets.trench_crusade import evaluate as ev
from warband.rulesets.trench_crusade.evaluate_tables import DOWN_FACTOR

FAST, needs_build = compiled("warband.rulesets.trench_crusade._threat_pairs")

ENGAGEMENT = 1.0


@pytest.fixture(autouse=True)
def _margin() -> Iterator[None]:
    yield
    if FAST is not None:
        FAST.set_margin(1e-9)


def _bits(got: tuple[bool, float, float]) -> tuple[bool, bytes, bytes]:
    """The exact answer (an ulp would show)."""
    engaged, melee, shot = got
    return (bool(engaged), struct.pack("<d", melee), struct.pack("<d", shot))


# quarter-inch grid coordinates and radii make gaps land exactly on the thresholds (1", 6", 12", 24")
coord = st.one_of(st.integers(0, 192).map(lambda k: k / 4), st.floats(0.0, 48.0, allow_nan=False))
radius = st.sampled_from((0.5, 0.625, 0.75, 1.0, 0.4921259842519685))
height = st.sampled_from((0.0, 1.0, 3.0, 2.999999999, 4.5))
damage = st.floats(0.0, 40.0, allow_nan=False)


@st.composite
def arms(draw: st.DrawFn, tids: list[str]) -> tuple[Any, ...]:
    melee = {t: (draw(damage), draw(damage)) for t in tids}
    shots = {t: (draw(damage), draw(damage), draw(damage), draw(damage)) for t in tids}
    reach = draw(st.sampled_from((-1.0, 1.0, 7.5, 11.5, 12.0)))
    move = draw(st.sampled_from((5.0, 6.0, 7.0)))
    srange = draw(st.sampled_from((0.0, 12.0, 18.0, 24.0, 36.0)))
    return (melee, shots, reach, move, srange, srange * draw(st.sampled_from((0.5, 0.75))))


@st.composite
def boards(draw: st.DrawFn) -> dict[str, Any]:
    n = draw(st.integers(1, 6))
    tids = [f"t{i}" for i in range(n)]
    attackers = [
        (
            Model(f"a{i}", 0, "A", "Trooper", draw(radius), 1.0, {}, draw(coord), draw(coord), draw(height)),
            draw(arms(tids)),
        )
        for i in range(draw(st.integers(1, 4)))
    ]
    targets = []
    for tid in tids:
        cover = tuple((draw(coord), draw(coord)) for _ in range(draw(st.integers(0, 2))))
        tr = draw(radius)
        if draw(st.booleans()):
            x, y = draw(coord), draw(coord)
        else:  # on one of an attacker's thresholds (engagement, reach, near band, range, long range), or an ulp off
            a, arm = draw(st.sampled_from(attackers))
            edge = draw(st.sampled_from((ENGAGEMENT, arm[2], arm[3], arm[4], arm[5])))
            edge += draw(st.sampled_from((0.0, 0.0, 1e-12, -1e-12, 1e-15)))
            x, y = a.x + a.radius + tr + edge, a.y
        targets.append((tid, x, y, draw(height), tr, draw(st.booleans()), cover))
    blockers = []
    for _ in range(draw(st.integers(0, 4))):
        x0, y0 = draw(coord), draw(coord)
        blockers.append((x0, y0, x0 + draw(st.floats(0.0, 10.0)), y0 + draw(st.floats(0.0, 10.0))))
    return {"targets": targets, "blockers": blockers, "attackers": attackers}


def _static(board: dict[str, Any]) -> Any:
    """What the references read of the evaluation's tables."""
    return SimpleNamespace(engagement=ENGAGEMENT, blockers=board["blockers"], sight_memo={})


def _compare(board: dict[str, Any]) -> None:
    assert FAST is not None
    st_ = _static(board)
    blockers = FAST.Blockers(board["blockers"])
    for a, arm in board["attackers"]:
        want = ev._attacker(st_, a, board["targets"], arm)
        got = FAST.attacker(
            blockers, ENGAGEMENT, ev._ELEVATED, DOWN_FACTOR, a.x, a.y, a.z, a.radius, arm, board["targets"]
        )
        assert _bits(got) == _bits(want)
    for target in board["targets"]:
        want_all = ev._on_target(st_, board["attackers"], target)
        got_all = FAST.on_target(blockers, ENGAGEMENT, ev._ELEVATED, DOWN_FACTOR, board["attackers"], target)
        assert [_bits(g) for g in got_all] == [_bits(w) for w in want_all]


@needs_build
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_compiled_pairs_answer_as_the_python_reference(board: dict[str, Any]) -> None:
    _compare(board)


@needs_build
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_every_gap_from_cpython_hypot_answers_the_same(board: dict[str, Any]) -> None:
    """With the margin wide open every gap is CPython's own ``math.hypot``: the reference's arithmetic exactly."""
    assert FAST is not None
    FAST.set_margin(1e9)
    _compare(board)


@needs_build
def test_a_tall_blocker_between_them_stops_the_shot_and_not_the_charge() -> None:
    """The player's view: a shooter 10" from its target sees nothing through a tall piece between them (no shot
    is counted), but its charge threat still counts; without the piece both count."""
    assert FAST is not None
    target = ("t0", 20.0, 10.0, 0.0, 0.5, False, ())
    arm = ({"t0": (4.0, 6.0)}, {"t0": (1.0, 2.0, 3.0, 4.0)}, 11.5, 7.0, 24.0, 12.0)
    open_table = FAST.attacker(
        FAST.Blockers([]), ENGAGEMENT, ev._ELEVATED, DOWN_FACTOR, 10.0, 10.0, 0.0, 0.5, arm, [target]
    )
    walled = FAST.attacker(
        FAST.Blockers([(14.0, 8.0, 15.0, 12.0)]),
        ENGAGEMENT,
        ev._ELEVATED,
        DOWN_FACTOR,
        10.0,
        10.0,
        0.0,
        0.5,
        arm,
        [target],
    )
    # a 9" gap: a charge beyond the near band (0.45 of the melee value), a shot at short range (no modifier)
    assert open_table == (False, 4.0 * 0.45, 3.0)
    assert walled == (False, 4.0 * 0.45, 0.0)


RS = registry.get("trench-crusade")


@needs_build
def test_positions_of_a_game_are_valued_the_same_compiled_and_pure(monkeypatch: pytest.MonkeyPatch) -> None:
    """``evaluate`` and ``evaluate_points`` along a seeded game, with the compiled pairs and with the references
    (the memos emptied in between, so each path computes its own answers)."""
    checked = 0
    for state in random_game_states(seed=5, every=6):
        m = next((x for x in state.models.values() if x.on_table), None)
        points = []
        if m is not None:
            points = [(m.x + dx, m.y + dy) for dx, dy in ((0.5, 0.0), (3.0, 2.0), (-6.0, 1.0))]
            for o in state.ctx.objectives:  # on an objective's edge, a hair outside it, and where its pull ends
                edge = o.at[0] + o.radius + m.radius
                points += [(edge, o.at[1]), (edge + 5e-7, o.at[1]), (edge + 12.0, o.at[1])]
        answers = []
        for fast in (FAST, None):
            monkeypatch.setattr(ev, "_threat_pairs", fast)
            st_ = ev.static_tables(state)
            st_.attack_memo.clear()
            st_.sight_memo.clear()
            values = [ev.evaluate(state, 0), ev.evaluate(state, 1)]
            if m is not None:
                values += ev.evaluate_points(state, 0, m.id, points)
            answers.append([struct.pack("<d", v) for v in values])
        assert answers[0] == answers[1], (state.phase, state.turn)
        checked += 1
    assert checked > 20

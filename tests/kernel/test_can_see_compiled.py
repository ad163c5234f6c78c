"""The compiled line of sight between models (``kernel.geometry._can_see``, the fast path of ``Sight.can_see``) must
answer exactly as the Python reference on random tables (sight-blocking prisms of every height, platforms under
either model, touching and grid-aligned footprints) for viewers and targets anywhere, at any height. Skipped where
the extension is not built; it runs under ``WARBAND_PURE=1`` too, as it calls both paths itself."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from compiled import compiled
from tables import COORD_24, random_pieces
from warband.kernel.geometry import sight as sight_module
from warband.kernel.geometry.table import Table
from warband.kernel.geometry.terrain import TerrainPiece

FAST, needs_build = compiled("warband.kernel.geometry._can_see")

coord = COORD_24


def pieces() -> st.SearchStrategy[list[TerrainPiece]]:
    """Up to seven pieces of every kind that matters to sight, of many heights, blocking sight or not."""
    return random_pieces(
        7,
        ("blocking", "obstacle", "platform", "impassable", "difficult"),
        (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 6.0),
        any_sight=True,
    )


model = st.tuples(
    coord,
    coord,
    st.sampled_from((0.49, 0.63, 0.79, 1.0)),
    st.sampled_from((0.0, 1.0, 2.0, 3.0)),
    st.sampled_from((0.5, 1.0, 1.5, 2.5)),
)


def _both(table: Table, a: tuple[float, ...], b: tuple[float, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    args = ((a[0], a[1]), a[2], a[3], a[4], (b[0], b[1]), b[2], b[3], b[4])
    monkeypatch.setattr(sight_module, "_can_see", FAST)
    fast = table.can_see(*args)
    monkeypatch.setattr(sight_module, "_can_see", None)
    ref = table.can_see(*args)
    assert fast is ref, (args, fast, ref)


@needs_build
@settings(max_examples=300)
@given(pieces(), st.lists(model, min_size=2, max_size=5))
def test_compiled_can_see_equals_the_reference(terrain: list[TerrainPiece], models: list[Any]) -> None:
    table = Table(24.0, 24.0, terrain)
    with pytest.MonkeyPatch.context() as mp:
        for a in models:
            for b in models:
                _both(table, a, b, mp)


@needs_build
def test_seen_and_hidden_both_occur() -> None:
    wall = TerrainPiece("wall", "blocking", ((10, 0), (11, 0), (11, 24), (10, 24)), 3.0)
    tower = TerrainPiece("tower", "platform", ((2, 2), (6, 2), (6, 6), (2, 6)), 4.0)
    table = Table(24.0, 24.0, [wall, tower])
    seen = set()
    with pytest.MonkeyPatch.context() as mp:
        for a in ((4.0, 4.0, 0.5, 4.0, 1.0), (8.0, 12.0, 0.5, 0.0, 1.0), (4.0, 12.0, 0.5, 0.0, 1.0)):
            for b in ((14.0, 12.0, 0.5, 0.0, 1.0), (9.0, 20.0, 0.5, 0.0, 1.0)):
                _both(table, a, b, mp)
                mp.setattr(sight_module, "_can_see", FAST)
                seen.add(table.can_see((a[0], a[1]), a[2], a[3], a[4], (b[0], b[1]), b[2], b[3], b[4]))
    assert seen == {True, False}

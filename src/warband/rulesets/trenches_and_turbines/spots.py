"""Where a model may stand (seed 002, Move: on the table, never inside impassable terrain or another base, at least
1" from enemy models; digest §3.10-§3.11: who climbs SCALABLE terrain), and the index of the models that stand
still while the rules list candidates (:func:`frozen_models`: speed only, the same answers).

A :data:`Placement` is a plan's answer: where each model of a unit would stand."""

from __future__ import annotations

import bisect
import math
import operator
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from warband.kernel import native
from warband.kernel.errors import Reason
from warband.kernel.geometry.distance import EPS, Vec
from warband.kernel.state import Model
from warband.rulesets.trenches_and_turbines.context import SIZE_RANK, State
from warband.rulesets.trenches_and_turbines.core import R

#: A plan's answer: where each model of a unit would stand (x, y and the height of the ground there).
Placement = dict[str, tuple[float, float, float]]


def climbable_data(m: Model, params: Any) -> bool:
    """SCALABLE terrain: every unit may scale it (seed 002, Move); option ``scalable_small_only`` (off by default):
    only S/M models that are not VEHICLEs (digest §3.10-§3.11)."""
    if not params["scalable_small_only"]:
        return True
    return SIZE_RANK[str(m.data["size"])] <= SIZE_RANK["M"] and "VEHICLE" not in m.data["keywords"]


def spot_problems(
    state: State,
    m: Model,
    p: Vec,
    placed: Placement,
    moving: Iterable[str],
    enemy_gap: float,
    ignore_unit: str = "",
) -> list[Reason]:
    """Why ``m`` cannot stand at ``p``: off the table, inside impassable terrain, overlapping another base, or
    closer than ``enemy_gap`` to an enemy model (seed 002, Move: at least 1" from enemies)."""
    why = spot_problem(state, m, p, placed, moving, enemy_gap, ignore_unit)
    if why is None:
        return []
    kind, other = why
    if kind == "table":
        return [(f"{R}/move/table", f"{m.id} would leave the table")]
    if kind == "impassable":
        return [(f"{R}/move/impassable", f"{m.id} cannot stand in {other}")]
    if kind == "scalable":
        return [(f"{R}/move/scalable", f"{m.id} ({m.data['size']}) cannot climb SCALABLE terrain {other}")]
    if kind == "overlap":
        return [(f"{R}/move/overlap", f"{m.id} would overlap {other}")]
    return [(f"{R}/move/enemy-clearance", f'{m.id} would end within {enemy_gap:g}" of enemy {other}')]


def spot_problem(
    state: State,
    m: Model,
    p: Vec,
    placed: Placement,
    moving: Iterable[str],
    enemy_gap: float,
    ignore_unit: str = "",
    compiled: bool | None = None,
) -> tuple[str, str] | None:
    """The first of :func:`spot_problems` as (kind, the piece or model in the way), unworded: the hot checks only
    ask whether a spot is free (None). Inside :func:`frozen_models` the checks run in C when the extension
    ``_spot_checks`` is built; this function is the reference and the fallback (``WARBAND_PURE=1``,
    :mod:`warband.kernel.native`); ``compiled=False`` forces it (the property test compares them)."""
    ctx = state.ctx
    frozen = ctx.frozen
    if compiled is not False and frozen is not None and frozen.state is state:
        index = frozen.spots or compiled_index(state)
        if index is not None:  # the same checks in C (_spot_checks.pyx)
            return index.problem(m.id, m.radius, m.side, p, placed, moving, enemy_gap, ignore_unit, state.models)  # type: ignore[no-any-return]
    mr = m.radius
    px, py = p
    if not ctx.table.on_table(p, mr):
        return ("table", "")
    for piece in ctx.solid:
        x0, y0, x1, y1 = piece.bbox  # circle_overlaps' own first rejection, without the call
        if px < x0 - mr or px > x1 + mr or py < y0 - mr or py > y1 + mr:
            continue
        if piece.circle_overlaps(p, mr):
            return ("impassable", piece.id)
    if ctx.params["scalable_small_only"] and not climbable_data(m, ctx.params):
        for piece in ctx.table.terrain:
            if piece.kind == "platform" and piece.circle_overlaps(p, mr):
                return ("scalable", piece.id)
    # membership only: a list or tuple (a unit's few models) is asked as it is, without building a set per spot
    skip = moving if isinstance(moving, (set, frozenset, list, tuple)) else set(moving)
    mid = m.id
    # a model farther than this (plus both radii) on either axis can neither overlap nor crowd ``m``: a cheap
    # rejection before the distance (speed only: the same answers as without it)
    slack = (enemy_gap if enemy_gap > 0.0 else 0.0) + 1.0
    frozen = ctx.frozen
    if frozen is not None and frozen.state is state:
        index = frozen.index()
        others: Iterable[Model] = index.near(px, mr + index.max_radius + slack)
    else:
        others = state.models.values()
    for o in others:
        if not o.on_table or o.id == mid or o.id in skip:
            continue
        dx = px - o.x
        dy = py - o.y
        reach = mr + o.radius + slack
        if dx > reach or dx < -reach or dy > reach or dy < -reach:
            continue
        h = math.hypot(dx, dy)
        if h < mr + o.radius - 1e-6:
            return ("overlap", o.id)
        d = h - mr - o.radius  # the base gap (kernel edge_distance: never negative)
        if d <= 0.0:
            d = 0.0
        if o.side != m.side and o.unit != ignore_unit and d < enemy_gap - 1e-6:
            return ("enemy", o.id)
    for pid, (x, y, _) in placed.items():
        o = state.models[pid]
        if math.hypot(px - x, py - y) < mr + o.radius - 1e-6:
            return ("overlap", pid)
    return None


def compiled_index(state: State) -> Any:
    """The compiled checks' index of the models of ``state`` (``_spot_checks.SpotIndex``, built when first asked),
    or None where :func:`spot_problem` runs in Python: outside :func:`frozen_models` (or for another state),
    without the extension, or with option ``scalable_small_only`` (the compiled checks know no climbing)."""
    ctx = state.ctx
    frozen = ctx.frozen
    if frozen is None or frozen.state is not state:
        return None
    index = frozen.spots
    if index is None and _spot_checks is not None and not ctx.params["scalable_small_only"]:
        index = frozen.spots = _new_index(state)
    return index


def _new_index(state: State) -> Any:
    assert _spot_checks is not None
    ctx = state.ctx
    return _spot_checks.SpotIndex(
        list(state.models.values()), ctx.solid, ctx.table.width, ctx.table.depth, EPS, ctx.open_boxes
    )


class FrozenModels:
    """The models on the table of one state, sorted by x, so that :func:`spot_problems` looks only at those near
    a spot (speed only: the same answers, in the same order, as a walk over every model)."""

    __slots__ = ("before", "cache", "indexed", "max_radius", "members", "models", "open", "spots", "state", "xs")

    def __init__(self, state: State, before: FrozenModels | None = None) -> None:
        self.state = state
        #: the index this one replaced on the context (another listing of this thread, or of another thread)
        self.before = before
        #: True while its listing lasts (:func:`frozen_models`)
        self.open = True
        #: answers that depend only on where the models stand, kept while they stand still (:func:`units.unit_gap`)
        self.cache: dict[Any, Any] = {}
        #: each unit's models on the table, by unit id (:func:`units.members`)
        self.members: dict[str, list[Model]] = {}
        #: the models on the table sorted by x (``xs``: their x, ``models``: (the state's order, model)) and the
        #: widest base, built when a spot is first asked (:meth:`index`): a menu's listing may ask none
        self.indexed = False
        self.xs: list[float] = []
        self.models: list[tuple[int, Model]] = []
        self.max_radius = 0.0
        #: the same models as the C arrays of the compiled checks (``_spot_checks.SpotIndex``), built when first asked
        self.spots: Any = None

    def index(self) -> FrozenModels:
        """This index with its models sorted by x (built on the first call)."""
        if not self.indexed:
            on = [(m.x, i, m) for i, m in enumerate(self.state.models.values()) if m.on_table]
            on.sort(key=_x_then_order)
            self.xs = [e[0] for e in on]
            self.models = [(e[1], e[2]) for e in on]
            self.max_radius = max((e[2].radius for e in on), default=0.0)
            self.indexed = True
        return self

    def near(self, x: float, reach: float) -> list[Model]:
        """The models whose centre is within ``reach`` of ``x`` along x, in the state's order."""
        lo = bisect.bisect_left(self.xs, x - reach)
        hi = bisect.bisect_right(self.xs, x + reach)
        if hi - lo < 2:
            return [m for _, m in self.models[lo:hi]]
        near = self.models[lo:hi]
        near.sort(key=_first)
        return [m for _, m in near]


_first = operator.itemgetter(0)
_x_then_order = operator.itemgetter(0, 1)


def listing_cache(state: State) -> dict[Any, Any] | None:
    """The answers kept while the models of ``state`` stand still (:func:`frozen_models`: the rules list a menu or
    candidates, only checks follow), or None outside such a listing (or for another state, a lookahead's clone)."""
    frozen = state.ctx.frozen
    return frozen.cache if frozen is not None and frozen.state is state else None


_spot_checks = native.load("warband.rulesets.trenches_and_turbines._spot_checks")

#: ``SpotIndex.fits``'s answer when the spot is free but the leg needs ``paths.move_cost`` (never any other value)
ASK_MOVE_COST: Any = _spot_checks.ASK if _spot_checks is not None else object()


#: Guards the context's index between threads: a game and its clones share one context, and the web table lists a
#: seat's menu on the game while an agent lists on a clone in another thread.
_frozen_lock = threading.Lock()


@contextmanager
def frozen_models(state: State) -> Iterator[None]:
    """Within the block, nothing moves the models of ``state``: :func:`spot_problems` may index them once.

    The context holds only an index whose listing is still open: when a listing ends, the context goes back to
    the nearest earlier one still open (another thread's may have ended meanwhile), never to one that ended, so
    no state is ever judged later on where its models stood during an old listing. Readers need no lock: an
    index is for its own state only (``frozen.state is state``), and another thread's reads fall back to the
    plain checks."""
    ctx = state.ctx
    with _frozen_lock:
        mine = FrozenModels(state, ctx.frozen)
        ctx.frozen = mine
    try:
        yield
    finally:
        with _frozen_lock:
            mine.open = False
            if ctx.frozen is mine:
                back = mine.before
                while back is not None and not back.open:
                    back = back.before
                ctx.frozen = back

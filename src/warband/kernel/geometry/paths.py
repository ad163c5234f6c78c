"""Routed paths: the cheapest polyline for a round base among solid pieces and other bases, over a visibility
graph of grown corners (:meth:`Routes.shortest_path`), and points along a path (:meth:`Routes.point_along`). The
corners of the solids, and which legs between them are clear, are kept per table (:class:`_WalkGraph`).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Callable, Sequence
from typing import Any

from warband.kernel import native
from warband.kernel.geometry.distance import CLEAR_TOL, EPS, Vec, distance, segment_point_distance
from warband.kernel.geometry.terrain import TerrainPiece

#: the compiled leg test (None: not built, or WARBAND_PURE=1; the Python ``clear`` of shortest_path runs)
_routes = native.load("warband.kernel.geometry._routes")

_GROW = 1.05  # safety factor for path-finding nodes
_COS_PI_8 = math.cos(math.pi / 8.0)
_OCTAGON = tuple((math.cos(k * math.pi / 4.0), math.sin(k * math.pi / 4.0)) for k in range(8))

_hypot = math.hypot

#: Leg answers kept per walk graph (:class:`_WalkGraph`) before it is emptied.
WALK_MEMO_LIMIT = 250_000


#: Walk graphs (one per base radius and set of solid pieces asked) kept per table before they are all dropped.
WALK_GRAPHS_LIMIT = 64


class _WalkGraph:
    """What never changes in :meth:`Table.shortest_path` for one base radius and one set of solid pieces of a
    table: the grown corners where a base may stand (on the table, clear of every solid), and, remembered as they
    are asked, whether a leg between two of them keeps clear of the solids. Circles (bases) are checked afresh
    each time: they move."""

    __slots__ = ("clear", "compiled", "nodes", "solids", "static")

    def __init__(self, solids: tuple[TerrainPiece, ...], nodes: list[Vec]) -> None:
        self.solids = solids
        self.nodes = nodes
        self.static = frozenset(nodes)
        self.clear: dict[tuple[Vec, Vec], bool] = {}
        # the solids as the compiled leg test's C arrays (_routes.pyx), or None where it is not in use
        self.compiled: object | None = _routes.Solids(solids) if _routes is not None else None


CircleSeq = Sequence[tuple[Vec, float]]


def leg_clear_of_solids(
    solids: Sequence[TerrainPiece], p: Vec, q: Vec, grow: float, margin: float, box: tuple[float, float, float, float]
) -> bool:
    """Whether the leg ``p -> q`` of a base grown by ``grow`` clears every solid piece (the Python reference of
    ``_routes.solids_clear``); ``box`` is the leg's (lox, hix, loy, hiy), a piece beyond it by ``margin`` skipped."""
    lox, hix, loy, hiy = box
    for piece in solids:
        minx, miny, maxx, maxy = piece.bbox
        if maxx < lox - margin or minx > hix + margin or maxy < loy - margin or miny > hiy + margin:
            continue
        if not piece._segment_clear(p, q, grow):
            return False
    return True


def leg_clear_of_circles(
    circles: Sequence[tuple[Vec, float]], p: Vec, q: Vec, box: tuple[float, float, float, float]
) -> bool:
    """Whether the leg ``p -> q`` passes no circle (other bases, already grown) closer than its radius less the
    clearance tolerance (the Python reference of ``_routes.circles_clear``); ``box`` as above."""
    lox, hix, loy, hiy = box
    for (cx, cy), rad in circles:
        lim = rad - CLEAR_TOL
        if cx + lim < lox or cx - lim > hix or cy + lim < loy or cy - lim > hiy:
            continue
        if segment_point_distance(p, q, (cx, cy)) < lim:
            return False
    return True


class Routes:
    """The path finding of a :class:`~warband.kernel.geometry.table.Table` (its base class): ``_walks`` holds its
    walk graphs; ``on_table`` is the table's test that a whole base stands on it."""

    __slots__ = ()
    _walks: dict[tuple[float, tuple[int, ...]], _WalkGraph]
    width: float
    depth: float
    on_table: Callable[[Vec, float], bool]

    def _walk_graph(self, grow: float, solids: tuple[TerrainPiece, ...]) -> _WalkGraph:
        """The static part of the visibility graph for a base grown by ``grow`` among ``solids`` (see
        :meth:`shortest_path`), built once per radius and set of pieces."""
        # keyed by the pieces' identities: the graph holds the pieces, so while it is kept no other object can
        # take one of their ids
        key = (grow, tuple(map(id, solids)))
        walk = self._walks.get(key)
        if walk is not None:
            return walk
        d = _GROW * grow if grow > 0.0 else 1e-4
        lim_r = grow - CLEAR_TOL
        nodes: list[Vec] = []
        for piece in solids:
            for node in piece._path_nodes(d):
                if not self.on_table(node, grow):
                    continue
                if not any((q.circle_overlaps(node, lim_r) if lim_r > 0.0 else q.contains(node)) for q in solids):
                    nodes.append(node)
        if len(self._walks) >= WALK_GRAPHS_LIMIT:
            self._walks.clear()
        walk = self._walks[key] = _WalkGraph(solids, nodes)
        return walk

    def _route_nodes(
        self, walk: _WalkGraph, a: Vec, b: Vec, grow: float, solids: Sequence[TerrainPiece], circs: CircleSeq
    ) -> list[Vec]:
        """The candidate nodes of :meth:`shortest_path` among bases (``circs``): ``a``, ``b``, the walk graph's
        corners off every base, then each base's octagon corners on the table, clear of the solids and off every
        base (the reference of ``_routes.route_nodes``)."""

        def off_bases(node: Vec) -> bool:
            nx, ny = node
            for (cx, cy), rad in circs:  # noqa: SIM110 - an explicit loop is faster on the hot path
                if _hypot(nx - cx, ny - cy) < rad - CLEAR_TOL:
                    return False
            return True

        nodes = [a, b]
        nodes.extend(node for node in walk.nodes if off_bases(node))
        lim_r = grow - CLEAR_TOL
        for (ox, oy), orad in circs:
            rr = _GROW * orad / _COS_PI_8 if orad > 0.0 else 1e-4
            for ux, uy in _OCTAGON:
                node = (ox + rr * ux, oy + rr * uy)
                if not self.on_table(node, grow):
                    continue
                ok = True
                for piece in solids:
                    if piece.circle_overlaps(node, lim_r) if lim_r > 0.0 else piece.contains(node):
                        ok = False
                        break
                if ok and off_bases(node):
                    nodes.append(node)
        return nodes

    def shortest_path(
        self,
        a: Vec,
        b: Vec,
        r: float,
        solid: Sequence[TerrainPiece],
        circles: Sequence[tuple[Vec, float]] = (),
        cost: Callable[[Vec, Vec], float] | None = None,
        max_cost: float = math.inf,
        cost_at_least_length: bool = False,
    ) -> tuple[list[Vec], float] | None:
        """Cheapest polyline for a base of radius ``r`` from ``a`` to ``b``, or ``None``.

        A leg ``p -> q`` is allowed when its centre line stays at least ``r`` away from every ``solid``
        footprint (it never crosses one) and at least ``radius`` away from every ``circles`` centre
        (both up to a ``1e-7`` slack). The search runs over a visibility graph whose nodes are ``a``,
        ``b``, the corners of each solid grown by ``1.05 * r`` (miter points, which lie ``1.05 * r``
        from both adjacent edges, or a bevelled pair for corners sharper than 60 degrees), and for each
        circle the 8 corners of the octagon circumscribing a circle of ``1.05 * radius``; nodes where
        the base would not be wholly on the table, or would break a constraint, are dropped.

        Leg weight is ``cost(p, q)`` (must be >= 0; default the Euclidean length). Returns
        ``(waypoints, total)`` with ``waypoints[0] == a`` and ``waypoints[-1] == b``, or ``None`` when
        ``b`` is unreachable or the cheapest path costs more than ``max_cost``. When the straight leg
        ``a -> b`` is allowed it is returned at once, without searching. ``cost_at_least_length`` promises
        that ``cost(p, q) >= |pq|`` (true of movement costs such as difficult ground at double), which lets the
        search use the straight-line distance as its A* guide and prune before testing a leg.
        """
        a = (float(a[0]), float(a[1]))
        b = (float(b[0]), float(b[1]))
        grow = r if r > 0.0 else 0.0
        solids = tuple(solid)
        circs = tuple(((float(c[0]), float(c[1])), float(rad)) for c, rad in circles)
        margin = grow + EPS
        walk = self._walk_graph(grow, solids)
        static = walk.static
        known = walk.clear
        fast: Any = _routes  # the module (typed loosely: mypy does not read .pyx)
        fast_solids = walk.compiled  # None where the extension is not loaded
        fast_circles = fast.Circles(circs) if fast is not None else None

        def clear_of_solids(p: Vec, q: Vec, lox: float, hix: float, loy: float, hiy: float) -> bool:
            return leg_clear_of_solids(solids, p, q, grow, margin, (lox, hix, loy, hiy))

        def clear(p: Vec, q: Vec) -> bool:
            if fast_solids is not None:  # the same tests in C (_routes.pyx)
                if p in static and q in static:
                    hit = known.get((p, q))
                    if hit is None:
                        if len(known) > WALK_MEMO_LIMIT:
                            known.clear()
                        hit = known[(p, q)] = fast.solids_clear(fast_solids, p[0], p[1], q[0], q[1], grow, margin)
                    return hit and bool(fast.circles_clear(fast_circles, p[0], p[1], q[0], q[1]))
                return bool(fast.leg_clear(fast_solids, fast_circles, p[0], p[1], q[0], q[1], grow, margin))
            px, py = p
            qx, qy = q
            lox = px if px < qx else qx
            hix = px if px > qx else qx
            loy = py if py < qy else qy
            hiy = py if py > qy else qy
            if p in static and q in static:  # a leg between two fixed corners: answered once per game
                hit = known.get((p, q))
                if hit is None:
                    if len(known) > WALK_MEMO_LIMIT:
                        known.clear()
                    hit = known[(p, q)] = clear_of_solids(p, q, lox, hix, loy, hiy)
                if not hit:
                    return False
            elif not clear_of_solids(p, q, lox, hix, loy, hiy):
                return False
            return leg_clear_of_circles(circs, p, q, (lox, hix, loy, hiy))

        weigh: Callable[[Vec, Vec], float] = cost if cost is not None else distance
        if clear(a, b):
            w = weigh(a, b)
            return ([a, b], w) if w <= max_cost else None

        # ---- candidate nodes: the solids' grown corners (fixed: filtered once per radius, see _walk_graph),
        # then the bases' octagons; every one clear of the table edge, the solids and the bases
        nodes: list[Vec]
        if not circs:
            nodes = [a, b, *walk.nodes]
        elif fast_solids is not None:  # the same nodes in the same order, in C (_routes.pyx)
            nodes = fast.route_nodes(
                fast_solids, fast_circles, walk.nodes, a, b, grow, self.width, self.depth, _GROW, _COS_PI_8, _OCTAGON
            )
        else:
            nodes = self._route_nodes(walk, a, b, grow, solids, circs)

        # ---- lazy A* (Dijkstra with a zero heuristic when the cost is custom)
        n = len(nodes)
        bx, by = b
        guided = cost is None or cost_at_least_length
        heur = [_hypot(bx - x, by - y) for x, y in nodes] if guided else [0.0] * n
        g = [math.inf] * n
        parent = [-1] * n
        done = [False] * n
        g[0] = 0.0
        heap: list[tuple[float, int]] = [(heur[0], 0)]
        budget = max_cost + 1e-12 * (1.0 + abs(max_cost)) if math.isfinite(max_cost) else math.inf
        while heap:
            _, u = heapq.heappop(heap)
            if done[u]:
                continue
            if u == 1:
                break
            done[u] = True
            gu = g[u]
            pu = nodes[u]
            ux, uy = pu
            for v in range(1, n):
                if done[v]:
                    continue
                pv = nodes[v]
                if cost is None:
                    ng = gu + _hypot(pv[0] - ux, pv[1] - uy)
                    if ng >= g[v] or ng + heur[v] > budget or not clear(pu, pv):
                        continue
                else:
                    if guided:
                        low = gu + _hypot(pv[0] - ux, pv[1] - uy)
                        if low >= g[v] or low + heur[v] > budget:
                            continue
                    if not clear(pu, pv):
                        continue
                    ng = gu + cost(pu, pv)
                    if ng >= g[v] or ng + heur[v] > budget:
                        continue
                g[v] = ng
                parent[v] = u
                heapq.heappush(heap, (ng + heur[v], v))
        if not math.isfinite(g[1]) or g[1] > budget:
            return None
        path: list[Vec] = []
        i = 1
        while i != -1:
            path.append(nodes[i])
            i = parent[i]
        path.reverse()
        return path, g[1]

    def point_along(self, path: Sequence[Vec], dist: float) -> Vec:
        """The point ``dist`` inches along the polyline ``path``: its start for ``dist <= 0``, its end
        when ``dist`` reaches or exceeds its length. ``path`` must not be empty."""
        if not path:
            raise ValueError("point_along needs a non-empty path")
        px, py = path[0]
        if dist <= 0.0:
            return (px, py)
        left = dist
        for qx, qy in path[1:]:
            seg = _hypot(qx - px, qy - py)
            if seg >= left and seg > 0.0:
                f = left / seg
                return (px + (qx - px) * f, py + (qy - py) * f)
            left -= seg
            px, py = qx, qy
        return (px, py)

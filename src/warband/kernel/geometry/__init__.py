"""Table geometry, game-agnostic: bases, convex terrain footprints, segment traces, line of sight and routed paths.

All lengths are inches (floats); positions are ``(x, y)`` tuples on a table whose lower-left corner is
``(0, 0)``. Heights (``z``) are inches above the table surface. These functions sit on the simulator's hot path,
so they are pure Python on ``math`` with precomputed bounding boxes and half-planes; shapely is deliberately not
used at run time (the tests check against it).

Conventions shared by every function:

* A terrain footprint is a closed convex polygon: points on its boundary count as inside. Comparisons against
  the boundary use an absolute slack of ``1e-9`` inches (:data:`.distance.EPS`).
* A segment ``a -> b`` is parametrised as ``a + t * (b - a)`` with ``t`` in ``[0, 1]``.

Where things are (each module imports only those above it):

* ``distance.py``  points and round bases: ``Vec``, ``base_radius``, ``distance``, ``edge_distance``,
  ``segment_point_distance``, ``circle_segment_hits``; the boundary slacks
* ``terrain.py``   terrain pieces (``TerrainPiece``: a convex footprint extruded to a height, with its clipping
  half-planes) and what a segment passes through (``Crossing``, ``Trace``)
* ``sight.py``     line of sight through the sight-blocking prisms (``Sight``: ``line_of_sight``, ``can_see``)
* ``paths.py``     routed paths round solid pieces and bases (``Routes``: ``shortest_path``, ``point_along``; the
  per-table walk graphs)
* ``table.py``     ``Table``: the rectangle and its terrain, with the queries of ``Sight`` and ``Routes``
  (``on_table``, ``pieces_at``, ``surface_height``, ``trace``, ``segment_blocked``)
"""

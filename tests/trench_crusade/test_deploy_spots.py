"""A deployment's spots (digest §1 CNL: wholly inside the zone, clear of impassable, blocking and dangerous terrain
and of other bases) test the coarse grid's points, which the zone and the terrain allow, against the other bases
only, with each base's reach taken once per listing: the spots kept must be exactly the grid points that
``deploy_problems`` allows, at every deployment step of seeded random games between sample warbands."""

from __future__ import annotations

from tc import random_game_states

from warband.rulesets.trench_crusade import setup


def test_coarse_spots_are_the_grid_points_deploy_problems_allows() -> None:
    refused = kept = 0
    for seed, (a, b) in enumerate(((0, 1), (1, 2), (0, 2)), start=3):
        for state in random_game_states(seed, 1, a, b):
            if state.phase != "deploy" or "zone_of" not in state.vars:
                continue
            for m in state.models.values():
                if m.on_table or setup.infiltrator(m) or setup.edge_reach(m) is not None:
                    continue
                grid = setup._zone_grid(state, m)
                want = [p for p in grid if not setup.deploy_problems(state, m, p)]
                if not want:
                    continue  # the fine grid's turn: its points are tested with deploy_problems itself
                got = setup.Deploy(by=m.side).spots(state, m.id)
                assert got == want, (seed, m.id)
                assert setup.Deploy(by=m.side).spots(state, m.id, first=True) == want[:1]
                refused += len(grid) - len(want)
                kept += len(want)
    assert kept > 100 and refused > 20, (kept, refused)

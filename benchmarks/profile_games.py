"""Profile whole games of one ruleset and agent: ``python benchmarks/profile_games.py RULESET AGENT GAMES OUT.prof``.

Plays game 0 once (loads and warms the caches), then profiles games 1..GAMES of the bench pairing (the ruleset's
first two sample warbands, seed 2026) under cProfile and writes the stats to OUT.prof; read them with
``python -m pstats OUT.prof`` (``sort cumulative`` / ``sort tottime``, ``stats 30``). See PROFILE.md.

With OUT ``-`` the games run without cProfile, for a sampling profiler, which sees what cProfile hides (the
generated ``__init__`` of every dataclass, merged into one line by pstats) and does not slow the code twofold::

    py-spy record -r 500 -f raw -o tcr.raw -- python benchmarks/profile_games.py trench-crusade random 150 -
    python benchmarks/spy_report.py tcr.raw              # own and cumulative shares of the games' time
    python benchmarks/spy_report.py tcr.raw --under _plan_move   # what one function's time goes to
"""

from __future__ import annotations

import cProfile
import sys
from pathlib import Path

from warband.kernel import ruleset as registry
from warband.lab.records import SimulationConfig
from warband.lab.simulate import play_one


def main(argv: list[str]) -> int:
    ruleset_id, agent, games, out = argv[0], argv[1], int(argv[2]), argv[3]
    warbands = registry.get(ruleset_id).samples()["warbands"]
    config = SimulationConfig(
        ruleset_id, Path(warbands[0]["path"]), Path(warbands[1]["path"]), seed=2026, agent_a=agent, agent_b=agent
    )
    play_one(config, 0)
    if out == "-":
        for index in range(1, 1 + games):
            play_one(config, index)
        return 0
    profiler = cProfile.Profile()
    profiler.enable()
    for index in range(1, 1 + games):
        play_one(config, index)
    profiler.disable()
    profiler.dump_stats(out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Time spent in each kind of step of whole games: ``python benchmarks/step_times.py RULESET AGENT GAMES [TOP]``.

Plays game 0 once (loads and warms the caches), then games 1..GAMES of the bench pairing (the ruleset's first two
sample warbands, seed 2026) with every ``options``, ``apply``, ``roll`` and ``run`` of the ruleset's step kinds
timed (``time.perf_counter``), and prints per kind of step and method: milliseconds per game, the share of the
games' time, calls per game and microseconds per call. Nested steps count in both (an ``apply`` that runs the
automatic steps after it includes their ``run``). The wrappers cost ~1 us a call, so the shares are close to a
sampling profiler's where py-spy's fine shares drift on a busy machine; compare two trees by running the script
in each, one after the other. See PROFILE.md.
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from warband.kernel import ruleset as registry
from warband.kernel.ruleset import SteppedRuleset
from warband.lab.records import SimulationConfig
from warband.lab.simulate import play_one

METHODS = ("options", "apply", "roll", "run")


def _timed(orig: Callable[..., Any], label: str, spent: dict[str, float], calls: Counter[str]) -> Callable[..., Any]:
    def timed(*args: Any, **kwargs: Any) -> Any:
        start = time.perf_counter()
        try:
            return orig(*args, **kwargs)
        finally:
            spent[label] = spent.get(label, 0.0) + time.perf_counter() - start
            calls[label] += 1

    return timed


def main(argv: list[str]) -> int:
    ruleset_id, agent, games = argv[0], argv[1], int(argv[2])
    top = int(argv[3]) if len(argv) > 3 else 20
    rs = registry.get(ruleset_id)
    if not isinstance(rs, SteppedRuleset):
        print(f"{ruleset_id} is not a stepped ruleset")
        return 1
    spent: dict[str, float] = {}
    calls: Counter[str] = Counter()
    seen: set[type] = set()
    for kind in rs.rules.kinds.values():
        for klass in kind.__mro__:
            if klass in seen or not klass.__module__.startswith("warband"):
                continue
            seen.add(klass)
            for name in METHODS:
                orig = klass.__dict__.get(name)
                if callable(orig):
                    setattr(klass, name, _timed(orig, f"{klass.__name__}.{name}", spent, calls))
    warbands = rs.samples()["warbands"]
    config = SimulationConfig(
        ruleset_id, Path(warbands[0]["path"]), Path(warbands[1]["path"]), seed=2026, agent_a=agent, agent_b=agent
    )
    play_one(config, 0)
    spent.clear()
    calls.clear()
    start = time.perf_counter()
    for index in range(1, 1 + games):
        play_one(config, index)
    total = time.perf_counter() - start
    print(f"{ruleset_id} {agent}: {total * 1e3 / games:.2f} ms a game ({games} games)")
    for label, secs in sorted(spent.items(), key=lambda kv: -kv[1])[:top]:
        per_game = secs * 1e3 / games
        print(
            f"{label:32s} {per_game:7.2f} ms/game {100 * secs / total:5.1f}% "
            f"{calls[label] / games:7.1f} calls/game {secs / calls[label] * 1e6:8.1f} us/call"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

"""``make demo``: 200 games between two bundled Trench Crusade warbands, a win-rate table and a replayable log.

Run as ``python -m warband.demo``. ``WARBAND_DEMO_GAMES`` overrides the number of games (tests use a handful).
The games run on every core (results do not depend on how many); game 0's log is saved to ``demo-logs/``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import shlex
import sys
import time
from pathlib import Path

from rich.console import Console

from warband.cli.simulate_cmd import progress_bar, summary_table
from warband.kernel import ruleset as registry
from warband.kernel.errors import WarbandError
from warband.lab.simulate import SimulationConfig, default_agent, play_one, simulate

RULESET = "trench-crusade"
WARBANDS = ("pilgrims_sacred_affliction.yaml", "new_antioch_company.yaml")
SEED = 2026
GAMES = 200
LOG_DIR = Path("demo-logs")


def sample_path(file_name: str) -> Path:
    """The bundled warband file called ``file_name``."""
    for item in registry.get(RULESET).samples()["warbands"]:
        if Path(item["path"]).name == file_name:
            return Path(item["path"])
    raise WarbandError(f"{RULESET} has no bundled warband {file_name!r}")


def shown(path: Path) -> str:
    """``path`` as a user would type it from here: relative when it lies under the current folder."""
    try:
        text = str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        text = str(path)
    return shlex.quote(text)


def games_wanted() -> int:
    raw = os.environ.get("WARBAND_DEMO_GAMES", str(GAMES))
    try:
        return int(raw)
    except ValueError:
        raise WarbandError(f"WARBAND_DEMO_GAMES must be a whole number, got {raw!r}") from None


def main() -> int:
    console = Console()
    say = functools.partial(console.print, highlight=False, soft_wrap=True)
    agent = default_agent()
    a, b = (sample_path(name) for name in WARBANDS)
    config = SimulationConfig(RULESET, a, b, games=games_wanted(), seed=SEED, agent_a=agent, agent_b=agent)
    workers = max(1, min(os.cpu_count() or 1, config.games))
    say(f"[bold]warband demo[/]: {config.games} games of {RULESET}, {agent} vs {agent}, seed {SEED}, "
        f"{workers} worker(s)")
    start = time.perf_counter()
    with progress_bar(config.games) as hook:
        result = simulate(config, progress=hook, workers=workers)
    console.print(summary_table(result.summary()))
    # Game 0 again, now with its log: the same seed gives the same game, so the log is the one in the table.
    logged = play_one(dataclasses.replace(config, log_dir=LOG_DIR), 0)
    if dataclasses.replace(logged, log=None) != result.records[0]:
        raise RuntimeError("game 0 played differently the second time: the simulation is not deterministic")
    log = shown(Path(str(logged.log)))
    say(f"\nlog of game 0 ({logged.winner or 'draw'}, {logged.reason}): {log}")
    say(f"  replay it:      warband replay {log}")
    say(f"  verify it:      warband replay {log} --verify")
    say(f"  change a rule:  warband simulate {RULESET} --a {shown(a)} --b {shown(b)} "
        f"--games {config.games} --set charge_range=8")
    say(f"demo wall time {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except WarbandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)

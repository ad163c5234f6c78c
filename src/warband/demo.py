"""``make demo``: 200 games between two bundled Trench Crusade warbands, a win-rate table and a replayable log.

Run as ``python -m warband.demo``. ``WARBAND_DEMO_GAMES`` overrides the number of games and
``WARBAND_DEMO_AGENT`` the agent of both sides (tests use a handful of random games). The games run on every core
(results do not depend on how many); the logs of the first games are saved to ``demo-logs/``.
"""

from __future__ import annotations

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
from warband.lab.records import SimulationConfig
from warband.lab.simulate import default_agent, simulate

RULESET = "trench-crusade"
WARBANDS = ("pilgrims_sacred_affliction.yaml", "new_antioch_company.yaml")
SEED = 2026
GAMES = 200
LOG_DIR = Path("demo-logs")
LOGS_KEPT = 3


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
    agent = os.environ.get("WARBAND_DEMO_AGENT") or default_agent()
    a, b = (sample_path(name) for name in WARBANDS)
    config = SimulationConfig(
        RULESET,
        a,
        b,
        games=games_wanted(),
        seed=SEED,
        agent_a=agent,
        agent_b=agent,
        log_dir=LOG_DIR,
        log_first=LOGS_KEPT,
    )
    workers = max(1, min(os.cpu_count() or 1, config.games))
    say(
        f"[bold]warband demo[/]: {config.games} games of {RULESET}, {agent} vs {agent}, seed {SEED}, "
        f"sides swapped in odd games, {workers} worker(s)"
    )
    start = time.perf_counter()
    with progress_bar(config.games) as hook:
        result = simulate(config, progress=hook, workers=workers)
    console.print(summary_table(result.summary()))
    logged = result.records[0]
    log = shown(Path(str(logged.log)))
    winner = "a draw" if logged.winner is None else f"won by {result.names['ab'.index(logged.winner)]}"
    say(
        f"\nlogs of the first {len(result.summary()['logs'])} games are in {shown(LOG_DIR)}/; game 0 was "
        f"{winner} ({logged.reason}): {log}"
    )
    say(f"  replay it:      warband replay {log}")
    say(f"  verify it:      warband replay {log} --verify")
    say(
        f"  change a rule:  warband simulate {RULESET} --a {shown(a)} --b {shown(b)} "
        f"--games {config.games} --set charge_range=8"
    )
    say(f"demo wall time {time.perf_counter() - start:.1f} s")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except WarbandError as exc:
        print(f"error: {exc}", file=sys.stderr)
        sys.exit(2)

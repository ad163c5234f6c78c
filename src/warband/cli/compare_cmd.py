"""``warband compare`` (does a rule variant change a match-up's balance?) and ``warband balance`` (what is each
model type worth in these games?).

As with ``simulate``: every input is checked before the first game (a bad file, variant, parameter or agent
exits 2 naming it), progress goes to stderr, and ``--json`` prints exactly one JSON object on stdout. A game
that crashes is named on stderr with the command that replays it alone; the run goes on, the games that
finished are reported, and the command exits 1.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from warband.agents.base import make_agent
from warband.cli.simulate_cmd import report_crashes
from warband.cli.unmodelled import AllowUnmodelled, refuse_unmodelled
from warband.kernel.errors import WarbandError
from warband.kernel.rng import MAX_SEED
from warband.lab.balance import MARGIN, run_balance
from warband.lab.compare import BOUNDARY_NAMES, Boundary, CompareError, Plan, check_variants, compare, parse_variant
from warband.lab.records import SimulationConfig
from warband.lab.simulate import check, default_agent
from warband.lab.verdicts import compare_matchups


@contextmanager
def _bar(label: str, enabled: bool) -> Iterator[Callable[[int, int], None]]:
    if not enabled:
        yield lambda done, total: None
        return
    bar = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
    )
    task = bar.add_task(label, total=None)

    def hook(done: int, total: int) -> None:
        bar.update(task, completed=done, total=total)

    with bar:
        yield hook


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _signed(x: float) -> str:
    return f"{x * 100:+.1f} pts"


def compare_table(s: dict[str, Any]) -> Table:
    """One row per arm: A's score rate with its Wilson 95% CI, the paired change vs the baseline (in percentage
    points) with its repeated CI, and the sequential p-value."""
    d = s["design"]
    table = Table(
        title=f"{s['ruleset']}: A = {Path(s['rosters']['a']).stem} vs B = {Path(s['rosters']['b']).stem}"
        f" · agents {s['agents']['a']} / {s['agents']['b']} · seed {s['seed']}"
    )
    for name, justify in (
        ("rules", "left"),
        ("games", "right"),
        ("A rate [95% CI]", "right"),
        (f"change [{1 - d['alpha']:.0%} CI]", "right"),
        ("p", "right"),
    ):
        table.add_column(name, justify=justify, no_wrap=name != "rules", overflow="fold")  # type: ignore[arg-type]
    b = s["baseline"]
    table.add_row("baseline", str(b["games"]), _rate(b), "", "")
    for v in s["variants"]:
        table.add_row(
            v["label"],
            str(v["games"]),
            _rate(v),
            f"{v['change'] * 100:+.1f} [{v['ci'][0] * 100:+.1f}, {v['ci'][1] * 100:+.1f}]",
            f"{v['p_value']:.2g}",
            style="bold" if v["significant"] else "",
        )
    table.caption = (
        f"A rate: A's score per game, draws count half. Change: in percentage points, paired by seed (game i of "
        f"every arm uses the same seed). Looks every {d['batch']} games up to {d['max_games']}, {d['boundary']} "
        f"boundaries, two-sided alpha={d['alpha']:g} per variant; p: stage-wise p-value; CI: repeated "
        f"confidence interval (valid despite early stopping)."
    )
    return table


def _rate(line: dict[str, Any]) -> str:
    return f"{line['a_rate']:.1%} [{line['ci95'][0] * 100:.1f}, {line['ci95'][1] * 100:.1f}]"


def compare_command(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (see `warband rulesets`).")],
    a: Annotated[Path, typer.Option("--a", help="Warband file of side A.")],
    b: Annotated[Path, typer.Option("--b", help="Warband file of side B.")],
    variant: Annotated[
        list[str],
        typer.Option("--variant", help="A rule variant: name=value,name=value,... (repeatable; see `warband params`)."),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="Maximum games per arm.")] = 200,
    scenario: Annotated[
        Path | None, typer.Option("--scenario", help="Scenario file (default: the ruleset's default scenario).")
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed; game i of every arm uses the same derived seed.")
    ] = 1,
    agent_a: Annotated[
        str | None,
        typer.Option("--agent-a", help="Agent spec of side A (default: heuristic if installed, else random)."),
    ] = None,
    agent_b: Annotated[str | None, typer.Option("--agent-b", help="Agent spec of side B.")] = None,
    batch: Annotated[int, typer.Option("--batch", help="Games per arm between looks.")] = 20,
    alpha: Annotated[float, typer.Option("--alpha", help="Two-sided significance level per variant.")] = 0.05,
    boundary: Annotated[
        str, typer.Option("--boundary", help="Sequential boundary: obf (O'Brien–Fleming) or pocock.")
    ] = "obf",
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes playing games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as one JSON object.")] = False,
    allow_unmodelled: AllowUnmodelled = False,
) -> None:
    """Play A against B under the default rules and under each --variant with the same seeds; stop a variant
    early once its change in A's win rate is significant (group-sequential test)."""
    if boundary not in BOUNDARY_NAMES:
        raise CompareError(f"--boundary must be one of {', '.join(BOUNDARY_NAMES)}, got {boundary!r}")
    kind: Boundary = "obf" if boundary == "obf" else "pocock"
    config = SimulationConfig(
        ruleset=ruleset,
        roster_a=a,
        roster_b=b,
        scenario=scenario,
        games=games,
        seed=seed,
        agent_a=agent_a or default_agent(),
        agent_b=agent_b or default_agent(),
    )
    check(config, workers)
    refuse_unmodelled(ruleset, [a, b], allow_unmodelled)
    variants = [parse_variant(v) for v in variant]
    check_variants(ruleset, variants)
    plan = Plan.make(games, batch, alpha, kind)
    with _bar("games", not as_json or sys.stderr.isatty()) as hook:
        summary = compare(config, variants, plan, workers, hook).summary
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        console = Console()
        console.print(compare_table(summary))
        for v in summary["variants"]:
            console.print(
                f"{v['label']}: {v['verdict']}; change {_signed(v['change'])} "
                f"({_signed(v['ci'][0])} … {_signed(v['ci'][1])}), p={v['p_value']:.2g}; the outcome differed "
                f"from the baseline's in {v['changed_games']} of {v['paired_games']} games",
                highlight=False,
            )
    report_crashes(summary["crashes"])


def balance_table(s: dict[str, Any]) -> tuple[Table, Table]:
    """The standings of the round robin, and every model type from most under- to most over-costed."""
    standings = Table(
        title=f"{s['ruleset']}: round robin, {s['games']} games, agent {s['agent']} on both sides (sides swapped in "
        f"odd games), seed {s['seed']}"
    )
    for name, justify in (
        ("#", "right"),
        ("warband", "left"),
        ("games", "right"),
        ("wins", "right"),
        ("draws", "right"),
        ("score rate", "right"),
        ("95% CI", "right"),
    ):
        standings.add_column(name, justify=justify)  # type: ignore[arg-type]
    number = {w["name"]: f"#{i}" for i, w in enumerate(s["warbands"], 1)}
    for w in s["warbands"]:
        standings.add_row(
            number[w["name"]],
            w["name"],
            str(w["games"]),
            str(w["wins"]),
            str(w["draws"]),
            _pct(w["score_rate"]),
            f"{_pct(w['ci95'][0])} – {_pct(w['ci95'][1])}",
        )
    types = Table(title="Model types: listed vs estimated fair points (most under-costed first)")
    for name, justify in (
        ("type", "left"),
        ("in", "left"),
        ("listed", "right"),
        ("fair [95% CI]", "right"),
        ("change", "right"),
        ("verdict", "left"),
    ):
        types.add_column(name, justify=justify, no_wrap=name != "type", overflow="fold")  # type: ignore[arg-type]
    for t in s["types"]:
        types.add_row(
            t["type"],
            ",".join(number[name] for name in t["warbands"]),
            f"{t['listed']:.0f}",
            f"{t['fair']:.0f} [{t['ci95'][0]:.0f}, {t['ci95'][1]:.0f}]",
            f"{t['delta_pct']:+.0%}",
            {"under-costed": "under", "over-costed": "over"}.get(t["verdict"], ""),
        )
    types.caption = (
        f"in: warbands (#) fielding the type. verdict: the whole interval is more than {MARGIN:.0%} above "
        f"(under-costed) or below (over-costed) the listed points. {s['method']} Bootstrap rounds: "
        f"{s['bootstrap']}; per-type kills and survival are in --json."
    )
    return standings, types


def balance_command(
    ctx: typer.Context,
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (see `warband rulesets`).")],
    warbands: Annotated[
        list[Path],
        typer.Option(
            "--warbands", help="Warband files; every pair plays (list several after it, or repeat the option)."
        ),
    ],
    games: Annotated[int, typer.Option("--games", "-n", help="Games per pair of warbands.")] = 20,
    scenario: Annotated[Path | None, typer.Option("--scenario", help="Scenario file.")] = None,
    seed: Annotated[
        int, typer.Option("--seed", min=0, max=MAX_SEED, help="Seed of the run (and of the bootstrap).")
    ] = 1,
    agent: Annotated[
        str | None,
        typer.Option("--agent", help="Agent spec for every side (default: heuristic if installed, else random)."),
    ] = None,
    bootstrap: Annotated[int, typer.Option("--bootstrap", help="Bootstrap rounds for the intervals.")] = 200,
    workers: Annotated[int, typer.Option("--workers", "-w", help="Processes playing games.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as one JSON object.")] = False,
    check_agent: Annotated[
        str | None,
        typer.Option(
            "--check-agent",
            help="Play the round robin again with this (stronger) agent and say, matchup by matchup, whether "
            "the verdict (favoured warband, margin) holds within its interval.",
        ),
    ] = None,
    allow_unmodelled: AllowUnmodelled = False,
) -> None:
    """Round robin among the warbands; estimate what each model type is worth (points exchange) vs its cost."""
    if games < 1:
        raise CompareError(f"--games must be at least 1, got {games}")
    warbands = [*warbands, *(Path(extra) for extra in ctx.args)]
    refuse_unmodelled(ruleset, warbands, allow_unmodelled)
    if check_agent is not None:
        check_agent_spec(check_agent)
    show = not as_json or sys.stderr.isatty()
    with _bar("games", show) as hook:
        summary = run_balance(
            ruleset, warbands, games, seed, agent or default_agent(), scenario, workers, max(bootstrap, 0), hook
        )
    crashes = list(summary["crashes"])
    if check_agent is not None:
        with _bar(f"games ({check_agent})", show) as hook:
            checked = run_balance(ruleset, warbands, games, seed, check_agent, scenario, workers, 0, hook)
        summary["check"] = {
            "agent": check_agent,
            "matchups": compare_matchups(summary["matchups"], checked["matchups"]),
        }
        crashes += [{**c, "arm": check_agent} for c in checked["crashes"]]
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        console = Console()
        for table in balance_table(summary):
            console.print(table)
        if "check" in summary:
            console.print(check_table(summary))
    report_crashes(crashes)


def check_agent_spec(spec: str) -> None:
    """Refuse a --check-agent that does not load, before any game."""
    try:
        make_agent(spec, 0)
    except WarbandError as exc:
        raise type(exc)(f"--check-agent: {exc}") from None


def check_table(s: dict[str, Any]) -> Table:
    """Matchup by matchup: the first warband's score rate under each agent and whether the verdict holds."""
    check = s["check"]
    table = Table(title=f"Do the verdicts hold with {check['agent']} instead of {s['agent']}?")
    for name, justify in (
        ("matchup", "left"),
        (s["agent"], "right"),
        (check["agent"], "right"),
        ("shift [95% CI]", "right"),
        ("verdict", "left"),
    ):
        table.add_column(name, justify=justify, overflow="fold")  # type: ignore[arg-type]

    def rate(line: dict[str, Any]) -> str:
        return f"{_pct(line['score_rate'])} ({_pct(line['ci95'][0])}–{_pct(line['ci95'][1])})"

    for m in check["matchups"]:
        table.add_row(
            f"{m['first']} v {m['second']}",
            rate(m["base"]),
            rate(m["check"]),
            f"{m['shift']:+.1%} [{m['shift_ci95'][0]:+.1%}, {m['shift_ci95'][1]:+.1%}]",
            m["verdict"],
        )
    held = sum(m["holds"] for m in check["matchups"])
    table.caption = (
        f"score rate of the first warband (win 1, draw 1/2), 95% interval; the verdict holds when both agents "
        f"favour the same warband (or neither) and the shift's interval holds 0. Holds in {held} of "
        f"{len(check['matchups'])} matchups."
    )
    return table


def register(app: typer.Typer) -> None:
    """Add ``compare`` and ``balance`` to ``app``."""
    app.command("compare")(compare_command)
    # extra positional arguments are the further files of ``--warbands a.yaml b.yaml c.yaml``
    app.command("balance", context_settings={"allow_extra_args": True})(balance_command)

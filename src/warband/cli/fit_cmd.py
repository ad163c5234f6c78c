"""``warband fit-eval RULESET``: fit the ruleset's learned evaluation to seeded self-play games and write its
weights (``rulesets/<r>/data/evaluation.json`` by default; see :mod:`warband.lab.fit`). The summary (held-out
log-loss and accuracy against the constant model) goes to stderr, or as one JSON object to stdout with
``--json``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from warband.agents.base import make_agent
from warband.kernel.rng import check_seed
from warband.lab.fit import (
    DEFAULT_HOLDOUT,
    DEFAULT_L2,
    DEFAULT_RATE,
    SelfPlay,
    default_output,
    fit_ruleset,
    write_fit,
)


def fit_eval_command(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id.")],
    games: Annotated[int, typer.Option("--games", help="Self-play games to sample positions from.")] = 200,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the games and of the sampling.")] = 1,
    agent: Annotated[str, typer.Option("--agent", help="Agent spec playing both sides.")] = "random",
    rate: Annotated[float, typer.Option("--rate", help="Chance that a choice decision is sampled.")] = DEFAULT_RATE,
    l2: Annotated[float, typer.Option("--l2", help="L2 penalty on the weights.")] = DEFAULT_L2,
    holdout: Annotated[float, typer.Option("--holdout", help="Share of the games held out.")] = DEFAULT_HOLDOUT,
    out: Annotated[Path | None, typer.Option("--out", help="Where to write the weights (JSON).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the fit as JSON on stdout.")] = False,
) -> None:
    """Fit RULESET's learned evaluation (logistic regression of outcomes on its named features)."""
    check_seed(seed)
    make_agent(agent)  # a bad spec exits 2 before the first game
    fit = fit_ruleset(SelfPlay(ruleset, games, seed, agent, rate), l2, holdout)
    path = out if out is not None else default_output(ruleset)
    write_fit(fit, path)
    doc = fit.to_json()
    if as_json:
        typer.echo(json.dumps(doc, indent=2))
        return
    held = doc["held_out"]
    print(
        f"{ruleset}: {fit.train} training and {fit.test} held-out positions from {games} games; held-out "
        f"log-loss {held['log_loss']:.4f} (constant {held['constant_log_loss']:.4f}), accuracy "
        f"{held['accuracy']:.1%} (constant {held['constant_accuracy']:.1%}); wrote {path}",
        file=sys.stderr,
    )
    for name, w in zip(fit.names, doc["weights"], strict=True):
        print(f"  {name:<20} {w:+.4f}", file=sys.stderr)
    print(f"  {'(intercept)':<20} {doc['intercept']:+.4f}", file=sys.stderr)


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("fit-eval")(fit_eval_command)

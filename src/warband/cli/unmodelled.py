"""``--allow-unmodelled``: the commands that answer with played games refuse a warband carrying rules the engine
does not play (``Ruleset.unmodelled``), so that no answer silently comes from a different game; the option plays
it anyway, without those rules."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer

from warband.kernel import ruleset as registry
from warband.kernel.ruleset import check_modelled

AllowUnmodelled = Annotated[
    bool,
    typer.Option(
        "--allow-unmodelled",
        help="Play warbands whose rules the engine does not all play (`warband validate` names them); the games "
        "are played without those rules.",
    ),
]


def refuse_unmodelled(ruleset: str, paths: Sequence[Path], allow: bool) -> None:
    """Raise UnmodelledError naming every rule of these warband files the ruleset does not play, unless allowed."""
    if allow:
        return
    rs = registry.get(ruleset)
    check_modelled(rs, [(str(p), rs.load_roster(p)) for p in paths])

"""Whether the balance verdicts hold under stronger play, for ``warband balance --check-agent SPEC``.

That option plays the same round robin again with SPEC on both sides and compares it, matchup by matchup, with
the first run.

For each pair of warbands, each run gives the first warband's score rate (win 1, draw 1/2) with its 95% interval
and the favoured warband (the one whose interval lies wholly on its side of 50%, else none). The verdict
**holds** when both runs favour the same warband (or neither) and the change of score rate between them is within
its 95% interval (the difference of two independent rates: ``+- 1.96 sqrt(v1/n1 + v2/n2)``, ``v`` the variance
of one game's score); otherwise it **changes**, and the line says whether the favoured side or only the margin
moved.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from warband.lab.elo import Z95


def score_variance(wins: int, draws: int, losses: int) -> float:
    """The variance of one game's score (1, 1/2 or 0) among ``wins``, ``draws`` and ``losses``."""
    n = wins + draws + losses
    if n == 0:
        return 0.0
    mean = (wins + draws / 2) / n
    return (wins * (1 - mean) ** 2 + draws * (0.5 - mean) ** 2 + losses * mean**2) / n


def _se(m: Mapping[str, Any]) -> float:
    n = int(m["games"])
    return math.sqrt(score_variance(m["wins"], m["draws"], m["losses"]) / n) if n else math.inf


def compare_matchup(base: Mapping[str, Any], check: Mapping[str, Any]) -> dict[str, Any]:
    """One matchup's line: both runs' score rates, the shift with its interval, and the verdict."""
    shift = float(check["score_rate"]) - float(base["score_rate"])
    half = Z95 * math.hypot(_se(base), _se(check))
    same_side = base["favoured"] == check["favoured"]
    margin_holds = abs(shift) <= half
    if same_side and margin_holds:
        verdict = "holds"
    elif not same_side:
        before = base["favoured"] or "neither"
        after = check["favoured"] or "neither"
        verdict = f"changes: favoured {before} -> {after}"
    else:
        verdict = "changes: same favoured side, margin moved beyond its interval"
    return {
        "first": base["first"],
        "second": base["second"],
        "base": {k: base[k] for k in ("games", "score_rate", "ci95", "favoured")},
        "check": {k: check[k] for k in ("games", "score_rate", "ci95", "favoured")},
        "shift": shift,
        "shift_ci95": [shift - half, shift + half],
        "holds": same_side and margin_holds,
        "verdict": verdict,
    }


def compare_matchups(base: Sequence[Mapping[str, Any]], check: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every matchup of ``base`` compared with the same matchup of ``check`` (matched by warband names)."""
    by_pair = {(m["first"], m["second"]): m for m in check}
    out = []
    for m in base:
        other = by_pair.get((m["first"], m["second"]))
        if other is not None and m["games"] and other["games"]:
            out.append(compare_matchup(m, other))
    return out

"""What a Wyrdcry scenario may say in its ``rules`` (digest §A9: "the scenario sets the victory conditions";
token control within 1"; a fighter carries 1).

* ``victory``: ``most_out`` (the default: more enemies out of action wins) or ``objectives`` (more victory points
  wins; level falls back to ``most_out``);
* ``score_each_round``: with ``objectives``, every objective scores at the end of each battle round (else once,
  when the battle ends);
* ``control_range``: inches from a fighter's base to a marker within which it holds the marker (default 1);
* ``carry_limit``: tokens a fighter may carry; above 0 every objective marker is a treasure token that can be
  picked up (Driven by Greed, data §4.1).

Any other key is refused, so a misspelt option never silently changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from warband.kernel.errors import Problem, ScenarioError

VICTORY = ("most_out", "objectives")
KEYS = ("victory", "score_each_round", "control_range", "carry_limit")


def option_problems(file: str, rules: dict[str, Any]) -> list[Problem]:
    """Every problem of a scenario's Wyrdcry options, each with its place (``rules.<key>``)."""
    out: list[Problem] = []
    for key, value in rules.items():
        place = f"rules.{key}"
        if key == "victory" and value not in VICTORY:
            out.append(Problem(file, place, f"expected one of {', '.join(VICTORY)}, found {value!r}"))
        elif key == "score_each_round" and not isinstance(value, bool):
            out.append(Problem(file, place, f"expected true or false, found {value!r}"))
        elif key == "control_range" and (
            isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 36
        ):
            out.append(Problem(file, place, f"expected a number of inches from 0 to 36, found {value!r}"))
        elif key == "carry_limit" and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 10):
            out.append(Problem(file, place, f"expected a whole number from 0 to 10, found {value!r}"))
        elif key not in KEYS:
            out.append(Problem(file, place, f"unknown Wyrdcry scenario option {key!r} (known: {', '.join(KEYS)})"))
    if rules.get("score_each_round") and rules.get("victory") != "objectives":
        out.append(Problem(file, "rules.score_each_round", "only meaningful with victory: objectives"))
    return out


def check_options(path: Path, doc: dict[str, Any]) -> None:
    """Raise ScenarioError listing every problem of the validated scenario document's Wyrdcry options."""
    problems = option_problems(str(path), dict(doc.get("rules") or {}))
    if problems:
        raise ScenarioError(problems)

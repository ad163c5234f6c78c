"""Mines: a scenario's explosives on the table, and De-Mine (Combat Engineer, New Antioch; Sultanate Sapper).

The catalogue's De-Mine (../shared/data/trench-crusade/keywords.yaml, ``de_mine_engineer``, ``de_mine_sapper``)
is a Risky action to disarm a mine the model touches; on a failure the mine goes off. The core rules digested
here place no mines, so a scenario may (ours): its ``rules`` option ``mines`` lists their centres as
``"x,y; x,y"`` (inches), checked at load with each mine's place named (``rules.mines[1]``). A mine is a marker
of radius ``mine_radius``; a model touches it when its base reaches the marker. A mine that goes off (ours) gives
every model whose base is within ``mine_blast`` inches of the marker an Injury Roll, as dangerous terrain does;
a mine is set off only by a failed De-Mine (ours: walking past one is safe, the rules that lay mines in play
belong to another list).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from warband.kernel.errors import Problem, ScenarioError
from warband.kernel.events import Event, Note
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.attacks import push_injury
from warband.rulesets.trench_crusade.core import R, State

RULE = f"{R}/ability/de_mine"


def parse_mines(text: object, width: float, depth: float) -> tuple[list[tuple[float, float]], list[tuple[str, str]]]:
    """(mine centres, problems as (place, message)) of a scenario's ``mines`` option."""
    if not isinstance(text, str):
        return [], [("rules.mines", f'expected mine centres as "x,y; x,y" in inches, found {text!r}')]
    spots: list[tuple[float, float]] = []
    problems = []
    for i, part in enumerate(p.strip() for p in text.split(";")):
        place = f"rules.mines[{i}]"
        bits = [b.strip() for b in part.split(",")]
        try:
            x, y = (float(b) for b in bits)
        except ValueError:
            problems.append((place, f'expected a mine centre "x,y" in inches, found {part!r}'))
            continue
        if not (math.isfinite(x) and math.isfinite(y) and 0 <= x <= width and 0 <= y <= depth):
            problems.append((place, f"mine at {x:g},{y:g} is off the {width:g} by {depth:g} inch table"))
            continue
        spots.append((x, y))
    return spots, problems


def _scenario_mines(doc: dict[str, Any]) -> tuple[list[tuple[float, float]], list[tuple[str, str]]] | None:
    """:func:`parse_mines` of a scenario document, or None when it lays no mines."""
    rules = dict(doc.get("rules") or {})
    if "mines" not in rules:
        return None
    return parse_mines(rules["mines"], float(doc["table"]["width"]), float(doc["table"]["depth"]))


def check_mines(path: Path, doc: dict[str, Any]) -> None:
    """Raise ScenarioError naming each bad mine of a validated scenario document (its ``rules.mines``)."""
    found = _scenario_mines(doc)
    if found is not None and found[1]:
        raise ScenarioError([Problem(str(path), place, f"{why} (mines, {RULE})") for place, why in found[1]])


def lay_mines(state: State, scenario: dict[str, Any]) -> None:
    """The scenario's mines, live at the start (``state.vars['mines']``: id -> [x, y]); none: nothing is kept."""
    found = _scenario_mines(scenario)
    if found is not None:
        state.vars["mines"] = {f"mine{i + 1}": [x, y] for i, (x, y) in enumerate(found[0])}


def touching(state: State, m: Model) -> str | None:
    """The live mine ``m``'s base touches (the nearest), or None."""
    reach = float(state.ctx.params["mine_radius"])
    found = [
        (math.hypot(x - m.x, y - m.y), mid)
        for mid, (x, y) in dict(state.vars.get("mines") or {}).items()
        if math.hypot(x - m.x, y - m.y) <= m.radius + reach + 1e-9
    ]
    return min(found)[1] if found else None


def demine_reasons(state: State, m: Model, name: str) -> list[tuple[str, str]]:
    if touching(state, m) is None:
        return [(RULE, f"{name} needs {m.id} touching a mine")]
    return []


def disarm(state: State, m: Model, events: list[Event]) -> None:
    mid = touching(state, m)
    if mid is None:
        return
    del state.vars["mines"][mid]
    events.append(Note(f"{m.id} disarms {mid}", RULE))


def set_off(state: State, m: Model, events: list[Event]) -> None:
    """The mine ``m`` touches goes off: an Injury Roll for each model within ``mine_blast`` of it."""
    mid = touching(state, m)
    if mid is None:
        return
    x, y = state.vars["mines"].pop(mid)
    blast = float(state.ctx.params["mine_blast"])
    hit = sorted(
        (v for v in state.models.values() if v.on_table and math.hypot(v.x - x, v.y - y) - v.radius <= blast + 1e-9),
        key=lambda v: v.id,
    )
    events.append(Note(f"{mid} goes off under {m.id}: {', '.join(v.id for v in hit) or 'no one'} hit", RULE))
    for v in reversed(hit):
        push_injury(state, v, "mine")

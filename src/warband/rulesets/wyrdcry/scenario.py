"""The scenario: what a Wyrdcry scenario may say, its treasure tokens, its objectives and how the battle is won.

Digest ``wyrdcry.md`` §A9 (set-up & victory: "the scenario sets the victory conditions"; token control within 1";
a fighter carries 1), §A4 (picking up and dropping a token are free actions, W [R]) and §A6 (a token carried by a
fighter taken out of action is dropped: ``core.deal_damage``); the victory of ``sim_victory`` [P] (more enemies out of
action). The battle rounds that end it are ``morale.py`` (round end, the extra round).

What a scenario may say in its ``rules``:

* ``victory``: ``most_out`` (the default: more enemies out of action wins) or ``objectives`` (more victory points
  wins; level falls back to ``most_out``);
* ``score_each_round``: with ``objectives``, every objective scores at the end of each battle round (else once,
  when the battle ends);
* ``control_range``: inches from a fighter's base to a marker within which it holds the marker (default 1);
* ``carry_limit``: tokens a fighter may carry; above 0 every objective marker is a treasure token that can be
  picked up (Driven by Greed, data §4.1).

Any other key is refused, so a misspelt option never silently changes nothing."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.battlefield import ObjectivePoint, controller
from warband.kernel.errors import Problem, Reason, ScenarioError
from warband.kernel.events import Event, GameEnded, Note
from warband.kernel.state import Model
from warband.rulesets.wyrdcry.core import R, State, Vec, has_kw, is_out, side_name, warband_size

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


# ------------------------------------------------------------------------------------------- treasure tokens
def treasure_tokens(state: State) -> dict[str, list[Any]]:
    """Driven by Greed (data §4.1) needs treasure: in a scenario whose rules let a fighter carry a token
    (``carry_limit``, digest §A9 "carry 1"), each objective marker is a treasure token, kept as [x, y, carrier]
    (the carrier's id, or None when it lies on the table)."""
    if carry_limit(state) <= 0:
        return {}
    return {o.id: [float(o.at[0]), float(o.at[1]), None] for o in state.ctx.objectives}


def scenario_rules(state: State) -> dict[str, Any]:
    """The scenario's Wyrdcry options (``rules``, checked at load by :func:`check_options`)."""
    return dict(state.ctx.scenario.get("rules") or {})


def carry_limit(state: State) -> int:
    """Tokens a fighter may carry (scenario ``carry_limit``; 0: the scenario has no treasure tokens)."""
    return int(scenario_rules(state).get("carry_limit", 0) or 0)


def control_range(state: State) -> float:
    """Digest §A9: a marker is held by the side with more fighters within this of it (scenario ``control_range``)."""
    return float(scenario_rules(state).get("control_range", 1.0))


def treasure_at(state: State, oid: str) -> Vec:
    """Where a treasure token is: on its carrier, or where it lies."""
    x, y, carrier = state.vars["treasure"][oid]
    if carrier:
        c = state.models[carrier]
        return (c.x, c.y)
    return (float(x), float(y))


def carrying(state: State, m: Model) -> list[str]:
    """The treasure tokens ``m`` carries."""
    return [oid for oid, t in (state.vars.get("treasure") or {}).items() if t[2] == m.id]


def near_treasure(state: State, m: Model, oid: str) -> bool:
    """Digest §A9: a token within ``treasure_range`` of any part of the fighter's base."""
    x, y = treasure_at(state, oid)
    return math.hypot(x - m.x, y - m.y) - m.radius <= float(state.ctx.params["treasure_range"]) + 1e-9


def token_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """Digest §A4 (W [R]): picking up and dropping a token are free actions (not counted among the two); a
    fighter carries at most ``carry_limit``; a BEAST takes no scenario actions (data §3). [P] each of the two at
    most once per activation, so an activation always ends."""
    done = list(m.flags.get("token_actions", []))
    tokens = state.vars.get("treasure") or {}
    if a.kind == "drop":
        if not carrying(state, m):
            return [(f"{R}/treasure/drop", f"{m.id} carries no treasure")]
        if "drop" in done:
            return [(f"{R}/treasure/once", f"{m.id} has already dropped treasure this activation ([P])")]
        return []
    oid = str(a.option)
    if oid not in tokens:
        there = ", ".join(tokens) or "none in this scenario"
        return [(f"{R}/treasure/unknown", f"{a.option!r} is not a treasure token (tokens: {there})")]
    if has_kw(m, "BEAST"):
        return [(f"{R}/treasure/beast", f"{m.id} is a BEAST: it takes no scenario actions (data §3)")]
    if tokens[oid][2] is not None:
        return [(f"{R}/treasure/carried", f"{oid} is carried by {tokens[oid][2]}")]
    if len(carrying(state, m)) >= carry_limit(state):
        return [(f"{R}/treasure/carry-limit", f"{m.id} already carries {carry_limit(state)} token(s)")]
    if not near_treasure(state, m, oid):
        r = float(state.ctx.params["treasure_range"])
        return [(f"{R}/treasure/range", f'{a.option} is not within {r:g}" of {m.id}')]
    if "pick-up" in done:
        return [(f"{R}/treasure/once", f"{m.id} has already picked up treasure this activation ([P])")]
    return []


def token_action(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """Pick up a treasure token, or drop every token the fighter carries where it stands (D §A4, free actions)."""
    tokens = dict(state.vars["treasure"])
    m.flags["token_actions"] = [*m.flags.get("token_actions", []), a.kind]
    if a.kind == "pick-up":
        oid = str(a.option)
        x, y, _ = tokens[oid]
        tokens[oid] = [x, y, m.id]
        events.append(Note(f"{m.id} picks up treasure {oid}", f"{R}/treasure/pick-up"))
    else:
        for oid in carrying(state, m):
            tokens[oid] = [m.x, m.y, None]
            events.append(Note(f"{m.id} drops treasure {oid}", f"{R}/treasure/drop"))
    state.vars["treasure"] = tokens


# ------------------------------------------------------------------------------------------- objectives and victory
def plays_for_objectives(state: State) -> bool:
    """D §A9 "the scenario sets the victory conditions": ``rules.victory: objectives`` (treasure_hunt.yaml)."""
    return scenario_rules(state).get("victory") == "objectives"


def scores_each_round(state: State) -> bool:
    """Whether the objectives score at the end of every round (``score_each_round``), not once at the end."""
    return plays_for_objectives(state) and bool(scenario_rules(state).get("score_each_round"))


def token_holder(state: State, oid: str, at: Vec) -> int | None:
    """Who a token scores for (D §A9): its carrier's side while carried; on the ground, the side with more
    fighters (not out of action) within the scenario's ``control_range`` of it, nobody when level."""
    carrier = ((state.vars.get("treasure") or {}).get(oid) or [None, None, None])[2]
    if carrier:
        return int(state.models[carrier].side)
    return controller(state.models.values(), at, control_range(state), lambda m: 0 if is_out(m) else 1)


def objective_at(state: State, o: ObjectivePoint) -> Vec:
    """Where an objective is now: a treasure token where it lies or on its carrier (:func:`treasure_at`), any
    other marker where the scenario put it."""
    if o.id in (state.vars.get("treasure") or {}):
        return treasure_at(state, o.id)
    return (float(o.at[0]), float(o.at[1]))


def score_objectives(state: State, events: list[Event]) -> None:
    """The scenario's scoring (treasure_hunt.yaml, D §A9 [P]): each objective scores its ``vp`` for the side
    holding it (see :func:`token_holder`) where it is now (:func:`objective_at`)."""
    vp = list(victory_points(state))
    for o in state.ctx.objectives:
        who = token_holder(state, o.id, objective_at(state, o))
        if who is not None and o.vp > 0:
            vp[who] += o.vp
            events.append(Note(f"side {side_name(who)} scores {o.vp} VP for {o.id}", f"{R}/scenario/score"))
    state.vars["vp"] = vp


def victory_points(state: State) -> tuple[int, int]:
    """Each side's victory points so far."""
    vp = state.vars.get("vp") or [0, 0]
    return int(vp[0]), int(vp[1])


def out_counts(state: State) -> tuple[int, int]:
    """Enemy fighters each side has taken out of action."""
    return (warband_size(state, 1)[1], warband_size(state, 0)[1])


def score(state: State) -> tuple[int, int]:
    """The game's score: victory points in a scenario played for objectives, else enemies out of action."""
    return victory_points(state) if plays_for_objectives(state) else out_counts(state)


def finish_by_score(state: State, events: list[Event]) -> None:
    """The battle ends after its rounds (D §A9). Played for objectives: more victory points wins (scored at the end
    if not each round); level on victory points, or with no objectives, ``sim_victory = most_out`` [P]: more
    enemies out of action wins; equal is a draw."""
    if plays_for_objectives(state):
        if not scores_each_round(state):
            score_objectives(state, events)
        vp = victory_points(state)
        if vp[0] != vp[1]:
            finish(state, 0 if vp[0] > vp[1] else 1, "more victory points", events)
            return
    s = out_counts(state)
    winner = None if s[0] == s[1] else (0 if s[0] > s[1] else 1)
    level = "level on victory points; " if plays_for_objectives(state) else ""
    finish(state, winner, level + ("more enemies out of action" if winner is not None else "level: a draw"), events)


def finish(state: State, winner: int | None, reason: str, events: list[Event]) -> None:
    """The battle is over: the winner (None for a draw), why, and the score."""
    state.phase = "over"
    state.vars["winner"] = winner
    state.vars["reason"] = reason
    events.append(GameEnded(winner, reason, score(state)))

"""What a browser reads about a table: the snapshot (decision, view, log), the legal actions with their odds,
the seat checks of an action, and the ruler."""

from __future__ import annotations

from typing import Any

from warband.kernel.actions import Decision
from warband.kernel.battlefield import Battlefield
from warband.kernel.engine import Game
from warband.kernel.geometry.distance import distance, edge_distance
from warband.kernel.menu import full_menu
from warband.kernel.names import action_label, name_of, with_names
from warband.web.errors import ApiError
from warband.web.schemas import MeasureBody, Spot
from warband.web.tables import Role, Table, step_text

EYE_HEIGHT = 1.0


def decision_json(game: Game, d: Decision, said: str = "") -> dict[str, Any]:
    """The pending decision; ``said`` is the ruleset's sentence for it (situation, cost, odds), and every
    model it names comes with its name."""
    state = game.state
    dice = None
    if d.dice is not None:
        dice = {
            "n": d.dice.n,
            "sides": d.dice.sides,
            "label": with_names(state, d.dice.label),
            "model": d.dice.model,
            "model_name": name_of(state, d.dice.model),
        }
    return {
        "kind": d.kind,
        "prompt": d.prompt,
        "player": d.player,
        "model": d.model,
        "model_name": name_of(state, d.model),
        "text": d.text,
        "said": said,
        "dice": dice,
    }


def log_lines(table: Table, since: int) -> list[str]:
    out = []
    for step in table.steps[since:]:
        said = "; ".join(step["ev"])
        line = step_text(table.game, step["e"]) + (f" — {said}" if said else "")
        out.append(with_names(table.game.state, line))
    return out


def snapshot(table: Table, role: Role, since: int) -> dict[str, Any]:
    game = table.game
    decider = table.decider()
    result = game.result()
    return {
        "id": table.id,
        "ruleset": game.ruleset.id,
        "title": game.ruleset.title,
        "version": table.version,
        "role": role,
        "seats": table.seats,
        "dice": table.dice,
        "decision": decision_json(game, game.decision, table.said()),
        "decider": decider,
        "your_turn": decider is not None and decider == role and not table.is_agent(decider),
        "view": table.view(),
        "log_from": since,
        "log": log_lines(table, since),
        "result": None if result is None else result.to_json(),
        "fault": table.fault,
    }


def legal_json(table: Table, model: str | None) -> list[dict[str, Any]]:
    """The legal actions (built once per state version for every browser); with ``model``, that model's with
    their odds (kept per state version and model, so watchers of one game pay for them once)."""
    if table.legal_cache is None or table.legal_cache[0] != table.version:
        game = table.game
        items = [
            {
                "i": i,
                "text": str(a),
                "label": action_label(game.state, a),
                **a.to_json(),
                "note": game.ruleset.describe_action(game.state, a),
            }
            for i, a in enumerate(game.legal_actions())
        ]
        table.legal_cache = (table.version, items)
    items = table.legal_cache[1]
    if model is None:
        return items
    key = (table.version, model)
    if key not in table.odds_cache:
        game = table.game
        actions = game.legal_actions()
        kept = {k: v for k, v in table.odds_cache.items() if k[0] == table.version}  # older versions go
        mine = [it for it in items if it.get("model") == model]
        kept[key] = [{**it, "odds": game.ruleset.explain(game.state, actions[it["i"]])} for it in mine]
        table.odds_cache = kept
    return table.odds_cache[key]


def menu_json(table: Table, model: str | None) -> list[dict[str, Any]]:
    """A model's full menu (:func:`~warband.kernel.menu.full_menu`): every action it might try at the pending
    choice, the ones it cannot take with every rule that forbids them; the legal ones carry their index in
    the legal list (``i``) to be sent as they are. Kept per state version and model."""
    key = (table.version, f"menu:{model or ''}")
    if key not in table.odds_cache:
        legal = {it["text"]: it["i"] for it in legal_json(table, None)}
        items = []
        for item in full_menu(table.game, model):
            entry = item.to_json()
            if item.legal and entry["text"] in legal:
                entry["i"] = legal[entry["text"]]
            items.append(entry)
        kept = {k: v for k, v in table.odds_cache.items() if k[0] == table.version}
        kept[key] = items
        table.odds_cache = kept
    return table.odds_cache[key]


def role_or_403(table: Table, token: str | None) -> Role:
    role = table.role_of(token)
    if role is None:
        raise ApiError(403, "this link is not a seat or spectator link of this game")
    return role


def deciding_seat(table: Table, token: str | None, version: int) -> int:
    """The seat of ``token`` if it must answer now at ``version``: 403 for a spectator or the wrong seat, 409
    for a stale version."""
    role = role_or_403(table, token)
    if not isinstance(role, int):
        raise ApiError(403, "spectators watch; they do not act")
    if version != table.version:
        raise ApiError(409, f"stale state: the game is at version {table.version}", expected=table.version, got=version)
    decider = table.decider()
    if decider != role or table.is_agent(role):
        who = "the server" if decider is None else f"side {'AB'[decider]}"
        raise ApiError(403, f"not your decision: {who} decides now", decider=decider)
    return role


def reasons_json(reasons: list[tuple[str, str]]) -> list[dict[str, str]]:
    return [{"rule": rule, "text": text} for rule, text in reasons]


def _eye(table: Table, bf: Battlefield, spot: Spot) -> tuple[tuple[float, float], float, float]:
    """(centre, eye height, base radius) of a model or a point."""
    if spot.model is not None:
        m = table.game.state.models.get(spot.model)
        if m is None or not m.on_table:
            raise ApiError(422, f"no model {spot.model!r} on the table")
        return (m.x, m.y), m.z + m.height, m.radius
    if spot.point is None:
        raise ApiError(422, "give a point or a model")
    p = (float(spot.point[0]), float(spot.point[1]))
    return p, bf.table.surface_height(p) + EYE_HEIGHT, 0.0


def measure(table: Table, bf: Battlefield, body: MeasureBody) -> dict[str, Any]:
    (a, za, ra), (b, zb, rb) = _eye(table, bf, body.a), _eye(table, bf, body.b)
    return {
        "centre": round(distance(a, b), 2),
        "edge": round(edge_distance(a, ra, b, rb), 2),
        "line_of_sight": bf.table.line_of_sight(a, za, b, zb),
        "note": "a plain check of terrain between eye heights; the rules add cover, size and models",
    }

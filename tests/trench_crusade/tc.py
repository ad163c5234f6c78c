"""Test helpers: small Trench Crusade positions built from inline rosters and an open table."""

from __future__ import annotations

from typing import Any

from tables import box as box  # re-exported: the tests import it from here
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.events import DiceRolled, Event
from warband.kernel.state import GameState, Model
from warband.rulesets.trench_crusade.roster import read_warband

RS = registry.get("trench-crusade")


def trooper(
    type: str = "Trooper",
    weapons: list[str] | None = None,
    movement: int = 6,
    ranged: int = 0,
    melee: int = 0,
    keywords: list[str] | None = None,
    base: int = 25,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "type": type,
        "cost": 10,
        "movement": movement,
        "ranged": ranged,
        "melee": melee,
        "armour": 0,
        "base": base,
        "keywords": keywords or [],
        "weapons": weapons or ["Bolt Action Rifle", "Trench Club"],
        **extra,
    }


def roster(*models: dict[str, Any], name: str = "Test") -> dict[str, Any]:
    return {"ruleset": "trench-crusade", "name": name, "faction": "Test", "points_limit": 5000, "models": list(models)}


def scenario(
    terrain: list[dict[str, Any]] | None = None,
    size: float = 24.0,
    turns: int = 4,
    objectives: list[dict[str, Any]] | None = None,
    rules: dict[str, Any] | None = None,
) -> dict[str, Any]:
    return {
        "name": "test table",
        "ruleset": "trench-crusade",
        "table": {"width": size, "depth": size},
        "turns": turns,
        "terrain": terrain or [],
        "deployment": [
            {"side": 0, "polygon": [[0, 0], [size, 0], [size, 4], [0, 4]]},
            {"side": 1, "polygon": [[0, size - 4], [size, size - 4], [size, size], [0, size]]},
        ],
        "objectives": objectives or [],
        "rules": rules or {},
    }


def book_roster(raw: dict[str, Any]) -> dict[str, Any]:
    """A warband of catalogue models as the engine reads it (its list's rules other than membership are not
    asked: a test position is not a legal warband)."""
    reading = read_warband("test warband", {**raw, "glory_limit": 100})
    assert reading.roster is not None, [str(p) for p in reading.problems]
    return reading.roster.model_dump(mode="json", exclude_none=True)


def position(
    a: list[dict[str, Any]],
    b: list[dict[str, Any]],
    at: dict[str, tuple[float, float]],
    active: str | None = None,
    to_act: int = 0,
    terrain: list[dict[str, Any]] | None = None,
    params: dict[str, object] | None = None,
    seed: int = 1,
    factions: tuple[str, str] | None = None,
    **scen: Any,
) -> Game:
    """A game in the Activation phase of turn 1 with the models in ``at`` on the table (others are out of
    action), side ``to_act`` to choose, or ``active`` already activated. With ``factions`` the entries are
    catalogue models of those lists (``{"model": ..., "equipment": [...]}``)."""
    ra, rb = roster(*a, name="A"), roster(*b, name="B")
    if factions is not None:
        ra["faction"], rb["faction"] = factions
        ra, rb = book_roster(ra), book_roster(rb)
    game = Game.new(RS, [ra, rb], scenario(terrain, **scen), seed, params)
    st = game.state
    st.stack = []
    st.turn = 1
    st.phase = "activation"
    for m in st.models.values():
        if m.id in at:
            m.x, m.y = at[m.id]
            m.z = st.ctx.table.surface_height(at[m.id])
            m.on_table = True
        else:
            m.on_table = False
            m.flags["out"] = True
    st.vars.update(
        {
            "initiative": to_act,
            "next_side": to_act,
            "active": None,
            "acts": [],
            "shot_with": [],
            "end_now": False,
            "vp": [0, 0],
            "zone_of": [0, 1],
        }
    )
    if active is not None:
        st.vars["active"] = active
        st.vars["next_side"] = st.models[active].side
    st.state_id += 1
    return game


def act(game: Game, text: str) -> None:
    """Apply an action, then resolve any dice it calls for (forced ones first)."""
    game.apply(Action.parse(text))
    game.settle()


def run(game: Game, text: str) -> list[Event]:
    """Apply an action and resolve what follows; every event, the action's and the dice's."""
    events = game.apply(Action.parse(text))
    return events + game.settle()


def rolls(events: list[Event], start: str) -> list[DiceRolled]:
    """The dice rolls among ``events`` whose label starts with ``start`` ("attack", "injury", "dash" ...)."""
    return [e for e in events if isinstance(e, DiceRolled) and e.label.startswith(start)]


def rules_of(game: Game, text: str) -> list[str]:
    return [rid for rid, _ in game.why_illegal(Action.parse(text))]


def model(game: Game, mid: str) -> Model:
    return game.state.models[mid]


def legal_texts(game: Game) -> list[str]:
    return [str(a) for a in game.legal_actions()]


def charge(game: Game, text: str, end: str | None = None) -> None:
    """Declare a charge, roll its die and end it at ``end`` ('to MODEL @x,y'), or at the engine's best spot (the
    first candidate) when ``end`` is None."""
    act(game, text)
    if game.decision.prompt == "dest" and game.decision.model == Action.parse(text).model:
        choice = Action.parse(end) if end is not None else game.legal_actions()[0]
        game.apply(choice)
        game.settle()


def random_game_states(seed: int, every: int, a: int = 0, b: int = 1) -> list[GameState]:  # type: ignore[type-arg]
    """States along a seeded random game between sample warbands ``a`` and ``b`` (the first two by default),
    deployment to the end, every ``every``-th step, each a clone."""
    from pathlib import Path

    from warband.agents.base import make_agent
    from warband.agents.play import play
    from warband.lab.records import SimulationConfig
    from warband.lab.simulate import load_documents

    w = RS.samples()["warbands"]
    config = SimulationConfig("trench-crusade", Path(w[a]["path"]), Path(w[b]["path"]), seed=seed)
    docs = load_documents(config)
    game = Game.new(RS, [docs.roster_a, docs.roster_b], docs.scenario, seed, config.params, record=False)
    agents = [make_agent("random", seed), make_agent("random", seed + 1)]
    out: list[GameState] = []  # type: ignore[type-arg]
    step = 0
    while not game.over:
        play(game, agents, steps=1)
        step += 1
        if step % every == 0:
            out.append(game.state.clone())
    return out

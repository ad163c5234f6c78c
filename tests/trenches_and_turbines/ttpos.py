"""Test helpers: small Trenches and Turbines positions from inline forces on an open 48" table."""

from __future__ import annotations

from typing import Any

from tables import box as box  # re-exported: the tests import it from here
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game

RS = registry.get("trenches-and-turbines")
RIFLE = {"name": "Rifle", "range": 24, "attacks": 1, "damage": 1, "pen": 0}


def unit(
    models: int = 3,
    move: float = 6,
    ranged: int = 5,
    melee: int = 5,
    attacks: int = 1,
    sv: int = 3,
    hp: int = 1,
    leadership: int = 7,
    size: str = "M",
    weapons: list[dict[str, Any]] | None = None,
    keywords: list[str] | None = None,
    base_mm: float = 25,
    **extra: Any,
) -> dict[str, Any]:
    return {
        "name": "Squad",
        "size": size,
        "models": models,
        "base_mm": base_mm,
        "keywords": keywords or [],
        "profile": {
            "move": move,
            "ranged": ranged,
            "melee": melee,
            "attacks": attacks,
            "sv": sv,
            "hp": hp,
            "leadership": leadership,
            "command": 6,
        },
        "weapons": [RIFLE] if weapons is None else weapons,
        **extra,
    }


def scenario(
    terrain: list[dict[str, Any]] | None = None,
    rules: dict[str, Any] | None = None,
    objectives: list[dict[str, Any]] | None = None,
    actions: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    return {
        "name": "test",
        "ruleset": "trenches-and-turbines",
        "table": {"width": 48, "depth": 48},
        "turns": 5,
        "terrain": terrain or [],
        "deployment": [
            {"side": 0, "polygon": [[0, 0], [48, 0], [48, 12], [0, 12]]},
            {"side": 1, "polygon": [[0, 36], [48, 36], [48, 48], [0, 48]]},
        ],
        "objectives": objectives or [],
        "actions": actions or [],
        "rules": rules or {},
    }


def line(x: float, y: float, n: int, dx: float = 1.2) -> list[tuple[float, float]]:
    return [(x + i * dx, y) for i in range(n)]


def position(
    a: list[dict[str, Any]],
    b: list[dict[str, Any]],
    at: dict[str, list[tuple[float, float]]],
    active: str | None = "a1",
    terrain: list[dict[str, Any]] | None = None,
    params: dict[str, object] | None = None,
    deck: list[str] | None = None,
    rules: dict[str, Any] | None = None,
    seed: int = 1,
    objectives: list[dict[str, Any]] | None = None,
    actions: list[dict[str, Any]] | None = None,
    status: dict[str, dict[str, Any]] | None = None,
) -> Game:
    """A game in round 1 with the models listed in ``at`` (unit id -> model positions, leader first) on the
    table; other models are out. ``status`` (unit id -> unit status changes, e.g. ``{"a1": {"pins": 1}}``) holds
    before any card is drawn; ``active`` has just drawn its card (two actions). ``objectives`` and ``actions``
    (scenario actions) go into the scenario."""
    ra = {"ruleset": "trenches-and-turbines", "name": "A", "units": a}
    rb = {"ruleset": "trenches-and-turbines", "name": "B", "units": b}
    game = Game.new(RS, [ra, rb], scenario(terrain, rules, objectives, actions), seed, params)
    st = game.state
    st.stack = []
    st.turn = 1
    st.phase = "activation"
    for m in st.models.values():
        spots = at.get(str(m.unit), [])
        k = int(m.id.split(".")[1]) - 1
        if k < len(spots):
            m.x, m.y = spots[k]
            m.z = st.ctx.table.surface_height(spots[k])
            m.on_table = True
            if "VEHICLE" in m.data["keywords"]:
                m.flags = {"facing": 90.0 if m.side == 0 else 270.0}
        else:
            m.on_table = False
            m.flags = {"dead": True}
    st.vars["deck"] = list(deck or [])
    st.vars["active"] = None
    for uid, changes in (status or {}).items():
        st.vars["u"] = {**st.vars["u"], uid: {**st.vars["u"][uid], **changes}}
    if active is not None:
        from warband.rulesets.trenches_and_turbines.activation import begin_activation

        begin_activation(st, active, [])
    st.state_id += 1
    return game


def act(game: Game, text: str, *dice: list[int]) -> None:
    """Apply an action, then roll (forced dice first)."""
    game.force(*dice)
    game.apply(Action.parse(text))
    game.settle()


def rules_of(game: Game, text: str) -> list[str]:
    return [rid for rid, _ in game.why_illegal(Action.parse(text))]


def unit_vars(game: Game, uid: str) -> dict[str, Any]:
    u: dict[str, Any] = game.state.vars["u"][uid]
    return u


def alive(game: Game, uid: str) -> list[str]:
    return [m.id for m in game.state.models.values() if m.unit == uid and m.on_table]


def set_unit(game: Game, uid: str, **changes: Any) -> None:
    u = game.state.vars["u"]
    game.state.vars["u"] = {**u, uid: {**u[uid], **changes}}
    game.state.state_id += 1


#: Unit sizes and their base diameters in mm, as the property tests draw them.
SIZES = (("S", 25), ("M", 32), ("L", 50), ("XL", 80))


def random_units(
    draw: Any, coord: Any, formed: bool = False
) -> tuple[list[list[dict[str, Any]]], dict[str, list[tuple[float, float]]]]:
    """Both sides' units for a hypothesis table (``draw``: the composite's draw, ``coord``: the coordinate strategy):
    one to three units a side of one to three models (four when ``formed``) of a random size; ``formed`` puts each
    unit's models in a line by its leader (in coherency), else anywhere. Returns (sides, where each unit stands)."""
    from hypothesis import strategies as st

    sides = []
    at: dict[str, list[tuple[float, float]]] = {}
    for side in "ab":
        units = []
        for k in range(draw(st.integers(1, 3))):
            size, base = draw(st.sampled_from(SIZES))
            n = draw(st.integers(1, 4 if formed else 3))
            units.append(unit(models=n, size=size, base_mm=base))
            if formed:
                x, y = draw(coord), draw(coord)
                step = draw(st.sampled_from((1.5, 2.0, 3.5)))
                at[f"{side}{k + 1}"] = [(x + step * i, y) for i in range(n)]
            else:
                at[f"{side}{k + 1}"] = [(draw(coord), draw(coord)) for _ in range(n)]
        sides.append(units)
    return sides, at


def table_game(t: dict[str, Any]) -> Game | None:
    """The position of a hypothesis table (``terrain``, ``sides``, ``at``: :func:`random_units`), no unit active;
    None for a table the scenario loader refuses (nothing to compare there)."""
    try:
        return position(t["sides"][0], t["sides"][1], t["at"], active=None, terrain=t["terrain"])
    except Exception:
        return None

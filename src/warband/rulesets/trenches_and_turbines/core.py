"""Small shared helpers: the pending-step stack, unit status (``state.vars["u"]``) and d10 tests.

Unit status is a JSON-native dict per unit id, replaced (never mutated in place) on every change:
``leader`` (the coherency leader's model id), ``pins``, ``prone``, ``routed``, ``overwatch``, ``activated``,
``acts_round`` (actions performed this round), ``reactions`` (used this round), ``start`` (starting models),
``half_tested``, ``leaderless``, ``shaken`` (VEHICLE actions lost next activation).
"""

from __future__ import annotations

from typing import Any

from warband.kernel.state import GameState

R = "trenches-and-turbines"


def push(state: GameState, step: dict[str, Any]) -> None:
    state.stack = [*state.stack, step]


def pop(state: GameState) -> dict[str, Any]:
    step = state.stack[-1]
    state.stack = state.stack[:-1]
    return step


def top(state: GameState) -> dict[str, Any] | None:
    return state.stack[-1] if state.stack else None


def ustate(state: GameState, uid: str) -> dict[str, Any]:
    u: dict[str, Any] = state.vars["u"][uid]
    return u


def set_unit(state: GameState, uid: str, **changes: Any) -> None:
    u = state.vars["u"]
    state.vars["u"] = {**u, uid: {**u[uid], **changes}}


def side_name(side: int) -> str:
    return "AB"[side]


def succeeds(state: GameState, value: int, target: int) -> bool:
    """A d10 test succeeds at or under the modified target; natural 1 always succeeds and natural 10 always
    fails (digest §3.1, params ``natural_success`` / ``natural_failure``)."""
    p = state.ctx.params
    if value <= int(p["natural_success"]):
        return True
    if value >= int(p["natural_failure"]):
        return False
    return value <= target


def p_success(target: int, sides: int = 10, nat_success: int = 1, nat_failure: int = 10) -> tuple[int, int]:
    """(faces that succeed, sides) of one d10 test, for the odds."""
    ok = sum(1 for v in range(1, sides + 1) if v <= nat_success or (v < nat_failure and v <= target))
    return ok, sides

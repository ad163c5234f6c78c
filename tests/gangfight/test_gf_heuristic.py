"""The heuristic agent in Gangfight holds AP back for Interrupts when that pays (issue 13 item 9): its evaluation
(``gangfight/evaluate.py``) counts the AP a model an enemy can reach keeps for the opponent's turn (seed 004,
Action Points: AP not spent stay available for Interrupts), so ending an activation with AP in hand can beat
one more action that gains little, and nothing is kept for an opponent's turn that cannot come."""

from __future__ import annotations

from pathlib import Path

import pytest

from warband.agents.base import make_agent
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.rulesets.gangfight import evaluate as ev

PARTIES = Path(__file__).resolve().parents[2] / "src/warband/rulesets/gangfight/data/parties"


def make() -> Game:
    """Crossroads Marksmen (A) against Gunrunners (B) on the default table, played to side A's first activation."""
    rs = registry.get("gangfight")
    docs = [rs.load_roster(PARTIES / "crossroads_marksmen.yaml"), rs.load_roster(PARTIES / "gunrunners.yaml")]
    g = Game.new(rs, docs, rs.load_scenario(rs.default_scenario()), 3)
    while g.decision.prompt not in ("activate", "bravery"):
        if g.decision.is_chance:
            g.roll()
        else:
            g.apply(g.legal_actions()[0])
    return g


def arrange(g: Game, spots: dict[str, tuple[float, float]], active: str | None = None, ap: int = 1) -> None:
    """Only the models in ``spots`` stand on the table (AP = IV); side A's turn, round 1 of 6; ``active`` is
    activated and left with ``ap`` AP."""
    st = g.state
    for m in st.models.values():
        m.flags.update(finished=False, knocked=False, incap=False, interrupted=None, bulwark=None)
        m.on_table = m.id in spots
        if m.id in spots:
            m.x, m.y = spots[m.id]
            m.z = 0.0
            m.tokens["ap"] = int(m.data["profile"]["IV"])
        else:
            m.flags["out"] = True
    st.stack = []
    st.phase = "turn"
    st.turn = 1
    st.vars.update(active=0, active_model=None, first=0, decl=[], lost=[0, 0], bravery_due=[False, False])
    if active is not None:
        g.apply(Action("activate", active))
        st.models[active].tokens["ap"] = ap


def melee_model(g: Game, side: int) -> str:
    """A model of ``side`` with no ranged weapon (so no Fire! interrupt bonus)."""
    return next(m.id for m in g.state.side_models(side) if not m.data["ranged"])


def test_a_threatened_model_values_its_first_two_held_ap_only() -> None:
    g = make()
    a = melee_model(g, 0)
    arrange(g, {a: (14.0, 6.0), "b5": (14.0, 18.0)})  # b5 (a pistol) can reach a next turn
    worth = {}
    for n in (0, 1, 2, 3):
        g.state.models[a].tokens["ap"] = n
        worth[n] = ev.evaluate(g.state, 0)
    assert worth[1] - worth[0] == pytest.approx(ev.HELD_AP_FIRST)
    assert worth[2] - worth[1] == pytest.approx(ev.HELD_AP_SECOND)
    assert worth[3] == pytest.approx(worth[2])


def test_held_ap_are_worth_nothing_out_of_every_enemys_reach_or_in_the_last_turn() -> None:
    g = make()
    a = melee_model(g, 0)
    m = g.state.models[a]

    def gain() -> float:
        """What a's two held AP add to side A's evaluation."""
        m.tokens["ap"] = 0
        without = ev.evaluate(g.state, 0)
        m.tokens["ap"] = 2
        return ev.evaluate(g.state, 0) - without

    arrange(g, {a: (14.0, 3.0), "b5": (40.0, 45.0)})  # 40" away: nothing can reach a next turn
    assert gain() == pytest.approx(0.0)
    g.state.models["b5"].x, g.state.models["b5"].y = 14.0, 15.0  # now in reach
    assert gain() == pytest.approx(ev.HELD_AP_FIRST + ev.HELD_AP_SECOND)
    # the last round, side A moving second: no opponent's turn is left to interrupt in
    g.state.turn, g.state.vars["first"] = g.state.ctx.rounds, 1
    assert gain() == pytest.approx(0.0)


def test_the_heuristic_ends_an_activation_with_its_last_ap_when_an_enemy_can_reach_it() -> None:
    g = make()
    a = melee_model(g, 0)
    # b5 is 11" away: beyond a's charge, within what b5 can do next turn; a has one AP left
    arrange(g, {a: (14.0, 6.0), "b5": (14.0, 18.0)}, active=a, ap=1)
    assert g.decision.prompt == "action"
    choice = make_agent("heuristic", 1).choose(g)
    assert choice.kind == "end", choice


def test_the_heuristic_spends_its_last_ap_when_no_enemy_can_reach_it() -> None:
    g = make()
    a = melee_model(g, 0)
    arrange(g, {a: (14.0, 3.0), "b5": (40.0, 45.0)}, active=a, ap=1)
    assert g.decision.prompt == "action"
    choice = make_agent("heuristic", 1).choose(g)
    assert choice.kind in ("move", "run"), choice

"""The variant deck (param ``deck = "player"``, digest §3.2): the owner of the drawn card picks which of its units
with a card activates. The pick is the kernel's activation decision, so its refusals name their rules."""

from __future__ import annotations

from ttpos import line, position, rules_of, unit

from warband.kernel.actions import Action
from warband.rulesets.trenches_and_turbines.turn import next_card

R = "trenches-and-turbines"


def test_the_owner_of_the_drawn_card_picks_one_of_its_units_with_a_card() -> None:
    at = {"a1": line(10, 10, 3), "a2": line(20, 10, 3), "b1": line(10, 40, 3)}
    g = position([unit(), unit()], [unit()], at, active=None, deck=["a2", "a1", "b1"], params={"deck": "player"})
    next_card(g.state, [])
    g.state.state_id += 1
    assert g.decision.is_chance and g.decision.dice is not None and g.decision.dice.sides == 3
    g.roll([1])  # the first card: one of side A's
    assert g.decision.prompt == "pick" and g.decision.player == 0
    assert g.legal_actions() == [Action("activate", "a1"), Action("activate", "a2")]
    assert rules_of(g, "activate b1") == [f"{R}/activation/alternate"]
    assert rules_of(g, "activate zz") == [f"{R}/activation/choose"]
    g.apply(Action("activate", "a1"))
    assert g.state.vars["active"] == "a1"
    assert sorted(g.state.vars["deck"]) == ["a2", "b1"]

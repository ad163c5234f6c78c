"""The turn around the Activation Phase (digest §1), falling (§7) and BLAST (§9)."""

from __future__ import annotations

from tc import act, box, legal_texts, model, position, trooper

from warband.kernel.actions import Action


def test_fewer_models_take_the_initiative() -> None:
    """Digest §1: the player with fewer models holds the Initiative (Down models not counted by default)."""
    g = position([trooper()], [trooper(), trooper()], {"a1": (2, 2), "b1": (2, 22), "b2": (6, 22)})
    from warband.rulesets.trench_crusade import turn

    g.state.turn = 0
    events: list = []
    turn.start_turn(g.state, events)
    assert g.state.vars["initiative"] == 0 and g.decision.player == 0
    model(g, "b1").flags["down"] = True
    model(g, "b2").flags["down"] = True
    turn.start_turn(g.state, events)
    assert g.state.vars["initiative"] == 1


def test_second_morale_failure_flees_and_loses() -> None:
    """Digest §1: a Shaken warband tests again; a second failure means it flees and loses."""
    g = position([trooper(), trooper()], [trooper()], {"a1": (2, 2), "b1": (2, 22)}, to_act=0)
    g.state.sides[0].flags["shaken"] = True
    while g.state.phase == "activation":
        if g.decision.prompt == "activate":
            g.apply(g.legal_actions()[0])
        else:
            g.apply(Action("end", g.state.vars["active"]))
    g.force([1, 2])
    g.roll()
    assert g.over
    result = g.result()
    assert result is not None and result.winner == 1 and "fled" in result.reason


def test_objectives_score_and_game_ends_on_vp() -> None:
    """Digest §1 and CNL: objectives held score VP; after the last turn the side with more VP wins."""
    obj = [{"id": "o1", "at": [12, 12], "radius": 3, "vp": 1}]
    g = position(
        [trooper()],
        [trooper()],
        {"a1": (12, 11), "b1": (2, 22)},
        to_act=0,
        turns=1,
        objectives=obj,
        params={"objective_scoring_from_turn": 1},
    )
    while not g.over:
        if g.decision.is_chance:
            g.roll()
        elif g.decision.prompt == "activate":
            g.apply(g.legal_actions()[0])
        else:
            g.apply(Action("end", g.state.vars["active"]))
    result = g.result()
    assert result is not None and result.winner == 0 and result.score == (1, 0)


def test_jumping_down_three_inches_is_a_fall() -> None:
    """Digest §7: jumping down is free, but a drop of 3" or more is a fall: an Injury Roll with +1 INJURY DICE
    per full 3"."""
    tower = box("tower", "platform", 10, 9, 14, 13, height=3.0)
    g = position([trooper()], [trooper()], {"a1": (12, 11), "b1": (2, 22)}, active="a1", terrain=[tower])
    assert model(g, "a1").z == 3.0
    act(g, "move a1")
    g.force([1, 1, 2])
    g.apply(Action.parse("to a1 @12,15"))
    assert g.decision.is_chance and g.decision.dice is not None and g.decision.dice.n == 3
    g.roll()
    assert model(g, "a1").z == 0.0 and model(g, "a1").on_table


def test_blast_hits_models_around_the_target() -> None:
    """Digest §9 BLAST X": everything within X" of the point with line of sight to it takes a hit."""
    g = position(
        [trooper(weapons=["Grenades", "Trench Club"])],
        [trooper(), trooper(), trooper()],
        {"a1": (12, 6), "b1": (12, 12), "b2": (13.5, 12), "b3": (20, 12)},
        active="a1",
    )
    g.force([4, 4], [1, 1], [1, 1])
    events = g.apply(Action.parse("shoot a1 b1 [Grenades]"))
    events += g.settle()
    hit = [e for e in events if type(e).__name__ == "DiceRolled" and e.label.startswith("injury")]
    assert sorted(e.model for e in hit) == ["b1", "b2"]
    # 1 + 1 = 2 is a minor hit (+1 Blood), and SHRAPNEL adds +1 Blood after any injury result
    assert model(g, "b1").token("blood") == 2 and model(g, "b3").token("blood") == 0
    assert legal_texts(g)

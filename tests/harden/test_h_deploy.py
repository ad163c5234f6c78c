"""Issue 10 item 1, second half: deployment is two small decisions (which piece, then where) instead of one list
of every piece times every spot (144-162 numbered options for a Trench Crusade warband of 10-19 models); the
one-shot ``deploy M @x,y`` a person types is still accepted, checked by the rules."""

from __future__ import annotations

import pytest
from hardcli import TC, TT, warband

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import PositionError
from warband.kernel.ruleset import get


def _at_deployment(ruleset: str, seed: int = 3) -> Game:
    """A new game played (first options, dice as they fall) up to the first deployment decision."""
    rs = get(ruleset)
    rosters = [rs.load_roster(warband(ruleset, i)) for i in (0, 1)]
    game = Game.new(rs, rosters, rs.load_scenario(rs.default_scenario()), seed)
    while game.decision.prompt != "deploy":
        if game.decision.is_chance:
            game.roll()
        else:
            game.apply(game.legal_actions()[0])
    return game


def _side_pieces(game: Game) -> list[str]:
    side = int(game.state.vars["deployer"])
    if hasattr(game.state.ctx, "unit_order"):  # a game of units deploys unit by unit
        return [u for u in game.state.ctx.unit_order if game.state.ctx.units[u]["side"] == side]
    return [m.id for m in game.state.models.values() if m.side == side]


@pytest.mark.parametrize("ruleset", [TC, TT])
def test_the_first_decision_names_the_piece_then_a_second_one_its_spot(ruleset: str) -> None:
    game = _at_deployment(ruleset)
    pieces = _side_pieces(game)
    first = game.legal_actions()
    assert set(first) == {Action("deploy", p) for p in pieces} and len(first) == len(pieces)  # no spot yet
    pick = first[-1]
    game.apply(pick)
    d = game.decision
    assert (d.prompt, d.model, d.player) == ("deploy", pick.model, int(game.state.vars["deployer"]))
    spots = game.legal_actions()
    assert spots and all(a.model == pick.model and a.point is not None for a in spots)
    assert len(first) + len(spots) < 40  # today's list was every piece times every spot
    game.apply(spots[0])
    assert pick.model not in [a.model for a in game.legal_actions()]


def test_a_trench_crusade_warband_is_offered_far_fewer_options_than_pieces_times_spots() -> None:
    game = _at_deployment(TC)
    assert len(game.legal_actions()) == len(_side_pieces(game)) <= 19


@pytest.mark.parametrize("ruleset", [TC, TT])
def test_deploy_with_a_spot_in_one_go_is_still_accepted_and_checked(ruleset: str) -> None:
    game = _at_deployment(ruleset)
    piece = game.legal_actions()[0].model
    assert piece is not None
    probe = game.clone()
    probe.apply(Action("deploy", piece))
    spot = probe.legal_actions()[0]
    assert game.why_illegal(spot) == []  # typed at the first decision: piece and spot at once
    off_table = Action("deploy", piece, point=(-5.0, -5.0))
    (reason,) = game.why_illegal(off_table)[:1]
    assert reason[0].startswith(f"{ruleset}/")
    game.apply(spot)
    assert game.decision.model is None  # placed at once: the next piece is picked anew
    assert piece not in [a.model for a in game.legal_actions()]


def test_after_the_pick_another_piece_is_refused_by_name() -> None:
    game = _at_deployment(TC)
    first, second, *_ = game.legal_actions()
    game.apply(first)
    elsewhere = game.legal_actions()[0].point
    reasons = game.why_illegal(Action("deploy", second.model, point=elsewhere))
    assert [r for r, _ in reasons] == [f"{TC}/deploy/picked"]
    assert f"{first.model} was picked" in reasons[0][1]
    assert [r for r, _ in game.why_illegal(Action("deploy", first.model))] == [f"{TC}/deploy/syntax"]


def test_a_pending_spot_decision_survives_a_save_and_load() -> None:
    game = _at_deployment(TC)
    pick = game.legal_actions()[1]
    game.apply(pick)
    again = Game.from_json(game.to_json())
    assert again.decision.model == pick.model and again.legal_actions() == game.legal_actions()


@pytest.mark.parametrize("piece", ["zz", "a1"])
def test_a_position_picking_a_piece_that_is_not_there_is_refused(piece: str) -> None:
    game = _at_deployment(TC)
    game.apply(game.legal_actions()[0])
    data = game.to_json()
    (step,) = data["state"]["stack"]
    assert step["step"] == "deploy" and step["by"] == 1
    step["piece"] = piece  # an unknown model, or one of the other side
    with pytest.raises(PositionError, match="cannot read this state"):
        Game.from_json(data)

"""Issue 23, Wyrdcry (seed 003 Timing, digest A8): one reaction per fighter (not per side) for each enemy action,
morale that makes a warband wavering for the battle, a test that fails unrolled with no leader or Hero, withdrawing
as the player's choice in the morale phase, and reaction refusals that name their rule."""

from __future__ import annotations

from test_wyrd_engine import _activate, _duel, _melee_with_reaction_dice
from test_wyrd_faction_rules import _priest_game, _to_morale, table
from wyrd_helpers import clear_table, deploy, initiative, m, new_game, put

from warband.kernel.actions import Action
from warband.kernel.engine import Game


def rules(game: Game, action: Action) -> list[str]:
    return [r for r, _ in game.why_illegal(action)]


# ------------------------------------------------------------------------------------------- one per fighter
def test_a_second_priest_may_denounce_the_spell_the_first_denounced() -> None:
    """Seed 003 Timing: the limit is one reaction per fighter for each enemy action. The first priest's Denounce
    fails (3, not over Bravery 3); the second priest is still asked, and its 4 cancels the spell."""
    game = _priest_game()
    priest = next(x.id for x in game.state.models.values() if x.data["type"] == "Warrior Priest")
    other = next(x.id for x in game.state.models.values() if x.side == 1 and x.id != priest)
    o = m(game, other)
    o.data = {**o.data, "abilities": [*o.data.get("abilities", []), "denounce"], "bravery": 3}
    o.flags["status"] = "ready"
    put(game, other, 10.0, 15.0)  # within 6" of a1 (healing itself)
    game.apply(Action("activate", "a1"))
    game.apply(Action("ability", "a1", option="words-of-healing 6"))
    first = next(a for a in game.legal_actions() if a.option == "denounce")
    game.apply(first)
    game.roll((3,))  # no effect
    d = game.decision
    assert d.prompt == "reaction" and d.player == 1
    offered = {a.model for a in game.legal_actions() if a.option == "denounce"}
    assert first.model not in offered and offered  # the other priest, not the first again
    assert rules(game, first) == ["wyrdcry/reaction/once"]
    game.apply(next(a for a in game.legal_actions() if a.option == "denounce"))
    game.roll((4,))  # over Bravery 3: cancelled
    assert m(game, "a2").token("damage") == 5


def test_two_engaged_enemies_each_strike_a_retreating_fighter() -> None:
    game = new_game()
    deploy(game)
    initiative(game, (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6), first="opponent")
    _duel(game)
    b = next(x.id for x in game.state.models.values() if x.side == 1 and x.id != "b3")
    m(game, b).flags["status"] = "ready"
    put(game, b, 19.5, 4.0)  # in base contact beside a4
    game.state.sides[1].flags["reaction_dice"] = 2
    _activate(game, "a4")
    game.apply(Action("retreat", "a4"))
    game.apply(Action("react", "b3", "a4", option="strike-them-down"))
    game.roll((1, 1))  # b3 misses
    assert game.decision.prompt == "reaction"
    assert Action("react", b, "a4", option="strike-them-down") in game.legal_actions()


# ------------------------------------------------------------------------------------------- morale
def _half_out(b: str) -> Game:
    """A (Hardy Company) keeps only a1, B (Pyre) only ``b``: both are half out when the morale phase comes."""
    game = table("mercenaries_hardy_company", "witch_hunters_pyre")
    clear_table(game, ("a1", b))
    put(game, "a1", 6.0, 4.0)
    put(game, b, 30.0, 30.0)
    _to_morale(game, "a1", b)
    return game


def _morale_phase(game: Game, face: int) -> tuple[list[str], list[tuple[int | None, set[Action]]]]:
    """Every morale die shows ``face`` and every withdraw offer is answered 'carry-on', up to the panic tests: the
    dice asked for and the offers made."""
    asked: list[str] = []
    offered: list[tuple[int | None, set[Action]]] = []
    while game.decision.is_chance or game.decision.prompt == "withdraw":
        d = game.decision
        if d.prompt == "withdraw":
            offered.append((d.player, set(game.legal_actions())))
            game.apply(Action("carry-on"))
            continue
        assert d.dice is not None
        if "panic" in d.dice.label:
            break
        asked.append(d.dice.label)
        game.roll((face,) * d.dice.n)
    return asked, offered


def test_a_failed_morale_test_makes_the_warband_wavering_not_withdrawn() -> None:
    """Digest A8 [P]: a failed test -> wavering for the battle; the warband stays and may still carry on."""
    game = _half_out("b1")
    _, offered = _morale_phase(game, 1)  # every morale test fails
    assert game.state.sides[0].flags.get("wavering") and game.state.sides[1].flags.get("wavering")
    assert not game.state.sides[0].flags.get("withdrawn") and m(game, "a1").on_table and m(game, "b1").on_table
    choice = {Action("carry-on"), Action("withdraw")}
    assert sorted(p or 0 for p, _ in offered) == [0, 1] and all(acts == choice for _, acts in offered)


def test_with_leader_and_every_hero_out_the_test_fails_with_no_die() -> None:
    game = _half_out("b6")  # b6 is a henchman: no leader, no Hero left
    asked, _ = _morale_phase(game, 6)
    assert any("side A" in label for label in asked)
    assert not any("side B" in label and "morale" in label for label in asked)
    assert game.state.sides[1].flags.get("wavering") and not game.state.sides[0].flags.get("wavering")


def test_withdrawing_is_the_players_choice_and_the_opponent_wins() -> None:
    game = _half_out("b1")
    while game.decision.is_chance:
        game.roll((6,) * (game.decision.dice.n if game.decision.dice else 1))  # both pass
    assert not game.state.sides[0].flags.get("wavering")
    assert game.decision.prompt == "withdraw"
    side = game.decision.player
    assert side is not None
    game.apply(Action("withdraw"))
    res = game.result()
    assert game.over and res is not None and res.winner == 1 - side


def test_no_withdraw_before_half_is_out() -> None:
    game = new_game()
    deploy(game)
    initiative(game, (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6))
    why = game.why_illegal(Action("withdraw"))
    assert "wyrdcry/timing/withdraw" in [r for r, _ in why]


# ------------------------------------------------------------------------------------------- refusals
def test_pass_with_fighters_left_names_the_rule() -> None:
    game = new_game()
    deploy(game)
    initiative(game, (1, 2, 3, 4, 4, 4), (1, 2, 3, 5, 5, 6))
    assert game.decision.prompt == "activate"
    why = game.why_illegal(Action("pass"))
    assert "wyrdcry/activation/pass" in [r for r, _ in why]
    assert any("all its fighters" in t for _, t in why)


def test_a_reaction_without_a_reaction_die_names_the_cost() -> None:
    game, d = _melee_with_reaction_dice(True)
    assert d.prompt == "reaction"
    game.state.sides[1].flags["reaction_dice"] = 0
    game.state.state_id += 1
    assert rules(game, Action("react", "b3", "a4", option="counter")) == ["wyrdcry/reaction/dice"]


def test_a_reaction_after_its_moment_names_the_moment() -> None:
    game, _ = _melee_with_reaction_dice(True)
    game.apply(Action("no-reaction"))
    assert game.decision.is_chance  # the hit rolls: the moment has passed
    counter = Action("react", "b3", "a4", option="counter")
    assert rules(game, counter) == ["wyrdcry/timing/dice", "wyrdcry/timing/react"]
    game.roll((1, 1, 1))
    while game.decision.is_chance:
        game.roll()
    why = game.why_illegal(Action("react", "b3", "a4", option="counter"))
    assert "wyrdcry/timing/react" in [r for r, _ in why]
    assert any("moment" in t for _, t in why)


def test_a_second_reaction_to_the_same_action_is_refused_once() -> None:
    game, _ = _melee_with_reaction_dice(True)
    game.state.sides[1].flags["reaction_dice"] = 3
    game.apply(Action("react", "b3", "a4", option="counter"))
    assert game.decision.is_chance  # b3 alone could react: the window does not reopen for it
    from warband.rulesets.wyrdcry.reactions import ReactWindow, window_reasons

    w = ReactWindow(1, "melee", "a4", "b3", int(game.state.vars["action_seq"]))
    out = window_reasons(game.state, w, Action("react", "b3", "a4", option="take-cover"), [])
    assert [r for r, _ in out] == ["wyrdcry/reaction/once"]


def test_a_wrong_reaction_at_this_moment_names_its_own_moment() -> None:
    game, _ = _melee_with_reaction_dice(True)
    why = game.why_illegal(Action("react", "b3", "a4", option="take-cover"))
    assert [r for r, _ in why] == ["wyrdcry/reaction/moment"] and "ranged attack" in why[0][1]

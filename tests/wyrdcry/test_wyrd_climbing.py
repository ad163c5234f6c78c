"""Wyrdcry movement in three dimensions (digest wyrdcry.md §A4, Move: climbing, jumping, falling; W [R]): climbing
onto a platform or over a wall at double cost (a ladder at single cost), a climb spread over two Moves, a fall for a
fighter still climbing when its activation ends, a jump across open space with its D6 beyond half Move, the
opponent's landing spot, and a damaged fighter near a platform edge falling on a 1. Positions are on the default
scenario: walkway-a (x 6-14, y 10-13, 3" high, no ladder), roof-a (x 17.5-20.5, y 10-13, 3"), tower-a (x 24-28,
y 8-12, 6" with a ladder), wall-a (x 15-21, y 16-16.5, 1")."""

from __future__ import annotations

import math
from typing import Any

from wyrd_helpers import DATA, clear_table, deploy, initiative, m, new_game, put, why

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.scenario import load_scenario

A_DICE = (1, 2, 3, 4, 4, 4)
B_DICE = (5, 5, 6, 6, 1, 1)


def mover(params: dict[str, Any] | None = None) -> Game:
    """a4 (Move 5, a 1" base) alone against b6, far away in the corner; side A activates first."""
    game = new_game(**(params or {}))
    deploy(game)
    initiative(game, A_DICE, B_DICE)
    clear_table(game, ("a4", "b6"))
    put(game, "b6", 2, 34)
    return game


def settle(game: Game) -> None:
    """Let the reacting player decline every reaction offered."""
    while not game.decision.is_chance and game.decision.prompt == "reaction":
        game.apply(Action("no-reaction"))


def on(game: Game, mid: str, x: float, y: float, z: float) -> None:
    put(game, mid, x, y)
    m(game, mid).z = z


def start_move(game: Game, mid: str = "a4", activate: bool = True) -> None:
    if activate:
        game.apply(Action("activate", mid))
    game.apply(Action("move", mid))
    settle(game)


# ------------------------------------------------------------------------------------------- climbing
def test_a_move_climbs_onto_a_platform_paying_double_for_each_inch_climbed() -> None:
    # the ruined walkway (x 6-14, y 10-13) is 3" high: 2" across and 3" up cost 2 + 3 x climb_cost
    game = mover()
    put(game, "a4", 10, 9.0)
    start_move(game)
    top = Action("move", "a4", point=(10.0, 10.6))
    assert why(game, top) == "wyrdcry/move/climb"  # 2 + 6 > Move 5
    cheap = mover({"climb_cost": 1.0})
    put(cheap, "a4", 10, 9.0)
    start_move(cheap)
    assert why(cheap, top) == ""
    cheap.apply(top)
    assert m(cheap, "a4").z == 3.0
    half_on = Action("move", "a4", point=(10.0, 9.6))  # half on the walkway, half off
    assert why(game, half_on) == "wyrdcry/move/terrain"


def test_a_climb_spread_over_two_moves_gets_a_move_5_fighter_onto_the_walkway() -> None:
    game = mover()
    put(game, "a4", 10, 8.25)
    start_move(game)
    part = Action("move", "a4", point=(10.0, 9.25), option="climb")  # 1" to the side, then 4" buy 2" up
    assert part in game.legal_actions()
    game.apply(part)
    a4 = m(game, "a4")
    assert (a4.x, a4.y, a4.flags.get("climbed"), a4.flags.get("climbing")) == (10.0, 9.25, 2.0, "walkway-a")
    assert a4.z == 0.0  # its base stays at the foot of the side
    start_move(game, activate=False)  # the second Move carries on: 1" up (2") and 1.35" across (2")
    top = Action("move", "a4", point=(10.0, 10.6))
    assert why(game, top) == ""
    game.apply(top)
    a4 = m(game, "a4")
    assert (a4.z, a4.flags.get("climbing")) == (3.0, None)
    assert not game.decision.is_chance and game.decision.prompt != "landing"  # no fall


def test_a_climb_part_way_must_stay_beside_the_side_and_a_climber_cannot_switch_pieces() -> None:
    game = mover()
    put(game, "a4", 10, 7.0)
    start_move(game)
    assert why(game, Action("move", "a4", point=(10.0, 8.25), option="climb")) == "wyrdcry/move/climb"  # 1.25" off
    game.apply(Action("move", "a4", point=(10.0, 9.25), option="climb"))  # 3" across leave 2": 1" up
    assert m(game, "a4").flags["climbed"] == 1.0
    start_move(game, activate=False)
    on_roof = Action("move", "a4", point=(19.0, 11.5))  # another platform: not the side it clings to
    assert why(game, on_roof) == "wyrdcry/move/climb"
    retreat = mover()
    put(retreat, "a4", 10, 8.25)
    put(retreat, "b6", 10, 7.0)
    retreat.apply(Action("activate", "a4"))
    retreat.apply(Action("retreat", "a4"))
    settle(retreat)
    assert why(retreat, Action("retreat", "a4", point=(11.0, 9.25), option="climb")) == "wyrdcry/retreat/climb"


def test_still_climbing_when_the_activation_ends_is_a_fall_where_the_opponent_puts_it_down() -> None:
    game = mover()
    put(game, "a4", 10, 8.25)
    start_move(game)
    game.apply(Action("move", "a4", point=(10.0, 9.25), option="climb"))  # 2" up the walkway's side
    game.apply(Action("wait", "a4"))  # the second action ends the activation part-way up
    settle(game)
    d = game.decision
    assert (d.prompt, d.player, d.model) == ("landing", 1, "a4")  # the opponent picks the landing spot
    too_far = Action("land", "a4", point=(10.0, 7.0))
    assert why(game, too_far) == "wyrdcry/move/fall-landing"  # more than 1" (fall_landing_range) away
    assert why(game, Action("land", "a4", point=(10.0, 9.9))) == "wyrdcry/move/fall-landing"  # on the walkway
    game.apply(Action("land", "a4", point=(10.0, 8.5)))
    d = game.decision
    assert d.is_chance and d.dice is not None and (d.dice.n, d.dice.sides) == (1, 3)  # a D3 per full 2"
    game.roll((3,))
    a4 = m(game, "a4")
    assert (a4.x, a4.y, a4.z, a4.token("damage"), a4.flags.get("climbing")) == (10.0, 8.5, 0.0, 3, None)


def test_a_move_climbs_over_a_wall_at_double_cost_and_jumps_down_the_far_side() -> None:
    game = mover()
    put(game, "a4", 18, 15.0)
    start_move(game)
    over = Action("move", "a4", point=(18.0, 17.5))  # 2.5" across (3") + 1" up at double (2") = Move 5
    assert why(game, over) == ""
    game.apply(over)
    a4 = m(game, "a4")
    assert (a4.x, a4.y, a4.z) == (18.0, 17.5, 0.0)
    dear = mover({"climb_cost": 3.0})
    put(dear, "a4", 18, 15.0)
    start_move(dear)
    assert why(dear, over) == "wyrdcry/move/distance"  # 3 + 3 > 5, and the way round is longer still
    retreat = mover()
    put(retreat, "a4", 18, 15.0)
    put(retreat, "b6", 18, 13.9)
    retreat.apply(Action("activate", "a4"))
    retreat.apply(Action("retreat", "a4"))
    settle(retreat)
    assert why(retreat, Action("retreat", "a4", point=(18.0, 17.5))) != ""  # a Retreat never climbs


def test_a_ladder_climb_costs_no_double_move() -> None:
    # tower-a (6" high) has a ladder: 1" to its side, then 4" of Move climb 4" (the walkway's side: only 2")
    game = mover()
    put(game, "a4", 26, 13.75)
    start_move(game)
    game.apply(Action("move", "a4", point=(26.0, 12.75), option="climb"))
    assert (m(game, "a4").flags.get("climbed"), m(game, "a4").flags.get("climbing")) == (4.0, "tower-a")
    start_move(game, activate=False)
    top = Action("move", "a4", point=(26.0, 11.4))  # 2" up and 1.35" across (2"): 4 of 5
    assert why(game, top) == ""
    game.apply(top)
    assert m(game, "a4").z == 6.0
    doubled = mover({"ladder_climb_cost": 2.0})  # without the ladder's saving the tower is out of reach
    put(doubled, "a4", 26, 13.75)
    start_move(doubled)
    doubled.apply(Action("move", "a4", point=(26.0, 12.75), option="climb"))
    assert m(doubled, "a4").flags["climbed"] == 2.0


def test_the_sample_scenarios_have_ladders_up_the_towers_and_roofs_across_a_gap() -> None:
    for name in ("default", "treasure_hunt"):
        s = load_scenario(DATA / "scenarios" / f"{name}.yaml")
        assert {t.id for t in s.terrain if t.ladder} == {"tower-a", "tower-b"}
        assert {t.id for t in s.terrain if t.kind == "platform" and not t.ladder} >= {"walkway-a", "roof-a"}
        text = (DATA / "scenarios" / f"{name}.yaml").read_text(encoding="utf-8")
        assert "NOT EXPRESSIBLE" not in text


# ------------------------------------------------------------------------------------------- jumping
def test_jumping_down_more_than_two_inches_is_a_fall_of_a_d3_per_two_inches() -> None:
    game = mover()
    on(game, "a4", 26, 10, 6.0)  # on the watch tower (x 24-28, y 8-12), 6" up
    start_move(game)
    game.apply(Action("move", "a4", point=(26.0, 13.5)))  # the drop is not counted: 3.5" of Move 5
    d = game.decision
    assert (d.prompt, d.player) == ("landing", 1)
    game.apply(Action("land", "a4", point=(26.0, 14.0)))
    d = game.decision
    assert d.is_chance and d.dice is not None and (d.dice.n, d.dice.sides) == (3, 3)
    game.roll((1, 2, 3))
    a4 = m(game, "a4")
    assert (a4.x, a4.y, a4.z, a4.token("damage")) == (26.0, 14.0, 0.0, 6)
    with_drop = mover({"safe_drop": 3.0})  # 3" is no longer more than the safe drop
    on(with_drop, "a4", 10, 11.5, 3.0)
    start_move(with_drop)
    with_drop.apply(Action("move", "a4", point=(10.0, 14.5)))
    assert with_drop.decision.prompt == "action" and m(with_drop, "a4").z == 0.0


def jumper(params: dict[str, Any] | None = None) -> Game:
    game = mover(params)
    on(game, "a4", 13.4, 11.5, 3.0)  # on walkway-a, 3.5" of open ground from roof-a
    return game


def test_a_jump_beyond_half_move_needs_a_d6_and_lands_on_a_two() -> None:
    game = jumper()
    start_move(game)
    game.apply(Action("move", "a4", point=(18.1, 11.5)))  # 4.7" (5"), 3.5" of it over open ground > 3"
    d = game.decision
    assert d.is_chance and d.dice is not None and (d.dice.n, d.dice.sides, d.dice.label) == (1, 6, "jump")
    game.roll((2,))
    a4 = m(game, "a4")
    assert (a4.x, a4.y, a4.z) == (18.1, 11.5, 3.0)


def test_a_failed_jump_falls_into_the_gap_where_the_opponent_puts_it() -> None:
    game = jumper()
    start_move(game)
    game.apply(Action("move", "a4", point=(18.1, 11.5)))
    game.roll((1,))  # jump_fall_face 1: a fall from 3"
    d = game.decision
    assert (d.prompt, d.player) == ("landing", 1)
    spots = [a.point for a in game.legal_actions()]
    assert spots and all(p is not None and 14.5 <= p[0] <= 17.0 for p in spots)  # in the gap
    game.apply(game.legal_actions()[0])
    game.roll((2,))  # one D3: 3" fallen
    a4 = m(game, "a4")
    assert (a4.z, a4.token("damage")) == (0.0, 2)


def test_a_jump_within_half_move_needs_no_test_and_a_jump_is_one_straight_leg() -> None:
    game = jumper()
    game.apply(Action("activate", "a4"))
    m(game, "a4").flags["move_bonus"] = 2  # Move 7: half is 4 (rounded up), the gap 3.5"
    start_move(game, activate=False)
    game.apply(Action("move", "a4", point=(18.1, 11.5)))
    assert not game.decision.is_chance
    assert m(game, "a4").z == 3.0 and m(game, "a4").x == 18.1
    bent = jumper()
    on(bent, "b6", 16.0, 11.5, 0.0)  # an enemy below, straight in the line of the jump
    start_move(bent)
    assert why(bent, Action("move", "a4", point=(18.1, 11.5))) == "wyrdcry/move/jump"


# ------------------------------------------------------------------------------------------- edges
def edge_fight(edge_face: int = 1) -> Game:
    """a4 on walkway-a hits b6, who stands 0.4" from the walkway's edge (y 10)."""
    game = mover({"edge_fall_face": edge_face})
    on(game, "b6", 10.0, 10.9, 3.0)
    on(game, "a4", 10.0, 11.95, 3.0)
    axe_hit(game)
    return game


def axe_hit(game: Game) -> None:
    """a4 activates and lands one hit of its Axe on b6; the game goes on to the next decision that is not a roll."""
    game.apply(Action("activate", "a4"))
    game.apply(Action("attack", "a4", "b6", option="Axe"))
    settle(game)
    d = game.decision
    assert d.is_chance and d.dice is not None
    game.roll((5,) + (1,) * (d.dice.n - 1))  # one hit
    settle(game)


def test_a_fighter_damaged_near_a_platform_edge_falls_off_on_a_one() -> None:
    game = edge_fight()
    hit = m(game, "b6").token("damage")
    assert hit > 0
    d = game.decision
    assert d.is_chance and d.dice is not None and (d.dice.n, d.dice.sides, d.dice.label) == (1, 6, "edge")
    game.roll((1,))
    d = game.decision
    assert (d.prompt, d.player, d.model) == ("landing", 0, "b6")  # the opponent (side A) puts it down
    spots = [a.point for a in game.legal_actions()]
    assert spots and all(p is not None and p[1] < 10.0 for p in spots)  # off the near edge, on the ground
    game.apply(game.legal_actions()[0])
    game.roll((2,))
    b6 = m(game, "b6")
    assert (b6.z, b6.token("damage")) == (0.0, hit + 2)


def test_a_damaged_fighter_keeps_its_footing_above_one_or_away_from_the_edge() -> None:
    game = edge_fight()
    game.roll((2,))
    assert m(game, "b6").z == 3.0
    assert not game.decision.is_chance
    never = edge_fight(edge_face=0)  # a face of 0 never falls
    never.roll((1,))
    assert m(never, "b6").z == 3.0
    middle = mover()
    on(middle, "b6", 10.0, 11.3, 3.0)  # its base 0.8" from the walkway's nearest edge (y 10): more than 1/2"
    on(middle, "a4", 10.0, 12.35, 3.0)
    axe_hit(middle)
    assert m(middle, "b6").token("damage") > 0
    assert not (middle.decision.is_chance and middle.decision.prompt == "edge")


def test_with_no_room_near_the_fall_the_opponent_picks_the_nearest_free_ground() -> None:
    game = new_game(fall_landing_range=0.0)  # only the very spot where it fell is within range
    deploy(game)
    initiative(game, A_DICE, B_DICE)
    clear_table(game, ("a4", "b6", "a1"))
    on(game, "b6", 10.0, 10.9, 3.0)
    on(game, "a4", 10.0, 11.95, 3.0)
    put(game, "a1", 10.0, 9.25)  # standing just below the edge, where b6 would land
    axe_hit(game)
    game.roll((1,))  # the edge roll: it falls
    options = game.legal_actions()
    assert game.decision.prompt == "landing" and options
    for a in options:  # the nearest ring with room: 1" out, clear of a1's base
        assert a.point is not None and abs(math.hypot(a.point[0] - 10.0, a.point[1] - 9.25) - 1.0) < 0.02
        assert why(game, a) == ""
    assert why(game, Action("land", "b6", point=(10.0, 9.25))) == "wyrdcry/move/fall-landing"  # on a1
    game.apply(options[0])
    assert m(game, "b6").z == 0.0

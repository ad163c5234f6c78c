"""Legal-action counts for fixed positions (like chess perft), each count derived by hand from seed 000."""

from __future__ import annotations

from tc import act, legal_texts, position, trooper


def test_open_field_shooter() -> None:
    # a1 (rifle, club) 10" from b1: Move, Dash, Charge b1 (9.0" <= 12, visible), Shoot b1 (24" rifle), End.
    # No Retreat (not within 1"), no Fight (nobody within 1").
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 14)}, active="a1")
    assert legal_texts(g) == ["move a1", "dash a1", "charge a1 b1", "shoot a1 b1 [Bolt Action Rifle]", "end a1"]


def test_engaged_model() -> None:
    # within 1" of b1: Retreat, Fight b1 with the club, End; no Move or Dash (only a Retreat moves an engaged
    # model), no Charge, no Shoot.
    g = position([trooper()], [trooper()], {"a1": (12, 12), "b1": (12, 13.2)}, active="a1")
    assert legal_texts(g) == ["retreat a1", "fight a1 b1 [Trench Club]", "end a1"]


def test_two_weapons_two_enemies_in_melee() -> None:
    # Pistol (ranged and melee) + club, two enemies within 1": 2 weapons x 2 targets = 4 Fights, plus Retreat and
    # End = 6 (no Move or Dash while within 1").
    g = position(
        [trooper(weapons=["Pistol", "Trench Club"])],
        [trooper(), trooper()],
        {"a1": (12, 12), "b1": (12, 13.2), "b2": (13.2, 12)},
        active="a1",
    )
    assert len(legal_texts(g)) == 6
    assert sum(t.startswith("fight") for t in legal_texts(g)) == 4


def test_after_move_and_shoot_only_dash_and_end_remain() -> None:
    # Move used (so no Charge or Retreat), Shoot used: Dash and End; Fight impossible (nobody within 1").
    g = position([trooper()], [trooper()], {"a1": (12, 4), "b1": (12, 20)}, active="a1")
    act(g, "move a1")
    act(g, "to a1 @12,6")
    g.force([1, 1, 1])  # 14" away: long range, -1 DICE, three dice
    act(g, "shoot a1 b1 [Bolt Action Rifle]")
    assert legal_texts(g) == ["dash a1", "end a1"]


def test_activation_choices() -> None:
    # side A to activate, a1 already activated this turn: only a2.
    g = position([trooper(), trooper()], [trooper()], {"a1": (2, 2), "a2": (6, 2), "b1": (2, 22)}, to_act=0)
    g.state.models["a1"].flags["activated"] = True
    assert legal_texts(g) == ["activate a2"]

"""Named abilities the New Antioch and Trench Pilgrims lists share (../shared/data/trench-crusade/keywords.yaml),
and the Medi-Kit they use, played from the player's side with catalogue models."""

from __future__ import annotations

from typing import Any

from tc import model, position, rolls, rules_of, run

from warband.kernel.engine import Game

R = "trench-crusade"
NA, TP = "New Antioch", "Trench Pilgrims"
LIEUTENANT = {"model": "Lieutenant", "equipment": ["Bolt-Action Rifle"]}
YEOMAN = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Trench Club"]}
KIT_YEOMAN = {"model": "Yeoman", "equipment": ["Bolt-Action Rifle", "Medi-Kit"]}


def _pair(first: dict[str, Any], second: dict[str, Any], gap_y: float = 1.5, faction: str = NA) -> Game:
    """``a1`` and its friend ``a2`` (``gap_y`` inches apart, centre to centre), a leader each side far away."""
    leader = LIEUTENANT if faction == NA else {"model": "War Prophet"}
    return position(
        [first, second, leader],
        [leader],
        {"a1": (12, 4), "a2": (12, 4 + gap_y), "b1": (12, 22)},
        active="a1",
        factions=(faction, faction),
    )


def test_medi_kit_removes_a_blood_marker_from_a_friend_within_an_inch() -> None:
    """Medi-Kit: a Risky action on a friend within 1" (or the bearer): it loses one Blood marker."""
    g = _pair(KIT_YEOMAN, YEOMAN)
    model(g, "a2").tokens["blood"] = 2
    g.force([4, 4])  # a Yeoman's own two dice: 8, a success
    events = run(g, "ability a1 a2 [Medi-Kit]")
    assert len(rolls(events, "medi_kit")[0].values) == 2
    assert model(g, "a2").token("blood") == 1


def test_medi_kit_stands_a_down_friend_up() -> None:
    """Medi-Kit: a Down friend stands up (ours: rather than losing a Blood marker)."""
    g = _pair(KIT_YEOMAN, YEOMAN)
    model(g, "a2").flags["down"] = True
    model(g, "a2").tokens["blood"] = 1
    g.force([4, 4])
    run(g, "ability a1 a2 [Medi-Kit]")
    assert not model(g, "a2").flags.get("down") and model(g, "a2").token("blood") == 1


def test_medi_kit_failed_roll_is_risky() -> None:
    """Medi-Kit: a failure heals nothing and (Risky) ends the bearer's activation."""
    g = _pair(KIT_YEOMAN, YEOMAN)
    model(g, "a2").tokens["blood"] = 1
    g.force([1, 2])
    run(g, "ability a1 a2 [Medi-Kit]")
    assert model(g, "a2").token("blood") == 1 and g.state.vars.get("active") != "a1"


def test_medi_kit_reaches_no_friend_beyond_an_inch() -> None:
    """Medi-Kit: a friend 4 inches away is refused, naming the Medi-Kit's rule; a model without one has none."""
    g = _pair(KIT_YEOMAN, YEOMAN, gap_y=4)
    model(g, "a2").tokens["blood"] = 1
    assert rules_of(g, "ability a1 a2 [Medi-Kit]") == [f"{R}/ability/medi_kit"]
    g2 = _pair(YEOMAN, YEOMAN)
    assert rules_of(g2, "ability a1 a2 [Medi-Kit]") == [f"{R}/ability/unknown"]


def test_expert_medic_rolls_the_medi_kit_at_plus_one_dice() -> None:
    """Expert Medic (Combat Medic of New Antioch and of the Trench Pilgrims): +1 DICE on its Medi-Kit's roll."""
    pilgrim = {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    for medic, faction, friend in (("Combat Medic", NA, YEOMAN), ("Combat Medic (Pilgrim)", TP, pilgrim)):
        g = _pair({"model": medic}, friend, faction=faction)  # its Medi-Kit is fixed kit
        model(g, "a2").tokens["blood"] = 1
        g.force([1, 4, 4])  # three dice, the two highest kept: 8
        events = run(g, "ability a1 a2 [Medi-Kit]")
        assert len(rolls(events, "medi_kit")[0].values) == 3, medic
        assert model(g, "a2").token("blood") == 0, medic


def _observer(faction: str) -> Game:
    """An Observer (a mercenary of both lists) that has just activated, a friend beside it."""
    friend = YEOMAN if faction == NA else {"model": "Trench Pilgrim", "equipment": ["Trench Club"]}
    return _pair({"model": "Observer"}, friend, gap_y=6, faction=faction)


def test_eye_of_god_rerolls_a_failed_action() -> None:
    """Eye of God (Observer, New Antioch and Trench Pilgrims): a failed Dash roll is rolled again and the re-roll
    decides (no 1 on it: it stays up)."""
    for faction in (NA, TP):
        g = _observer(faction)
        g.force([2, 3], [4, 5])  # 5: a failure; the re-roll 9: a success
        dash = rolls(run(g, "dash a1"), "dash")
        assert [r.values for r in dash] == [(2, 3), (4, 5)], faction
        assert not model(g, "a1").flags.get("down") and g.state.vars.get("active") == "a1"


def test_eye_of_god_a_one_on_the_reroll_knocks_it_down() -> None:
    """Eye of God: any 1 on the re-roll knocks the Observer Down and ends its activation."""
    g = _observer(NA)
    g.force([2, 3], [1, 6])
    dash = rolls(run(g, "dash a1"), "dash")
    assert len(dash) == 2 and model(g, "a1").flags.get("down")
    assert g.state.vars.get("active") != "a1" and (model(g, "a1").x, model(g, "a1").y) == (12, 4)  # no Dash


def test_eye_of_god_rerolls_only_a_failure_and_only_once() -> None:
    """Eye of God: a success is not rolled again; a failed re-roll is not re-rolled again; a Yeoman has none."""
    g = _observer(NA)
    g.force([4, 5])
    assert len(rolls(run(g, "dash a1"), "dash")) == 1
    g2 = _observer(NA)
    g2.force([2, 3], [2, 2])
    assert len(rolls(run(g2, "dash a1"), "dash")) == 2
    g3 = _pair(YEOMAN, YEOMAN, gap_y=6)
    g3.force([2, 3])
    assert len(rolls(run(g3, "dash a1"), "dash")) == 1

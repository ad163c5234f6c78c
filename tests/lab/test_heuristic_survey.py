"""``scripts/heuristic_survey.py``: every ordered pairing of the samples, the agent under test on warband A, the
games ``warband simulate`` plays, and its wins, draws and losses counted from warband A's side."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from warband.lab.records import GameRecord

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "heuristic_survey.py"


def script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("heuristic_survey", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_ordered_pair_of_different_samples_once_per_seed() -> None:
    survey = script()
    runs = survey.configs("wyrdcry", 2, [1, 101], "heuristic")
    pairs = {(c.roster_a.name, c.roster_b.name) for c in runs}
    assert len(pairs) == 30 and all(a != b for a, b in pairs)  # six samples, both orders
    assert len(runs) == 60 and sum(c.games for c in runs) == 120
    assert {c.seed for c in runs} == {1, 101}
    # the agent under test plays warband A in every run; the seats swap in odd games as in `warband simulate`
    assert all(c.agent_a == "heuristic" and c.agent_b == "random" and c.swap_sides for c in runs)


@pytest.mark.parametrize(
    ("winner", "swapped", "expected"), [("a", False, "W"), ("a", True, "W"), ("b", True, "L"), (None, False, "D")]
)
def test_outcomes_are_counted_for_warband_a_whichever_seat_it_had(
    winner: str | None, swapped: bool, expected: str
) -> None:
    survey = script()
    record = GameRecord(1, 7, winner, "", (0, 0), 4, 10, 10, swapped)
    assert survey.outcome(record) == expected


def test_one_game_is_played_and_counted(capsys: pytest.CaptureFixture[str]) -> None:
    survey = script()
    runs = survey.configs("wyrdcry", 1, [3], "random")[:1]
    ((k, record),) = list(survey.play_all(runs, 1))
    assert k == 0 and record.crash is None and survey.outcome(record) in "WDL"


def test_a_game_not_won_is_named_so_that_it_can_be_played_again() -> None:
    # --show prints each game the agent under test did not win: the pairing, the run's seed and the game's
    # index (what `warband simulate ... --seed S` and its game I replay), the score and the rounds played.
    survey = script()
    config = survey.configs("wyrdcry", 2, [7], "heuristic")[0]
    record = GameRecord(1, 99, "b", "more enemies out of action", (1, 3), 4, 10, 10, True)
    line = survey.not_won(config, record)
    a, b = config.roster_a.stem, config.roster_b.stem
    assert line == f"{a} v {b} seed 7 game 1: 1-3 after 4 rounds (more enemies out of action)"


def test_a_screen_plays_only_the_pairings_named() -> None:
    # --pair A:B keeps the ordered pairing A (agent under test) against B (random), in both seats and every seed
    survey = script()
    pairs = ["sisters_hammer_of_sigmar:mercenaries_reikland_shots", "sisters_words_of_healing:witch_hunters_pyre"]
    runs = survey.configs("wyrdcry", 2, [3, 5], "heuristic", pairs)
    assert sorted({(c.roster_a.stem, c.roster_b.stem) for c in runs}) == [
        ("sisters_hammer_of_sigmar", "mercenaries_reikland_shots"),
        ("sisters_words_of_healing", "witch_hunters_pyre"),
    ]
    assert len(runs) == 4 and {c.seed for c in runs} == {3, 5}


def test_a_pairing_not_among_the_samples_is_refused() -> None:
    survey = script()
    with pytest.raises(SystemExit, match="unknown pairing"):
        survey.configs("wyrdcry", 2, [1], "heuristic", ["sisters_hammer_of_sigmar:no_such_band"])

"""Golden playthrough: a whole seeded random-vs-random game, every decision, roll and effect (regenerate with
``scripts/golden.py`` after an intended change and read the diff).

Beyond the byte comparison, the golden text is re-checked here by rules written independently of the engine:
every Success Roll and Injury Roll in it is recomputed from its dice with the seed's table, and the activation
order obeys the alternation of seed 000. So the golden file is not trusted just because the engine wrote it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = ROOT / "tests" / "golden" / "trench-crusade-seed7.txt"
sys.path.insert(0, str(ROOT / "scripts"))

from golden import CASES, playthrough  # noqa: E402

ROLL = re.compile(
    r"^\s+(\w+): (?P<what>[\w ]+?) \((?P<net>[+-]\d+) DICE(?:, risky)?\) rolled \[(?P<v>[\d, ]+)\] "
    r"-> (?P<tot>\d+): (?P<res>\w+)$"
)
INJ = re.compile(
    r"^\s+(\w+): injury roll \((?P<src>[^,]+), (?P<dice>[+-]\d+) INJURY DICE, (?P<mod>[+-]\d+)\) "
    r"rolled \[(?P<v>[\d, ]+)\] -> (?P<tot>-?\d+): (?P<res>\w+)$"
)


def keep_two(values: list[int], net: int) -> int:
    ordered = sorted(values)
    return sum(ordered[-2:]) if net >= 0 else sum(ordered[:2])


def test_golden_playthrough_is_reproduced() -> None:
    name, case = next(iter(CASES.items()))
    assert GOLDEN.name == name
    assert playthrough(*case) == GOLDEN.read_text()


def test_every_success_roll_in_the_golden_follows_the_table() -> None:
    """Seed 000: 2 + |DICE| dice, keep the 2 highest (+) or lowest (-); 2-6 failure, 7-11 success, 12 critical."""
    checked = 0
    for line in GOLDEN.read_text().splitlines():
        m = ROLL.match(line)
        if not m:
            continue
        net, values = int(m["net"]), [int(x) for x in m["v"].split(",")]
        assert len(values) == 2 + abs(net), line
        total = keep_two(values, net)
        want = "failure" if total <= 6 else "critical" if total >= 12 else "success"
        assert (int(m["tot"]), m["res"]) == (total, want), line
        checked += 1
    assert checked > 30


def test_every_injury_roll_in_the_golden_follows_the_table() -> None:
    """Digest §6: 2D6 +/- INJURY DICE keep two, plus modifiers; <=1 none, 2-6 minor, 7-8 Down, 9+ Out of Action."""
    checked = 0
    for line in GOLDEN.read_text().splitlines():
        m = INJ.match(line)
        if not m:
            continue
        net, values = int(m["dice"]), [int(x) for x in m["v"].split(",")]
        assert len(values) == 2 + abs(net), line
        total = keep_two(values, net) + int(m["mod"])
        want = "none" if total <= 1 else "minor" if total <= 6 else "down" if total <= 8 else "out"
        assert (int(m["tot"]), m["res"]) == (total, want), line
        checked += 1
    assert checked >= 3


def test_activations_alternate_until_one_side_runs_out() -> None:
    """Seed 000: back and forth; when one side has no model left, the other activates the rest in a row."""
    turns = GOLDEN.read_text().split("=== turn ")[2:]
    assert len(turns) == 4
    for text in turns:
        sides = re.findall(r"side ([AB]) activate: activate", text)
        first_repeat = next((i for i in range(1, len(sides)) if sides[i] == sides[i - 1]), len(sides))
        # after the first repeat, only one side is left to activate
        assert len(set(sides[first_repeat - 1 :])) == 1, sides
        assert all(sides[i] != sides[i - 1] for i in range(1, first_repeat))

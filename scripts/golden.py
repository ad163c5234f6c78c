"""Regenerate the golden playthroughs in tests/golden/ (run after an intended change of behaviour, then read the
diff: every changed line is a changed rule outcome).

    .venv/bin/python scripts/golden.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from warband.agents.base import make_agent
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game

OUT = Path(__file__).resolve().parents[1] / "tests" / "golden"
CASES = {
    "trench-crusade-seed7.txt": ("trench-crusade", 7, "pilgrims_sacred_affliction.yaml", "new_antioch_company.yaml")
}


def playthrough(ruleset_id: str, seed: int, a: str, b: str) -> str:
    """Random-vs-random game: every decision, the choice or the dice, the events; the table at each new turn."""
    rs = registry.get(ruleset_id)
    wb = {Path(x["path"]).name: Path(x["path"]) for x in rs.samples()["warbands"]}
    game = Game.new(rs, [rs.load_roster(wb[a]), rs.load_roster(wb[b])], rs.load_scenario(rs.default_scenario()), seed)
    agents = [make_agent("random", seed), make_agent("random", seed + 1)]
    lines: list[str] = []
    turn = -1
    while not game.over:
        if game.state.turn != turn:
            turn = game.state.turn
            lines.append(f"=== turn {turn}")
            lines.extend(rs.render(game.state).splitlines())
        d = game.decision
        if d.is_chance:
            head = f"[{game.state.state_id}] chance {d.dice}"
            events = game.roll()
        else:
            assert d.player is not None
            action = agents[d.player].choose(game)
            head = f"[{game.state.state_id}] side {'AB'[d.player]} {d.prompt}: {action}"
            events = game.apply(action)
        lines.append(head)
        lines.extend(f"    {e.describe()}" for e in events)
    result = game.result()
    assert result is not None
    lines.append(f"=== result {result.to_json()['winner']} {result.reason} {list(result.score)}")
    return "\n".join(lines) + "\n"


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, case in CASES.items():
        (OUT / name).write_text(playthrough(*case))
        print(f"wrote {OUT / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

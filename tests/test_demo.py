"""``make demo`` end to end with a few games: it prints a saved log, and that log replays and verifies."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from warband.kernel.log import read_log, replay


def test_demo_saves_a_log_that_replays(tmp_path: Path) -> None:
    env = {**os.environ, "WARBAND_DEMO_GAMES": "4", "WARBAND_DEMO_AGENT": "random"}
    done = subprocess.run(
        [sys.executable, "-m", "warband.demo"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr
    assert "4 games" in done.stdout
    match = re.search(r"warband replay (\S+) --verify", done.stdout)
    assert match, done.stdout
    path = tmp_path / match.group(1)
    assert path.is_file()
    assert sorted(p.name for p in path.parent.iterdir()) == ["game-00000.jsonl", "game-00001.jsonl", "game-00002.jsonl"]
    game = replay(read_log(path), verify=True)
    assert game.over
    assert "--set charge_range=8" in done.stdout

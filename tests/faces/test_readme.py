"""The README's examples run, so they cannot go stale (issue 25: "the README's examples are run by a test").

Every ```sh block of README.md is a script: ``NAME=value`` lines set variables for the commands after them, and every
``warband ...`` line is run, in order, in one scratch folder (so a file one command writes is there for the next).
Two things differ from a reader's run, both to keep the suite fast: ``--games N`` is capped at 2, and ``play`` gets
``quit`` on its input (it is interactive). Every command must exit 0.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
GAMES_CAP = 2


def sh_blocks(text: str) -> list[list[str]]:
    """The lines of each ```sh block (continuation backslashes joined)."""
    blocks: list[list[str]] = []
    for body in re.findall(r"^```sh\n(.*?)^```", text, flags=re.S | re.M):
        joined = body.replace("\\\n", " ")
        blocks.append([line.strip() for line in joined.splitlines() if line.strip()])
    return blocks


def commands() -> list[list[str]]:
    """Every ``warband`` command of the README as argv, variables expanded, ``--games`` capped."""
    env: dict[str, str] = {}
    out: list[list[str]] = []
    for block in sh_blocks(README.read_text(encoding="utf-8")):
        for line in block:
            line = line.split("  #", 1)[0].strip()
            assign = re.fullmatch(r"([A-Z_]+)=(\S+)", line)
            if assign:
                env[assign.group(1)] = assign.group(2)
                continue
            if line.startswith("make "):
                continue  # the environment itself: the suite already runs inside it
            for name, value in env.items():
                line = line.replace(f"${name}", value)
            argv = shlex.split(line)
            assert argv[0] == "warband", f"README.md: a ```sh line that is not a warband command: {line!r}"
            for i, word in enumerate(argv[:-1]):
                if word == "--games" and int(argv[i + 1]) > GAMES_CAP:
                    argv[i + 1] = str(GAMES_CAP)
            out.append(argv)
    return out


def test_readme_has_the_tour() -> None:
    found = commands()
    verbs = {argv[1] for argv in found}
    # the tour shows every face a player meets first
    for verb in ("validate", "play", "replay", "odds", "simulate", "report", "compare", "balance", "legal", "build"):
        assert verb in verbs, f"README.md's tour lost its `warband {verb}` example"


def test_readme_is_for_users() -> None:
    assert README.stat().st_size < 15_000, "README.md over 15 KB: move the development record to docs/"


def test_readme_links_exist() -> None:
    text = README.read_text(encoding="utf-8")
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
        if "://" in target:
            continue
        assert (ROOT / target).exists(), f"README.md links to {target}, which does not exist"


@pytest.mark.xdist_group("readme")
def test_readme_commands_run(tmp_path: Path) -> None:
    """Each command in order, in one folder; the sample paths are the repository's."""
    for argv in commands():
        args = [sys.executable, "-m", "warband", *argv[1:]]
        args = [str(ROOT / a) if a.startswith("src/") else a for a in args]
        stdin = "quit\n" if argv[1] == "play" else ""
        proc = subprocess.run(
            args,
            cwd=tmp_path,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
            env={**os.environ, "COLUMNS": "120"},
        )
        assert proc.returncode == 0, f"README.md: `{shlex.join(argv)}` exited {proc.returncode}:\n{proc.stderr[-2000:]}"

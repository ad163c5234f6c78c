"""Helpers for the hardening tests (issue 10): run the CLI as ``warband.cli.main.run`` would and paths of samples."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from typer.testing import CliRunner

from warband.cli.main import app
from warband.kernel.errors import WarbandError
from warband.kernel.ruleset import get

TC = "trench-crusade"
TT = "trenches-and-turbines"
RANDOM = ["--agent-a", "random", "--agent-b", "random"]


@dataclass(frozen=True)
class Outcome:
    """What a person sees: the exit code ``run()`` gives and the text printed (stdout, stderr and the error)."""

    code: int
    text: str


def cli(*args: str | Path, input: str | None = None) -> Outcome:
    """Invoke ``warband ARGS``; a WarbandError becomes exit 2 with its message (as ``run()`` does); any other
    exception fails the test, since the contract is "never a traceback"."""
    result = CliRunner().invoke(app, [str(a) for a in args], input=input)
    exc = result.exception
    if exc is None or isinstance(exc, SystemExit):
        return Outcome(result.exit_code, result.output)
    if isinstance(exc, WarbandError):
        return Outcome(2, result.output + f"error: {exc}")
    raise AssertionError(f"traceback instead of a clear error: {exc!r}") from exc


def warband(ruleset: str, index: int = 0) -> Path:
    """The path of the ``index``-th bundled sample warband of ``ruleset``."""
    return Path(get(ruleset).samples()["warbands"][index]["path"])


def scenario(ruleset: str) -> Path:
    return get(ruleset).default_scenario()

"""Every option's help text reaches the user whole.

The CLI renders help with rich markup, where ``[...]`` is a style tag: a help text written as
``"Scenario file [default: the ruleset's]."`` printed as ``"Scenario file ."``. This walks every command and
option of the ``warband`` app and fails on any help with a square bracket, which would be eaten.
"""

from __future__ import annotations

from typing import Any

import typer.main

from warband.cli.main import app


def _commands(cmd: Any, path: str = "warband") -> list[tuple[str, Any]]:
    out = [(path, cmd)]
    subs = getattr(cmd, "commands", None)
    if subs:
        for name, sub in subs.items():
            out.extend(_commands(sub, f"{path} {name}"))
    return out


def test_no_help_text_is_eaten_by_markup() -> None:
    root = typer.main.get_command(app)
    commands = _commands(root)
    assert len(commands) > 10  # the walk reached the subcommands
    bad = []
    for path, cmd in commands:
        texts = [("help", cmd.help or "")]
        texts += [(p.name or "?", getattr(p, "help", None) or "") for p in cmd.params]
        bad += [f"{path} {name}: {text!r}" for name, text in texts if "[" in text]
    assert not bad, "\n".join(bad)

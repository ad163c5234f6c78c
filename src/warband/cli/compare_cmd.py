"""Placeholder: filled in by the lab work (registers its commands on the main app)."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""

"""The example game's warband files (rule 1 of docs/rules/example.md): a name and a list of models, each with
its profile. A sample::

    ruleset: example
    name: Red Raiders
    models:
      - {name: Raider Captain, move: 6, skill: 3, wounds: 3, base_mm: 32}
      - {name: Raider, count: 3, move: 6, skill: 4, wounds: 1}

The format is a pydantic model, so a bad file gets every problem at once, each naming its place
(``models[1].skill``) and what was expected; the kernel's :func:`~warband.kernel.roster.load_validated` reads it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import Field

from warband.kernel.errors import Problem, RosterError
from warband.kernel.roster import DocumentEntry, describe_value, load_validated


class Entry(DocumentEntry):
    """One line of the warband: ``count`` models with the same profile."""

    name: str = Field(min_length=1)
    count: int = Field(default=1, ge=1, le=20)
    move: float = Field(gt=0, le=24, description="Inches a Move may take the model.")
    skill: int = Field(ge=2, le=6, description="The D6 score its attacks need to hit.")
    wounds: int = Field(ge=1, le=10)
    base_mm: float = Field(default=25, ge=20, le=100)


class Warband(DocumentEntry):
    ruleset: str
    name: str = Field(min_length=1)
    models: list[Entry] = Field(min_length=1, max_length=20)


def load_warband(path: str | Path, ruleset_id: str) -> Warband:
    """Read and check a warband file for the ruleset ``ruleset_id``; RosterError lists every problem."""

    def check(file: str, w: Warband) -> list[Problem]:
        if w.ruleset == ruleset_id:
            return []
        return [Problem(file, "ruleset", f"expected {ruleset_id!r}, found {describe_value(w.ruleset)}")]

    return load_validated(path, Warband, RosterError, check)


def profiles(doc: dict[str, Any]) -> list[dict[str, Any]]:
    """One static profile per model of a validated warband document (``count`` expanded), in roster order:
    what the rules read from ``Model.data``."""
    out: list[dict[str, Any]] = []
    for entry in Warband.model_validate(doc).models:
        for i in range(entry.count):
            name = entry.name if entry.count == 1 else f"{entry.name} {i + 1}"
            out.append({**entry.model_dump(exclude={"count"}), "name": name, "type": entry.name})
    return out

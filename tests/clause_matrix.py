"""Clause-matrix helpers shared by the rulesets' tests: the code a matrix names must exist."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

_FILES = (".py", ".toml", ".yaml", ".md")


def code_references(matrix: Path) -> list[str]:
    """Every ```module.name[.member]``` the matrix names (file names such as ``roster.py`` left out), in order."""
    refs = re.findall(r"`([a-z_]\w*)((?:\.\w+)+)`", matrix.read_text())
    return [m + rest for m, rest in refs if rest not in _FILES]


def unresolved(refs: list[str], package: str) -> list[str]:
    """The references that name nothing in ``package``: no such module, or no such name in it. ``module.name.member``
    is looked up as the running code sees it, so a member a class inherits counts."""
    out = []
    for ref in refs:
        module, *names = ref.split(".")
        try:
            obj: object = importlib.import_module(f"{package}.{module}")
        except ModuleNotFoundError:
            out.append(ref)
            continue
        for name in names:
            if not hasattr(obj, name):
                out.append(ref)
                break
            obj = getattr(obj, name)
    return out

"""Gangfight (seed 004). The Ruleset class is ``ruleset.Gangfight`` (entry point ``gangfight``); it lives in its
own module so that ``dice.py`` and ``roster.py`` can import the paths below without an import loop. See
``docs/rules/gangfight.md`` and ``docs/design/gangfight-steps.md``.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).parent
PARAMS_PATH = PACKAGE_DIR / "params.toml"
DATA_DIR = PACKAGE_DIR / "data"

__all__ = ["DATA_DIR", "PACKAGE_DIR", "PARAMS_PATH"]

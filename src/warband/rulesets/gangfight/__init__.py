"""Gangfight (seed 004): groundwork only -- party files, data, parameters, dice and exact odds.

The Ruleset class and its entry point come with the engine (next phase); until then this package is not
registered, so the conformance suite does not pick it up. See ``docs/rules/gangfight.md`` and
``docs/design/gangfight-steps.md``.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).parent
PARAMS_PATH = PACKAGE_DIR / "params.toml"
DATA_DIR = PACKAGE_DIR / "data"

__all__ = ["DATA_DIR", "PACKAGE_DIR", "PARAMS_PATH"]

"""Write the JSON Schemas of the data files to docs/schemas/.

Usage: python scripts/export_schemas.py [--check]

With --check nothing is written; the exit code is 1 if a committed schema is out of date.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from warband.kernel.scenario import Scenario
from warband.rulesets.gangfight.roster import GFParty
from warband.rulesets.trench_crusade.warband_file import TCWarbandFile
from warband.rulesets.wyrdcry.roster import Warband as WyrdcryWarband

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "docs" / "schemas"


def render() -> dict[str, str]:
    """File name -> schema text, exactly as committed."""
    schemas = {
        "tc-roster.schema.json": TCWarbandFile.model_json_schema(),
        "scenario.schema.json": Scenario.model_json_schema(),
        "gf-party.schema.json": GFParty.model_json_schema(),
        "wyrdcry-warband.schema.json": WyrdcryWarband.model_json_schema(),
    }
    return {name: json.dumps(schema, indent=2, sort_keys=True) + "\n" for name, schema in schemas.items()}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, text in render().items():
        path = OUT_DIR / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(name)
        if not check:
            OUT_DIR.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if check and stale:
        print(f"out of date: {', '.join(stale)} (run python scripts/export_schemas.py)", file=sys.stderr)
        return 1
    for name in stale:
        print(f"wrote docs/schemas/{name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

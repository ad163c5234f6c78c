"""Write the Trench Crusade catalogue the ruleset ships (src/warband/rulesets/trench_crusade/data/catalogue/*.json)
from the catalogue's YAML files (the facts taken from Trench Companion's data; see the README beside the JSON).

Usage: python scripts/import_catalogue.py FOLDER   (holding factions, models, equipment and keywords .yaml)

The package reads JSON: the four YAML files take over a second to parse at every start of a process, the JSON a
few hundredths. The only change made to the facts: The Principality of New Antioch gets ``short_name: New
Antioch``, the name players and messages use.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "src" / "warband" / "rulesets" / "trench_crusade" / "data" / "catalogue"
FILES = ("factions", "models", "equipment", "keywords")
SHORT_NAMES = {"new_antioch": "New Antioch"}


def _short_names(doc: dict[str, Any]) -> None:
    """Give a faction the short name players use, right after its name."""
    for i, faction in enumerate(doc["factions"]):
        short = SHORT_NAMES.get(faction["id"])
        if short is not None:
            keys = list(faction)
            at = keys.index("name") + 1
            before = {k: faction[k] for k in keys[:at]}
            after = {k: faction[k] for k in keys[at:] if k != "short_name"}
            doc["factions"][i] = {**before, "short_name": short, **after}


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    source = Path(argv[0])
    OUT.mkdir(parents=True, exist_ok=True)
    for name in FILES:
        doc = yaml.safe_load((source / f"{name}.yaml").read_text(encoding="utf-8"))
        if name == "factions":
            _short_names(doc)
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        (OUT / f"{name}.json").write_text(text, encoding="utf-8")
        print(f"wrote {(OUT / f'{name}.json').relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

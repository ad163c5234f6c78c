"""Count what the trench-crusade ruleset plays of the catalogue: keywords, and per faction base list the named
abilities of its models, their upgrades, the list's upgrades and its faction rules (data/modelled.yaml against
the catalogue). List-building faction rules that `warband validate` checks count as played.

    .venv/bin/python scripts/tc_coverage.py [--missing]
"""

from __future__ import annotations

import sys

from warband.rulesets.trench_crusade.book import UPGRADE_CHOICES
from warband.rulesets.trench_crusade.catalogue import load_catalogue
from warband.rulesets.trench_crusade.modelled import load_modelled

FACTIONS = ("heretic_legion", "new_antioch", "trench_pilgrims")


def main(argv: list[str]) -> int:
    cat = load_catalogue()
    modelled = load_modelled()
    names = [k.name.replace(" (X)", "") for k in cat.keywords.values()]
    done = [n for n in names if n in modelled.keywords]
    print(f"keywords: {len(done)}/{len(names)}")
    if "--missing" in argv:
        print("  missing:", ", ".join(n for n in names if n not in modelled.keywords))
    for fid in FACTIONS:
        lst = cat.lists[fid]
        abilities = sorted({a for slot in lst.models for a in cat.profiles[slot.model].abilities})
        upgrades = sorted(
            {u.upgrade for slot in lst.models for u in cat.profiles[slot.model].upgrades}
            | {u.upgrade for u in lst.upgrades}
        )
        rules = sorted(lst.rules)
        # an upgrade bought as one of its choices (Heretic Legionnaire: Ranged or Melee) is played when they are
        chosen = {u for u in upgrades if u in UPGRADE_CHOICES.values()}
        played_upgrades = set(modelled.upgrades) | {
            u for u in chosen if all(k in modelled.upgrades for k, v in UPGRADE_CHOICES.items() if v == u)
        }
        parts = [
            ("abilities", abilities, modelled.abilities),
            ("upgrades", upgrades, played_upgrades),
            ("faction rules", rules, modelled.rules),
        ]
        total = sum(len(ids) for _, ids, _ in parts)
        played = sum(1 for _, ids, known in parts for i in ids if i in known)
        detail = ", ".join(f"{kind} {sum(1 for i in ids if i in known)}/{len(ids)}" for kind, ids, known in parts)
        print(f"{lst.name}: {played}/{total} ({detail})")
        if "--missing" in argv:
            for kind, ids, known in parts:
                missing = [cat.name_of(i) for i in ids if i not in known]
                if missing:
                    print(f"  {kind} missing: {', '.join(missing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

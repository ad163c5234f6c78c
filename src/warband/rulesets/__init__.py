"""The games: one package per ruleset (rules, data, odds, faces), each a ``warband.rulesets`` entry point."""

"""The ruleset registry: installed plug-ins come from entry points; a test registers an uninstalled ruleset (the
example of docs/new-ruleset.md) for its own duration, and every reader of the registry (``get``, saved positions,
replay) then finds it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.rulesets.example import Example


def _game() -> Game:
    rs = registry.get("example")
    paths = [Path(w["path"]) for w in rs.samples()["warbands"]]
    return Game.new("example", [rs.load_roster(p) for p in paths], rs.load_scenario(rs.default_scenario()), 3)


def test_the_example_is_not_installed() -> None:
    assert "example" not in registry.available()
    with pytest.raises(registry.UnknownRulesetError, match="unknown ruleset 'example'"):
        registry.get("example")


def test_a_registered_ruleset_is_found_while_registered_and_gone_after() -> None:
    installed = set(registry.available())
    with registry.registered(Example):
        assert set(registry.available()) == installed | {"example"}
        game = _game()
        game.settle()
        back = Game.from_json(json.loads(json.dumps(game.to_json())))  # a saved position names its ruleset by id
        assert back.decision == game.decision
    assert set(registry.available()) == installed
    with pytest.raises(registry.UnknownRulesetError):
        registry.get("example")  # the cached instance is forgotten too


def test_an_id_already_taken_is_refused() -> None:
    class Impostor(Example):
        id = "trench-crusade"

    with pytest.raises(ValueError, match="'trench-crusade' is already installed or registered"):
        registry.register(Impostor)
    with registry.registered(Example), pytest.raises(ValueError, match="'example' is already"):
        registry.register(Example)
    assert "example" not in registry.available()
    assert registry.get("trench-crusade").title != Example.title

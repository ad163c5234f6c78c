"""Agents: who chooses the actions. Every agent uses only the public kernel protocol (``Game``), so every
ruleset gets every agent for free.

An agent is named in the CLI by a spec ``name[:key=value,...]`` (``mcts:iterations=400``); agents register
under the entry point group ``warband.agents`` as classes taking ``(seed: int, **options)``.
"""

from __future__ import annotations

import abc
from importlib.metadata import entry_points
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import WarbandError


class AgentError(WarbandError):
    """An unknown agent name or a bad option in an agent spec."""


class Agent(abc.ABC):
    """Chooses one of ``game.legal_actions()`` whenever ``game.decision`` is a choice for its side."""

    name: str = "agent"

    def __init__(self, seed: int = 0, **options: Any) -> None:
        if options:
            raise AgentError(f"agent {self.name!r} takes no options, got {sorted(options)}")
        self.seed = seed

    @abc.abstractmethod
    def choose(self, game: Game) -> Action:
        """The action to take at the current (choice) decision of ``game``."""

    def describe(self) -> str:
        return self.name


def available() -> dict[str, type[Agent]]:
    """Installed agents by name, from the ``warband.agents`` entry points."""
    found: dict[str, type[Agent]] = {}
    for ep in entry_points(group="warband.agents"):
        found[ep.name] = ep.load()
    return dict(sorted(found.items()))


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=400,rollout=heuristic"`` -> ``("mcts", {"iterations": "400", ...})``."""
    name, _, rest = spec.partition(":")
    opts: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise AgentError(f"agent spec {spec!r}: expected key=value, found {item!r}")
        opts[key.strip()] = value.strip()
    return name.strip(), opts


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from its spec; an unknown name lists the installed ones."""
    name, opts = parse_spec(spec)
    agents = available()
    if name not in agents:
        raise AgentError(f"unknown agent {name!r}; installed: {', '.join(agents)}")
    try:
        return agents[name](seed=seed, **opts)
    except TypeError as exc:
        raise AgentError(f"agent spec {spec!r}: {exc}") from None

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


def available() -> list[str]:
    """Names of the installed agents (``warband.agents`` entry points), without importing them: one broken
    plug-in must not stop the others from loading."""
    return sorted({ep.name for ep in entry_points(group="warband.agents")})


#: Agent classes already loaded in this process, by name: listing the entry points scans every installed
#: distribution (about 10 ms), once per game in a simulation without it.
_LOADED: dict[str, type[Agent]] = {}


def load_agent_class(name: str) -> type[Agent]:
    """The class registered under ``name``; unknown names and plug-ins that fail to import raise AgentError.
    A class once loaded is kept for the life of the process (failures are not kept)."""
    cached = _LOADED.get(name)
    if cached is not None:
        return cached
    eps = [ep for ep in entry_points(group="warband.agents") if ep.name == name]
    if not eps:
        raise AgentError(f"unknown agent {name!r}; installed: {', '.join(available())}")
    try:
        cls = eps[0].load()
    except Exception as exc:  # a plug-in's import error is reported, not raised as a traceback
        raise AgentError(f"agent {name!r} failed to load: {exc}") from None
    if not (isinstance(cls, type) and issubclass(cls, Agent)):
        raise AgentError(f"agent {name!r} is not an Agent class")
    _LOADED[name] = cls
    return cls


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
    cls = load_agent_class(name)
    try:
        return cls(seed=seed, **opts)
    except TypeError as exc:
        raise AgentError(f"agent spec {spec!r}: {exc}") from None

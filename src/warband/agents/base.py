"""Agents: who chooses the actions. Every agent uses only the public kernel protocol (``Game``), so every
ruleset gets every agent for free.

An agent is named in the CLI by a spec ``name[:key=value,...]`` (``mcts:iterations=400``); agents register
under the entry point group ``warband.agents`` as classes taking ``(seed: int, **options)``.
"""

from __future__ import annotations

import abc
import math
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


#: What an agent's ``eval`` option may name: the ruleset's hand-written evaluation (``Ruleset.evaluate``) or the
#: one learned from games (``Ruleset.learned_evaluation``: log-odds, fitted by ``warband fit-eval``).
EVALUATIONS = ("heuristic", "learned")


def eval_option(agent: str, options: dict[str, Any]) -> str:
    """Pop and check the ``eval`` option of ``agent``'s spec (default ``heuristic``)."""
    kind = str(options.pop("eval", "heuristic"))
    if kind not in EVALUATIONS:
        raise AgentError(f"agent {agent!r}: option eval={kind!r} is not one of {', '.join(EVALUATIONS)}")
    return kind


def evaluation(game: Game, side: int, kind: str) -> float:
    """The value of ``game``'s position for ``side`` by the evaluation ``kind`` names (:data:`EVALUATIONS`)."""
    if kind == "learned":
        return game.ruleset.learned_evaluation(game.state, side)
    return game.ruleset.evaluate(game.state, side)


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


#: The longest agent spec read (a spec names a handful of options).
MAX_SPEC_LENGTH = 400


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=400,rollout=heuristic"`` -> ``("mcts", {"iterations": "400", ...})``; an option
    named twice (``iterations=5,iterations=6``) is refused: which one was meant cannot be told."""
    if len(spec) > MAX_SPEC_LENGTH:
        raise AgentError(f"agent spec of {len(spec)} characters; the limit is {MAX_SPEC_LENGTH}")
    name, _, rest = spec.partition(":")
    opts: dict[str, str] = {}
    for item in filter(None, (x.strip() for x in rest.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise AgentError(f"agent spec {spec!r}: expected key=value, found {item!r}")
        if key in opts:
            raise AgentError(f"agent spec {spec!r}: option {key!r} is given twice; give each option once")
        opts[key] = value.strip()
    return name.strip(), opts


def _plain(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:g}"


def number_option(
    agent: str, options: dict[str, Any], key: str, default: float, bounds: tuple[float, float], kind: type[Any]
) -> Any:
    """Pop option ``key`` from ``options`` as a number of ``kind`` (int or float) between ``bounds`` (both
    included): a value that is not a number, not finite (``inf``, ``nan``) or out of bounds raises
    :class:`AgentError` naming the agent, the option and the allowed range, so no setting can make an agent
    think for ever."""
    low, high = bounds
    raw = options.pop(key, default)
    what = "a whole number" if kind is int else "a number"
    allowed = f"allowed: {_plain(low)} to {_plain(high)}"
    try:
        value = kind(raw)
    except (TypeError, ValueError, OverflowError):
        raise AgentError(f"agent {agent!r}: option {key}={raw!r} is not {what} ({allowed})") from None
    if not math.isfinite(value) or not low <= value <= high:
        raise AgentError(f"agent {agent!r}: option {key}={raw!r} is out of range ({allowed})")
    return value


def make_agent(spec: str, seed: int = 0) -> Agent:
    """Build an agent from its spec; an unknown name lists the installed ones."""
    name, opts = parse_spec(spec)
    cls = load_agent_class(name)
    try:
        return cls(seed=seed, **opts)
    except TypeError as exc:
        raise AgentError(f"agent spec {spec!r}: {exc}") from None

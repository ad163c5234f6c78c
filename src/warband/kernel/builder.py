"""A warband builder a ruleset may offer the faces, as data: its lists, what each list fields, what each model may
take, and a warband built from a person's choices with its totals and problems.

The ruleset answers with plain records (:class:`Offer`, :class:`BuildStatus`) and the faces draw them: the CLI's
``warband build RULESET`` prompts with them, and the web table may show the same. A :class:`Plan` is what the
person chose so far; :meth:`ListBuilder.document` turns it into the ruleset's warband file.
"""

from __future__ import annotations

import abc
import re
from dataclasses import dataclass, field
from typing import Any

from warband.kernel.errors import Problem

__all__ = ["BuildStatus", "ListBuilder", "Offer", "Pick", "Plan", "find_offer"]


@dataclass(frozen=True, slots=True)
class Offer:
    """One thing the builder offers: a list, a model, an item or an upgrade, with its cost and limits in words."""

    id: str
    name: str
    kind: str = ""
    """``faction``, ``variant``, ``model``, ``ranged``, ``melee``, ``armour``, ``equipment``, ``upgrade``."""
    cost: str = ""
    """``80 ducats``, ``3 glory``, ``free``."""
    limit: str = ""
    """``1 (leader)``, ``0-5``, ``any number``, ``LIMIT 2, only ELITE models``."""


@dataclass(frozen=True, slots=True)
class Pick:
    """One model entry of the warband being built: a model of the list (id or name), how many, what it takes."""

    model: str
    count: int = 1
    name: str | None = None
    items: tuple[str, ...] = ()
    upgrades: tuple[str, ...] = ()
    leader: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """A warband being built: its name, its list (a faction or a variant), its limits and its model entries."""

    name: str
    list_id: str
    points_limit: int
    picks: tuple[Pick, ...] = ()
    glory_limit: int | None = None


@dataclass(frozen=True, slots=True)
class BuildStatus:
    """Where a plan stands: totals in words, every problem (the file's places), and notes (rules not modelled)."""

    totals: str
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def ok(self) -> bool:
        return not self.problems


class ListBuilder(abc.ABC):
    """What a ruleset's builder answers (see the module docstring)."""

    @abc.abstractmethod
    def lists(self) -> list[Offer]:
        """The lists a warband is built from: each faction, followed by its variants (kind ``variant``)."""

    @abc.abstractmethod
    def models(self, list_id: str) -> list[Offer]:
        """The models the list fields, with their costs and how many."""

    @abc.abstractmethod
    def kit(self, list_id: str, model: str) -> list[Offer]:
        """The items and upgrades the list offers this model (id or name), with their costs and limits."""

    @abc.abstractmethod
    def default_limits(self, list_id: str) -> tuple[int, int]:
        """The list's starting points and glory (or other second currency; 0 where the game has none)."""

    @abc.abstractmethod
    def document(self, plan: Plan) -> dict[str, Any]:
        """The warband file of the plan, as a document ready to be written as YAML."""

    @abc.abstractmethod
    def status(self, plan: Plan, file: str = "warband") -> BuildStatus:
        """The plan's totals, every problem (placed as in :meth:`document`'s file) and its notes."""


def _key(text: str) -> str:
    return re.sub(r"[^0-9a-zß]+", "", text.lower())


def find_offer(offers: list[Offer], text: str) -> Offer | None:
    """The offer a person means: by number (1-based), id or name, or one part of a name like "Pistol / Revolver"
    (case and punctuation ignored); None when none or several match."""
    text = text.strip()
    if text.isdigit():
        n = int(text)
        return offers[n - 1] if 1 <= n <= len(offers) else None
    key = _key(text)
    exact = [o for o in offers if key in (_key(o.id), _key(o.name))]
    if exact:
        return exact[0]
    parts = [o for o in offers if key in {_key(p) for p in o.name.split("/")}]
    return parts[0] if len(parts) == 1 else None

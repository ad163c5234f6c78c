"""A warband builder a ruleset may offer the faces, as data: its lists, what each list fields, what each model may
take, and a warband built from a person's choices with its totals and problems.

The ruleset answers with plain records (:class:`Offer`, :class:`BuildStatus`) and the faces draw them: the CLI's
``warband build RULESET`` prompts with them, and the web table's builder page shows the same. A :class:`Plan` is
what the person chose so far; :meth:`ListBuilder.document` turns it into the ruleset's warband file and
:func:`warband_text` writes that file (the one writer of both faces).

A problem's place names pick ``i`` of the plan as ``models[i]`` (and what it holds below it, ``models[i].count``,
``models[i].equipment[0]``), the warband's models as a whole as ``models``, and a total over its limit at its
tally's :attr:`Tally.place`: a ruleset whose file says it otherwise overrides :meth:`ListBuilder.entry_of`.
"""

from __future__ import annotations

import abc
import re
from dataclasses import dataclass, field, replace
from typing import Any

import yaml

from warband.kernel.errors import Problem

__all__ = [
    "BuildStatus",
    "ListBuilder",
    "Offer",
    "Pick",
    "Plan",
    "Tally",
    "added_problems",
    "file_name",
    "find_offer",
    "warband_text",
]


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
class Tally:
    """One running total of a plan: what it spends (``ducats``) or fields (``models``), against its limit."""

    name: str
    amount: int
    limit: int | None = None
    """None: no limit (a count shown for information)."""
    place: str = ""
    """Where the file writes the limit (``points_limit``): a problem there is this total over its limit."""


@dataclass(frozen=True, slots=True)
class BuildStatus:
    """Where a plan stands: totals in words, every problem (the file's places), and notes (rules not modelled)."""

    totals: str
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = field(default_factory=tuple)
    tallies: tuple[Tally, ...] = ()
    """The totals as numbers, where the ruleset gives them (the points first)."""

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

    def starting_pick(self, list_id: str, model: str) -> Pick:
        """A model as it joins the warband: one of it, with the kit it comes with where it may swap or choose it
        (default: the model alone)."""
        return Pick(model)

    def entry_of(self, place: str) -> int | None:
        """The pick a problem's place is about (``models[2].equipment[0]``: 2), or None (the warband as a whole)."""
        m = re.match(r"models\[(\d+)\]", place)
        return int(m.group(1)) if m else None


def added_problems(builder: ListBuilder, before: BuildStatus, changed: Plan, entry: int | None = None) -> list[Problem]:
    """The problems ``changed`` has that the plan of status ``before`` has not: what a person's next choice would
    break, to refuse it before it is made. A total over its limit is left out (it is shown as it runs, and the
    person may spend less elsewhere), and so is, for a new pick ``entry``, what it lacks on its own (a kit still
    to choose: the problems of a plan holding only that pick, at its own places)."""
    known = set(before.problems)
    after = builder.status(changed)
    totals = {t.place for t in after.tallies if t.place}
    found = [p for p in after.problems if p not in known and p.place not in totals]
    if entry is not None and any(builder.entry_of(p.place) == entry for p in found):
        lone = builder.status(replace(changed, picks=(changed.picks[entry],)))
        alone = {p.message for p in lone.problems if builder.entry_of(p.place) == 0}
        found = [p for p in found if not (builder.entry_of(p.place) == entry and p.message in alone)]
    return found


def warband_text(doc: dict[str, Any]) -> str:
    """The warband file of a builder's document, as ``warband build`` and the web table's builder save it."""
    return "# Built with `warband build`.\n" + yaml.safe_dump(doc, sort_keys=False, allow_unicode=True)


def file_name(name: str) -> str:
    """A file name for a warband called ``name``: ``The Choir!`` is ``the_choir.yaml``."""
    return (re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_") or "warband") + ".yaml"


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

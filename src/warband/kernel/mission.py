"""Scenario actions ("mission actions"): special actions a scenario gives the units of both sides.

Game-agnostic. A scenario's optional ``actions`` list declares each action as data: its ``id`` (a slug, the
action's name in the text notation), ``name`` and ``text`` (the guideline players read), its ``cost`` in actions,
the ``requires`` that must hold, the ``limits`` on how often it may be performed, the ``effects`` it has and the
actions it ``forbids`` for the rest of the activation. A ruleset that plays them declares an
:class:`ActionVocabulary`: the action kinds that ``forbids`` and ``not-done`` may name and the unit statuses that
``unit-is`` / ``unit-is-not`` may name. The kernel checks the shape, the references to objectives and the
names; the ruleset gives the words their meaning.

Requirement kinds (``requires``), all of which must hold:

* ``near-objective`` - a model of the unit within ``within`` inches (base edge to marker) of an objective marker
  on the table, one of ``objectives`` (empty: any). The action is then performed *on* that objective (its
  target); at most one per action.
* ``no-enemy-within`` - no model of the unit within ``within`` inches of an enemy model.
* ``unit-is`` / ``unit-is-not`` - the unit has every / none of the named ``statuses``.
* ``not-done`` - the unit has performed none of the named ``actions`` (kinds or scenario action ids) this
  activation.
* ``in-zone`` - a model (``models: any``) or every model (``all``) of the unit stands in the ``own`` or the
  ``enemy`` deployment zone.
* ``turn`` - only from turn ``first`` to turn ``last``.

Effect kinds (``effects``), applied in order: ``score`` (the acting side scores ``vp`` victory points now),
``claim`` (the side controls the objective until the other side claims it), ``remove-objective`` (the marker
leaves the table), ``place-objective`` (the marker is put down at the acting unit's leader), ``end-activation``.
``claim`` and ``remove-objective`` act on the target objective unless they name one.

Limits (``limits``): at most ``times`` per ``activation``, ``turn`` or ``game``, counted for the ``unit`` or the
whole ``side``, and (``each_objective``) separately for each objective.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from warband.kernel.errors import Problem

__all__ = [
    "EFFECT_KINDS",
    "REQUIREMENT_KINDS",
    "ActionVocabulary",
    "Effect",
    "Limit",
    "MissionAction",
    "Requirement",
    "action_problems",
    "clean_place",
    "target_requirement",
]

SLUG = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
#: What an objective id must look like to be written as an action's target (``mission a1 intel-west [x]``).
NOTATION_WORD = re.compile(r"[A-Za-z0-9_.-]+")


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


# --------------------------------------------------------------------------------------------- requirements
class NearObjective(_Model):
    """A model of the unit is within ``within`` inches of one of ``objectives`` (empty: any objective)."""

    kind: Literal["near-objective"]
    objectives: list[str] = Field(
        default_factory=list, description="Objective ids the action may be performed on; empty: any objective."
    )
    within: float = Field(
        default=1.0, ge=0, le=1000, strict=True, description="Inches from a model's base edge to the marker."
    )


class NoEnemyWithin(_Model):
    """No model of the unit is within ``within`` inches of an enemy model."""

    kind: Literal["no-enemy-within"]
    within: float = Field(default=1.0, ge=0, le=1000, strict=True, description="Inches, base edge to base edge.")


class UnitIs(_Model):
    """The unit has every one of ``statuses`` (names from the ruleset, e.g. prone)."""

    kind: Literal["unit-is"]
    statuses: list[str] = Field(min_length=1)


class UnitIsNot(_Model):
    """The unit has none of ``statuses`` (names from the ruleset, e.g. pinned, routed)."""

    kind: Literal["unit-is-not"]
    statuses: list[str] = Field(min_length=1)


class NotDone(_Model):
    """The unit has performed none of ``actions`` (ruleset action kinds or scenario action ids) this activation."""

    kind: Literal["not-done"]
    actions: list[str] = Field(min_length=1)


class InZone(_Model):
    """A model (``any``) or every model (``all``) of the unit stands in its own or the enemy deployment zone."""

    kind: Literal["in-zone"]
    zone: Literal["own", "enemy"]
    models: Literal["any", "all"] = "any"


class TurnWindow(_Model):
    """Only from turn ``first`` to turn ``last`` (both included; no ``last``: to the end)."""

    kind: Literal["turn"]
    first: int = Field(default=1, ge=1, le=100, strict=True)
    last: int | None = Field(default=None, ge=1, le=100, strict=True)

    @model_validator(mode="after")
    def _ordered(self) -> TurnWindow:
        if self.last is not None and self.last < self.first:
            raise ValueError(f"expected last >= first, found first {self.first} and last {self.last}")
        return self


Requirement = Annotated[
    NearObjective | NoEnemyWithin | UnitIs | UnitIsNot | NotDone | InZone | TurnWindow,
    Field(discriminator="kind"),
]
REQUIREMENT_KINDS: tuple[str, ...] = (
    "near-objective",
    "no-enemy-within",
    "unit-is",
    "unit-is-not",
    "not-done",
    "in-zone",
    "turn",
)


# --------------------------------------------------------------------------------------------- effects
class Score(_Model):
    """The acting side scores ``vp`` victory points at once."""

    kind: Literal["score"]
    vp: int = Field(ge=1, le=1000, strict=True)


class Claim(_Model):
    """The acting side controls the objective (the target, or ``objective``) until the other side claims it."""

    kind: Literal["claim"]
    objective: str | None = Field(default=None, description="Objective id; default: the action's target.")


class RemoveObjective(_Model):
    """The objective marker (the target, or ``objective``) is removed from the table."""

    kind: Literal["remove-objective"]
    objective: str | None = Field(default=None, description="Objective id; default: the action's target.")


class PlaceObjective(_Model):
    """The objective marker is put down where the acting unit's leader stands (moved there if already down)."""

    kind: Literal["place-objective"]
    objective: str


class EndActivation(_Model):
    """The acting unit's activation ends at once."""

    kind: Literal["end-activation"]


Effect = Annotated[Score | Claim | RemoveObjective | PlaceObjective | EndActivation, Field(discriminator="kind")]
EFFECT_KINDS: tuple[str, ...] = ("score", "claim", "remove-objective", "place-objective", "end-activation")


# --------------------------------------------------------------------------------------------- the action
class Limit(_Model):
    """At most ``times`` per ``per``, counted for the acting ``unit`` or its whole ``side``."""

    per: Literal["activation", "turn", "game"]
    scope: Literal["unit", "side"] = "unit"
    times: int = Field(default=1, ge=1, le=1000, strict=True)
    each_objective: bool = Field(default=False, description="Count separately for each objective acted on.")


class MissionAction(_Model):
    """A special action of the scenario: who may perform it, what it costs, does and forbids afterwards."""

    id: str = Field(
        description="Slug naming the action in the text notation (lowercase letters, digits, single hyphens).",
        json_schema_extra={"pattern": SLUG},
    )
    name: str = Field(min_length=1, description="Display name.")
    text: str = Field(min_length=1, description="The guideline shown to players.")
    cost: int = Field(default=1, ge=0, le=10, strict=True, description="Actions it uses (0: a FREE action).")
    requires: list[Requirement] = Field(default_factory=list, description="Conditions that must all hold.")
    limits: list[Limit] = Field(default_factory=list, description="How often it may be performed.")
    effects: list[Effect] = Field(min_length=1, description="What it does, in order.")
    forbids: list[str] = Field(
        default_factory=list,
        description="Action kinds (or scenario action ids) the unit may not perform for the rest of the activation.",
    )

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        if not re.fullmatch(SLUG, value):
            raise ValueError(f"expected a slug of lowercase letters, digits and single hyphens, found {value!r}")
        return value


def target_requirement(action: MissionAction) -> NearObjective | None:
    """The ``near-objective`` requirement that makes the action act on an objective, if any."""
    return next((r for r in action.requires if isinstance(r, NearObjective)), None)


@dataclass(frozen=True, slots=True)
class ActionVocabulary:
    """The words a ruleset gives meaning to in scenario actions. ``supported`` False: the ruleset has none."""

    kinds: frozenset[str] = frozenset()
    statuses: frozenset[str] = frozenset()
    supported: bool = True
    ruleset: str = ""


# --------------------------------------------------------------------------------------------- cross-checks
_TAGGED = re.compile(
    r"((?:requires|effects)\[\d+\])\.(" + "|".join(map(re.escape, REQUIREMENT_KINDS + EFFECT_KINDS)) + r")\b"
)


def clean_place(place: str) -> str:
    """Drop the union tag pydantic puts in a place (``requires[1].near-objective.within`` -> ``requires[1].within``)."""
    return _TAGGED.sub(r"\1", place)


def _names_problem(file: str, place: str, name: str, allowed: Iterable[str], what: str) -> Problem:
    known = ", ".join(sorted(allowed)) or "none"
    return Problem(file, place, f"expected {what} (one of: {known}), found {name!r}")


def action_problems(
    file: str,
    actions: Sequence[tuple[int, MissionAction]],
    objectives: Sequence[tuple[int, Any]],
    objectives_complete: bool,
    vocabulary: ActionVocabulary | None,
    actions_complete: bool = True,
) -> list[Problem]:
    """Checks of the scenario actions against each other, the objectives and the ruleset's vocabulary.

    ``objectives`` are ``(index, Objective)`` pairs; references to them are only checked when all of them are
    valid, and what the objectives need from the actions only when all the actions are valid.
    """
    out: list[Problem] = []
    if vocabulary is not None and not vocabulary.supported and actions:
        who = f"ruleset {vocabulary.ruleset!r}" if vocabulary.ruleset else "this ruleset"
        out.append(
            Problem(file, "actions", f"expected no actions: {who} has no scenario actions, found {len(actions)}")
        )
        return out
    ids = {a.id for _, a in actions}
    obj_ids = [o.id for _, o in objectives]
    seen: dict[str, int] = {}
    for i, a in actions:
        if a.id in seen:
            out.append(
                Problem(file, f"actions[{i}].id", f"expected a unique id, found {a.id!r} again (actions[{seen[a.id]}])")
            )
        seen.setdefault(a.id, i)
        out += _one_action(file, i, a, obj_ids if objectives_complete else None, ids, vocabulary)
    if objectives_complete and actions_complete:
        out += _objective_problems(file, [a for _, a in actions], objectives)
    return out


def _one_action(
    file: str,
    i: int,
    a: MissionAction,
    obj_ids: list[str] | None,
    ids: set[str],
    vocabulary: ActionVocabulary | None,
) -> list[Problem]:
    out: list[Problem] = []
    here = f"actions[{i}]"
    near = [j for j, r in enumerate(a.requires) if isinstance(r, NearObjective)]
    for j in near[1:]:
        out.append(
            Problem(file, f"{here}.requires[{j}]", "expected at most one near-objective requirement, found a second")
        )
    for j, r in enumerate(a.requires):
        if isinstance(r, NearObjective) and obj_ids is not None:
            for k, oid in enumerate(r.objectives):
                if oid not in obj_ids:
                    place = f"{here}.requires[{j}].objectives[{k}]"
                    out.append(_names_problem(file, place, oid, obj_ids, "an objective id of this scenario"))
    for k, e in enumerate(a.effects):
        ref = getattr(e, "objective", None)
        if ref is not None and obj_ids is not None and ref not in obj_ids:
            place = f"{here}.effects[{k}].objective"
            out.append(_names_problem(file, place, ref, obj_ids, "an objective id of this scenario"))
        if isinstance(e, Claim | RemoveObjective) and ref is None and not near:
            out.append(
                Problem(
                    file,
                    f"{here}.effects[{k}]",
                    f"expected an 'objective' for {e.kind}, or a near-objective requirement that gives the action "
                    "a target objective, found neither",
                )
            )
    for k, lim in enumerate(a.limits):
        if lim.each_objective and not near:
            out.append(
                Problem(
                    file,
                    f"{here}.limits[{k}].each_objective",
                    "expected a near-objective requirement (the objective acted on) with each_objective, found none",
                )
            )
    if vocabulary is not None:
        out += _vocabulary_problems(file, here, a, ids, vocabulary)
    return out


def _vocabulary_problems(
    file: str, here: str, a: MissionAction, ids: set[str], vocabulary: ActionVocabulary
) -> list[Problem]:
    out: list[Problem] = []
    names = vocabulary.kinds | ids
    if a.id in vocabulary.kinds:
        out.append(
            Problem(file, f"{here}.id", f"expected an id that is not an action kind of the ruleset, found {a.id!r}")
        )
    for j, name in enumerate(a.forbids):
        if name not in names:
            out.append(
                _names_problem(file, f"{here}.forbids[{j}]", name, names, "an action kind or scenario action id")
            )
    for j, r in enumerate(a.requires):
        if isinstance(r, NotDone):
            for k, name in enumerate(r.actions):
                if name not in names:
                    place = f"{here}.requires[{j}].actions[{k}]"
                    out.append(_names_problem(file, place, name, names, "an action kind or scenario action id"))
        if isinstance(r, UnitIs | UnitIsNot):
            for k, status in enumerate(r.statuses):
                if status not in vocabulary.statuses:
                    place = f"{here}.requires[{j}].statuses[{k}]"
                    out.append(_names_problem(file, place, status, vocabulary.statuses, "a unit status"))
    return out


def _objective_problems(
    file: str, actions: list[MissionAction], objectives: Sequence[tuple[int, Any]]
) -> list[Problem]:
    """Objectives off the table must be placed by some action; objectives an action may target need ids that the
    action notation can carry."""
    out: list[Problem] = []
    placed = {e.objective for a in actions for e in a.effects if isinstance(e, PlaceObjective)}
    targets: set[str] = set()
    for a in actions:
        near = target_requirement(a)
        if near is not None:
            targets |= set(near.objectives) if near.objectives else {o.id for _, o in objectives}
    for i, o in objectives:
        if not o.on_table and o.id not in placed:
            out.append(
                Problem(
                    file,
                    f"objectives[{i}].on_table",
                    f"expected a place-objective effect that puts {o.id!r} on the table, found none",
                )
            )
        if o.id in targets and not NOTATION_WORD.fullmatch(o.id):
            out.append(
                Problem(
                    file,
                    f"objectives[{i}].id",
                    f"expected letters, digits, '.', '_' or '-' only (a scenario action names it), found {o.id!r}",
                )
            )
    return out

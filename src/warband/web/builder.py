"""The web table's warband builder: the kernel's builder offer (:meth:`Ruleset.list_builder`) as JSON, for any
ruleset that has one, and the page that draws it (``/builder``).

The page keeps the plan (the person's choices) and sends it whole; the server answers what it costs, every
problem with its place, the rules the engine does not play, and which next choices would break a rule (a model of
the list, an item for the entry whose kit is open) with the rule they would break. Saving writes the file
``warband build`` writes (:func:`warband.kernel.builder.warband_text`), and only a warband that breaks no rule,
as there."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi import APIRouter, Response
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from warband.kernel import ruleset as registry
from warband.kernel.builder import (
    BuildStatus,
    ListBuilder,
    Offer,
    Pick,
    Plan,
    added_problems,
    file_name,
    warband_text,
)
from warband.kernel.errors import Problem, WarbandError
from warband.web.errors import ApiError

__all__ = ["CheckBody", "PlanBody", "builder_router"]

STATIC = Path(__file__).parent / "static"
#: The most entries, items of an entry, and identical models of an entry a plan may hold.
MAX_PICKS = 60
MAX_KIT = 30
MAX_COUNT = 50

Id = Field(min_length=1, max_length=120)


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PickBody(Strict):
    """One entry: a model of the list (its id), how many, its name, and the items and upgrades it takes (ids)."""

    model: str = Id
    count: int = Field(default=1, ge=1, le=MAX_COUNT)
    name: str | None = Field(default=None, max_length=80)
    items: list[str] = Field(default_factory=list, max_length=MAX_KIT)
    upgrades: list[str] = Field(default_factory=list, max_length=MAX_KIT)
    leader: bool = False

    def pick(self) -> Pick:
        name = (self.name or "").strip() or None
        return Pick(self.model, self.count, name, tuple(self.items), tuple(self.upgrades), self.leader)


class PlanBody(Strict):
    """A warband being built: its name, its list (a faction or variant id), its limits and its entries."""

    name: str = Field(default="My warband", max_length=120)
    list_id: str = Id
    points_limit: int = Field(ge=0, le=100_000)
    glory_limit: int | None = Field(default=None, ge=0, le=1_000)
    picks: list[PickBody] = Field(default_factory=list, max_length=MAX_PICKS)

    def plan(self) -> Plan:
        name = self.name.strip() or "My warband"
        picks = tuple(p.pick() for p in self.picks)
        return Plan(name, self.list_id, self.points_limit, picks, self.glory_limit)


class CheckBody(Strict):
    plan: PlanBody
    #: The entry whose kit the page shows: its offers come back with what adding each would break.
    focus: int | None = Field(default=None, ge=0)


# --- the builders ------------------------------------------------------------------------------------------


def builder_of(ruleset_id: str) -> ListBuilder:
    """The ruleset's builder; 404 for an unknown ruleset or one without lists to build from."""
    try:
        builder = registry.get(ruleset_id).list_builder()
    except WarbandError as exc:
        raise ApiError(404, str(exc)) from None
    if builder is None:
        raise ApiError(404, f"{ruleset_id} has no warband builder (no lists to build from)")
    return builder


def lists_json(builder: ListBuilder) -> list[dict[str, Any]]:
    """The factions and their variants, each with its starting points and glory and (a variant) its faction."""
    out: list[dict[str, Any]] = []
    faction: str | None = None
    for offer in builder.lists():
        if offer.kind != "variant":
            faction = offer.id
        points, glory = builder.default_limits(offer.id)
        row = _offer(offer) | {"points": points, "glory": glory}
        row["faction"] = faction if offer.kind == "variant" else None
        out.append(row)
    return out


def find_list(builder: ListBuilder, list_id: str, status: int = 404) -> Offer:
    for offer in builder.lists():
        if offer.id == list_id:
            return offer
    names = ", ".join(o.name for o in builder.lists() if o.kind != "variant")
    raise ApiError(status, f"no faction or variant {list_id!r} (factions: {names})")


def _offer(offer: Offer) -> dict[str, Any]:
    return {"id": offer.id, "name": offer.name, "kind": offer.kind, "cost": offer.cost, "limit": offer.limit}


def model_offer(builder: ListBuilder, list_id: str, model: str) -> Offer:
    """The list's model by id or name; 422 naming the list rule when the list does not field it."""
    for offer in builder.models(list_id):
        if model in (offer.id, offer.name):
            return offer
    probe = builder.status(Plan("warband", list_id, 0, (Pick(model),)))
    rules = [p.message for p in probe.problems if builder.entry_of(p.place) == 0]
    listed = find_list(builder, list_id).name
    raise ApiError(422, rules[0] if rules else f"the {listed} list does not field {model!r}")


# --- a plan's status ---------------------------------------------------------------------------------------


def check_json(builder: ListBuilder, plan: Plan, focus: int | None) -> dict[str, Any]:
    """Everything the page shows of a plan: totals, problems (with the entry and the words of their place),
    notes, each entry's cost, the list's models with what adding one would break, and the focused entry's kit."""
    status = builder.status(plan)
    labels = _labels(builder, plan)
    return {
        "totals": status.totals,
        "tallies": [{"name": t.name, "amount": t.amount, "limit": t.limit} for t in status.tallies],
        "ok": status.ok,
        "problems": [_problem(builder, status, labels, p) for p in status.problems],
        "notes": list(status.notes),
        "entries": [_entry(builder, plan, labels, i) for i in range(len(plan.picks))],
        "models": models_json(builder, plan, status),
        "kit": kit_json(builder, plan, status, focus) if focus is not None and focus < len(plan.picks) else None,
    }


def _labels(builder: ListBuilder, plan: Plan) -> list[str]:
    """Each entry as the page names it: ``Father Orobas (Heretic Priest)``, ``3 x Heretic Trooper``."""
    names = {o.id: o.name for o in builder.models(plan.list_id)}
    out = []
    for p in plan.picks:
        model = names.get(p.model, p.model)
        label = f"{p.name} ({model})" if p.name else model
        out.append(f"{p.count} x {label}" if p.count > 1 else label)
    return out


def _entry(builder: ListBuilder, plan: Plan, labels: list[str], i: int) -> dict[str, Any]:
    """Entry ``i`` in words: its label, its cost, and what it holds by name (an id the list does not offer it
    stays as written)."""
    pick = plan.picks[i]
    offers = {o.id: o for o in builder.kit(plan.list_id, pick.model)}

    def held(ids: tuple[str, ...]) -> list[dict[str, str]]:
        return [{"id": x, "name": offers[x].name if x in offers else x} for x in ids]

    return {
        "label": labels[i],
        "cost": entry_cost(builder, plan, i),
        "items": held(pick.items),
        "upgrades": held(pick.upgrades),
    }


def _problem(builder: ListBuilder, status: BuildStatus, labels: list[str], p: Problem) -> dict[str, Any]:
    entry = builder.entry_of(p.place)
    if entry is not None and entry < len(labels):
        where = labels[entry]
    else:
        totals = {t.place: t.name for t in status.tallies if t.place}
        where = totals.get(p.place) or ("the warband" if p.place in ("", "models") else p.place)
    return {"place": p.place, "where": where, "message": p.message, "entry": entry}


def entry_cost(builder: ListBuilder, plan: Plan, i: int) -> str:
    """What entry ``i`` costs, in the plan's currencies (the tallies with a limit): ``130 ducats``, ``free``."""
    lone = builder.status(replace(plan, picks=(plan.picks[i],)))
    spent = [f"{t.amount} {t.name}" for t in lone.tallies if t.limit is not None and t.amount]
    return ", ".join(spent) or ("free" if lone.tallies else "")


def models_json(builder: ListBuilder, plan: Plan, status: BuildStatus) -> list[dict[str, Any]]:
    """The list's models, each with the kit it joins with and the first rule adding one would break (or None)."""
    out = []
    n = len(plan.picks)
    for offer in builder.models(plan.list_id):
        start = builder.starting_pick(plan.list_id, offer.id)
        broken = added_problems(builder, status, replace(plan, picks=(*plan.picks, start)), entry=n)
        row = _offer(offer) | {"start": {"items": list(start.items), "upgrades": list(start.upgrades)}}
        row["blocked"] = broken[0].message if broken and n < MAX_PICKS else None
        if n >= MAX_PICKS:
            row["blocked"] = f"a plan holds at most {MAX_PICKS} entries"
        out.append(row)
    return out


def kit_json(builder: ListBuilder, plan: Plan, status: BuildStatus, i: int) -> dict[str, Any]:
    """Entry ``i``'s kit offers: each with the first rule taking it would break (None: it may), and whether the
    entry holds it."""
    pick = plan.picks[i]
    rows = []
    for offer in builder.kit(plan.list_id, pick.model):
        upgrade = offer.kind == "upgrade"
        held = offer.id in (pick.upgrades if upgrade else pick.items)
        if upgrade:
            taken = replace(pick, upgrades=(*pick.upgrades, offer.id))
        else:
            taken = replace(pick, items=(*pick.items, offer.id))
        picks = (*plan.picks[:i], taken, *plan.picks[i + 1 :])
        broken = added_problems(builder, status, replace(plan, picks=picks))
        full = len(taken.upgrades if upgrade else taken.items) > MAX_KIT
        blocked = f"an entry holds at most {MAX_KIT} of these" if full else broken[0].message if broken else None
        rows.append(_offer(offer) | {"held": held, "blocked": blocked})
    return {"entry": i, "offers": rows}


# --- the routes ----------------------------------------------------------------------------------------------


def _checked_plan(builder: ListBuilder, body: PlanBody) -> Plan:
    find_list(builder, body.list_id, status=422)
    return body.plan()


def builder_router() -> APIRouter:
    """The builder's page and API (see ``docs/web.md``, "Build a warband")."""
    router = APIRouter()

    @router.get("/builder", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC / "builder.html")

    @router.get("/api/builder")
    def rulesets() -> dict[str, Any]:
        out = []
        for rid in registry.available():
            rs = registry.get(rid)
            builder = rs.list_builder()
            if builder is not None:
                out.append({"id": rid, "title": rs.title, "lists": lists_json(builder)})
        return {"rulesets": out}

    @router.get("/api/builder/{ruleset}/lists/{list_id}/models")
    def models(ruleset: str, list_id: str) -> dict[str, Any]:
        builder = builder_of(ruleset)
        listed = find_list(builder, list_id)
        return {"list": listed.name, "models": [_offer(o) for o in builder.models(list_id)]}

    @router.get("/api/builder/{ruleset}/lists/{list_id}/kit")
    def kit(ruleset: str, list_id: str, model: str) -> dict[str, Any]:
        builder = builder_of(ruleset)
        find_list(builder, list_id)
        offer = model_offer(builder, list_id, model)
        start = builder.starting_pick(list_id, offer.id)
        return {
            "model": offer.name,
            "start": {"items": list(start.items), "upgrades": list(start.upgrades)},
            "kit": [_offer(o) for o in builder.kit(list_id, offer.id)],
        }

    @router.post("/api/builder/{ruleset}/check")
    def check(ruleset: str, body: CheckBody) -> dict[str, Any]:
        builder = builder_of(ruleset)
        return check_json(builder, _checked_plan(builder, body.plan), body.focus)

    @router.post("/api/builder/{ruleset}/save")
    def save(ruleset: str, body: PlanBody) -> Response:
        builder = builder_of(ruleset)
        plan = _checked_plan(builder, body)
        status = builder.status(plan, file_name(plan.name))
        if not status.ok:
            problems = [{"file": p.file, "place": p.place, "message": p.message} for p in status.problems]
            raise ApiError(422, f"the warband breaks {len(problems)} rule(s): nothing saved", problems=problems)
        text = warband_text(builder.document(plan))
        headers = {"Content-Disposition": f'attachment; filename="{file_name(plan.name)}"'}
        return Response(text, media_type="application/yaml; charset=utf-8", headers=headers)

    return router

"""The roster sheet of each side and the table's extras that every face shows: objective holders and the
deployment zones' labels.

:func:`table_view` is the ruleset's drawable view (:meth:`Ruleset.view`) with, added: ``roster`` (per side, every
model with its name, type, profile, weapons with range and keywords, status and whether it is on the table),
each objective's ``owner`` (:meth:`Ruleset.objective_holder` where the ruleset's view left it empty) and a
``label`` on each deployment zone. No Python repr reaches a player: every value is written as words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warband.kernel.state import GameState, Model

#: profile entries that are not characteristics (shown elsewhere, or bookkeeping of the list)
_NOT_PROFILE = {"name", "type", "unit_name", "weapons", "melee_weapon", "cost"}
_WEAPON_LISTS = ("weapons", "ranged", "melee", "attacks")
_WEAPON_SKIP = {"name", "weapon", "range", "keywords", "rules", "modes", "type", "values", "proposed", "count", "cost"}


def words(value: Any) -> str:
    """A value as a player reads it: yes/no, ``4-6``, lists joined by commas, mappings as ``key value``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {words(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        if len(value) == 2 and all(isinstance(x, int | float) and not isinstance(x, bool) for x in value):
            return f"{words(value[0])}-{words(value[1])}"
        return ", ".join(_item_name(v) for v in value) if value else "none"
    return str(value)


def _item_name(v: Any) -> str:
    if isinstance(v, Mapping):
        return str(v.get("name") or v.get("weapon") or words(v))
    return words(v)


def _range_text(w: Mapping[str, Any]) -> str:
    r = w.get("range")
    kind = str(w.get("type", "")) or ("melee" if "melee" in (w.get("modes") or []) and r is None else "")
    if r is None or r == 0:
        return "melee" if kind in ("", "melee") else kind
    if isinstance(r, list | tuple):
        lo, hi = (float(x) for x in r)
        reach = f'{hi:g}"' if lo == 0 else f'{lo:g}-{hi:g}"'
        return f"melee {reach}" if kind == "melee" else reach
    return f'{float(r):g}"'


def weapon_rows(data: Mapping[str, Any]) -> list[dict[str, str]]:
    """Every weapon in a model's profile: name, range (``melee``, ``24"``, ``2-12"``), keywords, the rest."""
    out: list[dict[str, str]] = []
    lists = [(key, data.get(key)) for key in _WEAPON_LISTS]
    if isinstance(data.get("melee_weapon"), Mapping):
        lists.append(("melee", [data["melee_weapon"]]))
    for key, items in lists:
        if not isinstance(items, list):
            continue
        for w in items:
            if not isinstance(w, Mapping):
                continue
            name = str(w.get("name") or w.get("weapon") or "?")
            keywords = [*(w.get("keywords") or []), *(w.get("rules") or [])]
            values = w.get("values") or {}
            kw = [f"{k} {values[k]}" if k in values and values[k] not in (None, True) else str(k) for k in keywords]
            rng = "melee" if key == "melee" and w.get("range") is None else _range_text(w)
            shown = [(k, v) for k, v in w.items() if k not in _WEAPON_SKIP and v not in (False, None, 0, [], {})]
            rest = ", ".join(f"{k} {words(v)}" for k, v in shown)
            out.append({"name": name, "range": rng, "keywords": ", ".join(kw), "stats": rest})
    return out


def profile_rows(data: Mapping[str, Any]) -> list[list[str]]:
    """The characteristics of a model as ``[name, value]`` rows, in words (weapons are listed apart)."""
    rows: list[list[str]] = []
    for key, value in data.items():
        if key in _NOT_PROFILE or (key in _WEAPON_LISTS and isinstance(value, list)):
            continue
        if isinstance(value, Mapping):
            rows.extend([str(k), words(v)] for k, v in value.items())
        elif value not in (None, [], {}) and not (isinstance(value, bool) and not value):
            rows.append([str(key), words(value)])
    return rows


def _entry(m: Model, drawn: Mapping[str, Mapping[str, Any]], off: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    seen = drawn.get(m.id)
    if seen is not None:
        status = [b["text"] for b in seen.get("badges", [])]
        where = "on the table"
    else:
        why = off.get(m.id, {}).get("why", "off the table")
        status = [str(why)]
        where = "not deployed" if why == "off the table" and not m.flags.get("out") else str(why)
    return {
        "id": m.id,
        "name": m.name,
        "unit": m.unit,
        "type": str(m.data.get("type") or m.data.get("unit_name") or m.kind or ""),
        "profile": profile_rows(m.data),
        "weapons": weapon_rows(m.data),
        "status": status,
        "deployed": seen is not None,
        "where": where,
    }


def roster(state: GameState[Any], view: Mapping[str, Any]) -> list[list[dict[str, Any]]]:
    """Each side's models (deployed or not) with their sheet, in the order of their lists."""
    drawn = {m["id"]: m for m in view.get("models", [])}
    off = {m["id"]: m for m in view.get("off_table", [])}
    sides: list[list[dict[str, Any]]] = [[], []]
    for m in state.models.values():
        if m.side in (0, 1):
            sides[m.side].append(_entry(m, drawn, off))
    return sides


def table_view(ruleset: Any, state: GameState[Any]) -> dict[str, Any]:
    """The ruleset's view with the roster, the objectives' holders and the zones' labels (module docstring)."""
    view = dict(ruleset.view(state))
    names = [s["name"] for s in view.get("sides", [])]
    objectives = []
    for o in view.get("objectives", []):
        o = dict(o)
        if o.get("owner") is None:
            o["owner"] = ruleset.objective_holder(state, (float(o["at"][0]), float(o["at"][1])), float(o["radius"]))
        held = "nobody" if o["owner"] is None else f"side {'AB'[int(o['owner'])]}"
        o["holder"] = held
        o["label"] = f"{o.get('label', o['id'])}: held by {held}"
        objectives.append(o)
    view["objectives"] = objectives
    zones = []
    # the zones as the game dealt them: a roll-off winner's choice (``vars["zone_of"]``, kernel ChooseZone)
    # overrides the scenario's sides
    zone_of = state.vars.get("zone_of")
    for i, z in enumerate(view.get("zones", [])):
        side = int(z["side"])
        if isinstance(zone_of, list) and i in zone_of:
            side = zone_of.index(i)
        elif getattr(ruleset.decision(state), "prompt", "") == "zone":
            zones.append({**z, "side": side, "label": f"zone [{i}] (to be chosen)"})
            continue
        whose = f" ({names[side]})" if side < len(names) else ""
        zones.append({**z, "side": side, "label": f"side {'AB'[side]} deployment{whose}"})
    view["zones"] = zones
    view["roster"] = roster(state, view)
    return view

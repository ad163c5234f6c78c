"""``warband rulesets``, ``samples``, ``validate`` and ``params``: what is installed and whether a file is good.

``validate`` tells a warband file from a scenario file by its keys: ``terrain`` or ``table`` make a scenario, a
list of ``models`` or ``units`` a warband; its ``ruleset`` key (or ``--ruleset``) picks the rules that check it.
Every problem is printed as ``file: place: message`` and the exit code is 2.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from warband.kernel import ruleset as registry
from warband.kernel.errors import FileProblemsError, Problem
from warband.kernel.roster import read_document

JsonOption = Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")]


def list_rulesets(as_json: JsonOption = False) -> None:
    """The installed rulesets: id, version and title."""
    rows = [{"id": cls.id, "version": cls.version, "title": cls.title} for cls in registry.available().values()]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        typer.echo(f"{row['id']:<20} {row['version']:<8} {row['title']}")


def samples(ruleset: Annotated[str, typer.Argument(help="Ruleset id.")], as_json: JsonOption = False) -> None:
    """The warbands and scenarios bundled with RULESET (paths usable as --a / --b / --scenario)."""
    found = registry.get(ruleset).samples()
    payload = {
        kind: [{"name": s["name"], "path": str(Path(s["path"]).resolve())} for s in found.get(kind, [])]
        for kind in ("warbands", "scenarios")
    }
    if as_json:
        typer.echo(json.dumps(payload, indent=2))
        return
    for kind, items in payload.items():
        typer.echo(f"{kind}:")
        for item in items:
            typer.echo(f"  {item['name']}\n    {item['path']}")


#: Top-level keys of a warband file: a list of models (one model per entry, Trench Crusade) or of units.
ROSTER_KEYS = ("models", "units", "fighters")


def file_kind(doc: dict[str, Any]) -> str | None:
    """``scenario`` for a document with ``terrain`` or ``table``, ``warband`` for one with a list of ``models``
    or ``units``; None for neither."""
    if "terrain" in doc or "table" in doc:
        return "scenario"
    if any(key in doc for key in ROSTER_KEYS):
        return "warband"
    return None


def _models_in(entry: Any) -> int:
    """Models an entry stands for: ``count`` copies of one model, or a unit of ``models`` models (a number or a
    list)."""
    if not isinstance(entry, dict):
        return 1
    many: Any = entry.get("models", entry.get("count", 1))
    if isinstance(many, list):
        return len(many)
    return int(many) if isinstance(many, int | float | str) else 1


def _summary(kind: str, doc: dict[str, Any], points: int | None = None) -> str:
    if kind == "warband":
        key = next((k for k in ROSTER_KEYS if isinstance(doc.get(k), list)), "models")
        entries = doc.get(key, [])
        count = sum(_models_in(e) for e in entries)
        label = "units" if key == "units" else "entries"
        limit = doc.get("points_limit")
        limit_text = f", points limit {limit}" if limit is not None else ""
        if points is not None:
            limit_text = f", {points} points" + limit_text
        return f"warband {doc.get('name', '?')!r}: {count} models in {len(entries)} {label}{limit_text}"
    table = doc.get("table", {})
    size = f"{table.get('width', '?')}x{table.get('depth', '?')}" if isinstance(table, dict) else "?"
    actions = doc.get("actions", [])
    acts = f", scenario actions: {', '.join(str(a.get('id')) for a in actions)}" if actions else ""
    return (
        f"scenario {doc.get('name', '?')!r}: table {size}, {len(doc.get('terrain', []))} terrain pieces, "
        f"{len(doc.get('objectives', []))} objectives, {doc.get('turns', '?')} turns{acts}"
    )


def check_file(path: Path, ruleset: str | None) -> tuple[str, dict[str, Any]]:
    """Validate a warband or scenario file; return its kind and validated document (raises FileProblemsError)."""
    file = str(path)
    raw = read_document(path)
    if not isinstance(raw, dict):
        raise FileProblemsError([Problem(file, "", f"expected a mapping, found {type(raw).__name__}")])
    kind = file_kind(raw)
    if kind is None:
        raise FileProblemsError(
            [
                Problem(
                    file,
                    "",
                    "expected a warband (with 'models', 'units' or 'fighters') or a scenario "
                    "(with 'terrain' or 'table'), found neither",
                )
            ]
        )
    rid = ruleset or raw.get("ruleset")
    if not isinstance(rid, str):
        raise FileProblemsError([Problem(file, "ruleset", f"expected a ruleset id (or pass --ruleset), found {rid!r}")])
    rs = registry.get(rid)
    doc = rs.load_roster(path) if kind == "warband" else rs.load_scenario(path)
    return kind, doc


def validate(
    file: Annotated[Path, typer.Argument(help="A warband or scenario file (YAML or JSON).")],
    ruleset: Annotated[str | None, typer.Option("--ruleset", help="Ruleset id (default: the file's).")] = None,
) -> None:
    """Check a warband or scenario file; print OK and a summary, or every problem (exit 2)."""
    try:
        kind, doc = check_file(file, ruleset)
    except FileProblemsError as exc:
        for problem in exc.problems:
            typer.echo(str(problem), err=True)
        typer.echo(f"{file}: {len(exc.problems)} problem(s)", err=True)
        raise typer.Exit(2) from None
    points = None
    if kind == "warband":
        points = registry.get(ruleset or str(doc.get("ruleset", ""))).roster_points(doc)
    typer.echo(f"OK: {file}: {_summary(kind, doc, points)}")


def params(ruleset: Annotated[str, typer.Argument(help="Ruleset id.")], as_json: JsonOption = False) -> None:
    """Every parameter of RULESET: name, default, doc, source; PROPOSED marks our own defaults."""
    specs = registry.get(ruleset).params.specs
    rows = [
        {
            "name": s.name,
            "default": s.default,
            "doc": s.doc,
            "source": s.source,
            "proposed": s.proposed,
            "choices": list(s.choices) if s.choices is not None else None,
        }
        for s in specs.values()
    ]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        flag = "  PROPOSED" if row["proposed"] else ""
        choices = f" (one of {row['choices']})" if row["choices"] else ""
        typer.echo(f"{row['name']} = {row['default']!r}{choices}{flag}\n    {row['doc']}\n    source: {row['source']}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("rulesets")(list_rulesets)
    app.command("samples")(samples)
    app.command("validate")(validate)
    app.command("params")(params)

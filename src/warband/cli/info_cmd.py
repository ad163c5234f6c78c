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
from warband.kernel.errors import FileProblemsError, Problem, WarbandError
from warband.kernel.roster import read_document
from warband.kernel.ruleset import Ruleset

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
    rs = registry.get(ruleset)
    found = rs.samples()
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
            about = _about(rs, Path(item["path"])) if kind == "warbands" else ""
            typer.echo(f"  {item['name']}{about}\n    {item['path']}")


def _about(rs: Ruleset, path: Path) -> str:
    """`` (N models, P points)`` for a sample warband, from the ruleset's own description of it."""
    try:
        summary = rs.describe_roster(rs.load_roster(path))
    except WarbandError:  # a broken sample still lists, under its name
        return ""
    parts = [f"{summary.models} models"]
    if summary.units is not None:
        parts.append(f"{summary.units} units")
    if summary.points is not None:
        parts.append(f"{summary.points} points")
    return f" ({', '.join(parts)})"


#: Top-level keys that make a file a warband (its ruleset then says what it holds: ``describe_roster``).
ROSTER_KEYS = ("models", "units", "fighters")


def file_kind(doc: dict[str, Any]) -> str | None:
    """``scenario`` for a document with ``terrain`` or ``table``, ``warband`` for one with a list of ``models``
    or ``units``; None for neither."""
    if "terrain" in doc or "table" in doc:
        return "scenario"
    if any(key in doc for key in ROSTER_KEYS):
        return "warband"
    return None


def _summary(kind: str, doc: dict[str, Any], rs: Ruleset) -> str:
    if kind == "warband":
        return rs.describe_roster(doc).text()
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
    try:
        rs = registry.get(rid)
    except WarbandError as exc:
        place = "--ruleset" if ruleset else "ruleset"
        raise FileProblemsError([Problem(file, place, str(exc))]) from None
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
    rs = registry.get(ruleset or str(doc.get("ruleset", "")))
    typer.echo(f"OK: {file}: {_summary(kind, doc, rs)}")
    if kind == "warband":
        for note in rs.describe_roster(doc).notes:
            typer.echo(f"  {note}")
        for rule in rs.unmodelled(doc):
            typer.echo(f"  not modelled: {rule}")


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
            "range": s.range_text() or None,
        }
        for s in specs.values()
    ]
    if as_json:
        typer.echo(json.dumps(rows, indent=2))
        return
    for row in rows:
        flag = "  PROPOSED" if row["proposed"] else ""
        choices = f" (one of {row['choices']})" if row["choices"] else ""
        choices += f" (allowed {row['range']})" if row["range"] else ""
        typer.echo(f"{row['name']} = {row['default']!r}{choices}{flag}\n    {row['doc']}\n    source: {row['source']}")


def register(app: typer.Typer) -> None:
    """Add this module's commands to ``app``."""
    app.command("rulesets")(list_rulesets)
    app.command("samples")(samples)
    app.command("validate")(validate)
    app.command("params")(params)

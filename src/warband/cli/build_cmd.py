"""``warband build RULESET``: build a warband file from the ruleset's lists, at the terminal or from arguments.

Interactive (no ``--faction``, ``--model`` or ``--spec``): it prompts for the faction and variant, then models from
the list with their costs and limits, then each model's items and upgrades, showing the running totals and every
problem as they change; it saves the warband once it breaks no rule.

From arguments, each ``--model`` (or each model line of a ``--spec`` file) is one entry::

    [COUNT x] MODEL ["NAME"] [: ITEM, ITEM, ...] [+ UPGRADE, UPGRADE, ...]

    warband build trench-crusade --faction "Heretic Legion" --model 'Heretic Priest "Father Orobas": Pistol, Sword' \\
        --model "3 x Heretic Trooper: Bolt-Action Rifle, Trench Club" --out choir.yaml

Names are matched by id or name, case and punctuation ignored ("Pistol" is "Pistol / Revolver"). A spec file has
``faction:``, ``variant:``, ``name:``, ``limit:`` and ``glory:`` lines and one model per other line (``#``
comments). The file is written (``--out``, else printed) only when it breaks no rule; otherwise every problem is
printed and the exit code is 2.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from warband.kernel import ruleset as registry
from warband.kernel.builder import BuildStatus, ListBuilder, Offer, Pick, Plan, file_name, find_offer, warband_text
from warband.kernel.errors import WarbandError
from warband.kernel.files import InputError, OutputError, read_text_bounded, write_atomic

HEADER_KEYS = ("faction", "variant", "name", "limit", "glory")


class BuildError(WarbandError):
    """A build that cannot start: no builder for the ruleset, an unknown faction, a malformed spec."""


# ------------------------------------------------------------------------------------------------- specs


def _split_names(text: str, offers: list[Offer]) -> tuple[str, ...]:
    """Comma-separated names; pieces are joined back where a name itself has a comma ("Koraktor, the ...")."""
    pieces = [p.strip() for p in text.split(",")]
    out: list[str] = []
    i = 0
    while i < len(pieces):
        for span in range(min(3, len(pieces) - i), 0, -1):
            joined = ", ".join(pieces[i : i + span])
            if span == 1 or find_offer(offers, joined) is not None:
                out.append(joined)
                i += span
                break
    return tuple(p for p in out if p)


def _resolve(offers: list[Offer], text: str) -> str:
    found = find_offer(offers, text) if not text.isdigit() else None
    return found.id if found is not None else text


def parse_model(builder: ListBuilder, list_id: str, spec: str) -> Pick:
    """One ``--model`` spec (see the module docstring) as a pick; unknown names stay as written, for the
    warband's problems to name."""
    count = 1
    if m := re.match(r"^\s*(\d+)\s*[x×*]\s+(.*)$", spec):
        count, spec = int(m.group(1)), m.group(2)
    head, _, tail = spec.partition(":")
    if not tail and "+" in head:
        head, _, upgrades_text = head.partition("+")
        items_text = ""
    else:
        items_text, _, upgrades_text = tail.partition("+")
    name = None
    if m := re.match(r'^(.*?)\s*"([^"]*)"\s*$', head):
        head, name = m.group(1), m.group(2) or None
    model = _resolve(builder.models(list_id), head.strip())
    if not model:
        raise BuildError(f"--model {spec!r}: expected a model name first")
    kit = builder.kit(list_id, model)
    items = tuple(_resolve(kit, x) for x in _split_names(items_text, kit))
    upgrades = tuple(_resolve(kit, x) for x in _split_names(upgrades_text, kit))
    return Pick(model, count, name, items, upgrades)


def read_spec(path: Path) -> tuple[dict[str, str], list[str]]:
    """A spec file's header values and model lines."""
    try:
        text = read_text_bounded(path)
    except InputError as exc:
        raise BuildError(f"{path}: cannot read the spec file ({exc})") from None
    header: dict[str, str] = {}
    models: list[str] = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() in HEADER_KEYS:
            header[key.strip().lower()] = value.strip()
        else:
            models.append(line)
    return header, models


def find_list(builder: ListBuilder, faction: str, variant: str | None) -> Offer:
    lists = builder.lists()
    found = find_offer([o for o in lists if o.kind in ("faction", "variant")], variant or faction)
    if found is None:
        names = ", ".join(o.name for o in lists if o.kind == "faction")
        what = f"variant {variant!r}" if variant else f"faction {faction!r}"
        raise BuildError(f"no {what} (factions: {names})")
    return found


# ------------------------------------------------------------------------------------------------ output


def show_status(console: Console, status: BuildStatus) -> None:
    console.print(f"[bold]{status.totals}[/bold]")
    for p in status.problems:
        console.print(f"  [red]problem[/red] {p.place}: {p.message}", highlight=False)
    for note in status.notes:
        console.print(f"  {note}", highlight=False)


def _offers_table(title: str, offers: list[Offer]) -> Table:
    table = Table(title=title, title_justify="left")
    for col in ("#", "name", "cost", "limits"):
        table.add_column(col, justify="right" if col == "#" else "left")
    for n, o in enumerate(offers, start=1):
        table.add_row(str(n), o.name, o.cost, o.limit)
    return table


# ------------------------------------------------------------------------------------------ interactive


def _choose(console: Console, offers: list[Offer], prompt: str, allow_none: bool = False) -> Offer | None:
    while True:
        text = typer.prompt(prompt, default="" if allow_none else None, show_default=False)
        if allow_none and not text.strip():
            return None
        found = find_offer(offers, text)
        if found is not None:
            return found
        console.print(f"no such choice: {text!r}; answer with a number or a name from the table")


def _choose_list(console: Console, builder: ListBuilder) -> Offer:
    lists = builder.lists()
    factions = [o for o in lists if o.kind == "faction"]
    console.print(_offers_table("Factions", factions))
    faction = _choose(console, factions, "Faction (number or name)")
    assert faction is not None
    start = lists.index(faction) + 1
    variants = []
    for o in lists[start:]:
        if o.kind != "variant":
            break
        variants.append(o)
    if not variants:
        return faction
    console.print(_offers_table(f"Variants of {faction.name} (Enter: the {faction.name} list itself)", variants))
    return _choose(console, variants, "Variant", allow_none=True) or faction


def _pick_kit(console: Console, builder: ListBuilder, plan: Plan, pick: Pick) -> Pick:
    kit = builder.kit(plan.list_id, pick.model)
    if not kit:
        return pick
    console.print(_offers_table("Items and upgrades it may take", kit))
    while True:
        show_status(console, builder.status(replace(plan, picks=(*plan.picks, pick))))
        offer = _choose(console, kit, "Add an item or upgrade (number or name; Enter when done)", allow_none=True)
        if offer is None:
            return pick
        if offer.kind == "upgrade":
            pick = replace(pick, upgrades=(*pick.upgrades, offer.id))
        else:
            pick = replace(pick, items=(*pick.items, offer.id))


def _entries(console: Console, builder: ListBuilder, plan: Plan, models: list[Offer]) -> None:
    names = {o.id: o.name for o in models}
    for n, p in enumerate(plan.picks, start=1):
        kit_names = {o.id: o.name for o in builder.kit(plan.list_id, p.model)}
        kit = ", ".join(kit_names.get(x, x) for x in (*p.items, *p.upgrades))
        label = f"{p.count} x " if p.count > 1 else ""
        called = f' "{p.name}"' if p.name else ""
        line = f"  {n}. {label}{names.get(p.model, p.model)}{called}{': ' + kit if kit else ''}"
        console.print(line, highlight=False)


def _edit(console: Console, builder: ListBuilder, plan: Plan) -> Plan:
    models = builder.models(plan.list_id)
    while True:
        _entries(console, builder, plan, models)
        show_status(console, builder.status(plan))
        console.print(_offers_table("Models of the list", models))
        text = typer.prompt(
            "Add a model (number or name; -N removes entry N; Enter when done)", default="", show_default=False
        )
        text = text.strip()
        if not text:
            return plan
        if re.fullmatch(r"-\d+", text):
            n = int(text[1:])
            if 1 <= n <= len(plan.picks):
                plan = replace(plan, picks=plan.picks[: n - 1] + plan.picks[n:])
            continue
        offer = find_offer(models, text)
        if offer is None:
            console.print(f"no such model: {text!r}")
            continue
        count = typer.prompt("How many", default=1, type=int)
        name = typer.prompt("Name (Enter for none)", default="", show_default=False).strip() or None
        pick = _pick_kit(console, builder, plan, Pick(offer.id, max(1, count), name))
        plan = replace(plan, picks=(*plan.picks, pick))


def _interactive(console: Console, builder: ListBuilder, out: Path | None) -> None:
    chosen = _choose_list(console, builder)
    ducats, glory = builder.default_limits(chosen.id)
    name = typer.prompt("Warband name", default=f"My {chosen.name} warband")
    limit = typer.prompt("Ducats to spend", default=ducats, type=int)
    plan = Plan(name, chosen.id, limit, glory_limit=glory)
    while True:
        plan = _edit(console, builder, plan)
        status = builder.status(plan)
        if status.ok:
            break
        show_status(console, status)
        if not typer.confirm("The warband breaks the rules above. Keep editing?", default=True):
            raise typer.Exit(2)
    path = out or Path(typer.prompt("Save as", default=file_name(name)))
    _save(console, builder, plan, path)


def _save(console: Console, builder: ListBuilder, plan: Plan, path: Path) -> None:
    try:
        write_atomic(path, warband_text(builder.document(plan)))
    except OutputError as exc:
        raise BuildError(f"cannot save the warband: {exc}") from None
    console.print(f"saved {path}", highlight=False)


# ----------------------------------------------------------------------------------------------- command


def build(
    ruleset: Annotated[str, typer.Argument(help="Ruleset id (one with lists: trench-crusade).")],
    faction: Annotated[str | None, typer.Option("--faction", help="Faction (or variant) name.")] = None,
    variant: Annotated[str | None, typer.Option("--variant", help="Variant of the faction.")] = None,
    name: Annotated[str | None, typer.Option("--name", help="The warband's name.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", help="Points (ducats) to spend; default the list's.")] = None,
    glory: Annotated[int | None, typer.Option("--glory", help="Glory to spend; default the list's.")] = None,
    model: Annotated[
        list[str] | None,
        typer.Option(
            "--model",
            help='One entry (repeatable): N x MODEL "NAME": ITEM, ITEM + UPGRADE; count, name, items and upgrades '
            "may be left out.",
        ),
    ] = None,
    spec: Annotated[Path | None, typer.Option("--spec", help="A spec file (header lines and model lines).")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Write the warband here (default: print it).")] = None,
) -> None:
    """Build a warband from the ruleset's lists: interactively, or from --faction and --model / --spec."""
    builder = registry.get(ruleset).list_builder()
    if builder is None:
        raise BuildError(f"{ruleset} has no lists to build from")
    console = Console(highlight=False, soft_wrap=True)
    if faction is None and not model and spec is None:
        _interactive(console, builder, out)
        return
    header, lines = read_spec(spec) if spec is not None else ({}, [])
    faction = faction or header.get("faction")
    if faction is None:
        raise BuildError("--faction (or a faction: line in --spec) is needed to build from arguments")
    chosen = find_list(builder, faction, variant or header.get("variant"))
    ducats, start_glory = builder.default_limits(chosen.id)
    plan = Plan(
        name or header.get("name") or f"My {chosen.name} warband",
        chosen.id,
        limit if limit is not None else _int(header.get("limit"), ducats, "limit"),
        tuple(parse_model(builder, chosen.id, s) for s in [*lines, *(model or [])]),
        glory if glory is not None else _int(header.get("glory"), start_glory, "glory"),
    )
    status = builder.status(plan, str(out) if out else "warband")
    err = Console(stderr=True, highlight=False, soft_wrap=True)
    show_status(err, status)
    if not status.ok:
        err.print(f"{len(status.problems)} problem(s): nothing written")
        raise typer.Exit(2)
    if out is None:
        typer.echo(warband_text(builder.document(plan)), nl=False)
    else:
        _save(err, builder, plan, out)


def _int(text: str | None, default: int, key: str) -> int:
    if text is None:
        return default
    try:
        return int(text)
    except ValueError:
        raise BuildError(f"{key}: expected a whole number, found {text!r}") from None


def register(app: typer.Typer) -> None:
    """Add ``build`` to ``app``."""
    app.command("build")(build)

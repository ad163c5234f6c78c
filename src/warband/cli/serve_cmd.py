"""``warband serve``: the table in the browser, and ``warband map``: a position's table at the terminal.

``serve`` binds 127.0.0.1:8000 by default and prints the URL. Games live in a SQLite file (``--store``) and
resume after a restart; ``--log FILE`` and ``--db results.db`` (a lab database) add games to the replay view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from warband.kernel.position import load_position
from warband.kernel.view_text import render_view


def serve(
    host: Annotated[str, typer.Option("--host", help="Address to bind (default: this machine only).")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="Port to listen on.")] = 8000,
    store: Annotated[Path, typer.Option("--store", help="SQLite file of the web games.")] = Path("warband-web.db"),
    db: Annotated[Path | None, typer.Option("--db", help="A lab database whose games open as replays.")] = None,
    log: Annotated[
        list[Path] | None, typer.Option("--log", help="A game log to open as a replay (repeatable).")
    ] = None,
    ai_delay: Annotated[float, typer.Option("--ai-delay", help="Seconds an agent seat waits before it plays.")] = 0.4,
) -> None:
    """Start the web table and print its URL."""
    import uvicorn

    from warband.web.app import Server, create_app
    from warband.web.guard import allowed_hosts, check_serve_arguments
    from warband.web.replays import ReplayShelf
    from warband.web.store import TableStore

    check_serve_arguments(host, port, ai_delay, list(log or []), db)
    tables = TableStore(store)
    shelf = ReplayShelf()
    for path in log or []:
        typer.echo(f"replay {shelf.add_log_file(path)}: {path}")
    if db is not None:
        if not db.is_file():
            raise typer.BadParameter(f"no such file: {db}", param_hint="--db")
        typer.echo(f"{len(shelf.add_lab_db(db))} lab game(s) from {db} open as replays")
    app = create_app(Server(tables, shelf, ai_delay, allowed_hosts=allowed_hosts(host)))
    typer.echo(f"warband table: http://{host}:{port}/  (games stored in {store}; Ctrl-C stops)")
    # httptools and uvloop (dependencies) are picked by uvicorn's "auto"; the live pushes are a few hundred bytes,
    # so per-message compression costs more CPU than it saves on a local table.
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_keep_alive=30, ws_per_message_deflate=False)


def map_command(
    position: Annotated[Path, typer.Argument(metavar="POSITION.json", help="A position file (Game.to_json).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the drawable view as JSON.")] = False,
) -> None:
    """Draw a position's table from its ruleset's drawable view (docs/view.md)."""
    game = load_position(position)
    view = game.ruleset.view(game.state)
    typer.echo(json.dumps(view, indent=2) if as_json else render_view(view))


def register(app: typer.Typer) -> None:
    app.command("serve")(serve)
    app.command("map")(map_command)

"""The web table's HTTP and WebSocket API and its static page.

Every route that touches a table is ``async``: it runs in the event loop thread, so steps never interleave
(see :mod:`warband.web.tables`). Errors are JSON (``{"error": ..., ...}``), never a traceback: 403 for the
wrong seat or a spectator, 409 for a stale state version (naming the one expected), 413 for an oversized body
or upload, 422 for a malformed body, an invalid file (every problem with its place) or an illegal action (every
rule that forbids it)."""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Header, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from warband.agents.base import available as agent_names
from warband.kernel import ruleset as registry
from warband.kernel.actions import Action
from warband.kernel.battlefield import Battlefield, battlefield
from warband.kernel.engine import Game
from warband.kernel.errors import IllegalActionError, WarbandError
from warband.kernel.params import parse_assignments
from warband.kernel.sheet import table_view
from warband.web.answers import deciding_seat, legal_json, measure, menu_json, reasons_json, role_or_403, snapshot
from warband.web.builder import builder_router
from warband.web.documents import get_ruleset, load_doc_async, refuse_unmodelled
from warband.web.errors import ApiError
from warband.web.guard import HostCheck, game_of_replay
from warband.web.replays import ReplayShelf
from warband.web.schemas import (
    BODY_LIMIT,
    UPLOAD_LIMIT,
    ActBody,
    DocChoice,
    MeasureBody,
    NewGameBody,
    RollBody,
    ValidateBody,
    WhyBody,
)
from warband.web.simulation import simulation_router
from warband.web.store import TableStore
from warband.web.tables import HUMAN, Table, open_table, restore_table
from warband.workers import worker_pool

STATIC = Path(__file__).parent / "static"


@dataclass
class Server:
    """What the app serves: the table store, the open tables, the replays, the agents' delay, and the pool of
    worker processes the agent seats think in (``agent_workers`` processes, started at the first agent move;
    0: worker threads of this process, which share its GIL with the request handlers)."""

    store: TableStore
    shelf: ReplayShelf
    ai_delay: float = 0.4
    agent_workers: int = 2
    tables: dict[str, Table] = field(default_factory=dict)
    #: the Host header names a request may carry (see :mod:`warband.web.guard`); None: not checked
    allowed_hosts: frozenset[str] | None = None
    fields: dict[str, Battlefield] = field(default_factory=dict)
    _pool: ProcessPoolExecutor | None = None

    @property
    def pool(self) -> ProcessPoolExecutor | None:
        if self.agent_workers > 0 and self._pool is None:
            # spawn, not fork: the server runs threads (uvicorn, SQLite), and a forked copy of a lock held by one
            # of them would never be released in the child
            ctx = multiprocessing.get_context("spawn")
            # each worker watches this process and ends when it is gone (a killed server leaves no orphans)
            self._pool = worker_pool(self.agent_workers, ctx)
        return self._pool

    def kick(self, table: Table) -> None:
        """Set the table's server steps (dice, agent seats) going if it has any."""
        if table.waits_for_server():
            table.kick(self.ai_delay, self.pool)

    def close(self) -> None:
        """Stop the tables' runners and the agents' worker processes, and wait for the saves still queued:
        every step a table took is in the store when the server stops."""
        for table in self.tables.values():
            if table.runner is not None:
                table.runner.cancel()
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        self.store.flush()

    def table(self, table_id: str) -> Table:
        """The table (loaded from the store after a restart, its agents set going again); 404 if unknown."""
        table = self.tables.get(table_id)
        if table is None:
            stored = self.store.load(table_id) if len(table_id) <= 64 else None
            if stored is None:
                raise ApiError(404, f"no game {table_id!r}")
            table = self.tables[table_id] = restore_table(self.store, stored)
        self.kick(table)
        return table

    def battlefield(self, table: Table) -> Battlefield:
        if table.id not in self.fields:
            self.fields[table.id] = battlefield(table.game.header["scenario"])
        return self.fields[table.id]


# --- the app -----------------------------------------------------------------------------------------
ASGIApp = Callable[[MutableMapping[str, Any], Any, Any], Awaitable[None]]


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with a JSON 413, by its length header or as it streams."""

    def __init__(self, app: ASGIApp, limit: int = BODY_LIMIT) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = dict(scope.get("headers", [])).get(b"content-length")
        if length is not None and length.isdigit() and int(length) > self.limit:
            await _too_large(self.limit)(scope, receive, send)
            return
        seen = 0

        async def counted() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise ApiError(413, f"request body over {self.limit} bytes")
            return message

        await self.app(scope, counted, send)


def fast_json(content: dict[str, Any]) -> JSONResponse:
    """A response of JSON-native data, serialised directly (FastAPI's generic encoder walks every value of a
    view again, which costs more than building it)."""
    return JSONResponse(content)


def _too_large(limit: int) -> JSONResponse:
    return JSONResponse({"error": f"request body over {limit} bytes"}, status_code=413)


def create_app(server: Server) -> FastAPI:
    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        server.close()

    app = FastAPI(title="warband table", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.state.server = server
    _errors(app)
    _pages(app)
    _meta_routes(app, server)
    _game_routes(app, server)
    _replay_routes(app, server)
    app.include_router(builder_router())
    app.include_router(simulation_router())
    app.add_middleware(BodyLimit)
    if server.allowed_hosts is not None:
        app.add_middleware(HostCheck, allowed=server.allowed_hosts)
    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def bad_body(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = [{"place": ".".join(str(x) for x in e["loc"]), "message": e["msg"]} for e in exc.errors()]
        return JSONResponse({"error": "malformed request", "problems": problems}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(WarbandError)
    async def warband_error(request: Request, exc: WarbandError) -> JSONResponse:
        return JSONResponse({"error": str(exc)}, status_code=422)

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"error": f"internal error ({type(exc).__name__})"}, status_code=500)


def _pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    page = STATIC / "index.html"

    @app.get("/", include_in_schema=False)
    async def home() -> FileResponse:
        return FileResponse(page)

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        return FileResponse(page)

    @app.get("/replay/{replay_id}", include_in_schema=False)
    async def replay_page(replay_id: str) -> FileResponse:
        return FileResponse(page)


def _meta_routes(app: FastAPI, server: Server) -> None:
    @app.get("/api/meta")
    async def meta() -> dict[str, Any]:
        rulesets = []
        for rid in registry.available():
            rs = registry.get(rid)
            samples = rs.samples()
            rulesets.append(
                {
                    "id": rid,
                    "title": rs.title,
                    "warbands": [{"id": Path(s["path"]).stem, "name": s["name"]} for s in samples["warbands"]],
                    "scenarios": [{"id": Path(s["path"]).stem, "name": s["name"]} for s in samples["scenarios"]],
                }
            )
        return {"rulesets": rulesets, "agents": agent_names(), "upload_limit": UPLOAD_LIMIT}

    @app.post("/api/validate")
    async def validate(body: ValidateBody) -> dict[str, Any]:
        rs = get_ruleset(body.ruleset)
        doc = await load_doc_async(rs, body.kind, body.doc, body.kind)
        summary = str(doc.get("name", body.kind))
        points = rs.roster_points(doc) if body.kind == "warband" else None
        notes = rs.unmodelled(doc) if body.kind == "warband" else []
        return {
            "ok": True,
            "summary": summary + (f", {points} points" if points is not None else ""),
            "unmodelled": notes,
        }

    @app.post("/api/games")
    async def new_game(body: NewGameBody) -> dict[str, Any]:
        rs = get_ruleset(body.ruleset)
        rosters = [
            await load_doc_async(rs, "warband", body.a, "side A"),
            await load_doc_async(rs, "warband", body.b, "side B"),
        ]
        refuse_unmodelled(rs, rosters, body.allow_unmodelled)
        scen_choice = body.scenario or DocChoice(sample=rs.default_scenario().stem)
        scenario = await load_doc_async(rs, "scenario", scen_choice, "scenario")
        seats = [s.strip() for s in body.seats]
        for spec in seats:
            if spec != HUMAN:
                _check_agent(spec)
        params = parse_assignments(f"{k}={v}" for k, v in body.params.items())
        game = Game.new(rs, rosters, scenario, body.seed, params)
        table_id = secrets.token_urlsafe(9)
        table = server.tables[table_id] = open_table(server.store, table_id, game, seats, body.dice, body.public)
        server.kick(table)
        links = {key: f"/table/{table_id}?token={tok}" for key, tok in table.fresh_tokens.items()}
        return {"id": table_id, "links": {"A": links["0"], "B": links["1"], "spectator": links["spectator"]}}


def _check_agent(spec: str) -> None:
    from warband.agents.base import make_agent

    if len(spec) > 120:
        raise ApiError(422, "agent spec too long")
    make_agent(spec, 0)


def _game_routes(app: FastAPI, server: Server) -> None:
    @app.get("/api/games/{table_id}")
    async def state(table_id: str, token: str = "", since: int = 0) -> JSONResponse:
        table = server.table(table_id)
        return fast_json(snapshot(table, role_or_403(table, token), max(0, since)))

    @app.get("/api/games/{table_id}/legal")
    async def legal(table_id: str, token: str = "", model: str | None = None) -> JSONResponse:
        started = time.perf_counter()
        table = server.table(table_id)
        role_or_403(table, token)
        response = fast_json({"version": table.version, "actions": legal_json(table, model)})
        response.headers["Server-Timing"] = f"app;dur={(time.perf_counter() - started) * 1000:.2f}"
        return response

    @app.get("/api/games/{table_id}/menu")
    async def menu(table_id: str, token: str = "", model: str | None = None) -> JSONResponse:
        """Every action of the pending choice (or of one model) with why the illegal ones are refused."""
        table = server.table(table_id)
        role_or_403(table, token)
        return fast_json({"version": table.version, "actions": menu_json(table, model)})

    @app.post("/api/games/{table_id}/act")
    async def act(table_id: str, body: ActBody, x_token: str | None = Header(default=None)) -> dict[str, Any]:
        table = server.table(table_id)
        deciding_seat(table, x_token, body.version)
        action = Action.from_json(body.action.model_dump(exclude_none=True))
        try:
            version = await table.apply(action)  # answered only once the step is stored (503 if it cannot be)
        except IllegalActionError as exc:
            raise ApiError(422, f"illegal: {action}", reasons=reasons_json(exc.reasons)) from None
        server.kick(table)
        return {"version": version}

    @app.post("/api/games/{table_id}/why")
    async def why(table_id: str, body: WhyBody, x_token: str | None = Header(default=None)) -> dict[str, Any]:
        table = server.table(table_id)
        role_or_403(table, x_token)
        action = Action.from_json(body.action.model_dump(exclude_none=True))
        return {"action": str(action), "reasons": reasons_json(table.game.why_illegal(action))}

    @app.post("/api/games/{table_id}/roll")
    async def roll(table_id: str, body: RollBody, x_token: str | None = Header(default=None)) -> dict[str, Any]:
        table = server.table(table_id)
        deciding_seat(table, x_token, body.version)
        try:
            version = await table.roll(body.values)
        except IllegalActionError as exc:
            raise ApiError(422, "those dice do not fit the roll", reasons=reasons_json(exc.reasons)) from None
        server.kick(table)
        return {"version": version}

    @app.post("/api/games/{table_id}/measure")
    async def measure_route(table_id: str, body: MeasureBody, token: str = "") -> dict[str, Any]:
        table = server.table(table_id)
        role_or_403(table, token)
        return measure(table, server.battlefield(table), body)

    @app.websocket("/api/games/{table_id}/ws")
    async def live(websocket: WebSocket, table_id: str, token: str = "") -> None:
        await websocket.accept()
        try:
            table = server.table(table_id)
        except ApiError as exc:
            await websocket.close(code=4404, reason=exc.message)
            return
        if table.role_of(token) is None:
            await websocket.close(code=4403, reason="not a link of this game")
            return
        await _listen(websocket, table)


async def _listen(websocket: WebSocket, table: Table) -> None:
    """Send the state version whenever it changes, until the browser goes away or the server shuts down."""
    queue: asyncio.Queue[int] = asyncio.Queue(maxsize=64)
    table.listeners.add(queue)
    closed = asyncio.create_task(_until_closed(websocket))
    try:
        await websocket.send_json({"version": table.version})
        while True:
            getter = asyncio.create_task(queue.get())
            done, _ = await asyncio.wait({getter, closed}, return_when=asyncio.FIRST_COMPLETED)
            if getter not in done:
                getter.cancel()
                return
            version = getter.result()
            while not queue.empty():
                version = queue.get_nowait()
            await websocket.send_json({"version": version})
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        closed.cancel()
        table.listeners.discard(queue)


async def _until_closed(websocket: WebSocket) -> None:
    """Return when the browser closes the connection (what it sends is ignored)."""
    while (await websocket.receive())["type"] != "websocket.disconnect":
        pass


def _replay_routes(app: FastAPI, server: Server) -> None:
    @app.get("/api/replays")
    async def replays(token: str = "") -> dict[str, Any]:
        _shelve_finished(server)
        return {"replays": [r for r in server.shelf.listing() if _may_see(server, r["id"], token)]}

    @app.get("/api/replays/{replay_id}")
    async def replay_info(replay_id: str, token: str = "") -> dict[str, Any]:
        rep = _replay(server, replay_id, token)
        return {
            "id": rep.id,
            "title": rep.title,
            "ruleset": rep.game.ruleset.id,
            "lines": rep.lines,
            "result": rep.result,
        }

    @app.get("/api/replays/{replay_id}/view")
    async def replay_view(replay_id: str, step: int = 0, token: str = "") -> dict[str, Any]:
        rep = _replay(server, replay_id, token)
        k = max(0, min(step, len(rep.states) - 1))
        return {"step": k, "steps": len(rep.states) - 1, "view": table_view(rep.game.ruleset, rep.states[k])}


def _may_see(server: Server, replay_id: str, token: str) -> bool:
    """A web game's replay is for the people holding one of its links (everyone's if the game was made
    public); other replays are for everyone."""
    game = game_of_replay(replay_id)
    if game is None:
        return True
    try:
        table = server.table(game)
        return table.public or table.role_of(token) is not None
    except ApiError:
        return False


def _replay(server: Server, replay_id: str, token: str = "") -> Any:
    _shelve_finished(server)
    if not _may_see(server, replay_id, token):
        raise ApiError(403, f"replay {replay_id!r} is a web game's: open it with one of that game's links (token)")
    try:
        rep = server.shelf.get(replay_id)
    except WarbandError as exc:
        raise ApiError(422, f"cannot replay {replay_id}: {exc}") from None
    if rep is None:
        raise ApiError(404, f"no replay {replay_id!r}")
    return rep


def _shelve_finished(server: Server) -> None:
    """Offer every finished game of the store as a replay ``game-<id>``."""
    from warband.kernel.log import parse_log

    for table_id, ruleset_id in server.store.finished():
        replay_id = f"game-{table_id}"
        if replay_id in server.shelf.sources:
            continue

        def load(tid: str = table_id) -> Any:
            stored = server.store.load(tid)
            assert stored is not None
            import json

            lines = [json.dumps(stored.game["header"]), *(json.dumps(s["e"]) for s in stored.log)]
            return parse_log(lines, f"game {tid}")

        server.shelf.add(replay_id, f"{ruleset_id} game {table_id}", load)

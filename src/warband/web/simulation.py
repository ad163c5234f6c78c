"""A short simulation from the web table: ``POST /api/simulate`` plays a few games (at most
:data:`MAX_GAMES`) between two warbands, samples or uploaded files, with the lab's ``simulate`` in one of the
server's worker processes, and answers its summary. One runs at a time per server (a second is answered 429), so
a browser cannot fill the machine; anything longer is ``warband simulate``'s job."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field

from warband.kernel.errors import WarbandError
from warband.lab.records import SimulationConfig
from warband.lab.simulate import simulate
from warband.web.documents import get_ruleset, load_doc_async, refuse_unmodelled, sample_path
from warband.web.errors import ApiError
from warband.web.schemas import DocChoice

__all__ = ["MAX_GAMES", "SimulateBody", "run_short", "simulation_router"]

#: The most games one request may play.
MAX_GAMES = 200

Side = tuple[Literal["text", "path"], str]
"""A warband or scenario for the worker: an uploaded file's text, or a bundled sample's path."""


class SimulateBody(BaseModel):
    model_config = ConfigDict(extra="forbid")

    ruleset: str = Field(max_length=80)
    a: DocChoice
    b: DocChoice
    scenario: DocChoice | None = None
    games: int = Field(default=20, ge=1, le=MAX_GAMES)
    seed: int = Field(default=1, ge=0, le=2**31 - 1)
    agent_a: str = Field(default="heuristic", min_length=1, max_length=120)
    agent_b: str = Field(default="heuristic", min_length=1, max_length=120)
    #: Play warbands whose rules the engine does not all play (without those rules); refused otherwise.
    allow_unmodelled: bool = False


def _side(rs_id: str, kind: str, choice: DocChoice) -> Side:
    if choice.sample is not None:
        return ("path", str(sample_path(get_ruleset(rs_id), kind, choice.sample)))
    return ("text", choice.text or "")


def run_short(
    ruleset: str, a: Side, b: Side, scenario: Side | None, games: int, seed: int, agents: tuple[str, str]
) -> dict[str, Any]:
    """Play the games in this process (a worker of the server's pool) and return what the page shows: each side's
    name, agent, wins and 95% interval, the draws, the mean number of turns, the time and the games that crashed."""
    with tempfile.TemporaryDirectory(prefix="warband-sim-") as tmp:

        def path(side: Side, name: str) -> Path:
            if side[0] == "path":
                return Path(side[1])
            p = Path(tmp) / name
            p.write_text(side[1], encoding="utf-8")
            return p

        config = SimulationConfig(
            ruleset,
            path(a, "a.yaml"),
            path(b, "b.yaml"),
            None if scenario is None else path(scenario, "scenario.yaml"),
            games=games,
            seed=seed,
            agent_a=agents[0],
            agent_b=agents[1],
            swap_sides=True,
        )
        result = simulate(config, workers=1)
    summary = result.summary()
    return {
        "games": summary["games"],
        "a": {k: summary["a"][k] for k in ("name", "agent", "wins", "win_rate", "ci95")},
        "b": {k: summary["b"][k] for k in ("name", "agent", "wins", "win_rate", "ci95")},
        "draws": summary["draws"],
        "mean_turns": summary["mean_turns"],
        "elapsed_s": summary["elapsed_s"],
        "crashes": [c["error"] for c in summary["crashes"]],
    }


def _command(body: SimulateBody) -> str:
    """The same run at the terminal (the warbands saved as A.yaml and B.yaml), for more games."""
    allow = " --allow-unmodelled" if body.allow_unmodelled else ""
    return (
        f"warband simulate {body.ruleset} A.yaml B.yaml --games {body.games} --seed {body.seed} --swap-sides "
        f"--agent-a {body.agent_a} --agent-b {body.agent_b}{allow}"
    )


def _check_agent(spec: str, label: str) -> None:
    from warband.agents.base import make_agent

    try:
        make_agent(spec, 0)
    except WarbandError as exc:
        raise ApiError(422, f"{label}: {exc}") from None


def simulation_router() -> APIRouter:
    router = APIRouter()
    running: set[int] = set()

    @router.post("/api/simulate")
    async def simulate_route(body: SimulateBody, request: Request) -> dict[str, Any]:
        rs = get_ruleset(body.ruleset)
        rosters = [
            await load_doc_async(rs, "warband", body.a, "side A"),
            await load_doc_async(rs, "warband", body.b, "side B"),
        ]
        refuse_unmodelled(rs, rosters, body.allow_unmodelled)
        if body.scenario is not None:
            await load_doc_async(rs, "scenario", body.scenario, "scenario")
        _check_agent(body.agent_a, "agent A")
        _check_agent(body.agent_b, "agent B")
        if running:
            raise ApiError(429, "a simulation is already running on this server; try again when it has finished")
        running.add(1)
        try:
            args = (
                rs.id,
                _side(rs.id, "warband", body.a),
                _side(rs.id, "warband", body.b),
                None if body.scenario is None else _side(rs.id, "scenario", body.scenario),
                body.games,
                body.seed,
                (body.agent_a, body.agent_b),
            )
            pool = request.app.state.server.pool
            try:
                summary = await asyncio.get_running_loop().run_in_executor(pool, run_short, *args)
            except WarbandError as exc:
                raise ApiError(422, str(exc)) from None
        finally:
            running.discard(1)
        return summary | {"command": _command(body)}

    return router

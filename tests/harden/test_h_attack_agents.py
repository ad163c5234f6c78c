"""Issue 24 item 2: every agent option parsed against declared bounds (a finite number, in range, given at most
once). A spec that would make an agent think for ever is refused by the agent loader, the CLI (exit 2) and the
web (POST /api/games answers 422), each naming the option."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from attack import timed, web
from fastapi.testclient import TestClient
from hardcli import TC, cli, warband

from warband.agents.base import AgentError, make_agent
from warband.kernel.ruleset import get

BAD_SPECS = {
    "mcts:seconds=inf": "seconds",
    "mcts:seconds=nan": "seconds",
    "mcts:seconds=-inf": "seconds",
    "mcts:seconds=-1": "seconds",
    "mcts:seconds=0": "seconds",
    "mcts:seconds=1e9": "seconds",
    "mcts:iterations=99999999999999999999": "iterations",
    "mcts:iterations=5,iterations=6": "given twice",
    "mcts:iterations=0": "iterations",
    "mcts:iterations=1.5": "iterations",
    "mcts:iterations=1e3": "iterations",
    "mcts:iterations=": "iterations",
    "mcts:depth=1000000000": "depth",
    "mcts:c=nan": "option c",
    "mcts:scale=inf": "scale",
    "mcts:top=-3": "top",
    "mcts:prior_samples=1e400": "prior_samples",
    "mcts:init=99999999999": "init",
    "heuristic:samples=99999999": "samples",
    "heuristic:depth=-1": "depth",
    "heuristic:depth=100": "depth",
    "heuristic:refine=nan": "refine",
    "heuristic:samples=2,samples=3": "given twice",
    "mcts:" + "iterations=1," * 60: "limit",
}


@pytest.mark.parametrize("spec", sorted(BAD_SPECS))
def test_the_agent_loader_refuses_unbounded_options(spec: str) -> None:
    with pytest.raises(AgentError) as info:
        timed(lambda: make_agent(spec))
    assert BAD_SPECS[spec] in str(info.value)


@pytest.mark.parametrize("spec", sorted(BAD_SPECS))
def test_simulate_refuses_them_with_exit_2(spec: str, tmp_path: Path) -> None:
    out = timed(
        lambda: cli(
            "simulate",
            TC,
            "--a",
            warband(TC),
            "--b",
            warband(TC),
            "--games",
            "1",
            "--agent-a",
            spec,
            "--db",
            tmp_path / "r.db",
        )
    )
    assert out.code == 2 and BAD_SPECS[spec] in out.text, out.text


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with web() as c:
        yield c


@pytest.mark.parametrize("spec", sorted(BAD_SPECS))
def test_the_web_refuses_them_with_a_422(spec: str, client: TestClient) -> None:
    w = [Path(s["path"]).stem for s in get(TC).samples()["warbands"]]
    body = {"ruleset": TC, "a": {"sample": w[0]}, "b": {"sample": w[1]}, "seats": [spec, "random"]}
    r = timed(lambda: client.post("/api/games", json=body))
    assert 400 <= r.status_code < 500, r.text
    assert BAD_SPECS[spec] in r.text or "too long" in r.text
    assert not client.app.state.server.tables, "no table was opened"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "spec", ["mcts:iterations=1000000", "mcts:seconds=600", "heuristic:samples=1000,depth=20", "mcts:c=0"]
)
def test_the_largest_allowed_values_are_accepted(spec: str) -> None:
    assert make_agent(spec) is not None

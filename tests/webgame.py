"""Web table helpers shared by the API tests and the hardening corpus: open a game through the API (its link
tokens kept) and read a seat's snapshot."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from warband.kernel import ruleset as registry

TC = "trench-crusade"


def new_game(
    c: TestClient, seats: tuple[str, str] = ("human", "human"), ruleset: str = TC, **extra: Any
) -> dict[str, Any]:
    """A new game of the ruleset's first two sample warbands (seed 3); ``tokens`` maps A, B, spectator to the
    token of their link. A game of two people is returned once a person must answer."""
    rs = registry.get(ruleset)
    w = [Path(s["path"]).stem for s in rs.samples()["warbands"]]
    body = {"ruleset": ruleset, "a": {"sample": w[0]}, "b": {"sample": w[1]}, "seats": list(seats), "seed": 3, **extra}
    r = c.post("/api/games", json=body)
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    out["tokens"] = {k: v.split("token=")[1] for k, v in out["links"].items()}
    if all(seat == "human" for seat in seats):
        # the server rolls the opening dice itself, each step stored before the next: wait for a person's turn
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            s = snap(c, out, "spectator")
            if s["decider"] is not None or s["result"] is not None:
                break
            time.sleep(0.02)
    return out


def snap(c: TestClient, g: dict[str, Any], who: str = "A") -> dict[str, Any]:
    """The snapshot the seat ``who`` (A, B or spectator) sees."""
    r = c.get(f"/api/games/{g['id']}", params={"token": g["tokens"][who]})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data

"""The web table's guards at its edges: the ``Host`` header, who may open a game's replay, and the checks of
``serve``'s own arguments.

* **Host header.** A page on another site can make a browser send requests to ``127.0.0.1`` under its own
  name (DNS rebinding): :class:`HostCheck` answers 421 to any request whose ``Host`` is not the address the
  server is bound to (``127.0.0.1``, ``localhost``, ``::1`` for a local table, or the ``--host`` given).
  Bound to every address (``0.0.0.0``, ``::``) the server cannot know its names and checks nothing.
* **Replays of web games** (``game-<id>``) open only with a link of that game (a seat's or the spectators'
  token); the replays of ``--log`` files and of a ``--db`` are the server owner's and open to every visitor.
"""

from __future__ import annotations

import ipaddress
import math
from collections.abc import MutableMapping
from pathlib import Path
from typing import Any

from starlette.responses import JSONResponse

from warband.kernel.errors import WarbandError

__all__ = ["HostCheck", "ServeArgumentError", "allowed_hosts", "check_serve_arguments", "game_of_replay"]

LOCAL_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})
WILDCARDS = frozenset({"0.0.0.0", "::", ""})


class ServeArgumentError(WarbandError):
    """A ``serve`` argument that cannot work (a port out of range, an address that is not one, ...)."""


def allowed_hosts(bind: str) -> frozenset[str] | None:
    """The host names a request may carry for a server bound to ``bind``; None: bound to every address."""
    if bind in WILDCARDS:
        return None
    names = {bind.strip("[]").lower()}
    if names & LOCAL_NAMES:
        names |= LOCAL_NAMES
    return frozenset(names)


def host_of(header: str) -> str:
    """``"localhost:8000"`` -> ``localhost``; ``"[::1]:80"`` -> ``::1``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


class HostCheck:
    """ASGI middleware: a request (or a websocket) whose Host header names another host is refused."""

    def __init__(self, app: Any, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            raw = dict(scope.get("headers", [])).get(b"host", b"")
            host = host_of(raw.decode("latin-1"))
            if host not in self.allowed:
                message = (
                    f"the Host header {raw.decode('latin-1')[:80]!r} is not this server's address "
                    f"({', '.join(sorted(self.allowed))}); open the table by the address it printed"
                )
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4421, "reason": message[:120]})
                    return
                await JSONResponse({"error": message}, status_code=421)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def game_of_replay(replay_id: str) -> str | None:
    """The web game a replay id shows (``game-<id>``), or None for a log file's or a lab database's."""
    return replay_id[len("game-") :] if replay_id.startswith("game-") else None


def check_serve_arguments(host: str, port: int, ai_delay: float, logs: list[Path], db: Path | None) -> None:
    """Refuse, before anything starts, a ``serve`` that could not work: a port outside 1-65535, a host that is
    neither an IP address nor a host name, an agent delay that is not a finite number of seconds from 0 to
    60, a ``--log`` or ``--db`` that is not an existing regular file."""
    if not 1 <= port <= 65535:
        raise ServeArgumentError(f"--port {port}: expected a port from 1 to 65535")
    if not _valid_host(host):
        raise ServeArgumentError(f"--host {host!r}: expected an IP address (127.0.0.1, ::1) or a host name")
    if not math.isfinite(ai_delay) or not 0 <= ai_delay <= 60:
        raise ServeArgumentError(f"--ai-delay {ai_delay}: expected a number of seconds from 0 to 60")
    for flag, path in [("--log", p) for p in logs] + ([("--db", db)] if db is not None else []):
        if not path.exists():
            raise ServeArgumentError(f"{flag} {path}: no such file")
        if not path.is_file():
            raise ServeArgumentError(f"{flag} {path}: expected a regular file")


def _valid_host(host: str) -> bool:
    if host in WILDCARDS - {""}:
        return True
    try:
        ipaddress.ip_address(host.strip("[]"))
        return True
    except ValueError:
        pass
    if host.replace(".", "").isdigit():  # 999.1.1.1 is not a name either
        return False
    labels = host.rstrip(".").split(".")
    return 0 < len(host) <= 253 and all(
        0 < len(label) <= 63 and label[0] != "-" and label[-1] != "-" and all(c.isalnum() or c == "-" for c in label)
        for label in labels
    )

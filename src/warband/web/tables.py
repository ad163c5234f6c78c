"""A table in play: a game, its two seats (a person or an agent each), the secret links, the dice mode and
the browsers listening for changes.

Every change to a game happens in the server's event loop thread between two awaits, so requests and agent
turns never interleave inside a step. An agent thinks in a worker process (the server's pool) on a copy of the
game rebuilt from its saved JSON, so its search holds neither the event loop nor the server's GIL while
browsers ask for the state and the legal actions; without a pool it thinks in a worker thread on a clone. Its
choice is applied only if the game has not moved meanwhile."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import pickle
import re
import secrets
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

from warband.agents.base import Agent, make_agent
from warband.kernel.actions import Action, Decision
from warband.kernel.engine import Game
from warband.kernel.events import Event
from warband.kernel.sheet import table_view
from warband.web.errors import ApiError
from warband.web.store import StoredTable, TableStore

HUMAN = "human"
SPECTATOR = "spectator"
DIGITAL = "digital"
PHYSICAL = "physical"
SEAT_KEYS = ("0", "1", SPECTATOR)

Role = int | str  # 0, 1 or "spectator"


def new_tokens() -> dict[str, str]:
    """A secret link token for each seat and one for spectators."""
    return {key: secrets.token_urlsafe(18) for key in SEAT_KEYS}


def token_hash(token: str) -> str:
    """What the server keeps of a link token: its SHA-256 (hex). A store file that leaks gives no link."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def hashed_tokens(tokens: dict[str, str]) -> dict[str, str]:
    """The hashes of ``tokens``; a value already a hash (64 hex digits) is kept, so a store written before
    tokens were hashed is hashed as it is read."""
    return {key: tok if _HASH.fullmatch(tok) else token_hash(tok) for key, tok in tokens.items()}


_HASH = re.compile(r"[0-9a-f]{64}")


class SaveFailed(ApiError):
    """A step the store could not save: the game is stopped where it was last saved (503)."""

    def __init__(self, message: str) -> None:
        super().__init__(503, message)


def step_text(game: Game, entry: dict[str, Any]) -> str:
    """One log entry as a line: the decision key's side and the action, or the dice and where they came from."""
    n = entry.get("n", "?")
    if "a" in entry:
        who = str(entry.get("d", "")).split(":")
        side = "AB"[int(who[1])] if len(who) > 1 and who[1] in ("0", "1") else "?"
        return f"{n}. {side}: {Action.from_json(entry['a'])}"
    label = str(entry.get("d", "")).split(":", 2)[-1]
    return f"{n}. dice {label}: {entry.get('r')} ({entry.get('src', 'auto')})"


@dataclass
class Table:
    """One game at the web table (see the module docstring)."""

    id: str
    game: Game
    seats: list[str]
    #: the SHA-256 of each seat's link token (the tokens themselves are given once, in the new game's links)
    tokens: dict[str, str]
    dice: str
    store: TableStore
    agents: dict[int, Agent] = field(default_factory=dict)
    steps: list[dict[str, Any]] = field(default_factory=list)
    listeners: set[asyncio.Queue[int]] = field(default_factory=set)
    runner: asyncio.Task[None] | None = None
    legal_cache: tuple[int, list[dict[str, Any]]] | None = None
    #: per state version: the drawable view, one model's actions with their odds, the saved JSON of the game
    view_cache: tuple[int, dict[str, Any]] | None = None
    odds_cache: dict[tuple[int, str], list[dict[str, Any]]] = field(default_factory=dict)
    json_cache: tuple[int, dict[str, Any]] | None = None
    #: per state version: the pending decision in the ruleset's words (``Ruleset.describe_decision``)
    said_cache: tuple[int, str] | None = None
    saved: int = 0
    #: the store's answer to the last save queued (its writer thread commits it)
    saving: Future[int] | None = None
    fault: str | None = None
    #: agent moves chosen in a worker process (the others were chosen in a thread of the server)
    moved_elsewhere: int = 0
    #: a step could not be saved: the game stands where it was last saved and takes no step until a restart
    halted: bool = False
    #: once finished, its replay is open to every visitor (else only to the holders of its links)
    public: bool = False
    #: the link tokens of a table just opened (kept only to answer the request that opened it)
    fresh_tokens: dict[str, str] = field(default_factory=dict)

    # --- who is who ------------------------------------------------------------------------------
    def role_of(self, token: str | None) -> Role | None:
        """The seat (0, 1) or ``spectator`` whose secret link carries ``token``; None for an unknown token."""
        if not token or len(token) > 200:
            return None
        given = token_hash(token).encode()
        found: Role | None = None
        for key, secret in self.tokens.items():  # every seat compared, in constant time each
            if hmac.compare_digest(secret.encode(), given):
                found = int(key) if key in ("0", "1") else SPECTATOR
        return found

    def is_agent(self, side: int) -> bool:
        return self.seats[side] != HUMAN

    def dice_owner(self, d: Decision) -> int | None:
        """The seat that types physical dice for a chance decision: the rolling model's side, else the first
        person at the table. None: the server rolls (digital dice, or the dice of an agent's model)."""
        if self.dice != PHYSICAL or d.dice is None:
            return None
        humans = [s for s in (0, 1) if not self.is_agent(s)]
        model = self.game.state.models.get(d.dice.model or "")
        if model is not None:
            return model.side if model.side in humans else None
        return humans[0] if humans else None

    def decider(self) -> int | None:
        """The seat that must answer now (a choice or physical dice), or None when the server acts or it is over."""
        d = self.game.decision
        if d.kind == "choice":
            return d.player
        if d.kind == "chance":
            return self.dice_owner(d)
        return None

    def waits_for_server(self) -> bool:
        """Whether the next step is the server's: digital dice, or a decision of an agent seat."""
        d = self.game.decision
        if d.kind == "over":
            return False
        who = self.decider()
        return who is None or self.is_agent(who)

    # --- steps -----------------------------------------------------------------------------------
    def record(self, events: list[Event], notify: bool = True) -> None:
        """Keep the new log entry with what it caused, save, and wake every listener."""
        log = self.game.log or []
        for idx in range(len(self.steps), len(log)):
            self.steps.append({"e": log[idx], "ev": [e.describe() for e in events]})
        self.persist()
        if notify:
            self.notify()

    async def commit(self, step: Callable[[], list[Event]]) -> int:
        """Take one step (``step`` applies it to the game) and let it stand only once the store has it: the new
        version is answered and shown after the commit. If the store fails, the game goes back to the state
        before the step, the table halts (no agent plays on, no person's action is taken) and
        :class:`SaveFailed` (503) says why. An illegal step raises before anything changes."""
        self.refuse_if_halted()
        before = self.version, self.game_json(), len(self.steps), self.saved, len(self.game.log or [])
        self.record(step(), notify=False)
        try:
            await self.stored()
        except Exception as exc:  # a full disk, a read-only or closed store
            self._roll_back(*before)
            self.halt(
                f"the server could not save this game ({type(exc).__name__}: {exc}); it is stopped at "
                f"version {self.version}, the last one saved"
            )
            raise SaveFailed(self.fault or "") from None
        self.notify()
        return self.version

    def _roll_back(self, version: int, saved_json: dict[str, Any], steps: int, saved: int, log_len: int) -> None:
        log = list(self.game.log or [])[:log_len]
        self.game = Game.from_json(saved_json, record=True)
        self.game.log = log
        del self.steps[steps:]
        self.saved = saved
        self.json_cache = (version, saved_json)
        self.view_cache = self.legal_cache = None
        self.odds_cache.clear()

    def halt(self, message: str) -> None:
        self.halted = True
        self.fault = message
        self.notify()

    def refuse_if_halted(self) -> None:
        if self.halted:
            raise SaveFailed(self.fault or "this game is stopped: the server could not save it")

    def persist(self) -> None:
        """Queue the state and the new steps for the store's writer thread (see :mod:`warband.web.store`): the
        event loop goes on serving browsers while they are written. ``stored()`` waits for them."""
        new = [(i, self.steps[i]) for i in range(self.saved, len(self.steps))]
        self.saving = self.store.save_later(self.id, self.game_json(), self.version, self.game.over, new)
        self.saving.add_done_callback(self._save_failed)
        self.saved = len(self.steps)

    def _save_failed(self, done: Future[int]) -> None:
        if not done.cancelled() and done.exception() is not None:
            self.halted = True
            self.fault = f"the server could not save this game: {done.exception()}"

    async def stored(self) -> None:
        """Return once every step so far is committed to the store (raises the store's error if it failed)."""
        if self.saving is not None:
            await asyncio.wrap_future(self.saving)

    def game_json(self) -> dict[str, Any]:
        """The game as saved (``Game.to_json``), built once per state version: the store and an agent's worker
        process read the same copy."""
        if self.json_cache is None or self.json_cache[0] != self.version:
            self.json_cache = (self.version, self.game.to_json())
        return self.json_cache[1]

    def view(self) -> dict[str, Any]:
        """The ruleset's drawable view of the state, built once per state version for every browser."""
        if self.view_cache is None or self.view_cache[0] != self.version:
            self.view_cache = (self.version, table_view(self.game.ruleset, self.game.state))
        return self.view_cache[1]

    def said(self) -> str:
        """The pending decision in the ruleset's words, built once per state version."""
        if self.said_cache is None or self.said_cache[0] != self.version:
            game = self.game
            self.said_cache = (self.version, game.ruleset.describe_decision(game.state, game.decision))
        return self.said_cache[1]

    def notify(self) -> None:
        for q in list(self.listeners):
            with contextlib.suppress(asyncio.QueueFull):
                q.put_nowait(self.version)

    @property
    def version(self) -> int:
        return self.game.state.state_id

    async def apply(self, action: Action) -> int:
        """Apply a person's or an agent's action and store it (see :meth:`commit`); the version reached."""
        return await self.commit(lambda: self.game.apply(action))

    async def roll(self, values: list[int] | None) -> int:
        """Roll (digital dice: ``None``) or take typed dice, and store the step (see :meth:`commit`)."""
        return await self.commit(lambda: self.game.roll(values))

    async def server_step(self) -> bool:
        """Roll digital dice (or an agent's dice) now; True if a step was taken."""
        d = self.game.decision
        if d.kind == "chance" and self.dice_owner(d) is None:
            await self.roll(None)
            return True
        return False

    async def agent_step(self, delay: float, pool: Executor | None = None) -> None:
        """Let the agent of the deciding seat choose (after ``delay``; in ``pool``'s worker process on the saved
        game, else in a worker thread on a clone) and apply its choice if the game is still where it was."""
        d = self.game.decision
        assert d.player is not None
        side = d.player
        before = self.version
        await asyncio.sleep(delay)
        if self.version != before:
            return
        agent = self.agents[side]
        action: Action | None = None
        if pool is not None:
            try:
                future = asyncio.get_running_loop().run_in_executor(pool, choose_elsewhere, agent, self.game_json())
                chosen, moved = await future
            except (pickle.PicklingError, TypeError, AttributeError, BrokenProcessPool):
                pass  # an agent that cannot travel to a process (or a broken pool): it thinks in a thread
            else:
                self.agents[side] = moved  # its random stream and memory went on in the worker
                self.moved_elsewhere += 1
                action = Action.from_json(chosen)
        if action is None:
            action = await asyncio.to_thread(agent.choose, self.game.clone())
        if self.version == before:
            await self.apply(action)

    async def run(self, delay: float, pool: Executor | None = None) -> None:
        """Play every server step (dice, agent seats) until a person must answer or the game is over. An agent
        that fails stops the runner and its message is shown to every seat (the next request tries again)."""
        try:
            while self.waits_for_server() and not self.halted:
                if not await self.server_step():
                    await self.agent_step(delay, pool)
                await asyncio.sleep(0)
            if not self.halted:
                self.fault = None
        except SaveFailed:
            pass  # the table halted and says why (see commit)
        except Exception as exc:  # an agent plug-in's bug must not kill the server nor go unseen
            self.fault = f"the server could not play this step: {type(exc).__name__}: {exc}"
            self.notify()

    def kick(self, delay: float, pool: Executor | None = None) -> None:
        """Start the runner if the server has something to do and none is running."""
        if self.halted or (self.runner is not None and not self.runner.done()):
            return
        if self.waits_for_server():
            self.runner = asyncio.get_running_loop().create_task(self.run(delay, pool))


def choose_elsewhere(agent: Agent, game: dict[str, Any]) -> tuple[dict[str, Any], Agent]:
    """In a worker process: the agent's choice on the game rebuilt from its saved JSON, and the agent as it is
    after choosing (its random stream moved on), to be kept by the table for its next turn."""
    action = agent.choose(Game.from_json(game))
    return action.to_json(), agent


def build_agents(seats: list[str], seed: int) -> dict[int, Agent]:
    """An agent for every seat that is not a person, seeded from the game's seed as the CLI does."""
    return {side: make_agent(spec, seed * 2 + side) for side, spec in enumerate(seats) if spec != HUMAN}


def open_table(
    store: TableStore, table_id: str, game: Game, seats: list[str], dice: str, public: bool = False
) -> Table:
    """A new table, stored at once."""
    tokens = new_tokens()
    hashes = hashed_tokens(tokens)
    stored = StoredTable(table_id, game.ruleset.id, seats, hashes, dice, game.to_json(), [], public)
    store.create(stored, time.time())
    agents = build_agents(seats, int(game.header["seed"]))
    table = Table(table_id, game, seats, hashes, dice, store, agents, public=public, fresh_tokens=tokens)
    table.record([])
    return table


def restore_table(store: TableStore, stored: StoredTable) -> Table:
    """A table as it was saved: the same game state, log, seats and links."""
    game = Game.from_json(stored.game, record=True)
    game.log = [s["e"] for s in stored.log]
    agents = build_agents(stored.seats, int(game.header["seed"]))
    tokens = hashed_tokens(stored.tokens)
    table = Table(
        stored.id, game, stored.seats, tokens, stored.dice, store, agents, list(stored.log), public=stored.public
    )
    table.saved = len(stored.log)
    return table

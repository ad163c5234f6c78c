"""The game engine: the kernel protocol over any ruleset.

A :class:`Game` is a ruleset plus a state plus (optionally) a log. At every point ``game.decision`` says who
decides; a side answers with :meth:`Game.apply`, chance with :meth:`Game.roll`. Every step is logged as one
JSON-able entry, so a game replays exactly (see :mod:`warband.kernel.log`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import repeat
from operator import is_
from typing import Any

from warband import __version__
from warband.kernel import ruleset as registry
from warband.kernel import sanity
from warband.kernel.actions import Action, Decision
from warband.kernel.errors import FormatVersionError, IllegalActionError, PositionError, Problem
from warband.kernel.events import Event
from warband.kernel.ruleset import GameResult, Reason, Ruleset
from warband.kernel.state import GameState

LOG_FORMAT = "warband-log"
#: Version of the log and position format. 2: pending steps in a position are typed records
#: (``{"step": kind, field: value...}``), no longer free-form dicts.
LOG_FORMAT_VERSION = 2


class Game:
    """One game in progress. Not thread-safe; cheap to :meth:`clone` for search."""

    __slots__ = (
        "_decision",
        "_decision_id",
        "_legal",
        "_legal_id",
        "_legal_set",
        "forced",
        "header",
        "log",
        "ruleset",
        "state",
    )

    def __init__(
        self, ruleset: Ruleset, state: GameState[Any], header: dict[str, Any], log: list[dict[str, Any]] | None = None
    ) -> None:
        self.ruleset = ruleset
        self.state = state
        self.header = header
        self.log = log
        self.forced: list[tuple[int, ...]] = []
        self._decision: Decision | None = None
        self._decision_id = -1
        self._legal: list[Action] = []
        self._legal_set: frozenset[Action] | None = None
        self._legal_id = -1

    # --- creation ----------------------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        ruleset: Ruleset | str,
        rosters: Sequence[dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
        params: Mapping[str, object] | None = None,
        record: bool = True,
    ) -> Game:
        """A new game from validated roster and scenario documents; ``params`` overrides defaults."""
        rs = registry.get(ruleset) if isinstance(ruleset, str) else ruleset
        resolved = rs.params.resolve(params)
        pair = (rosters[0], rosters[1])
        state = rs.setup(resolved, pair, scenario, seed)
        header = {
            "format": LOG_FORMAT,
            "format_version": LOG_FORMAT_VERSION,
            "warband": __version__,
            "ruleset": rs.id,
            "ruleset_version": rs.version,
            "params": resolved,
            "rosters": [pair[0], pair[1]],
            "scenario": scenario,
            "seed": seed,
        }
        return cls(rs, state, header, [] if record else None)

    # --- the protocol ------------------------------------------------------------------------------
    @property
    def decision(self) -> Decision:
        """Who decides what now (cached per state id)."""
        if self._decision_id != self.state.state_id or self._decision is None:
            self._decision = self.ruleset.decision(self.state)
            self._decision_id = self.state.state_id
        return self._decision

    @property
    def over(self) -> bool:
        return self.decision.is_over

    def legal_actions(self) -> list[Action]:
        """The legal choices now, in a deterministic order (empty at a chance point or when over)."""
        if self._legal_id != self.state.state_id:
            d = self.decision
            self._legal = [] if d.kind != "choice" else self.ruleset.legal_actions(self.state)
            self._legal_set = None  # built only if an action is not found by identity (see _listed)
            self._legal_id = self.state.state_id
        return self._legal

    def _listed(self, action: Action) -> bool:
        """Whether ``action`` is one of the legal actions. Agents pass an action of the list itself, found by
        identity in one C-level scan; anything else is looked up by value in a set built on first need (hashing
        every action of a long list of destinations cost more than the rest of ``apply``)."""
        legal = self._legal
        if any(map(is_, legal, repeat(action))):
            return True
        if self._legal_set is None:
            self._legal_set = frozenset(legal)
        return action in self._legal_set

    def why_illegal(self, action: Action) -> list[Reason]:
        """Every rule that forbids ``action`` now, as ``(rule_id, message)``; empty if it is legal."""
        d = self.decision
        if d.kind != "choice":
            return self._nobody_chooses(d, action)
        self.legal_actions()
        if self._listed(action):
            return []
        return self.ruleset.why_illegal(self.state, action)

    def _nobody_chooses(self, d: Decision, action: Action) -> list[Reason]:
        """Why no action is taken now: the dice must be rolled first, or the game is over."""
        rid = self.ruleset.id
        if d.kind == "chance" and d.dice is not None:
            whose = f" for {d.dice.model}" if d.dice.model else ""
            text = f"the dice decide now ({d.dice}{whose}); '{action}' must wait until they are rolled"
            when = self.ruleset.timing(action.kind)
            also = [(f"{rid}/timing/{action.kind}", f"'{action.kind}' is played at another moment: {when}")]
            return [(f"{rid}/timing/dice", text), *(also if when else [])]
        res = self.result()
        why = f" ({res.reason})" if res is not None and res.reason else ""
        return [(f"{rid}/timing/over", f"the game is over{why}: no more actions are taken")]

    def is_legal(self, action: Action) -> bool:
        return not self.why_illegal(action)

    def apply(self, action: Action) -> list[Event]:
        """Validate and carry out a choice; on an illegal one raise IllegalActionError, state unchanged."""
        reasons = self.why_illegal(action)
        if reasons:
            raise IllegalActionError(str(action), reasons, self.state.state_id)
        d = self.decision  # its key is logged (only a recording game builds it: a lookahead's clone logs nothing)
        events = self.ruleset.apply(self.state, action)
        if self.log is not None:
            self.log.append({"n": self.state.state_id, "d": d.key(), "a": action.to_json()})
        self.state.state_id += 1
        return events

    def roll(self, values: Sequence[int] | None = None) -> list[Event]:
        """Resolve the pending chance decision: with ``values`` (physical or forced dice) or from the stream.

        Forced rolls queued with :meth:`force` are used first. Values are checked against the dice asked for.
        """
        d = self.decision
        if d.kind != "chance" or d.dice is None:
            raise IllegalActionError(
                "roll",
                [(f"{self.ruleset.id}/timing/roll", f"no dice are to be rolled now: the game waits for a {d.kind}")],
                self.state.state_id,
            )
        spec = d.dice
        source = "manual"
        if values is None and self.forced:
            values = self.forced.pop(0)
            source = "forced"
        if values is None:
            rolled = self.state.rng.dice(spec.n, spec.sides)
            source = "auto"
        else:
            rolled = tuple(int(v) for v in values)
            bad = len(rolled) != spec.n or any(not 1 <= v <= spec.sides for v in rolled)
            if bad:
                raise IllegalActionError(
                    f"roll {list(rolled)}",
                    [("kernel/dice", f"expected {spec.n} value(s) from 1 to {spec.sides} for {spec.label}")],
                    self.state.state_id,
                )
        events = self.ruleset.roll(self.state, rolled)
        if self.log is not None:
            self.log.append({"n": self.state.state_id, "d": d.key(), "r": list(rolled), "src": source})
        self.state.state_id += 1
        return events

    def force(self, *rolls: Sequence[int]) -> None:
        """Queue exact dice for the next chance decisions (tests, scripted scenarios)."""
        self.forced.extend(tuple(r) for r in rolls)

    def settle(self) -> list[Event]:
        """Roll every pending chance decision until a side must choose or the game is over."""
        events: list[Event] = []
        while self.decision.kind == "chance":
            events.extend(self.roll())
        return events

    def result(self) -> GameResult | None:
        return self.ruleset.result(self.state)

    # --- copies and files --------------------------------------------------------------------------
    def clone(self, record: bool = False) -> Game:
        """An independent copy (for search); it keeps a log only if ``record``."""
        log = list(self.log) if record and self.log is not None else ([] if record else None)
        other = Game(self.ruleset, self.state.clone(), self.header, log)
        other.forced = list(self.forced)
        # the decision and the legal actions belong to the state id, which the clone shares: reuse them
        other._decision, other._decision_id = self._decision, self._decision_id
        other._legal, other._legal_set, other._legal_id = self._legal, self._legal_set, self._legal_id
        return other

    def to_json(self) -> dict[str, Any]:
        """Header plus state: a position that :meth:`from_json` restores exactly, at any decision point."""
        return {"header": self.header, "state": self.state.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any], record: bool = False, file: str = "position") -> Game:
        """A game at the saved position, checked: a position no game can reach (a model off the table, inside
        impassable terrain, on another, at NaN, on side 5, an id given twice, a state the rules cannot read)
        raises PositionError naming ``file`` and the place in it."""
        header = data["header"]
        version = header.get("format_version")
        if version != LOG_FORMAT_VERSION:
            raise FormatVersionError(
                f"format_version {version!r}: this warband reads positions of format version {LOG_FORMAT_VERSION}"
                " (version 2: pending steps are typed records)"
            )
        rs = registry.get(header["ruleset"])
        params = rs.params.resolve(header["params"])
        rosters = (header["rosters"][0], header["rosters"][1])
        turns = header["scenario"].get("turns") if isinstance(header.get("scenario"), dict) else None
        problems = sanity.raw_model_problems(file, data["state"]) + sanity.state_problems(
            file, data["state"], turns, rs.signed_tokens
        )
        if problems:
            raise PositionError(problems)
        state = rs.restore(params, rosters, header["scenario"], int(header["seed"]), data["state"])
        problems = sanity.table_problems(file, state.ctx.table, data["state"]["models"])
        if problems:
            raise PositionError(problems)
        game = cls(rs, state, header, [] if record else None)
        try:  # a state the rules cannot read (an unknown phase, a step that names nobody) fails here, not later
            game.legal_actions()
        except KeyError as exc:  # bookkeeping the rules look for is missing
            why = f"the rules cannot read this state: no {exc}"
            raise PositionError([Problem(file, "state.vars", why)]) from None
        except Exception as exc:  # any failure of the rules on this state is the file's problem
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise PositionError([Problem(file, "state", f"the rules cannot read this state: {why}")]) from None
        return game

    def fingerprint(self) -> str:
        return self.ruleset.fingerprint(self.state)

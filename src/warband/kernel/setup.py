"""Set-up every skirmish game shares: roll-offs, choosing deployment zones, alternating deployment.

The steps here are bases a ruleset subclasses with its own consequences (what a roll-off decides, who deploys
first, how a model or a unit is put on the table). The kernel keeps two conventions in ``state.vars``:
``zone_of`` (the zone index of each side) and ``deployer`` (the side placing next).

Deployment spots never run out while a legal spot exists: :func:`deploy_spots` offers a coarse grid over the
zone, and when none of it is free it searches a fine grid, so a large base that fits nowhere on the coarse grid
is still offered every region where it fits (a player may also name any point).

Deployment is two small decisions rather than one long list of pieces times spots (issue 10 item 1): first
which piece (``deploy M``, one option per piece that has somewhere to go), then where (the same step, pending
with its ``piece`` set, offering that piece's spots: ``deploy M @x,y``). A player may still give both at once by
typing ``deploy M @x,y`` at the first decision (checked by :meth:`Deploy.problems`, like any point action).
"""

from __future__ import annotations

import abc
import dataclasses
import math
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar

from warband.kernel.actions import Action, DiceSpec
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note
from warband.kernel.geometry.distance import Vec, segment_point_distance
from warband.kernel.geometry.terrain import TerrainPiece
from warband.kernel.steps import Chance, Choice, push

if TYPE_CHECKING:
    from warband.kernel.state import GameState

S = TypeVar("S", bound="GameState[Any]")

#: Spacing of the fine search for deployment spots, inches.
FINE_STEP = 0.5
#: How many spots the fine search offers at most (spread over the zone).
FINE_SPOTS = 12


def side_name(side: int) -> str:
    return "AB"[side]


# ------------------------------------------------------------------------------------------- roll-offs
class RollOff(Chance[S]):
    """A roll-off: each side rolls one die (A's first), the higher wins, a tie rolls again. Subclasses are
    dataclasses with a ``why`` field naming what it decides, and say what winning means (:meth:`won`)."""

    __slots__ = ()
    kind = "rolloff"
    prompt = "roll-off"
    why: str

    def sides(self, state: S) -> int:
        """Faces of the dice (a d6 unless the game says otherwise)."""
        return 6

    def dice(self, state: S) -> DiceSpec:
        return DiceSpec(2, self.sides(state), f"{self.why} roll-off")

    def roll(self, state: S, values: tuple[int, ...], events: list[Event]) -> None:
        a, b = values
        outcome = "tie: roll again" if a == b else f"side {side_name(0 if a > b else 1)} wins"
        events.append(DiceRolled(f"{self.why} roll-off (A, B)", values, outcome))
        if a == b:
            push(state, self)
            return
        self.won(state, 0 if a > b else 1, events)

    @abc.abstractmethod
    def won(self, state: S, winner: int, events: list[Event]) -> None:
        """What the winner gets."""


# ------------------------------------------------------------------------------------------- zones
class ChooseZone(Choice[S]):
    """The roll-off winner ``by`` picks one of the two deployment zones; the other side takes the other one
    (``state.vars["zone_of"]``). Subclasses (dataclasses with a ``by`` field) say who deploys first
    (:meth:`first`, the other side by default), how the game calls a zone and the rule id of the note
    (:attr:`zone_word`, :attr:`zone_rule`), or override :meth:`chosen` for anything else that follows."""

    __slots__ = ()
    kind = "zone"
    #: What the game calls a zone ("deployment zone", "edge") in the note of the choice.
    zone_word: ClassVar[str] = "deployment zone"
    #: The rule id of that note, after the ruleset's prefix.
    zone_rule: ClassVar[str] = "setup/zone"
    by: int

    def options(self, state: S) -> list[Action]:
        return [Action("zone", option=str(z)) for z in (0, 1)]

    def apply(self, state: S, action: Action, events: list[Event]) -> None:
        zone = int(action.option or 0)
        state.vars["zone_of"] = [zone, 1 - zone] if self.by == 0 else [1 - zone, zone]
        self.chosen(state, zone, events)

    def chosen(self, state: S, zone: int, events: list[Event]) -> None:
        """After the choice: say so, and name the side that deploys first (``state.vars["deployer"]``)."""
        note = f"side {side_name(self.by)} takes {self.zone_word} {zone}"
        events.append(Note(note, f"{self.rules}/{self.zone_rule}"))
        state.vars["deployer"] = self.first(state)

    def first(self, state: S) -> int:
        """The side that deploys first: by default the side that did not choose."""
        return 1 - self.by


class ChooseSide(Choice[S]):
    """Side ``by`` (a roll-off winner) picks which side something goes to: who is the Attacker, who activates
    first. The two options are :attr:`picks`, the word for "me" first and for "the opponent" second, under the
    step's ``kind``; subclasses (dataclasses with a ``by`` field) say what the picked side gets (:meth:`chosen`)."""

    __slots__ = ()
    #: The option words: the first picks side ``by`` itself, the second the other side.
    picks: ClassVar[tuple[str, str]] = ("me", "opponent")
    by: int

    def options(self, state: S) -> list[Action]:
        return [Action(self.kind, option=word) for word in self.picks]

    def apply(self, state: S, action: Action, events: list[Event]) -> None:
        self.chosen(state, self.by if action.option == self.picks[0] else 1 - self.by, events)

    @abc.abstractmethod
    def chosen(self, state: S, side: int, events: list[Event]) -> None:
        """After the choice: ``side`` is the side picked; record it and say so."""


# ------------------------------------------------------------------------------------------- deployment
class Deploy(Choice[S]):
    """The standing decision of alternating deployment: side ``by`` puts one of its pieces (a model, or a unit
    round its leader) on the table; then the other side, while it has pieces left, else the same side again;
    when both are done, :meth:`all_deployed`. Subclasses are dataclasses with a ``by`` field and a ``piece: str
    = ""`` field: "" at the standing decision (which piece?), the piece picked when the step is pending (where?).

    A ruleset whose rules fix the order of the pieces (roster order) sets :attr:`pick_then_place` to False and
    offers the next piece's spots directly (its own :meth:`options`); it needs no ``piece`` field."""

    __slots__ = ()
    kind = "deploy"
    #: What a piece is called in messages ("model", "unit").
    noun: ClassVar[str] = "model"
    #: Whether the player first picks a piece, then its spot (two decisions); False: spots only.
    pick_then_place: ClassVar[bool] = True
    by: int

    def picked(self) -> str:
        """The piece whose spot is being chosen ("" at the standing decision)."""
        return str(getattr(self, "piece", ""))

    def subject(self) -> str | None:
        return self.picked() or None

    def spot_key(self, state: S, piece: str) -> object:
        """Pieces with equal keys have the same spots (e.g. the same base on the same side), so the standing
        decision looks for room once per key."""
        return piece

    def placeable(self, state: S) -> list[str]:
        """The pieces of side ``by`` still to deploy that have at least one legal spot, in roster order."""
        room: dict[object, bool] = {}
        out: list[str] = []
        for p in self.pieces(state, self.by):
            key = self.spot_key(state, p)
            if key not in room:
                room[key] = bool(self.spots(state, p, first=True))
            if room[key]:
                out.append(p)
        return out

    @abc.abstractmethod
    def pieces(self, state: S, side: int) -> list[str]:
        """The pieces of ``side`` still to deploy, in roster order."""

    @abc.abstractmethod
    def spots(self, state: S, piece: str, first: bool = False) -> list[Vec]:
        """Candidate points for ``piece`` (every one legal); empty only when no legal point exists. With
        ``first``, the search stops at the first legal point (at most one is returned): enough to know whether
        the piece has room, which the standing decision asks of every piece (see :func:`deploy_spots`)."""

    @abc.abstractmethod
    def problems(self, state: S, piece: str, at: Vec) -> list[Reason]:
        """Why ``piece`` cannot be deployed at ``at`` (empty when it can)."""

    @abc.abstractmethod
    def put(self, state: S, piece: str, at: Vec, events: list[Event]) -> None:
        """Put ``piece`` on the table at ``at`` (already checked)."""

    @abc.abstractmethod
    def all_deployed(self, state: S, events: list[Event]) -> None:
        """Both sides are on the table: start the first turn."""

    def options(self, state: S) -> list[Action]:
        piece = self.picked()
        if piece:
            if piece not in self.pieces(state, self.by):  # only a hand-made position gets here
                raise ValueError(f"{piece} is not a {self.noun} of side {side_name(self.by)} still to deploy")
            return [Action("deploy", piece, point=q) for q in self.spots(state, piece)]
        if self.pick_then_place:
            return [Action("deploy", p) for p in self.placeable(state)]
        return [Action("deploy", p, point=q) for p in self.pieces(state, self.by) for q in self.spots(state, p)]

    def reasons(self, state: S, action: Action) -> list[Reason]:
        piece = self.picked()
        two = self.pick_then_place and not piece
        if action.kind != "deploy" or action.model is None or (action.point is None and not two):
            form = f"'deploy {self.noun.upper()}' or " if two else ""
            return [(f"{self.rules}/deploy/syntax", f"deploy a {self.noun}: {form}'deploy {self.noun.upper()} @x,y'")]
        if piece and action.model != piece:
            return [(f"{self.rules}/deploy/picked", f"{piece} was picked: say where it goes ('deploy {piece} @x,y')")]
        if action.model not in self.pieces(state, self.by):
            why = f"{action.model} is not a {self.noun} of side {side_name(self.by)} still to deploy"
            return [(f"{self.rules}/deploy/whose", why)]
        if action.point is None:
            if not self.spots(state, action.model, first=True):
                return [(f"{self.rules}/deploy/no-room", f"{action.model} fits nowhere in its deployment zone")]
            return []
        return self.problems(state, action.model, action.point)

    def apply(self, state: S, action: Action, events: list[Event]) -> None:
        assert action.model is not None
        if action.point is None:  # the piece is picked: its spot is the next decision
            push(state, dataclasses.replace(self, piece=action.model))  # type: ignore[type-var]
            return
        self.put(state, action.model, action.point, events)
        nxt = next((s for s in (1 - self.by, self.by) if self.pieces(state, s)), None)
        if nxt is None:
            self.all_deployed(state, events)
        else:
            state.vars["deployer"] = nxt


def inset(zone: TerrainPiece, p: Vec) -> float:
    """Distance from a point inside ``zone`` to the zone's boundary (to its polygon, not its bounding box: a
    base must fit inside a diagonal zone too)."""
    poly = zone.polygon
    return min(segment_point_distance(poly[i], poly[(i + 1) % len(poly)], p) for i in range(len(poly)))


def wholly_inside(zone: TerrainPiece, p: Vec, radius: float) -> bool:
    """Whether a base of ``radius`` centred at ``p`` lies wholly inside ``zone`` (``inset(zone, p) >= radius -
    1e-9``); deployment asks it of every spot of every piece, so it stops at the first edge that is too near."""
    if not zone.contains(p):
        return False
    lim = radius - 1e-9
    poly = zone.polygon
    n = len(poly)
    for i in range(n):  # noqa: SIM110 - an explicit loop is faster on the hot path
        if segment_point_distance(poly[i], poly[(i + 1) % n], p) < lim:
            return False
    return True


def zone_grid(zone: TerrainPiece, nx: int, ny: int) -> list[Vec]:
    """An ``nx`` x ``ny`` grid of cell centres over the zone's bounding box (rounded to 0.01")."""
    minx, miny, maxx, maxy = zone.bbox
    return [
        (round(minx + (i + 0.5) * (maxx - minx) / nx, 2), round(miny + (j + 0.5) * (maxy - miny) / ny, 2))
        for j in range(ny)
        for i in range(nx)
    ]


def deploy_spots(coarse: list[Vec], zone: TerrainPiece, fits: Callable[[Vec], bool], first: bool = False) -> list[Vec]:
    """The coarse candidates where a piece ``fits``; if none does, up to :data:`FINE_SPOTS` points of a fine grid
    (:data:`FINE_STEP`) over ``zone`` where it fits, spread apart (farthest-point order from the zone's first
    corner). Empty only when no point of the fine grid fits. With ``first``, only the first point that fits (coarse
    grid, then fine), so "has this piece room?" costs one fitting check where it has, not one per candidate."""
    minx, miny, maxx, maxy = zone.bbox
    nx = max(1, math.floor((maxx - minx) / FINE_STEP))
    ny = max(1, math.floor((maxy - miny) / FINE_STEP))
    if first:
        hit = next((p for p in coarse if fits(p)), None)
        if hit is None:
            hit = next((p for p in zone_grid(zone, nx, ny) if fits(p)), None)
        return [] if hit is None else [hit]
    found = [p for p in coarse if fits(p)]
    if found:
        return found
    fine = [p for p in zone_grid(zone, nx, ny) if fits(p)]
    return spread(fine, FINE_SPOTS)


def spread(points: list[Vec], k: int) -> list[Vec]:
    """Up to ``k`` of ``points``, each the farthest from those already kept (deterministic: the first point
    first, ties to the earlier point)."""
    if len(points) <= k:
        return list(points)
    kept = [points[0]]
    near = [math.dist(p, points[0]) for p in points]
    while len(kept) < k:
        i = near.index(max(near))  # the farthest, the earliest of equals
        kept.append(points[i])
        near = [min(d, math.dist(p, points[i])) for d, p in zip(near, points, strict=True)]
    return kept

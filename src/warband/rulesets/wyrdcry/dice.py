"""The Wyrdcry dice economy: initiative roll, ability dice, wyrd dice, reaction dice.

Pure functions over immutable values; no randomness and no state. The engine feeds them the dice it rolled
and :mod:`warband.rulesets.wyrdcry.odds` feeds them every possible roll, so rules and odds cannot drift.

Sources (paraphrased): seed ``003_9e9dcd26291534cd.txt`` (S), asides "Ability Dice", "Ability values",
"Wait Actions and Abilities", "Timing"; digest ``wyrdcry.md`` (D) §A2 (initiative phase) and §A3 (abilities).
The seed wins over the digest.

A pool's faces are unique: every face is either one single or one group (D §A2.1-2: a single is a face no
other die shows; the rest group by face), and wyrd dice keep it so (an added single takes an unused face, an
upgrade takes the face of what it upgrades). So a face names a single or a group without ambiguity.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Final, Literal

from warband.kernel import values

__all__ = [
    "COST_SIZES",
    "DIE_FACES",
    "AbilityDice",
    "AddSingle",
    "Channeling",
    "Cost",
    "Group",
    "GroupCounts",
    "LargeSet",
    "Upgrade",
    "WyrdUse",
    "affordable",
    "apply_wyrd",
    "can_pay",
    "channel",
    "group_counts",
    "group_roll",
    "half_value",
    "initiative_winner",
    "pay",
    "payers",
    "reaction_dice",
    "redecide_initiative",
    "roll_off_winner",
    "wyrd_options",
    "wyrd_problem",
]

#: Faces of every die in the game (D §A2.1: the initiative roll is D6s).
DIE_FACES: Final = 6

Cost = Literal["double", "triple", "quad"]

#: Dice in each ability cost (S "Ability Dice"; D §A2.2: [double] 2, [triple] 3, [quad] 4 alike).
COST_SIZES: Final[Mapping[Cost, int]] = {"double": 2, "triple": 3, "quad": 4}

#: What 5 or 6 alike form (D §A2.2, [P], param ``large_set``): ``"quad"`` one [quad] holding every one of
#: those dice; ``"none"`` no group at all (the dice are lost: they are not singles either).
LargeSet = Literal["quad", "none"]

_QUAD: Final = 4
_SINGLE: Final = 1
_NAMES: Final[Mapping[int, Cost]] = {2: "double", 3: "triple", 4: "quad"}


@dataclass(frozen=True, slots=True, order=True)
class Group:
    """A [double], [triple] or [quad]: ``size`` alike dice showing ``face``.

    ``upgraded``: a wyrd die already upgraded it this round (D §A2.3: each group is upgraded once).
    """

    size: int
    face: int
    upgraded: bool = False

    @property
    def name(self) -> Cost:
        """``"double"``, ``"triple"`` or ``"quad"``."""
        return _NAMES[self.size]


@values.value
class AbilityDice:
    """One player's dice after the initiative roll: singles (faces, ascending) and groups (ascending)."""

    singles: tuple[int, ...]
    groups: tuple[Group, ...]

    def faces(self) -> frozenset[int]:
        """Every face shown by a single or a group."""
        return frozenset(self.singles) | {g.face for g in self.groups}

    def group_at(self, face: int) -> Group | None:
        """The group showing ``face``, if any."""
        return next((g for g in self.groups if g.face == face), None)


@values.value
class GroupCounts:
    """How many singles, [double]s, [triple]s and [quad]s a pool holds."""

    singles: int
    doubles: int
    triples: int
    quads: int


@values.value
class AddSingle:
    """Wyrd die use: a new single showing ``face`` (a face no die of the pool shows; D §A2.3, [P] face)."""

    face: int


@values.value
class Upgrade:
    """Wyrd die use: the single or group showing ``face`` grows one step (single -> double -> triple -> quad)."""

    face: int


WyrdUse = AddSingle | Upgrade


# ------------------------------------------------------------------------------------------ the roll


def _check_faces(faces: Iterable[int]) -> None:
    bad = [f for f in faces if not 1 <= f <= DIE_FACES]
    if bad:
        raise ValueError(f"expected die faces 1-{DIE_FACES}, found {bad}")


def group_roll(faces: Sequence[int], large_set: LargeSet = "quad") -> AbilityDice:
    """Sort an initiative roll into singles and groups (D §A2.1-2).

    A face shown by one die is a single; 2, 3 or 4 alike are a [double], [triple] or [quad]; 5 or 6 alike
    follow ``large_set`` ([P]: one [quad] by default, as Warcry treats 4 or more alike).
    """
    _check_faces(faces)
    singles: list[int] = []
    groups: list[Group] = []
    for face, n in sorted(Counter(faces).items()):
        if n == _SINGLE:
            singles.append(face)
        elif n <= _QUAD:
            groups.append(Group(n, face))
        elif large_set == "quad":
            groups.append(Group(_QUAD, face))
    return AbilityDice(tuple(singles), tuple(sorted(groups)))


def group_counts(pool: AbilityDice) -> GroupCounts:
    """Singles, doubles, triples and quads in ``pool``."""
    sizes = Counter(g.size for g in pool.groups)
    return GroupCounts(len(pool.singles), sizes[2], sizes[3], sizes[4])


# ------------------------------------------------------------------------------------ initiative


def initiative_winner(singles_a: int, singles_b: int) -> int | None:
    """Side (0 or 1) with the most singles; ``None`` on a tie, meaning a roll-off decides (D §A2.1)."""
    if singles_a == singles_b:
        return None
    return 0 if singles_a > singles_b else 1


def roll_off_winner(die_a: int, die_b: int) -> int | None:
    """A roll-off: the higher die wins; ``None`` on equal dice, meaning roll again (D §A2.1, §A9)."""
    _check_faces((die_a, die_b))
    return initiative_winner(die_a, die_b)


def redecide_initiative(holder: int, before: tuple[int, int], after: tuple[int, int]) -> int | None:
    """Initiative after wyrd dice changed the singles (D §A2.5, Notion reading).

    Unchanged singles keep the ``holder``; changed singles decide afresh by most singles, a tie meaning a
    roll-off (``None``). The later text (W) only moves initiative on strictly more singles: the seed and the
    Notion pages win, so W is not followed.
    """
    if before == after:
        return holder
    return initiative_winner(*after)


# ------------------------------------------------------------------------------------- wyrd dice


def wyrd_problem(pool: AbilityDice, use: WyrdUse) -> str | None:
    """Why ``use`` of a wyrd die is not allowed on ``pool`` (D §A2.3), or ``None`` if it is."""
    if not 1 <= use.face <= DIE_FACES:
        return f"expected a face 1-{DIE_FACES}, found {use.face}"
    if isinstance(use, AddSingle):
        if use.face in pool.faces():
            return f"expected a face no die shows for a new single, found {use.face} already shown"
        return None
    if use.face in pool.singles:
        return None
    group = pool.group_at(use.face)
    if group is None:
        return f"expected the face of a single or a group to upgrade, found {use.face} shown by none"
    if group.size >= _QUAD:
        return f"expected a single, [double] or [triple] to upgrade, found a [quad] of {use.face}s"
    if group.upgraded:
        return f"expected a group not yet upgraded this round, found the {group.name} of {use.face}s upgraded"
    return None


def apply_wyrd(pool: AbilityDice, use: WyrdUse) -> AbilityDice:
    """Spend one wyrd die on ``pool`` (D §A2.3): add a single, or grow a single or group one step.

    The grown group takes the face it upgrades and counts as upgraded for the rest of the round.
    Raises ``ValueError`` naming the reason when the use is not allowed.
    """
    why = wyrd_problem(pool, use)
    if why is not None:
        raise ValueError(why)
    if isinstance(use, AddSingle):
        return AbilityDice(tuple(sorted((*pool.singles, use.face))), pool.groups)
    if use.face in pool.singles:
        singles = tuple(f for f in pool.singles if f != use.face)
        return AbilityDice(singles, tuple(sorted((*pool.groups, Group(2, use.face, upgraded=True)))))
    groups = tuple(replace(g, size=g.size + 1, upgraded=True) if g.face == use.face else g for g in pool.groups)
    return AbilityDice(pool.singles, tuple(sorted(groups)))


def wyrd_options(pool: AbilityDice) -> tuple[WyrdUse, ...]:
    """Every allowed use of one wyrd die on ``pool``, new singles first, each in face order."""
    candidates: list[WyrdUse] = [AddSingle(f) for f in range(1, DIE_FACES + 1)]
    candidates += [Upgrade(f) for f in range(1, DIE_FACES + 1)]
    return tuple(u for u in candidates if wyrd_problem(pool, u) is None)


@values.value
class Channeling:
    """Result of a Channeling roll (D §A2.4, Notion)."""

    wyrd_dice: int
    spellbook_blocked: bool


def channel(roll: int, battle_round: int, fail_face: int = 1) -> Channeling:
    """A Wizard's or Priest's Channeling die (D §A2.4): above the round number banks 1 wyrd die; a roll of
    ``fail_face`` (param ``channel_fail_face``) bars that fighter's spell-book abilities this round."""
    _check_faces((roll,))
    return Channeling(1 if roll > battle_round else 0, roll == fail_face)


# --------------------------------------------------------------------------------- ability costs


def can_pay(group: Group, cost: Cost) -> bool:
    """Whether ``group`` pays ``cost`` (S "Ability Dice": a larger group may pay a smaller cost)."""
    return group.size >= COST_SIZES[cost]


def payers(pool: AbilityDice, cost: Cost) -> tuple[Group, ...]:
    """The groups of ``pool`` that can pay ``cost``, smallest first."""
    return tuple(g for g in pool.groups if can_pay(g, cost))


def affordable(pool: AbilityDice, costs: Mapping[str, Cost]) -> tuple[str, ...]:
    """Names of the abilities in ``costs`` (name -> cost) that ``pool`` can pay for, in ``costs`` order."""
    return tuple(name for name, cost in costs.items() if payers(pool, cost))


def pay(pool: AbilityDice, cost: Cost, face: int) -> tuple[AbilityDice, int]:
    """Discard the group showing ``face`` to pay ``cost``; returns the pool left and the ability's value.

    S "Ability Dice": a higher group paying a lower cost is discarded whole. S "Ability values": the value
    of the ability is the face shown on the dice spent. Raises ``ValueError`` if that group cannot pay.
    """
    group = pool.group_at(face)
    if group is None:
        raise ValueError(f"expected the face of a group to spend, found {face} shown by no group")
    if not can_pay(group, cost):
        raise ValueError(f"expected a group of at least {COST_SIZES[cost]} for a [{cost}], found a {group.name}")
    return AbilityDice(pool.singles, tuple(g for g in pool.groups if g.face != face)), face


def half_value(value: int) -> int:
    """An ability's X/2, rounded up (D §A3, W: "(X/2) rounds up")."""
    return -(-value // 2)


# ------------------------------------------------------------------------------------- reactions


def reaction_dice(pool: AbilityDice) -> int:
    """Reaction dice a pool leaves: its singles once wyrd dice are spent (D §A2.6; S "Timing" pays each
    reaction with them)."""
    return len(pool.singles)

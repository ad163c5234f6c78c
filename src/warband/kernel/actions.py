"""Actions, chance outcomes and decision points: immutable values with a text notation.

An :class:`Action` is what a player chooses. One small shape serves every game: a ``kind`` (``activate``,
``move``, ``shoot``, ``react``, ``spend``...), the acting model or unit, an optional target, an optional point
on the table and an optional option string (a weapon, a choice label). Its text form round-trips::

    move a3 @12.5,8      shoot a3 b2 [Rifle]      spend b1 =2      end a3

A :class:`Decision` says who decides what at the current point of the game: a side choosing, chance rolling
dice (``DiceSpec``), or nobody because the game is over.
"""

from __future__ import annotations

import re
from typing import Any

from warband.kernel.values import value

Point = tuple[float, float]


def _fmt(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return text if text not in ("-0", "") else "0"


@value
class Action:
    """A player's choice. Structural equality; hashable; a text notation via ``str()`` and :meth:`parse`."""

    kind: str
    model: str | None = None
    target: str | None = None
    point: Point | None = None
    option: str | None = None

    def __str__(self) -> str:
        parts = [self.kind]
        if self.model is not None:
            parts.append(self.model)
        if self.target is not None:
            parts.append(self.target)
        if self.point is not None:
            parts.append(f"@{_fmt(self.point[0])},{_fmt(self.point[1])}")
        if self.option is not None:
            parts.append(f"[{self.option}]")
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read the notation of ``str(action)``; raises ValueError quoting the text when it is malformed.

        Plain words after the kind are the model and then the target; ``@x,y`` is a point; ``[...]`` an option.
        """
        m = _ACTION_RE.fullmatch(text.strip())
        if not m:
            raise ValueError(f"cannot read action {text!r}: expected 'kind [model] [target] [@x,y] [[option]]'")
        words = (m.group("words") or "").split()
        if len(words) > 2:
            raise ValueError(f"cannot read action {text!r}: too many names {words}")
        point = None
        if m.group("x") is not None:
            point = (float(m.group("x")), float(m.group("y")))
        return cls(
            kind=m.group("kind"),
            model=words[0] if words else None,
            target=words[1] if len(words) > 1 else None,
            point=point,
            option=m.group("option"),
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.model is not None:
            out["model"] = self.model
        if self.target is not None:
            out["target"] = self.target
        if self.point is not None:
            out["point"] = [self.point[0], self.point[1]]
        if self.option is not None:
            out["option"] = self.option
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Action:
        """An action from its JSON; ValueError (or KeyError, TypeError) for one that is not an action."""
        point = data.get("point")
        if point is not None and (not isinstance(point, list | tuple) or len(point) != 2):
            raise ValueError(f"an action's point is [x, y], found {point!r}")
        return cls(
            kind=str(data["kind"]),
            model=data.get("model"),
            target=data.get("target"),
            point=(float(point[0]), float(point[1])) if point is not None else None,
            option=data.get("option"),
        )


_NUM = r"-?\d+(?:\.\d+)?"
_ACTION_RE = re.compile(
    rf"(?P<kind>[a-z][a-z0-9_-]*)(?P<words>(?:\s+[A-Za-z0-9_.-]+)*)"
    rf"(?:\s+@(?P<x>{_NUM}),(?P<y>{_NUM}))?(?:\s+\[(?P<option>[^\]]*)\])?"
)


@value
class DiceSpec:
    """A roll that chance must make: ``n`` dice with ``sides`` faces, and what it is for."""

    n: int
    sides: int
    label: str
    model: str | None = None

    def __str__(self) -> str:
        return f"{self.n}d{self.sides} ({self.label})"


CHOICE = "choice"
CHANCE = "chance"
OVER = "over"


@value
class Decision:
    """Who decides what now.

    ``kind`` is ``choice`` (side ``player`` picks one of the legal actions; the player may be the side that is
    not active, for a reaction or an interrupt), ``chance`` (the dice in ``dice`` are rolled) or ``over``.
    ``prompt`` names the question (``activate``, ``action``, ``destination``, ``spend-blood``...).
    """

    kind: str
    prompt: str
    player: int | None = None
    model: str | None = None
    dice: DiceSpec | None = None
    text: str = ""

    @property
    def is_chance(self) -> bool:
        return self.kind == CHANCE

    @property
    def is_over(self) -> bool:
        return self.kind == OVER

    def key(self) -> str:
        """A compact fingerprint logged with each step; replay compares it to spot a divergence."""
        if self.kind == CHANCE and self.dice is not None:
            return f"chance:{self.dice.n}d{self.dice.sides}:{self.dice.label}"
        return f"{self.kind}:{self.player}:{self.prompt}:{self.model}"

"""What a decision is about, in a player's words: the situation, what each answer costs and its odds.

:meth:`Ruleset.describe_decision` reads a ruleset's prompt book (its ``prompts`` face, built in the ruleset's
own ``prompts.py``): a function per step kind that gets the state, the pending step and the decision and returns
the sentence. Without an entry the kernel says who decides what for which model (:func:`default_text`), and for
dice which model rolls them. Every face (the web table's prompt, the terminal's, physical dice) shows the same
sentence."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from warband.kernel.actions import Decision
from warband.kernel.names import name_of, with_names
from warband.kernel.state import GameState

#: (state, the pending step, the decision) -> the sentence; "" lets the kernel's default speak.
PromptFn = Callable[[GameState[Any], Any, Decision], str]
PromptBook = Mapping[str, PromptFn]


def side_word(state: GameState[Any], side: int | None) -> str:
    """``side A (Heretic Legion)``."""
    if side is None or side not in (0, 1):
        return "nobody"
    name = state.sides[side].name if side < len(state.sides) else ""
    return f"side {'AB'[side]}" + (f" ({name})" if name else "")


def percent(p: Fraction | float) -> str:
    """A chance as a whole percentage (``<1%`` and ``>99%`` at the ends, never a false 0 or 100)."""
    x = float(p) * 100
    if 0 < x < 1:
        return "<1%"
    if 99 < x < 100:
        return ">99%"
    return f"{x:.0f}%"


def template(text: str) -> PromptFn:
    """A sentence from the pending step's fields: ``{field}`` is the field's value, a model's or unit's id with
    its name beside it; ``{side}`` is the deciding side in words."""

    class Fields(dict[str, Any]):
        def __init__(self, state: GameState[Any], step: Any) -> None:
            super().__init__()
            self.state, self.step = state, step

        def __missing__(self, key: str) -> Any:  # a field or a property of the step
            value = getattr(self.step, key)
            return name_of(self.state, value) if isinstance(value, str) else value

    def said(state: GameState[Any], step: Any, d: Decision) -> str:
        values = Fields(state, step)
        values["side"] = side_word(state, d.player)
        return text.format_map(values)

    return said


def default_text(state: GameState[Any], d: Decision) -> str:
    """The kernel's sentence: ``side A decides 'action' for a1 (Warden Ilse)``; dice name their roller."""
    if d.kind == "chance" and d.dice is not None:
        named = d.dice.model and re.search(rf"(?<![\w.]){re.escape(d.dice.model)}(?![\w]|\.\d)", d.dice.label)
        who = f" by {name_of(state, d.dice.model)}" if d.dice.model and not named else ""
        return f"roll {d.dice.n}d{d.dice.sides} for {with_names(state, d.dice.label)}{who}"
    if d.kind == "over":
        return "the game is over"
    about = f" for {name_of(state, d.model)}" if d.model else ""
    return f"{side_word(state, d.player)} decides {d.prompt.replace('-', ' ')}{about}"


def _zone_where(state: GameState[Any], index: int) -> str:
    """Where deployment zone ``index`` of the scenario lies, in words (``the south edge``)."""
    doc = getattr(state.ctx, "scenario", None)
    zones = doc.get("deployment", []) if isinstance(doc, Mapping) else []
    if index >= len(zones):
        return f"zone {index}"
    table = doc.get("table", {}) if isinstance(doc, Mapping) else {}
    width, depth = float(table.get("width", 48.0)), float(table.get("depth", 48.0))
    pts = zones[index]["polygon"]
    cx = sum(float(p[0]) for p in pts) / len(pts) - width / 2
    cy = sum(float(p[1]) for p in pts) / len(pts) - depth / 2
    if abs(cy) * width >= abs(cx) * depth:
        return "the south edge (bottom of the map)" if cy < 0 else "the north edge (top of the map)"
    return "the west edge (left of the map)" if cx < 0 else "the east edge (right of the map)"


def _zone(state: GameState[Any], step: Any, d: Decision) -> str:
    return (
        f"{side_word(state, d.player)} won the roll-off and picks its deployment zone: zone [0] is "
        f"{_zone_where(state, 0)}, zone [1] is {_zone_where(state, 1)}; the opponent takes the other"
    )


def _deploy(state: GameState[Any], step: Any, d: Decision) -> str:
    left = sum(1 for m in state.models.values() if m.side == d.player and not m.on_table and not m.flags.get("out"))
    what = f"where {name_of(state, d.model)} goes" if d.model else "which model to deploy next"
    return f"{side_word(state, d.player)} deploys: choose {what} ({left} not yet on the table), inside its zone"


def _activate(state: GameState[Any], step: Any, d: Decision) -> str:
    return f"{side_word(state, d.player)} picks the next model to activate"


def _action(state: GameState[Any], step: Any, d: Decision) -> str:
    return f"{name_of(state, d.model)} is active: pick its next action (greyed ones say which rule forbids them)"


def _destination(state: GameState[Any], step: Any, d: Decision) -> str:
    return f"{name_of(state, d.model)}: choose where it goes (a marked spot, or any point of the table)"


#: The decisions most games share; a ruleset's own book speaks first.
COMMON: dict[str, PromptFn] = {
    "zone": _zone,
    "deploy": _deploy,
    "activate": _activate,
    "action": _action,
    "dest": _destination,
    "destination": _destination,
}

#: At most this many answers get their odds in the sentence (a menu of moves is for the buttons).
ODDS_ANSWERS = 8


def answers_odds(ruleset: Any, state: GameState[Any]) -> str:
    """The odds of each answer of a short choice (``Ruleset.explain``), one clause each: ``strike ...: 58% ...``."""
    legal = ruleset.legal_actions(state)
    if len(legal) > ODDS_ANSWERS or any(a.point is not None for a in legal):
        return ""
    parts = []
    for a in legal:
        odds = ruleset.explain(state, a)
        if odds:
            parts.append(f"{a}: {odds}")
    return "; ".join(parts)


def describe(ruleset: Any, state: GameState[Any], step: Any, d: Decision) -> str:
    """The ruleset's sentence for the pending ``step`` (its book, then :data:`COMMON`), else
    :func:`default_text`; a decision that already carries a text keeps it. A short choice that answers the
    game (a reaction, a spend, a strike: not a model's own menu) adds the odds of each answer."""
    text = d.text
    if not text:
        kind = getattr(step, "kind", None) or d.prompt
        book: PromptBook = ruleset.prompt_book()
        fn = book.get(kind) or book.get(d.prompt) or COMMON.get(kind) or COMMON.get(d.prompt)
        text = (fn(state, step, d) if fn is not None else "") or default_text(state, d)
    if d.kind == "choice" and d.prompt not in COMMON:  # a model's own menu shows its odds on its buttons
        odds = answers_odds(ruleset, state)
        if odds:
            text = f"{text}. Odds: {odds}"
    return with_names(state, text)

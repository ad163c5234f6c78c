"""Models by name: what every face (the web table, the terminal) shows beside a model's id.

Ids (``a1``, ``b4``, ``a2.3``) stay in every text, so a player can still type them; the name goes beside each
one (``a1 (Warden Ilse)``). :func:`with_names` rewrites any sentence of the engine (an action, an event, a
refusal) that way, by the ids of the state's models and units."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.state import GameState


def name_of(state: GameState[Any], model_id: str | None) -> str:
    """``a1 (Warden Ilse)``; the id alone when the model has no name of its own (or is not in the game)."""
    if model_id is None:
        return ""
    m = state.models.get(model_id)
    if m is None:
        name = _names(state).get(model_id)  # a unit: its first model's name
        return f"{model_id} ({name})" if name else model_id
    if not m.name or m.name == model_id:
        return model_id
    return f"{model_id} ({m.name})"


def _names(state: GameState[Any]) -> dict[str, str]:
    """Every model id and unit id with its name (a unit takes its first model's name, as a list writes it)."""
    out: dict[str, str] = {}
    for m in state.models.values():
        if m.name and m.name != m.id:
            out[m.id] = m.name
        if m.unit and m.unit not in state.models and m.unit not in out and m.name:
            out[m.unit] = m.name
    return out


@lru_cache(maxsize=64)
def _pattern(ids: tuple[str, ...]) -> re.Pattern[str]:
    alternatives = "|".join(re.escape(i) for i in sorted(ids, key=len, reverse=True))
    # an id is a whole word: not inside 'a10' nor 'a1.2' (but 'a1.' at the end of a sentence is the id a1)
    return re.compile(rf"(?<![\w.\-])({alternatives})(?![\w\-]|\.\d)(?! \()")


def with_names(state: GameState[Any], text: str) -> str:
    """``text`` with each model id followed by the model's name in brackets (once per mention)."""
    names = _names(state)
    if not names or not text:
        return text
    pattern = _pattern(tuple(sorted(names)))
    return pattern.sub(lambda mt: f"{mt.group(1)} ({names[mt.group(1)]})", text)


def action_label(state: GameState[Any], action: Action) -> str:
    """An action as a player reads it: its notation with every model named."""
    return with_names(state, str(action))

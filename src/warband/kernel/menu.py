"""A model's full menu: every action a player might try now, the legal ones and the others with the rules
that forbid them (``why_illegal``'s reasons, unchanged). The terminal's ``all`` / ``why N`` and the web
table's greyed buttons both read :func:`full_menu`, so the two faces give the same answers."""

from __future__ import annotations

from dataclasses import dataclass

from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.errors import Reason
from warband.kernel.names import action_label


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One action of the menu: ``reasons`` is empty when it is legal now."""

    action: Action
    label: str
    note: str
    reasons: tuple[Reason, ...]

    @property
    def legal(self) -> bool:
        return not self.reasons

    def why_text(self) -> str:
        """The refusals in one line: ``[rule-id] reason; [rule-id] reason``."""
        return "; ".join(f"[{rule}] {text}" for rule, text in self.reasons)

    def to_json(self) -> dict[str, object]:
        return {
            "text": str(self.action),
            "label": self.label,
            "note": self.note,
            "legal": self.legal,
            "reasons": [{"rule": rule, "text": text} for rule, text in self.reasons],
            **self.action.to_json(),
        }


def _concerns(action: Action, model: str | None, unit: str | None) -> bool:
    if model is None:
        return True
    return action.model in (model, unit) or action.target in (model, unit)


def full_menu(game: Game, model: str | None = None) -> list[MenuItem]:
    """Every action one might try at the pending choice (``Ruleset.all_actions``), in its order; with
    ``model``, only those it (or its unit) takes or is the target of. Empty when no choice is pending."""
    if game.decision.kind != "choice":
        return []
    state = game.state
    m = state.models.get(model or "")
    unit = m.unit if m is not None else None
    out = []
    for action in game.ruleset.all_actions(state):
        if not _concerns(action, model, unit):
            continue
        reasons = tuple(game.why_illegal(action))
        out.append(MenuItem(action, action_label(state, action), game.ruleset.describe_action(state, action), reasons))
    return out

"""The kernel's error tree: every bad input is a ``ValueError`` subclass that quotes the input.

A file problem carries a list of :class:`Problem` (file, place inside it, message) so that a user sees every
problem at once, e.g. ``roster.yaml: models[3].weapons[0]: unknown weapon 'Rifel' (expected one of ...)``.
"""

from __future__ import annotations

from dataclasses import dataclass

#: One rule that forbids an action: ``(rule_id, message)``, e.g.
#: ``("trench-crusade/activation/shoot-after-charge", "this model Charged this activation: ...")``.
Reason = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in an input file: where it is and what is wrong."""

    file: str
    place: str
    message: str

    def __str__(self) -> str:
        where = f"{self.file}: {self.place}" if self.place else self.file
        return f"{where}: {self.message}"


class WarbandError(ValueError):
    """Base of every error the project raises for bad input."""


class FileProblemsError(WarbandError):
    """A file failed validation; ``problems`` lists every problem found."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class RosterError(FileProblemsError):
    """A warband (roster) file is malformed or breaks a list-building rule."""


class ScenarioError(FileProblemsError):
    """A scenario file is malformed."""


class PositionError(FileProblemsError):
    """A position file is malformed or describes an impossible situation."""


class UnmodelledError(WarbandError):
    """A warband carries rules the ruleset does not play: an answer played without them would be about another
    game. ``found`` holds, per warband, its label and the rules (one line each)."""

    def __init__(self, found: list[tuple[str, list[str]]]) -> None:
        self.found = list(found)
        parts = [f"{label}: not modelled: {'; '.join(rules)}" for label, rules in self.found]
        super().__init__(
            "\n".join(parts) + "\nthe engine does not play these rules; allow unmodelled rules (--allow-unmodelled) "
            "to play without them"
        )


class ReplayError(WarbandError):
    """A game log is corrupt or diverges from the rules on replay."""


class FormatVersionError(WarbandError):
    """A log or position file written in a format version this warband cannot read."""


class ParameterError(WarbandError):
    """An unknown ruleset parameter or a value of the wrong type (``--set name=value``)."""


class SeedError(WarbandError):
    """A seed outside ``0..2**63 - 1``."""


class IllegalActionError(WarbandError):
    """An action that the rules forbid in this state. The state is left unchanged.

    ``reasons`` holds ``(rule_id, message)`` pairs, e.g.
    ``("trench-crusade/activation/shoot-after-charge", "...")``.
    """

    def __init__(self, action: str, reasons: list[tuple[str, str]], state_id: int) -> None:
        self.action = action
        self.reasons = list(reasons)
        self.state_id = state_id
        why = "; ".join(f"[{rid}] {msg}" for rid, msg in reasons) or "not a legal action here"
        super().__init__(f"illegal action {action!r} at state {state_id}: {why}")

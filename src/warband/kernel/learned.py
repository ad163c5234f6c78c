"""The evaluation learned from games: a ruleset's fitted logistic weights (``data/evaluation.json``, written by
``warband fit-eval``, see :mod:`warband.lab.fit`) applied to its named features.

``learned_value(ruleset, state, side)`` is the log-odds that ``side`` wins: ``intercept + sum(w * feature)``.
A finished game is worth :data:`DECIDED` log-odds to the winner (0 for a draw)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from warband.kernel.errors import WarbandError
from warband.kernel.result import GameResult
from warband.kernel.state import GameState

#: The file, in a ruleset's data folder, that holds its fitted weights.
EVALUATION_FILE = "evaluation.json"
#: The format tag of that file.
EVALUATION_FORMAT = "warband-evaluation/1"
#: The log-odds of a finished game for its winner (a win is near certain, and on the scale of the fitted values).
DECIDED = 10.0


class LearnedEvaluationError(WarbandError):
    """A ruleset without fitted weights, or a weights file that does not match its features."""


class NoFeaturesError(WarbandError, NotImplementedError):
    """A ruleset that names no features (no ``features`` face) asked for them."""


@dataclass(frozen=True, slots=True)
class Weights:
    names: tuple[str, ...]
    weights: tuple[float, ...]
    intercept: float


class Rules(Protocol):
    """What the learned evaluation reads of a ruleset (a :class:`~warband.kernel.ruleset.Ruleset`)."""

    @property
    def id(self) -> str: ...

    def data_dir(self) -> Path: ...

    def result(self, state: GameState[Any]) -> GameResult | None: ...

    def features(self, state: GameState[Any], side: int) -> dict[str, float]: ...


_CACHE: dict[str, Weights] = {}


def read_weights(path: Path) -> Weights:
    """The weights in ``path``; a missing or malformed file is refused naming it."""
    try:
        doc: Any = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise LearnedEvaluationError(
            f"{path}: no learned evaluation ({exc.strerror}); run `warband fit-eval RULESET` to fit one"
        ) from None
    except json.JSONDecodeError as exc:
        raise LearnedEvaluationError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})") from None
    if not isinstance(doc, dict) or doc.get("format") != EVALUATION_FORMAT:
        raise LearnedEvaluationError(f"{path}: not a learned evaluation (format must be {EVALUATION_FORMAT!r})")
    names, weights = doc.get("features"), doc.get("weights")
    if not isinstance(names, list) or not isinstance(weights, list) or len(names) != len(weights):
        raise LearnedEvaluationError(f"{path}: 'features' and 'weights' must be lists of the same length")
    return Weights(tuple(str(n) for n in names), tuple(float(w) for w in weights), float(doc.get("intercept", 0.0)))


def weights_of(ruleset: Rules) -> Weights:
    """The ruleset's shipped weights, read once per process."""
    found = _CACHE.get(ruleset.id)
    if found is None:
        found = _CACHE[ruleset.id] = read_weights(ruleset.data_dir() / EVALUATION_FILE)
    return found


def learned_value(ruleset: Rules, state: GameState[Any], side: int) -> float:
    """Log-odds that ``side`` wins from ``state`` by the ruleset's fitted weights."""
    result = ruleset.result(state)
    if result is not None:
        return 0.0 if result.winner is None else (DECIDED if result.winner == side else -DECIDED)
    w = weights_of(ruleset)
    feats = ruleset.features(state, side)
    missing = [n for n in w.names if n not in feats]
    if missing:
        raise LearnedEvaluationError(
            f"ruleset {ruleset.id!r}: {EVALUATION_FILE} names features the ruleset no longer computes: "
            f"{', '.join(missing)}; refit with `warband fit-eval {ruleset.id}`"
        )
    return w.intercept + sum(x * feats[n] for n, x in zip(w.names, w.weights, strict=True))

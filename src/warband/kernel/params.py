"""Ruleset parameters: every number of a game's rules, as data.

Each ruleset ships a ``params.toml``; each table in it is one parameter::

    [charge_range]
    default = 12
    doc = "Maximum distance to the target of a Charge, in inches."
    source = "seed 000, Actions: Charge"
    proposed = false          # true when the number is our default, not the publisher's
    min = 0.0                 # numbers: the least and the greatest value an override may take (inclusive)
    max = 72.0
    choices = ["000", "001"]  # optional: allowed values

Every override is checked against the parameter's type and range: a float must be finite, a number within
``min``..``max``, a text one of ``choices``; anything else raises :class:`ParameterError` naming the limit.

A game resolves the defaults plus overrides (``--set charge_range=10``) into a plain ``dict``; the resolved
values go into every log header so a game replays under exactly its rules.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warband.kernel.errors import ParameterError

Scalar = bool | int | float | str


@dataclass(frozen=True, slots=True)
class ParamSpec:
    """One documented, overridable parameter."""

    name: str
    default: Scalar
    doc: str
    source: str
    proposed: bool = False
    choices: tuple[Scalar, ...] | None = None
    min: float | None = None
    max: float | None = None

    def coerce(self, raw: object) -> Scalar:
        """Convert ``raw`` (a value or the text after ``=``) to this parameter's type and check it against the
        declared choices and range; raise ParameterError naming the limit."""
        value = _coerce_to(self.default, raw, self.name)
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"parameter {self.name}: {value!r} is not one of {list(self.choices)}")
        if isinstance(value, int | float) and not isinstance(value, bool):
            self._check_number(value)
        return value

    def range_text(self) -> str:
        """``1..100``, ``at least 0``, ``at most 6`` or empty when unbounded."""
        if self.min is not None and self.max is not None:
            return f"{self.min:g}..{self.max:g}"
        if self.min is not None:
            return f"at least {self.min:g}"
        return "" if self.max is None else f"at most {self.max:g}"

    def _check_number(self, value: float) -> None:
        if not math.isfinite(value):
            raise ParameterError(f"parameter {self.name}: expected a finite number, found {value!r}")
        low = self.min is not None and value < self.min
        high = self.max is not None and value > self.max
        if low or high:
            raise ParameterError(f"parameter {self.name}: {value!r} is out of range (allowed: {self.range_text()})")


def _coerce_to(default: Scalar, raw: object, name: str) -> Scalar:
    kind = type(default)
    if isinstance(raw, kind) and not (kind is int and isinstance(raw, bool)):
        return raw
    text = str(raw).strip()
    try:
        if kind is bool:
            low = text.lower()
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
            raise ValueError(text)
        if kind is int:
            return int(text)
        if kind is float:
            return float(text)
    except ValueError:
        raise ParameterError(f"parameter {name}: expected {kind.__name__}, found {text!r}") from None
    return text


class ParamTable:
    """The parameters a ruleset declares, loaded from its ``params.toml``."""

    def __init__(self, specs: Iterable[ParamSpec], source: str = "") -> None:
        self.specs: dict[str, ParamSpec] = {s.name: s for s in specs}
        self.source = source

    @classmethod
    def load(cls, path: Path) -> ParamTable:
        """Read a ``params.toml``; every table must have ``default``, ``doc`` and ``source``."""
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
        specs = []
        for name, body in raw.items():
            missing = [k for k in ("default", "doc", "source") if k not in body]
            if missing:
                raise ParameterError(f"{path}: [{name}] lacks {', '.join(missing)}")
            specs.append(_spec(path, name, body))
        return cls(specs, str(path))

    def defaults(self) -> dict[str, Scalar]:
        return {name: s.default for name, s in self.specs.items()}

    def resolve(self, overrides: Mapping[str, object] | None = None) -> dict[str, Scalar]:
        """Defaults with ``overrides`` applied; unknown names raise ParameterError listing the known ones."""
        values = self.defaults()
        for name, raw in (overrides or {}).items():
            spec = self.specs.get(name)
            if spec is None:
                known = ", ".join(sorted(self.specs))
                raise ParameterError(f"unknown parameter {name!r}; known parameters: {known}")
            values[name] = spec.coerce(raw)
        return values


def _bound(path: Path, name: str, body: Mapping[str, Any], key: str) -> float | None:
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not isinstance(body["default"], int | float):
        raise ParameterError(f"{path}: [{name}] {key} must be a number and only a number parameter has one")
    return float(value)


def _spec(path: Path, name: str, body: Mapping[str, Any]) -> ParamSpec:
    """One table of a ``params.toml``; a default outside its own range or choices is refused."""
    choices = body.get("choices")
    spec = ParamSpec(
        name=name,
        default=body["default"],
        doc=body["doc"],
        source=body["source"],
        proposed=bool(body.get("proposed", False)),
        choices=tuple(choices) if choices is not None else None,
        min=_bound(path, name, body, "min"),
        max=_bound(path, name, body, "max"),
    )
    try:
        spec.coerce(spec.default)
    except ParameterError as exc:
        raise ParameterError(f"{path}: [{name}] default: {exc}") from None
    return spec


def parse_assignments(items: Iterable[str]) -> dict[str, str]:
    """Parse ``name=value`` strings from ``--set``; a malformed item raises ParameterError quoting it."""
    out: dict[str, str] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip():
            raise ParameterError(f"--set expects name=value, found {item!r}")
        out[name.strip()] = value.strip()
    return out


def as_any(values: Mapping[str, Scalar]) -> dict[str, Any]:
    """The resolved values typed loosely for hot rules code."""
    return dict(values)

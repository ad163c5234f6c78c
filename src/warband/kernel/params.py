"""Ruleset parameters: every number of a game's rules, as data.

Each ruleset ships a ``params.toml``; each table in it is one parameter::

    [charge_range]
    default = 12
    doc = "Maximum distance to the target of a Charge, in inches."
    source = "seed 000, Actions: Charge"
    proposed = false          # true when the number is our default, not the publisher's
    choices = ["000", "001"]  # optional: allowed values

A game resolves the defaults plus overrides (``--set charge_range=10``) into a plain ``dict``; the resolved
values go into every log header so a game replays under exactly its rules.
"""

from __future__ import annotations

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

    def coerce(self, raw: object) -> Scalar:
        """Convert ``raw`` (a value or the text after ``=``) to this parameter's type, or raise ParameterError."""
        value = _coerce_to(self.default, raw, self.name)
        if self.choices is not None and value not in self.choices:
            raise ParameterError(f"parameter {self.name}: {value!r} is not one of {list(self.choices)}")
        return value


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
            choices = body.get("choices")
            specs.append(
                ParamSpec(
                    name=name,
                    default=body["default"],
                    doc=body["doc"],
                    source=body["source"],
                    proposed=bool(body.get("proposed", False)),
                    choices=tuple(choices) if choices is not None else None,
                )
            )
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

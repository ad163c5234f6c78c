"""Typed records stored in a game's state, and their JSON (DESIGN.md, "The kernel protocol").

A pending step, and every value inside one, is a frozen dataclass whose fields are JSON-native: ``str``,
``int``, ``float``, ``bool``, ``None``, tuples of those, or nested records. :func:`step_to_json` writes
``{"step": kind, field: value...}`` with the field names as declared, and :func:`decode_record` reads a record
back, checking every field. The state (:mod:`warband.kernel.state`) stores steps; the step machine
(:mod:`warband.kernel.steps`) gives them their behaviour.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Mapping
from typing import Any, ClassVar


class StepError(ValueError):
    """A pending step in a position file that does not match its declaration (kind, field or type)."""


class Record:
    """Base of every typed record stored in the state (steps and the values inside them): frozen dataclasses
    with JSON-native fields (see the module docstring)."""

    __slots__ = ()


#: Where the rulesets shipped with warband live: a step declared in ``warband.rulesets.<name>`` belongs to the
#: ruleset ``<name>`` with hyphens for underscores (``trench_crusade`` -> ``trench-crusade``).
RULESETS_PACKAGE = "warband.rulesets."


def ruleset_of_module(module: str) -> str | None:
    """The ruleset id a module of ``warband.rulesets`` belongs to by the package's naming convention; None for a
    module outside it (the kernel, a test's own ruleset)."""
    if not module.startswith(RULESETS_PACKAGE):
        return None
    return module[len(RULESETS_PACKAGE) :].partition(".")[0].replace("_", "-")


class Step(Record):
    """A pending step. Subclasses are ``@values.value`` (a frozen slotted dataclass that is cheap to build) and
    name their identity as class keywords, in the one line that declares them: ``class FreeFight(GFChoice,
    kind="free-fight", about="model")``. ``rules`` defaults to the ruleset the declaring module belongs to
    (:func:`ruleset_of_module`); a step declared elsewhere passes ``rules=`` or keeps ``"kernel"``."""

    __slots__ = ()
    #: The name of this kind of step in decisions, logs and position files (``"dest"``, ``"react"``...).
    kind: ClassVar[str] = ""
    #: The ruleset id that prefixes the rule ids of this step's refusals (``trench-crusade/decision/zone``).
    rules: ClassVar[str] = "kernel"
    #: The decision's prompt if it differs from ``kind``.
    prompt: ClassVar[str] = ""

    def __init_subclass__(cls, *, kind: str = "", rules: str = "", prompt: str = "", **kwargs: Any) -> None:
        """Take the step's identity from the class keywords. A slotted dataclass is made a second time without
        keywords: what the first class set is already in its namespace and is kept."""
        super().__init_subclass__(**kwargs)
        if kind:
            cls.kind = kind
        if prompt:
            cls.prompt = prompt
        if rules:
            cls.rules = rules
        elif "rules" not in cls.__dict__:
            cls.rules = ruleset_of_module(cls.__module__) or cls.rules


# ------------------------------------------------------------------------------------------- JSON
def record_to_json(record: Record) -> dict[str, Any]:
    """A record's fields by name, JSON-native (tuples become lists, nested records objects)."""
    return {f.name: _encode(getattr(record, f.name)) for f in dataclasses.fields(record)}  # type: ignore[arg-type]


def step_to_json(step: Step) -> dict[str, Any]:
    return {"step": step.kind, **record_to_json(step)}


def _encode(value: Any) -> Any:
    if isinstance(value, Record):
        return record_to_json(value)
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


_HINTS: dict[type[Record], dict[str, Any]] = {}


def _hints(cls: type[Record]) -> dict[str, Any]:
    """The resolved field types of ``cls`` (kept per class: a pure function of the class)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = typing.get_type_hints(cls)
    return hints


def decode_record(cls: type[Record], data: Any, where: str) -> Record:
    """Build a ``cls`` record from its JSON, checking every field's presence and type; StepError names the
    place (``stack[2].group.n``)."""
    if not isinstance(data, Mapping):
        raise StepError(f"{where}: expected an object, found {type(data).__name__}")
    hints = _hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    extra = sorted(set(data) - names - {"step"})
    if extra:
        raise StepError(f"{where}: unknown field(s) {', '.join(extra)} for {cls.__name__}")
    values: dict[str, Any] = {}
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if f.name not in data:
            if f.default is not dataclasses.MISSING:
                continue
            raise StepError(f"{where}.{f.name}: missing")
        values[f.name] = _decode(hints[f.name], data[f.name], f"{where}.{f.name}")
    return cls(**values)


def _decode(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (typing.Union, types.UnionType):
        for arm in typing.get_args(tp):
            try:
                return _decode(arm, value, where)
            except StepError:
                continue
        raise StepError(f"{where}: {value!r} is not a {tp}")
    if origin is tuple:
        if not isinstance(value, list | tuple):
            raise StepError(f"{where}: expected a list, found {value!r}")
        args = typing.get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(args) != len(value):
            raise StepError(f"{where}: expected {len(args)} values, found {len(value)}")
        return tuple(_decode(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value, strict=True)))
    if isinstance(tp, type) and issubclass(tp, Record):
        return decode_record(tp, value, where)
    return _decode_scalar(tp, value, where)


def _decode_scalar(tp: Any, value: Any, where: str) -> Any:
    if tp is type(None):
        if value is None:
            return None
    elif tp is bool:
        if isinstance(value, bool):
            return value
    elif tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    elif tp is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value) if isinstance(value, int) else value
    elif tp is str:
        if isinstance(value, str):
            return value
    else:
        raise StepError(f"{where}: a field of type {tp} cannot be stored in a step")
    raise StepError(f"{where}: expected {getattr(tp, '__name__', tp)}, found {value!r}")

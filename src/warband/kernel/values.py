"""Immutable value classes that cost nothing extra to build (issue 26).

``@dataclass(frozen=True)`` assigns every field through ``object.__setattr__`` (a global lookup and a call per
field), which made building the ~3,400 :class:`~warband.kernel.actions.Action` values of a game a tenth of its
time. :func:`value` makes a slotted dataclass with the plain generated ``__init__`` (``self.kind = kind``) and
the same equality, hash (``unsafe_hash``: the tuple of the fields, as a frozen dataclass hashes) and ``repr``
as the frozen one. Immutability is kept two ways: type checkers see a frozen dataclass (``mypy --strict``
refuses an assignment to a field), and with ``WARBAND_STRICT_VALUES=1`` (the test suite sets it, see
``tests/conftest.py``) a field may be set once, by ``__init__``, and every later assignment or deletion raises
:class:`dataclasses.FrozenInstanceError`, as a frozen dataclass would.
"""

from __future__ import annotations

import dataclasses
import os
from typing import TypeVar

from typing_extensions import dataclass_transform

T = TypeVar("T")

#: Whether values refuse a second assignment at run time (the test suite's setting).
STRICT = os.environ.get("WARBAND_STRICT_VALUES", "") not in ("", "0")


def _set_once(self: object, name: str, value: object) -> None:
    try:
        getattr(self, name)
    except AttributeError:  # an empty slot: __init__ is filling it
        object.__setattr__(self, name, value)
        return
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r} of immutable {type(self).__name__}")


def _no_delete(self: object, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r} of immutable {type(self).__name__}")


def guard(cls: type[T]) -> type[T]:
    """Make ``cls`` refuse every assignment to a field that is already set (the strict mode's check)."""
    cls.__setattr__ = _set_once  # type: ignore[method-assign]
    cls.__delattr__ = _no_delete  # type: ignore[method-assign]
    return cls


@dataclass_transform(frozen_default=True)
def value(cls: type[T]) -> type[T]:
    """``@dataclass(frozen=True, slots=True)`` without the frozen ``__init__``'s cost (see the module doc)."""
    made: type[T] = dataclasses.dataclass(slots=True, unsafe_hash=True)(cls)
    return guard(made) if STRICT else made

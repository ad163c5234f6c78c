"""The compiled fast path that a property test compares with its Python reference (``kernel.native``).

``compiled(name)`` imports the extension directly (whatever ``WARBAND_PURE`` says: the tests call both paths
themselves) and gives the marker for the tests that need it. Where it is not built the tests are skipped, except
under ``CI=true``: there ``make install`` must have built it, so a missing build fails the run (as a missing
browser does) instead of letting the comparison silently not happen."""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest


def compiled(name: str) -> tuple[Any, pytest.MarkDecorator]:
    """The extension module ``name`` (None where it is not built) and the skip marker of its tests."""
    try:
        module: Any = importlib.import_module(name)
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            raise RuntimeError(
                f"{name} is not built under CI=true ({exc}): `make install` builds it (scripts/build_native.py)"
            ) from exc
        module = None
    reason = f"{name} is not built (make install)"
    return module, pytest.mark.skipif(module is None, reason=reason)

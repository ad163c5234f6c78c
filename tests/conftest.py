"""Suite-wide settings. Hypothesis runs without a per-example deadline: the suite runs on shared, loaded
machines (CI has 2 cores), where a slow example is noise, not a bug; correctness is what the tests judge.
Value classes run in their strict mode (:mod:`warband.kernel.values`)."""

from __future__ import annotations

import os

# Value classes (warband.kernel.values) refuse a second assignment to a field in the suite, as frozen dataclasses
# would; set before any warband module is imported (subprocesses inherit it).
os.environ.setdefault("WARBAND_STRICT_VALUES", "1")

from hypothesis import settings

settings.register_profile("warband", deadline=None)
settings.load_profile("warband")

"""Suite-wide settings. Hypothesis runs without a per-example deadline: the suite runs on shared, loaded
machines (CI has 2 cores), where a slow example is noise, not a bug; correctness is what the tests judge."""

from __future__ import annotations

from hypothesis import settings

settings.register_profile("warband", deadline=None)
settings.load_profile("warband")

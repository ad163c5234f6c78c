"""Optional compiled fast paths: Cython extensions, built in place by ``make install`` (docs/development.md).

Each extension accelerates one Python function, which stays the reference and the fallback: :func:`load` returns
the compiled module, or None when it is not built, was built from another source than the ``.pyx`` beside it (its
``SOURCE_SHA``), or ``WARBAND_PURE=1`` is set (every fast path off: the pure-Python reference runs). The answers
are the same either way (each extension's property test and the equivalence digests check it); only the speed
differs. ``python -m warband.kernel.native`` prints which are in use.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import re
from pathlib import Path
from types import ModuleType

#: The environment variable that forces the pure-Python reference everywhere.
PURE_ENV = "WARBAND_PURE"

#: Every compiled fast path: module -> what it accelerates.
EXTENSIONS = {
    "warband.kernel.geometry._can_see": "line of sight between models (kernel.geometry.sight.Sight.can_see)",
    "warband.kernel.geometry._routes": "route legs clear of solids and bases (kernel.geometry.paths.shortest_path)",
    "warband.rulesets.trench_crusade._straight_moves": (
        "Trench Crusade move candidates and a Charge's ring (space._move_candidates, charge_spots._charge_spots)"
    ),
    "warband.rulesets.trench_crusade._threat_pairs": "Trench Crusade evaluation's attacker-target pairs (evaluate)",
    "warband.rulesets.trenches_and_turbines._sight_lines": "Trenches and Turbines lines of sight (sight.sight)",
    "warband.rulesets.trenches_and_turbines._spot_checks": "Trenches and Turbines free spots (spots.spot_problem)",
}

_status: dict[str, str] = {}


def pure() -> bool:
    """Whether ``WARBAND_PURE`` asks for the pure-Python reference."""
    return os.environ.get(PURE_ENV, "").strip().lower() not in ("", "0", "false", "no")


#: A ``cimport`` of a shared declaration file of this package (``from warband.x.y cimport ...``).
_CIMPORT = re.compile(r"^\s*from\s+(warband(?:\.\w+)+)\s+cimport\b", re.MULTILINE)


def source_sha(path: Path) -> str:
    """The sha256 of an extension's ``.pyx`` source and of the package's ``.pxd`` files it cimports (what the
    build stamps into it): a change to a shared ``.pxd`` (inlined into every extension that cimports it) makes
    those builds stale too."""
    text = path.read_bytes()
    digest = hashlib.sha256(text)
    root = next((p.parent for p in path.resolve().parents if p.name == "warband"), path.parent)
    for module in sorted(set(_CIMPORT.findall(text.decode("utf-8")))):
        pxd = root / (module.replace(".", "/") + ".pxd")
        if pxd.is_file():
            digest.update(pxd.read_bytes())
    return digest.hexdigest()


def load(name: str) -> ModuleType | None:
    """The compiled module ``name``, or None (the caller runs its Python reference); the reason is kept for
    :func:`report`."""
    if pure():
        _status[name] = f"off ({PURE_ENV}=1)"
        return None
    try:
        module = importlib.import_module(name)
    except ImportError:
        _status[name] = "not built (run `make install`; the pure-Python reference runs)"
        return None
    source = Path(module.__file__ or "").parent / (name.rsplit(".", 1)[-1] + ".pyx")
    if source.is_file() and getattr(module, "SOURCE_SHA", None) != source_sha(source):
        _status[name] = "stale build of an older source (run `make install`; the pure-Python reference runs)"
        return None
    _status[name] = "compiled"
    return module


def report() -> list[str]:
    """One line per fast path: ``module: what it accelerates: compiled | off | not built | stale``."""
    lines = []
    for name, what in EXTENSIONS.items():
        if name not in _status:
            load(name)
        lines.append(f"{name}: {what}: {_status[name]}")
    return lines


if __name__ == "__main__":
    print("\n".join(report()))

"""The loader of the compiled fast paths (:mod:`warband.kernel.native`): ``WARBAND_PURE`` turns every one off,
a module that is not built is reported as such (the pure-Python reference runs), never an error."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from warband.kernel import native


@pytest.mark.parametrize("value", ["1", "true", "yes"])
def test_warband_pure_turns_every_fast_path_off(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(native.PURE_ENV, value)
    assert native.pure()
    for name in native.EXTENSIONS:
        assert native.load(name) is None
    assert all(line.endswith(f"off ({native.PURE_ENV}=1)") for line in native.report())


@pytest.mark.parametrize("value", ["", "0", "false", "no"])
def test_unset_or_false_leaves_them_on(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    monkeypatch.setenv(native.PURE_ENV, value)
    assert not native.pure()


def test_a_module_that_is_not_built_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(native.PURE_ENV, raising=False)
    monkeypatch.setitem(native.EXTENSIONS, "warband.kernel._no_such_fast_path", "nothing")
    assert native.load("warband.kernel._no_such_fast_path") is None
    assert "warband.kernel._no_such_fast_path: nothing: not built" in "\n".join(native.report())


def test_a_change_to_a_shared_pxd_makes_the_builds_that_cimport_it_stale(tmp_path: Path) -> None:
    """The build stamps source_sha into each extension; the shared _convex.pxd is inlined into three of them,
    so its text must be in their hash or an edit to it would leave old compiled code running unnoticed."""
    pkg = tmp_path / "src" / "warband" / "geom"
    pkg.mkdir(parents=True)
    pyx = pkg / "_fast.pyx"
    pyx.write_text("from warband.geom._shared cimport clip\n\ndef f():\n    return 1\n")
    shared = pkg / "_shared.pxd"
    shared.write_text("cdef inline int clip(int x) noexcept:\n    return x\n")
    before = native.source_sha(pyx)
    shared.write_text("cdef inline int clip(int x) noexcept:\n    return x + 1\n")
    assert native.source_sha(pyx) != before
    pyx_only = hashlib.sha256(pyx.read_bytes()).hexdigest()
    assert before != pyx_only


def test_the_real_extensions_hash_the_convex_pxd_they_cimport() -> None:
    src = Path(native.__file__).resolve().parents[1]
    for name in ("kernel/geometry/_can_see", "rulesets/trench_crusade/_straight_moves"):
        pyx = src / f"{name}.pyx"
        assert "_convex cimport" in pyx.read_text()
        assert native.source_sha(pyx) != hashlib.sha256(pyx.read_bytes()).hexdigest()

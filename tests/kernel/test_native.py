"""The loader of the compiled fast paths (:mod:`warband.kernel.native`): ``WARBAND_PURE`` turns every one off,
a module that is not built is reported as such (the pure-Python reference runs), never an error."""

from __future__ import annotations

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

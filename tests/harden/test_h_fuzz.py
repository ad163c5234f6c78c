"""Issue 10, "Done when": malformed warband, scenario, position and log files thrown at the loaders give a
``WarbandError`` naming the file, never another exception.

Each example starts from a valid file (a bundled sample, a saved position, a game log), breaks it (keys deleted,
values replaced by any JSON value, entries duplicated; or the text cut, sprinkled with noise, or replaced by
bytes) and writes it as YAML, JSON or raw text. ``make test`` runs a bounded number of examples per loader;
``make fuzz`` runs many more (``WARBAND_FUZZ_EXAMPLES``).
"""

from __future__ import annotations

import copy
import functools
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from hardcli import TC, TT, cli, warband
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband.kernel.errors import WarbandError
from warband.kernel.log import read_log, replay
from warband.kernel.ruleset import get

EXAMPLES = int(os.environ.get("WARBAND_FUZZ_EXAMPLES", "50"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    derandomize=EXAMPLES <= 100,  # the bounded run in `make test` is the same every time
)
WORK = Path(tempfile.mkdtemp(prefix="warband-fuzz-"))
Path_ = tuple[str | int, ...]

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-3, 3)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["", "trench-crusade", "trenches-and-turbines", "HEAVY", "a1", "x" * 300])
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)


def _paths(doc: Any, prefix: Path_ = ()) -> list[Path_]:
    """Every place in ``doc`` (a key of a mapping or an index of a list), depth first."""
    out: list[Path_] = []
    items: list[tuple[str | int, Any]] = []
    if isinstance(doc, dict):
        items = list(doc.items())
    elif isinstance(doc, list):
        items = list(enumerate(doc))
    for key, value in items:
        out.append((*prefix, key))
        out += _paths(value, (*prefix, key))
    return out


def _at(doc: Any, path: Path_) -> Any:
    for key in path:
        doc = doc[key]
    return doc


@st.composite
def broken_documents(draw: st.DrawFn, doc: Any) -> Any:
    """``doc`` with one to three places deleted, replaced by any JSON value, or duplicated."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        places = _paths(doc)
        if not places:
            return draw(VALUES)
        path = draw(st.sampled_from(places))
        parent, key = _at(doc, path[:-1]), path[-1]
        op = draw(st.sampled_from(["delete", "replace", "replace", "duplicate"]))
        if op == "delete":
            del parent[key]
        elif op == "replace":
            parent[key] = draw(VALUES)
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[key]))
        else:
            parent[key] = [copy.deepcopy(parent[key])] * 2
    return doc


@st.composite
def broken_files(draw: st.DrawFn, original: Path, reader: Callable[[Path], Any]) -> tuple[str, bytes]:
    """A file name suffix and the bytes of a broken version of ``original``."""
    how = draw(st.sampled_from(["yaml", "json", "json", "cut", "noise", "bytes"]))
    text = original.read_text(encoding="utf-8")
    suffix = original.suffix
    if how in ("yaml", "json"):
        doc = draw(broken_documents(reader(original)))
        if how == "yaml" and suffix != ".jsonl":
            return ".yaml", yaml.safe_dump(doc, allow_unicode=True).encode("utf-8")
        return (suffix if suffix == ".jsonl" else ".json"), _json_text(doc, suffix).encode("utf-8")
    if how == "cut":
        return suffix, text[: draw(st.integers(0, len(text)))].encode("utf-8")
    if how == "noise":
        at = draw(st.integers(0, len(text)))
        return suffix, (text[:at] + draw(st.text(min_size=1, max_size=8)) + text[at:]).encode("utf-8", "surrogatepass")
    return suffix, draw(st.binary(max_size=64))


def _json_text(doc: Any, suffix: str) -> str:
    if suffix != ".jsonl":
        return json.dumps(doc)
    return "\n".join(json.dumps(line) for line in doc) + "\n"


def _write(suffix: str, data: bytes) -> Path:
    fd, name = tempfile.mkstemp(suffix=suffix, dir=WORK)
    os.write(fd, data)
    os.close(fd)
    return Path(name)


def _assert_clean(load: Callable[[Path], object], path: Path) -> None:
    """``load(path)`` succeeds or raises a WarbandError that names ``path``; anything else fails the test."""
    try:
        load(path)
    except WarbandError as exc:
        assert str(path) in str(exc), f"the error does not name the file: {exc}"
    finally:
        path.unlink(missing_ok=True)


def _read_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def _read_lines(path: Path) -> Any:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _samples(ruleset: str, kind: str) -> list[Path]:
    return [Path(item["path"]) for item in get(ruleset).samples()[kind]]


@pytest.mark.parametrize("ruleset", [TC, TT])
def test_broken_warband_files_give_a_warband_error(ruleset: str) -> None:
    """Every sample of ``ruleset``, broken, through both rulesets' loaders."""

    @FUZZ
    @given(
        st.sampled_from(_samples(ruleset, "warbands")).flatmap(lambda p: broken_files(p, _read_yaml)),
        st.sampled_from([TC, TT]),
    )
    def run(broken: tuple[str, bytes], loader: str) -> None:
        _assert_clean(get(loader).load_roster, _write(*broken))

    run()


@pytest.mark.parametrize("ruleset", [TC, TT])
def test_broken_scenario_files_give_a_warband_error(ruleset: str) -> None:
    @FUZZ
    @given(st.sampled_from(_samples(ruleset, "scenarios")).flatmap(lambda p: broken_files(p, _read_yaml)))
    def run(broken: tuple[str, bytes]) -> None:
        _assert_clean(get(ruleset).load_scenario, _write(*broken))

    run()


@functools.cache
def _game_log() -> Path:
    folder = WORK / "logs"
    args = ["simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), "--agent-a", "random"]
    out = cli(*args, "--agent-b", "random", "--db", ":memory:", "--games", "1", "--log-dir", folder, "--workers", "1")
    assert out.code == 0, out.text
    return folder / "game-00000.jsonl"


def _verify(path: Path) -> None:
    replay(read_log(path), verify=True)


def test_broken_logs_give_a_warband_error() -> None:
    @FUZZ
    @given(broken_files(_game_log(), _read_lines))
    def run(broken: tuple[str, bytes]) -> None:
        _assert_clean(_verify, _write(".jsonl", broken[1]))

    run()


@functools.cache
def _position(ruleset: str) -> Path:
    path = WORK / f"{ruleset}-position.json"
    args = ["position", ruleset, "--a", warband(ruleset, 0), "--b", warband(ruleset, 1), "--steps", "25"]
    out = cli(*args, "--out", path)
    assert out.code == 0, out.text
    return path


def _position_loader() -> Callable[[Path], object]:
    """The kernel's position loader when there is one, else the one ``warband legal`` uses."""
    try:
        from warband.kernel.position import load_position  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        from warband.cli.legal_cmd import load_position
    return load_position  # type: ignore[no-any-return, unused-ignore]


@pytest.mark.parametrize("ruleset", [TC, TT])
def test_broken_positions_give_a_warband_error(ruleset: str) -> None:
    load = _position_loader()

    @settings(FUZZ, max_examples=max(10, EXAMPLES // 2))  # each one restores a game: the slowest loader
    @given(broken_files(_position(ruleset), _read_yaml))
    def run(broken: tuple[str, bytes]) -> None:
        _assert_clean(load, _write(*broken))

    run()

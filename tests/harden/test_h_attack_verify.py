"""Issue 24 item 5: ``replay --verify`` proves every byte it vouches for. The header and steps digests are
required; a header edited (its own digest deleted or recomputed), a step renumbered, dropped or nudged, a second
end line, a number that is not finite fail; dice relabelled as typed by hand are reported "not proven"."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from attack import timed
from hardcli import RANDOM, TC, cli, warband

from warband.kernel.log import header_digest, parse_log, replay, steps_digest

WC = "wyrdcry"
Lines = list[str]


def _make_log(folder: Path, ruleset: str) -> Path:
    out = cli(
        "simulate", ruleset, "--a", warband(ruleset, 0), "--b", warband(ruleset, 1), *RANDOM,
        "--db", ":memory:", "--games", "1", "--seed", "5", "--log-dir", folder, "--workers", "1",
    )  # fmt: skip
    assert out.code == 0, out.text
    return folder / "game-00000.jsonl"


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {rs: _make_log(tmp_path_factory.mktemp(rs), rs) for rs in (TC, WC)}


def _dump(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys="end" in obj or "format" in obj)


def _reseal(lines: Lines) -> Lines:
    """Recompute both digests of the end line, as a forger who knows the format would."""
    header = json.loads(lines[0])
    end = json.loads(lines[-1])
    end["header_digest"] = header_digest(header)
    end["steps_digest"] = steps_digest(header, lines[1:-1])
    return [*lines[:-1], _dump(end)]


def _forge(lines: Lines) -> Lines:
    """Recompute the whole end line (result, fingerprint, both digests) by replaying the edited steps, as a
    forger with this program would: only what cannot be recomputed remains to catch the edit."""
    steps = lines[:-1]
    game = replay(parse_log(steps))
    result = game.result()
    assert result is not None
    header = json.loads(lines[0])
    end = {
        "end": result.to_json(),
        "fingerprint": game.fingerprint(),
        "header_digest": header_digest(header),
        "steps_digest": steps_digest(header, steps[1:]),
    }
    return [*steps, _dump(end)]


def _header(lines: Lines, edit: Callable[[dict[str, Any]], None]) -> Lines:
    header = json.loads(lines[0])
    edit(header)
    return [_dump(header), *lines[1:]]


def _end(lines: Lines, edit: Callable[[dict[str, Any]], None]) -> Lines:
    end = json.loads(lines[-1])
    edit(end)
    return [*lines[:-1], _dump(end)]


def _step(lines: Lines, pick: Callable[[dict[str, Any]], bool], edit: Callable[[dict[str, Any]], None]) -> Lines:
    out = list(lines)
    for i in range(1, len(out) - 1):
        step = json.loads(out[i])
        if pick(step):
            edit(step)
            out[i] = json.dumps(step, separators=(",", ":"))
            return out
    raise AssertionError("no such step in the log")


def _set_param(h: dict[str, Any]) -> None:
    name = sorted(h["params"])[0]
    value = h["params"][name]
    h["params"][name] = (not value) if isinstance(value, bool) else value + 1


def _rolls(lines: Lines, src: str) -> Lines:
    out = [lines[0]]
    for line in lines[1:-1]:
        step = json.loads(line)
        if "r" in step:
            step["src"] = src
        out.append(json.dumps(step, separators=(",", ":")))
    return [*out, lines[-1]]


def _nudge(step: dict[str, Any]) -> None:
    step["a"]["point"][0] += 0.5


def _has_point(step: dict[str, Any]) -> bool:
    return "a" in step and step["a"].get("kind") == "move" and bool(step["a"].get("point"))


# name -> (edit of the log's lines, exit code, words the message must hold: one of several split by |)
CASES: dict[str, tuple[Callable[[Lines], Lines], int, str]] = {
    "param-digest-deleted": (
        lambda ls: _end(_header(ls, _set_param), lambda e: e.pop("header_digest")),
        1,
        "no header_digest",
    ),
    "param-digest-recomputed": (
        lambda ls: _end(
            _header(ls, _set_param),
            lambda e: e.update(header_digest=header_digest(json.loads(_header(ls, _set_param)[0]))),
        ),
        1,
        "steps differ|divergence",
    ),
    "steps-digest-deleted": (lambda ls: _end(ls, lambda e: e.pop("steps_digest")), 1, "no steps_digest"),
    "header-digest-wrong": (lambda ls: _end(ls, lambda e: e.update(header_digest="0" * 16)), 1, "header differs"),
    "param-unknown-resealed": (
        lambda ls: _reseal(_header(ls, lambda h: h["params"].update(bogus=1))),
        2,
        "unknown parameter 'bogus'",
    ),
    "param-missing-resealed": (
        lambda ls: _reseal(_header(ls, lambda h: h["params"].pop(sorted(h["params"])[0]))),
        1,
        "params",
    ),
    "manual-dice": (lambda ls: _forge(_rolls(ls, "manual")), 1, "dice entered by hand are not proven"),
    "forced-dice": (lambda ls: _forge(_rolls(ls, "forced")), 1, "dice entered by hand are not proven"),
    "unknown-dice-source": (lambda ls: _rolls(ls, "telepathy"), 2, "'src'"),
    "manual-die-changed": (
        lambda ls: _reseal(
            _step(_rolls(ls, "manual"), lambda s: "r" in s, lambda s: s.update(r=[7 - v for v in s["r"]]))
        ),
        1,
        "",
    ),
    "renumbered": (lambda ls: _reseal(_step(ls, lambda s: s["n"] == 3, lambda s: s.update(n=4))), 1, "renumbered"),
    "n-as-text": (lambda ls: _step(ls, lambda s: s["n"] == 3, lambda s: s.update(n="3")), 2, "step number"),
    "n-missing": (lambda ls: _step(ls, lambda s: s["n"] == 3, lambda s: s.pop("n")), 2, "step number"),
    "step-dropped": (lambda ls: _reseal([ls[0], *ls[1:4], *ls[5:]]), 1, ""),
    "two-end-lines": (lambda ls: [*ls, ls[-1]], 2, "after its end line"),
    "step-after-end": (lambda ls: [*ls, ls[1]], 2, "after its end line"),
    "end-is-text": (lambda ls: _end(ls, lambda e: e.update(end="side A won")), 2, "end line"),
    "nan-in-header": (lambda ls: [ls[0].replace('"seed":', '"nan_field":NaN,"seed":'), *ls[1:]], 2, "NaN"),
    "infinity-in-end": (lambda ls: [*ls[:-1], ls[-1].replace('"turns":', '"turns":Infinity,"x":')], 2, "Infinity"),
    "nan-point": (lambda ls: _step(ls, _has_point, lambda s: s["a"].update(point=[math.nan, 1.0])), 2, "NaN"),
    "move-nudged": (lambda ls: _step(ls, _has_point, _nudge), 1, "steps differ"),
    "decision-relabelled": (
        lambda ls: _reseal(_step(ls, lambda s: s["n"] == 2, lambda s: s.update(d="choice:9:x:None"))),
        1,
        "divergence",
    ),
    "roster-edited": (lambda ls: _header(ls, lambda h: h["rosters"][0].update(name=5)), 2, "rosters[0].name"),
    "fingerprint-edited": (lambda ls: _end(ls, lambda e: e.update(fingerprint="0" * 16)), 1, "fingerprint"),
}


#: Every case runs on the Wyrdcry log; these also on Trench Crusade's (one per class, to keep the run short).
BOTH = {
    "roster-edited",
    "param-digest-deleted",
    "manual-dice",
    "renumbered",
    "two-end-lines",
    "nan-in-header",
    "steps-digest-deleted",
}


@pytest.mark.parametrize(("case", "ruleset"), [(c, WC) for c in sorted(CASES)] + [(c, TC) for c in sorted(BOTH)])
def test_verify_fails_an_edited_log(case: str, ruleset: str, logs: dict[str, Path], tmp_path: Path) -> None:
    edit, code, words = CASES[case]
    edited = edit(logs[ruleset].read_text().splitlines())
    path = tmp_path / f"{case}.jsonl"
    path.write_text("\n".join(edited) + "\n")
    out = timed(lambda: cli("replay", path, "--verify", "--quiet"))
    assert out.code == code, out.text
    assert any(w in out.text for w in words.split("|")) and "OK:" not in out.text, out.text
    assert "validation error for" not in out.text, "a place and the loader's words, never pydantic's summary"


@pytest.mark.parametrize("ruleset", [TC, WC])
def test_the_untouched_log_verifies(ruleset: str, logs: dict[str, Path]) -> None:
    out = timed(lambda: cli("replay", logs[ruleset], "--verify", "--quiet"))
    assert out.code == 0 and "header and steps digests match" in out.text

"""Issue 10 item 8: ``replay --verify`` fails a cut log, an edited header and an unknown format version, and
a binary file is a clear error, not a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hardcli import RANDOM, TC, cli, warband


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("logs")
    out = cli(
        "simulate", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM,
        "--db", ":memory:", "--games", "1", "--seed", "3", "--log-dir", folder, "--workers", "1",
    )  # fmt: skip
    assert out.code == 0, out.text
    path = folder / "game-00000.jsonl"
    assert cli("replay", path, "--verify", "--quiet").code == 0
    return path


def _edited_header(log: Path, tmp_path: Path, edit: str) -> Path:
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    if edit == "charge_range":
        header["params"]["charge_range"] = 13.0
    elif edit == "deleted":
        del header["params"]["blood_max"]
    else:
        header["format_version"] = 99
    out = tmp_path / f"{edit}.jsonl"
    out.write_text("\n".join([json.dumps(header), *lines[1:]]) + "\n")
    return out


def test_a_log_cut_at_a_line_end_fails_verification(log: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.jsonl"
    cut.write_text("\n".join(log.read_text().splitlines()[:300]) + "\n")
    out = cli("replay", cut, "--verify", "--quiet")
    assert out.code == 1 and "unfinished" in out.text and str(cut) in out.text


@pytest.mark.parametrize(("edit", "why"), [("charge_range", "header differs"), ("deleted", "lacks blood_max")])
def test_an_edited_header_fails_verification(log: Path, tmp_path: Path, edit: str, why: str) -> None:
    out = cli("replay", _edited_header(log, tmp_path, edit), "--verify", "--quiet")
    assert out.code == 1 and why in out.text


def test_an_unknown_format_version_is_refused(log: Path, tmp_path: Path) -> None:
    out = cli("replay", _edited_header(log, tmp_path, "format"), "--verify", "--quiet")
    assert out.code == 2 and "format_version 99" in out.text


def test_a_binary_file_is_a_clear_error(tmp_path: Path) -> None:
    blob = tmp_path / "blob.jsonl"
    blob.write_bytes(bytes(range(256)) * 4)
    out = cli("replay", blob, "--verify")
    assert out.code == 2 and str(blob) in out.text and "UTF-8" in out.text


@pytest.mark.parametrize("point", [[], [3.0], "x"])
def test_a_step_whose_point_is_not_two_numbers_is_a_clear_error(log: Path, tmp_path: Path, point: object) -> None:
    """Found by the fuzz test: ``"point": []`` on a deployment step raised IndexError out of the replay."""
    lines = log.read_text().splitlines()
    n = next(i for i, line in enumerate(lines) if '"point"' in line)
    step = json.loads(lines[n])
    step["a"]["point"] = point
    lines[n] = json.dumps(step)
    path = tmp_path / "point.jsonl"
    path.write_text("\n".join(lines) + "\n")
    out = cli("replay", path, "--verify", "--quiet")
    assert out.code == 1 and f"line {n + 1}: malformed step" in out.text and "point is [x, y]" in out.text

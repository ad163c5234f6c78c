"""Issue 24 item 3: one safe writer for every output. Nothing is written to a path that is not a regular file or
a new path: /dev/full, a FIFO, a symbolic link (to a file, to a device, dangling) and a folder are refused
before the game (exit 2 naming the option and the path) and stay as they were; a full disk leaves the old file
whole."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from attack import fifo, link, timed
from hardcli import RANDOM, TC, cli, warband

from warband.kernel.files import OutputError, write_atomic


def _target(kind: str, tmp_path: Path) -> Path:
    if kind == "dev-full":
        return Path("/dev/full")
    if kind == "dev-null":
        return Path("/dev/null")
    if kind == "fifo":
        return fifo(tmp_path / "out.jsonl")
    if kind == "link-to-file":
        (tmp_path / "real.jsonl").write_text("keep\n")
        return link(tmp_path / "out.jsonl", str(tmp_path / "real.jsonl"))
    if kind == "link-to-device":
        return link(tmp_path / "out.jsonl", "/dev/full")
    if kind == "dangling-link":
        return link(tmp_path / "out.jsonl", str(tmp_path / "nowhere.jsonl"))
    if kind == "folder":
        (tmp_path / "out.jsonl").mkdir()
        return tmp_path / "out.jsonl"
    raise AssertionError(kind)


KINDS = ["dev-full", "dev-null", "fifo", "link-to-file", "link-to-device", "dangling-link", "folder"]
REASON = {
    "dev-full": "not a regular file",
    "dev-null": "not a regular file",
    "fifo": "not a regular file",
    "link-to-file": "symbolic link",
    "link-to-device": "symbolic link",
    "dangling-link": "symbolic link",
    "folder": "folder",
}


def _same(path: Path, before: os.stat_result) -> bool:
    now = os.lstat(path)
    return (now.st_mode, now.st_ino, now.st_size) == (before.st_mode, before.st_ino, before.st_size)


@pytest.mark.parametrize("kind", KINDS)
def test_play_log_refuses_what_is_not_a_regular_file(kind: str, tmp_path: Path) -> None:
    path = _target(kind, tmp_path)
    before = os.lstat(path)
    out = timed(lambda: cli("play", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), *RANDOM, "--log", path))
    assert out.code == 2 and f"--log {path}" in out.text and REASON[kind] in out.text, out.text
    assert "Result" not in out.text and _same(path, before)


@pytest.mark.parametrize("kind", KINDS)
def test_position_out_refuses_what_is_not_a_regular_file(kind: str, tmp_path: Path) -> None:
    path = _target(kind, tmp_path)
    before = os.lstat(path)
    out = timed(
        lambda: cli("position", TC, "--a", warband(TC, 0), "--b", warband(TC, 1), "--steps", "3", "--out", path)
    )
    assert out.code == 2 and f"--out {path}" in out.text and REASON[kind] in out.text, out.text
    assert _same(path, before)


@pytest.mark.parametrize("kind", KINDS)
def test_the_safe_writer_refuses_them_directly(kind: str, tmp_path: Path) -> None:
    path = _target(kind, tmp_path)
    before = os.lstat(path)
    with pytest.raises(OutputError, match=REASON[kind]):
        write_atomic(path, "x")
    assert _same(path, before)


@pytest.mark.parametrize("kind", ["dev-full", "fifo", "link-to-file", "folder"])
def test_build_save_refuses_them(kind: str, tmp_path: Path) -> None:
    path = _target(kind, tmp_path)
    before = os.lstat(path)
    out = timed(lambda: cli("build", TC, "--faction", "new antioch", "--model", "Lieutenant: Pistol", "--out", path))
    assert out.code == 2 and str(path) in out.text and REASON[kind] in out.text, out.text
    assert _same(path, before)


def test_a_regular_file_is_replaced_whole_with_its_mode_kept(tmp_path: Path) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old")
    os.chmod(path, 0o640)
    write_atomic(path, "new")
    assert path.read_text() == "new" and stat.S_IMODE(os.stat(path).st_mode) == 0o640
    assert [p.name for p in tmp_path.iterdir()] == ["out.txt"], "no temporary file is left"


def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "out.txt"
    path.write_text("old")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OutputError, match="No space left"):
        write_atomic(path, "new" * 1000)
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["out.txt"]


@pytest.mark.parametrize("data", ["text", b"\x00bytes"])
def test_a_new_path_is_created_with_its_folder(data: str | bytes, tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "out.bin"
    write_atomic(path, data)
    assert path.read_bytes() == (data.encode() if isinstance(data, str) else data)

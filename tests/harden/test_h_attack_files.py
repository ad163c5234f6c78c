"""Issue 24 item 1: one bounded reader for every file and upload. A YAML alias bomb, a FIFO, a link to
/dev/zero, a folder, an oversized or binary file: each is refused within 5 s with the file named, by the CLI
and by the web alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from attack import RULESETS, alias_bomb, fifo, link, timed, web
from hardcli import cli

from warband.kernel.errors import FileProblemsError
from warband.kernel.files import MAX_DOCUMENT_BYTES
from warband.kernel.roster import MAX_YAML_DEPTH, read_document

LIST_KEY = {"wyrdcry": "fighters"}


def _bomb_text(ruleset: str, levels: int = 7) -> str:
    return alias_bomb(levels, list_key=LIST_KEY.get(ruleset, "models")) + f"ruleset: {ruleset}\n"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_the_764_byte_alias_bomb_is_refused_by_validate_at_once(ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(_bomb_text(ruleset))
    out = timed(lambda: cli("validate", path), 1.0 + 3.0)  # the CLI's own start included
    assert out.code == 2 and str(path) in out.text and "aliases expand" in out.text


@pytest.mark.parametrize("levels", [5, 6, 7, 9, 12])
def test_read_document_refuses_alias_bombs_in_well_under_a_second(levels: int, tmp_path: Path) -> None:
    path = tmp_path / "bomb.yaml"
    path.write_text(alias_bomb(levels))
    with pytest.raises(FileProblemsError, match="aliases expand") as info:
        timed(lambda: read_document(path), 0.5)
    assert str(path) in str(info.value) and "line " in str(info.value)


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("kind", ["warband", "scenario"])
def test_the_alias_bomb_upload_is_a_422_and_the_server_stays_free(ruleset: str, kind: str) -> None:
    with web() as c:
        assert c.get("/api/meta").status_code == 200  # the samples' names are read once, on the first call
        r = timed(
            lambda: c.post(
                "/api/validate", json={"ruleset": ruleset, "kind": kind, "doc": {"text": _bomb_text(ruleset)}}
            )
        )
        assert r.status_code == 422, r.text
        assert "aliases expand" in r.text
        assert timed(lambda: c.get("/api/meta"), 1.0).status_code == 200


def test_one_long_text_aliased_many_times_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text('s: &s "' + "x" * 200_000 + '"\nl: [' + ", ".join(["*s"] * 300) + "]\n")
    with pytest.raises(FileProblemsError, match="aliases expand"):
        timed(lambda: read_document(path), 0.5)


def test_a_small_alias_use_still_loads(tmp_path: Path) -> None:
    path = tmp_path / "ok.yaml"
    path.write_text(alias_bomb(2, 3))
    assert len(read_document(path)["models"]) == 3


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("recursive", "a: &a [*a]\n", "alias"),
        ("deep", "x: " + "[" * (MAX_YAML_DEPTH + 5) + "]" * (MAX_YAML_DEPTH + 5) + "\n", "nested more than"),
        (
            "deep-maps",
            "".join("  " * i + f"k{i}:\n" for i in range(MAX_YAML_DEPTH + 5)) + "  " * 70 + "v: 1\n",
            "nested",
        ),
        ("binary", None, "UTF-8"),
        ("tab-indent", "a:\n\tb: 1\n", "YAML syntax error"),
        ("unclosed", "a: [1, 2\n", "YAML syntax error"),
        ("python-tag", "a: !!python/object/apply:os.system ['true']\n", "YAML"),
        ("dup", "a: 1\na: 2\n", "duplicate key"),
    ],
)
def test_hostile_yaml_is_a_file_error_with_the_file_named(
    name: str, text: str | None, expected: str, tmp_path: Path
) -> None:
    path = tmp_path / f"{name}.yaml"
    if text is None:
        path.write_bytes(b"\xff\xfe\x00bad")
    else:
        path.write_text(text)
    with pytest.raises(FileProblemsError) as info:
        timed(lambda: read_document(path))
    assert str(path) in str(info.value) and expected in str(info.value)


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("deep", "[" * 100_000 + "]" * 100_000, "JSON"),
        ("dup", '{"a": 1, "a": 2}', "duplicate key"),
        ("trailing", '{"a": 1} x', "JSON syntax error"),
        ("empty", "", "JSON syntax error"),
    ],
)
def test_hostile_json_is_a_file_error(name: str, text: str, expected: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.json"
    path.write_text(text)
    with pytest.raises(FileProblemsError) as info:
        timed(lambda: read_document(path))
    assert str(path) in str(info.value) and expected in str(info.value)


def _special(kind: str, tmp_path: Path) -> Path:
    if kind == "fifo":
        return fifo(tmp_path / "x.yaml")
    if kind == "zero":
        return link(tmp_path / "x.yaml", "/dev/zero")
    if kind == "urandom":
        return link(tmp_path / "x.json", "/dev/urandom")
    if kind == "folder":
        (tmp_path / "d.yaml").mkdir()
        return tmp_path / "d.yaml"
    if kind == "big":
        path = tmp_path / "big.yaml"
        path.write_text("# " + "x" * MAX_DOCUMENT_BYTES + "\n")
        return path
    if kind == "missing":
        return tmp_path / "none.yaml"
    raise AssertionError(kind)


SPECIAL = {
    "fifo": "regular file",
    "zero": "regular file",
    "urandom": "regular file",
    "folder": "directory",
    "big": "the limit is",
    "missing": "not found",
}


@pytest.mark.parametrize("kind", sorted(SPECIAL))
def test_special_files_are_refused_without_waiting(kind: str, tmp_path: Path) -> None:
    path = _special(kind, tmp_path)
    with pytest.raises(FileProblemsError) as info:
        timed(lambda: read_document(path))
    assert str(path) in str(info.value) and SPECIAL[kind] in str(info.value)


@pytest.mark.parametrize("kind", ["fifo", "zero", "folder", "big"])
@pytest.mark.parametrize("command", ["validate", "replay", "legal"])
def test_every_command_reads_through_the_bounded_reader(kind: str, command: str, tmp_path: Path) -> None:
    path = _special(kind, tmp_path)
    out = timed(lambda: cli(command, path))
    assert out.code == 2 and str(path) in out.text, out.text


def test_a_link_to_a_regular_file_is_read(tmp_path: Path) -> None:
    target = tmp_path / "real.yaml"
    target.write_text("a: 1\n")
    assert read_document(link(tmp_path / "l.yaml", str(target))) == {"a": 1}


@pytest.mark.parametrize("kind", ["fifo", "zero", "big"])
def test_build_spec_files_are_bounded_too(kind: str, tmp_path: Path) -> None:
    path = _special(kind, tmp_path)
    out = timed(lambda: cli("build", "trench-crusade", "--spec", path, "--out", tmp_path / "o.yaml"))
    assert out.code != 0 and str(path) in out.text, out.text

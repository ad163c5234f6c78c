"""Issue 10 item 13: a key repeated in one mapping of a YAML (or JSON) file is refused with both places."""

from __future__ import annotations

from pathlib import Path

import pytest
from hardcli import TC, cli, warband

from warband.kernel.errors import FileProblemsError, RosterError
from warband.kernel.roster import read_document
from warband.kernel.ruleset import get


def test_yaml_duplicate_key_names_both_lines(tmp_path: Path) -> None:
    doc = tmp_path / "dup.yaml"
    doc.write_text("name: x\nmodels:\n  - type: a\n    movement: 6\n    movement: 60\n")
    with pytest.raises(FileProblemsError) as info:
        read_document(doc)
    text = str(info.value)
    assert str(doc) in text and "duplicate key 'movement'" in text
    assert "first at line 4" in text and "again at line 5" in text


def test_json_duplicate_key_is_refused(tmp_path: Path) -> None:
    doc = tmp_path / "dup.json"
    doc.write_text('{"name": "x", "name": "y"}')
    with pytest.raises(FileProblemsError, match="duplicate key 'name'"):
        read_document(doc)


def test_merge_keys_and_equal_values_in_different_mappings_still_load(tmp_path: Path) -> None:
    doc = tmp_path / "ok.yaml"
    doc.write_text("a: &base {x: 1}\nb:\n  <<: *base\n  y: 2\nc: {x: 1}\n")
    assert read_document(doc) == {"a": {"x": 1}, "b": {"x": 1, "y": 2}, "c": {"x": 1}}


def test_roster_with_a_key_given_twice_is_refused(tmp_path: Path) -> None:
    """A model entry that says its name twice (the second would silently win in plain YAML) is refused."""
    once = "    name: Father Orobas\n"
    text = warband(TC).read_text().replace(once, once + "    name: Orobas\n", 1)
    assert "name: Orobas" in text
    bad = tmp_path / "dup_roster.yaml"
    bad.write_text(text)
    with pytest.raises(RosterError, match="duplicate key 'name'"):
        get(TC).load_roster(bad)
    out = cli("validate", bad)
    assert out.code == 2 and "duplicate key 'name'" in out.text


def test_yaml_bad_timestamp_is_a_file_error(tmp_path: Path) -> None:
    doc = tmp_path / "ts.yaml"
    doc.write_text("when: 2001-13-45\n")
    with pytest.raises(FileProblemsError, match=str(doc)):
        read_document(doc)

"""Issue 10 item 3: absurd but valid-looking warband files are refused at validation with the limit named."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hardcli import TC, TT, cli, warband

from warband.kernel.errors import RosterError
from warband.kernel.ruleset import get


def _write(tmp_path: Path, doc: dict[str, Any]) -> Path:
    path = tmp_path / "absurd.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def _refused(ruleset: str, path: Path) -> dict[str, str]:
    with pytest.raises(RosterError) as info:
        get(ruleset).load_roster(path)
    assert all(p.file == str(path) for p in info.value.problems)
    return {p.place: p.message for p in info.value.problems}


def test_a_force_of_200_models_is_refused_with_the_limit(tmp_path: Path) -> None:
    doc = yaml.safe_load(warband(TT).read_text())
    unit = {**doc["units"][0], "models": 20}
    doc["units"] = [dict(unit) for _ in range(10)]
    problems = _refused(TT, _write(tmp_path, doc))
    assert problems == {"units": "expected at most 100 models in a force, found 200"}


def test_a_6000_mm_base_is_refused_with_the_limit(tmp_path: Path) -> None:
    doc = yaml.safe_load(warband(TT).read_text())
    doc["units"][0]["base_mm"] = 6000
    problems = _refused(TT, _write(tmp_path, doc))
    assert "160" in problems["units[0].base_mm"] and "6000" in problems["units[0].base_mm"]


def test_a_leader_override_is_checked_like_the_profile(tmp_path: Path) -> None:
    doc = yaml.safe_load(warband(TT).read_text())
    doc["units"][0]["leader"] = {"attacks": 1_000_000}
    problems = _refused(TT, _write(tmp_path, doc))
    assert "units[0].leader.attacks" in problems


def test_a_count_of_a_billion_is_refused_at_validation(tmp_path: Path) -> None:
    doc = yaml.safe_load(warband(TC).read_text())
    doc["models"][-1]["count"] = 1_000_000_000
    problems = _refused(TC, _write(tmp_path, doc))
    key = f"models[{len(doc['models']) - 1}].count"
    assert "20" in problems[key] and "1000000000" in problems[key]
    out = cli("validate", _write(tmp_path, doc))
    assert out.code == 2 and "count" in out.text


def test_too_many_models_in_a_warband_is_refused(tmp_path: Path) -> None:
    doc = yaml.safe_load(warband(TC).read_text())
    doc["points_limit"] = 1_000_000
    extra = next(m for m in doc["models"] if "LEADER" not in m.get("keywords", []))
    doc["models"] += [{**extra, "count": 20}, {**extra, "count": 20}]
    problems = _refused(TC, _write(tmp_path, doc))
    assert problems["models"].startswith("expected at most 40 models in a warband")


def test_absurd_dice_are_refused(tmp_path: Path) -> None:
    doc = yaml.safe_load(warband(TC).read_text())
    doc["models"][0]["ranged"] = 1_000_000
    assert "models[0].ranged" in _refused(TC, _write(tmp_path, doc))

"""Issue 10 item 14: warband names in any script (CJK, emoji) give report charts without missing-glyph warnings
or boxes: drawn with a font that has them, or left out of the chart label cleanly."""

from __future__ import annotations

import warnings
from pathlib import Path

import yaml
from hardcli import RANDOM, TC, cli, warband

from warband.lab.fonts import chart_families, drawable
from warband.lab.report import write_report

NAMES = ("鉄の軍団 🔥", "Iron 🦀 Légion")


def _renamed(tmp_path: Path, index: int, name: str) -> Path:
    doc = yaml.safe_load(warband(TC, index).read_text())
    doc["name"] = name
    path = tmp_path / f"w{index}.yaml"
    path.write_text(yaml.safe_dump(doc, allow_unicode=True), encoding="utf-8")
    return path


def test_a_report_of_unicode_warbands_draws_without_glyph_warnings(tmp_path: Path) -> None:
    a, b = (_renamed(tmp_path, i, n) for i, n in enumerate(NAMES))
    db = tmp_path / "u.db"
    assert cli("simulate", TC, "--a", a, "--b", b, *RANDOM, "--games", "3", "--db", db, "--workers", "1").code == 0
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        report = write_report(db, tmp_path / "report")
    assert not [w for w in caught if "Glyph" in str(w.message) or "missing from" in str(w.message)]
    page = report.index.read_text(encoding="utf-8")
    assert NAMES[0] in page and NAMES[1] in page  # the page keeps the names whole


def test_drawable_keeps_what_a_chart_font_has_and_falls_back_otherwise() -> None:
    assert chart_families()[0] == "DejaVu Sans"
    assert drawable("Größe Légion", "x") == "Größe Légion"
    assert drawable("\U000f0000\U000f0001", "warband A") == "warband A"  # private use: no font has it
    kept = drawable(NAMES[1], "warband B")
    assert "Iron" in kept and "Légion" in kept

"""No Python module under ``src/`` runs past 800 lines (issue 27): a file that long holds several of a rulebook's
chapters at once, and the next engineer cannot tell from its name where a rule lives. Split it by rulebook concept
(set-up, the turn, activation, actions, attacks, reactions, morale, scenario, faction rules, evaluation).

Data tables are the one exception, recognised in two ways: anything under a folder named ``data`` (sample files,
faction lists; no Python module lives there today), and the modules named in :data:`DATA_TABLES`, an allow-list of
source files that are tables of numbers or words rather than rules. The allow-list is empty: every module counts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src"
LIMIT = 800
#: Modules (paths relative to ``src/``) that are data tables, not rules; empty today.
DATA_TABLES: frozenset[str] = frozenset()


def too_long(root: Path, limit: int = LIMIT, tables: frozenset[str] = DATA_TABLES) -> list[str]:
    """``path: N lines`` for every ``.py`` file under ``root`` longer than ``limit`` lines, data tables aside."""
    out = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if "data" in path.relative_to(root).parts[:-1] or rel in tables:
            continue
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > limit:
            out.append(f"{rel}: {n} lines")
    return out


def test_no_module_over_the_limit() -> None:
    assert SRC.is_dir()
    assert too_long(SRC) == [], f"split these modules by rulebook concept (at most {LIMIT} lines each)"


def test_allow_list_names_real_files() -> None:
    assert all((SRC / rel).is_file() for rel in DATA_TABLES)


@pytest.mark.parametrize(
    ("rel", "lines", "found"),
    [
        ("pkg/rules.py", LIMIT + 1, True),
        ("pkg/rules.py", LIMIT, False),
        ("pkg/data/table.py", LIMIT + 50, False),
    ],
)
def test_the_check_can_fail(tmp_path: Path, rel: str, lines: int, found: bool) -> None:
    path = tmp_path / rel
    path.parent.mkdir(parents=True)
    path.write_text("x = 1\n" * lines, encoding="utf-8")
    assert bool(too_long(tmp_path)) is found


def test_allow_listed_table_is_exempt(tmp_path: Path) -> None:
    (tmp_path / "odds_table.py").write_text("x = 1\n" * (LIMIT + 1), encoding="utf-8")
    assert too_long(tmp_path, tables=frozenset({"odds_table.py"})) == []
    assert too_long(tmp_path) == ["odds_table.py: 801 lines"]

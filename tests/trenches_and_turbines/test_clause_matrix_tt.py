"""The clause matrix names real tests and real code: every ``tests/...py::name`` in docs/rules/trenches-and-turbines.md
exists, every sentence row names at least one test, and every ``module.name`` of the ruleset's code it names is
defined there."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CODE = ROOT / "src" / "warband" / "rulesets" / "trenches_and_turbines"
MATRIX = ROOT / "docs" / "rules" / "trenches-and-turbines.md"


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def test_every_named_test_exists() -> None:
    refs = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", MATRIX.read_text())
    assert len(refs) > 60
    missing = [f"{f}::{t}" for f, t in refs if t not in _tests_in(ROOT / f)]
    assert missing == []


def test_every_sentence_row_has_a_test() -> None:
    rows = [line for line in MATRIX.read_text().splitlines() if re.match(r"\| \d", line)]
    assert len(rows) >= 60
    assert [r for r in rows if "tests/" not in r] == []


def _defined(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    out: dict[str, ast.stmt] = {}
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            out[n.name] = n
        elif isinstance(n, ast.Assign):
            out.update((t.id, n) for t in n.targets if isinstance(t, ast.Name))
        elif isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name):
            out[n.target.id] = n
    return out


def _resolves(module: str, names: list[str]) -> bool:
    """Whether ``module.names[0].names[1]...`` is a top-level definition of the ruleset's module (and a member of
    it, for a class)."""
    scope = _defined(ast.parse((CODE / f"{module}.py").read_text()).body)
    for name in names:
        node = scope.get(name)
        if node is None:
            return False
        scope = _defined(node.body) if isinstance(node, ast.ClassDef) else {}
    return True


def test_every_named_piece_of_code_exists() -> None:
    refs = re.findall(r"`(\w+)((?:\.\w+)+)`", MATRIX.read_text())
    files = (".py", ".toml", ".yaml", ".md")
    code = [(m, rest.split(".")[1:]) for m, rest in refs if (CODE / f"{m}.py").is_file() and rest not in files]
    assert len(code) > 100
    missing = [".".join([m, *names]) for m, names in code if not _resolves(m, names)]
    assert missing == []

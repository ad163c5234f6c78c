"""The example's clause matrix names real tests and real code: every ``tests/...py::name`` in docs/rules/example.md
exists, every rule sentence has a row, every row names a test or says it is pending, and every ``module.name`` it
names (of the example or of the kernel) is defined there. A copy of the example keeps this test beside its own
matrix."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MATRIX = ROOT / "docs" / "rules" / "example.md"
CODE = (ROOT / "src" / "warband" / "rulesets" / "example", ROOT / "src" / "warband" / "kernel")


def _tests_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and n.name.startswith("test_")}


def _rows() -> list[str]:
    return [line for line in MATRIX.read_text(encoding="utf-8").splitlines() if re.match(r"\| \d+ \|", line)]


def test_every_named_test_exists() -> None:
    refs = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", MATRIX.read_text(encoding="utf-8"))
    assert len(refs) > 20
    assert [f"{f}::{t}" for f, t in refs if t not in _tests_in(ROOT / f)] == []


def test_rows_are_numbered_one_to_twenty_three() -> None:
    assert [int(r.split("|")[1]) for r in _rows()] == list(range(1, 24))


def test_every_row_names_a_test_or_says_pending() -> None:
    last_cells = [r.rstrip(" |").rsplit("|", 1)[-1] for r in _rows()]
    assert [c for c in last_cells if "tests/" not in c and "pending" not in c] == []


def test_every_rule_the_code_cites_has_a_section() -> None:
    package = ROOT / "src/warband/rulesets/example"
    source = "\n".join(p.read_text(encoding="utf-8") for p in [*package.rglob("*.py"), package / "params.toml"])
    cited = {int(n) for n in re.findall(r"\b[Rr]ules? (\d+)", source)}
    cited |= {int(n) for n in re.findall(r"\b[Rr]ules \d+ and (\d+)", source)}
    sections = {int(n) for n in re.findall(r"^## Rule (\d+):", MATRIX.read_text(encoding="utf-8"), re.MULTILINE)}
    assert cited <= sections
    assert sections == set(range(1, 12))


def _defined(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    out: dict[str, ast.stmt] = {}
    for n in body:
        if isinstance(n, ast.FunctionDef | ast.ClassDef):
            out[n.name] = n
        elif isinstance(n, ast.Assign):
            out.update((t.id, n) for t in n.targets if isinstance(t, ast.Name))
    return out


def _resolves(path: Path, names: list[str]) -> bool:
    """Whether ``names[0].names[1]...`` is a top-level definition of the module at ``path`` (a member of it, for a
    class)."""
    scope = _defined(ast.parse(path.read_text(encoding="utf-8")).body)
    for name in names:
        node = scope.get(name)
        if node is None:
            return False
        scope = _defined(node.body) if isinstance(node, ast.ClassDef) else {}
    return True


def test_every_named_piece_of_code_exists() -> None:
    """A ``module.name`` is the example's module when it has one of that name, else the kernel's."""
    refs = re.findall(r"`(\w+)((?:\.\w+)+)`", MATRIX.read_text(encoding="utf-8"))
    files = (".py", ".toml", ".yaml", ".md")
    code = []
    for module, rest in refs:
        path = next((f / f"{module}.py" for f in CODE if (f / f"{module}.py").is_file()), None)
        if path is not None and rest not in files:
            code.append((path, rest.split(".")[1:]))
    assert len(code) > 25
    assert [f"{path.stem}.{'.'.join(names)}" for path, names in code if not _resolves(path, names)] == []

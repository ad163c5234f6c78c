"""The arrows of DESIGN.md, checked on the source: a ruleset never imports a face, the lab, the web table or the
agents; the kernel never imports a ruleset; and no modules of ``warband`` import each other, directly or round a
loop.

The graph is built with ``ast`` from every module under ``src/warband`` (relative imports resolved; imports
inside functions count; imports under ``if TYPE_CHECKING:`` do not count for the arrows, since they never run,
but do count for loops: two modules that need each other's types are one module, or need a third). ``from p import m``
is an edge to the module ``p.m`` when there is one, else to ``p``.
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
from pathlib import Path

import pytest

import warband
from warband.kernel import ruleset as registry

ROOT = Path(warband.__file__).parent
FORBIDDEN_FOR_RULESETS = ("warband.cli", "warband.lab", "warband.web", "warband.agents", "warband.odds")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(ROOT.rglob("*.py"))}


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _nodes(tree: ast.AST, typing_too: bool = False) -> list[ast.Import | ast.ImportFrom]:
    found: list[ast.Import | ast.ImportFrom] = []
    todo: list[ast.AST] = [tree]
    while todo:
        node = todo.pop()
        if not typing_too and isinstance(node, ast.If) and _is_type_checking(node):
            todo.extend(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def _base(module: str, node: ast.ImportFrom) -> str:
    if node.level == 0:
        return node.module or ""
    package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def imports_of(module: str, typing_too: bool = False) -> set[str]:
    """The ``warband`` modules that ``module`` imports (with ``typing_too``, also those it imports only for
    type checking)."""
    tree = ast.parse(MODULES[module].read_text(), str(MODULES[module]))
    out: set[str] = set()
    for node in _nodes(tree, typing_too):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
            continue
        base = _base(module, node)
        for alias in node.names:
            sub = f"{base}.{alias.name}"
            out.add(sub if sub in MODULES else base)
    return {m for m in out if m in MODULES and m != module}


GRAPH = {m: imports_of(m) for m in MODULES}
TYPED_GRAPH = {m: imports_of(m, typing_too=True) for m in MODULES}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import loop as ``[a, b, ..., a]``, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            found = visit(start)
            if found:
                return found
    return None


def test_every_module_imports() -> None:
    """Every module of ``warband`` imports, except those of a ruleset plug-in the registry reports broken."""
    broken = {name.replace("-", "_") for name in registry.broken()}
    failed = []
    for info in pkgutil.walk_packages(warband.__path__, "warband."):
        if any(info.name.startswith(f"warband.rulesets.{b}") for b in broken) or info.name.endswith("__main__"):
            continue
        try:
            importlib.import_module(info.name)
        except ImportError as exc:
            failed.append(f"{info.name}: {exc}")
    assert not failed, "\n".join(failed)


def test_the_graph_reads_imports() -> None:
    assert (
        "warband.kernel.engine" in GRAPH["warband.kernel.ruleset"]
        or "warband.kernel.steps" in GRAPH["warband.kernel.ruleset"]
    )
    assert "warband.agents.play" in GRAPH["warband.lab.simulate"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert "warband.lab.store" in TYPED_GRAPH["warband.lab.simulate"]  # under TYPE_CHECKING only
    assert "warband.lab.store" not in GRAPH["warband.lab.simulate"]


@pytest.mark.parametrize("module", sorted(m for m in MODULES if m.startswith("warband.rulesets")))
def test_a_ruleset_imports_no_face_lab_or_agent(module: str) -> None:
    bad = sorted(m for m in GRAPH[module] if m.startswith(FORBIDDEN_FOR_RULESETS))
    assert not bad, f"{module} imports {bad}"


def test_the_kernel_imports_no_ruleset() -> None:
    bad = {m: sorted(i for i in GRAPH[m] if i.startswith("warband.rulesets")) for m in GRAPH}
    bad = {m: i for m, i in bad.items() if i and m.startswith("warband.kernel")}
    assert not bad, bad


def test_no_import_cycle() -> None:
    """No loop, counting the imports made only for type checking too."""
    cycle = find_cycle(TYPED_GRAPH)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])

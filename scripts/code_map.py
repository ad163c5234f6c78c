"""Write the module map of ``docs/architecture.md``: every module of ``src/warband`` with its docstring's first
sentence, folder by folder, between the markers ``<!-- code-map:start -->`` and ``<!-- code-map:end -->``.

    python scripts/code_map.py          # rewrite the section
    python scripts/code_map.py --check  # exit 1 when the section is out of date (tests/faces/test_code_map.py)

The map is how an engineer finds where a rule lives from the file names alone (issue 27).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SRC = ROOT / "src" / "warband"
DOC = ROOT / "docs" / "architecture.md"
START, END = "<!-- code-map:start -->", "<!-- code-map:end -->"


def summary(path: Path) -> str:
    """The first sentence of a module's docstring, on one line."""
    doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8"))) or ""
    text = " ".join(doc.split())
    match = re.match(r"(.+?[.:;])(\s|$)", text)
    first = match.group(1) if match else text
    return first.rstrip(":;").replace("|", "\\|")


def section() -> str:
    lines = [START, ""]
    folders = sorted({p.parent for p in SRC.rglob("*.py")}, key=lambda p: p.relative_to(SRC).parts)
    for folder in folders:
        rel = folder.relative_to(SRC.parent).as_posix()
        lines += [f"### `{rel}/`", "", "| module | what it holds |", "|---|---|"]
        for path in sorted(folder.glob("*.py")):
            lines.append(f"| `{path.name}` | {summary(path)} |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def rewritten(text: str) -> str:
    if START not in text:
        return text.rstrip() + "\n\n## Every module\n\n" + section() + "\n"
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    return head + section() + tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    text = DOC.read_text(encoding="utf-8")
    new = rewritten(text)
    if args.check:
        if new != text:
            print(f"{DOC.relative_to(ROOT)}: the module map is out of date; run python scripts/code_map.py")
            return 1
        return 0
    DOC.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

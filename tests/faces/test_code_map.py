"""docs/architecture.md lists every module of src/warband with what it holds (issue 27: an engineer finds where a
rule lives from the file names alone); ``scripts/code_map.py`` writes the list, this test keeps it current."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_is_in_the_map() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "code_map.py"), "--check"], capture_output=True, text=True
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_every_module_says_what_it_holds() -> None:
    missing = [
        str(p.relative_to(ROOT))
        for p in (ROOT / "src" / "warband").rglob("*.py")
        if not p.read_text(encoding="utf-8").lstrip().startswith(('"""', 'r"""'))
    ]
    assert not missing, f"modules without a docstring (the code map cannot say what they hold): {missing}"

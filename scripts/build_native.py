"""Build the compiled fast paths in place (``make install`` runs this): ``python scripts/build_native.py``.

Every extension of :data:`warband.kernel.native.EXTENSIONS` is cythonized and compiled next to its ``.pyx``
(the ``.c`` and ``.so`` files are git-ignored), stamped with the sha256 of its source so that a stale build is
refused at import. CPython's float semantics are kept: the platform's default optimisation, no -ffast-math, no
-march=native, and -ffp-contract=off (no fused multiply-add). Without Cython or a C compiler it prints one notice
and exits 0: the pure-Python reference runs (``--strict``: exit 1 instead).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from warband.kernel.native import EXTENSIONS, source_sha  # noqa: E402

FLAGS = ["-ffp-contract=off", "-fno-fast-math", "-Wno-unreachable-code"]


def build(strict: bool) -> int:
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
        from setuptools.command.build_ext import build_ext
    except ImportError as exc:
        print(f"warband: compiled fast paths not built ({exc}); the pure-Python reference runs")
        return 1 if strict else 0
    extensions = []
    for name in EXTENSIONS:
        pyx = ROOT / "src" / (name.replace(".", "/") + ".pyx")
        sha = source_sha(pyx)
        extensions.append(
            Extension(
                name,
                [str(pyx.relative_to(ROOT))],
                extra_compile_args=[*FLAGS, f'-DWARBAND_SRC_SHA="{sha}"'],
            )
        )
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        modules = cythonize(extensions, quiet=True, language_level=3, include_path=["src"])
        dist = Distribution({"ext_modules": modules, "package_dir": {"": "src"}})
        cmd = build_ext(dist)
        cmd.parallel = os.cpu_count() or 1
        with tempfile.TemporaryDirectory() as tmp:
            cmd.build_temp = str(Path(tmp) / "temp")
            cmd.build_lib = str(Path(tmp) / "lib")
            cmd.ensure_finalized()
            cmd.run()
            for ext in modules:
                # a new file renamed over the old one: a process that has the old build loaded keeps its copy
                name = cmd.get_ext_filename(ext.name)
                os.replace(Path(cmd.build_lib) / name, ROOT / "src" / name)
    except Exception as exc:  # a missing compiler or headers: the reference still runs
        print(f"warband: compiled fast paths not built ({type(exc).__name__}: {exc}); the pure-Python reference runs")
        return 1 if strict else 0
    finally:
        os.chdir(cwd)
    print(f"warband: built {len(extensions)} compiled fast path(s) in place ({', '.join(EXTENSIONS)})")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strict", action="store_true", help="exit 1 when the build fails")
    return build(parser.parse_args().strict)


if __name__ == "__main__":
    sys.exit(main())

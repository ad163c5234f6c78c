"""Checks that an output path can be written, made before a game or a run starts rather than after it.

A log, a log folder, a report folder or a position file that cannot be written must be found while nothing has
been played yet: :func:`check_output_file` and :func:`check_output_dir` raise :class:`OutputError` naming the
option and the path, and create nothing the caller would not create anyway (a probe file is removed again).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from warband.kernel.errors import WarbandError

__all__ = ["OutputError", "check_output_dir", "check_output_file"]


class OutputError(WarbandError):
    """An output file or folder that cannot be written (a folder where a file is wanted, no permission, ...)."""


def _reason(exc: OSError) -> str:
    return exc.strerror or type(exc).__name__


def check_output_dir(path: Path, flag: str) -> None:
    """Make sure ``path`` is (or can be made) a folder this process can write files in."""
    if path.exists() and not path.is_dir():
        raise OutputError(f"{flag} {path}: exists and is not a folder")
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".warband-probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OutputError(f"{flag} {path}: cannot write in this folder ({_reason(exc)})") from None


def check_output_file(path: Path, flag: str) -> None:
    """Make sure ``path`` names a file (not a folder) that this process can create or replace."""
    if path.is_dir():
        raise OutputError(f"{flag} {path}: is a folder; expected a file name")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{flag} {path}: the file is read-only")
    check_output_dir(path.parent, flag)

"""Files in and out: the one bounded reader and the one safe writer every command and the web go through, and
the early checks of output paths.

* :func:`read_text_bounded` reads a regular file only (a FIFO or a link to a device is refused without
  waiting), at most a size limit, as UTF-8 (issue 24).
* :func:`write_atomic` writes only to a new path or a regular file (never a device, a pipe, a folder or through
  a symbolic link), via a temporary file beside it, fsync and a rename (issue 24).
* :func:`check_output_file` and :func:`check_output_dir` find, before a game or a run starts, an output that
  cannot be written, raising :class:`OutputError` naming the option and the path; they create nothing the
  caller would not create anyway (a probe file is removed again).
"""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

from warband.kernel.errors import WarbandError

__all__ = [
    "MAX_DOCUMENT_BYTES",
    "MAX_LOG_BYTES",
    "InputError",
    "OutputError",
    "check_output_dir",
    "check_output_file",
    "read_text_bounded",
    "write_atomic",
]


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


def _refuse_non_regular(path: Path, label: str) -> None:
    """Refuse a path that exists and is not a regular file, or is a symbolic link (written through, a link
    would put the output wherever it points; renamed over, the link would be lost)."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise OutputError(f"{label}: cannot check the path ({_reason(exc)})") from None
    if stat.S_ISDIR(info.st_mode):
        raise OutputError(f"{label}: is a folder; expected a file name")
    if stat.S_ISLNK(info.st_mode):
        raise OutputError(f"{label}: is a symbolic link; name the file itself (nothing is written through a link)")
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"{label}: exists and is not a regular file (a device, a pipe or a socket); not replaced")


def check_output_file(path: Path, flag: str) -> None:
    """Make sure ``path`` names a new file or a regular file (not a folder, a device, a pipe or a symbolic
    link) that this process can create or replace."""
    _refuse_non_regular(path, f"{flag} {path}")
    if path.exists() and not os.access(path, os.W_OK):
        raise OutputError(f"{flag} {path}: the file is read-only")
    check_output_dir(path.parent, flag)


def write_atomic(path: str | Path, data: str | bytes, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` safely: only a new path or an existing regular file (never a folder, a
    device such as ``/dev/full``, a pipe or a symbolic link) is written; the bytes go to a temporary file
    beside the target, are flushed to disk (fsync), then renamed over it, so a reader never sees half a file
    and a full disk leaves the old file whole. ``mode`` sets the new file's permissions (default 0644, or
    the old file's). Raises :class:`OutputError` naming the path and the reason."""
    target = Path(path)
    _refuse_non_regular(target, str(target))
    raw = data.encode("utf-8") if isinstance(data, str) else data
    try:
        old_mode = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        old_mode = 0o644
    tmp = ""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent)
        with os.fdopen(fd, "wb") as fh:
            fh.write(raw)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, old_mode if mode is None else mode)
        _refuse_non_regular(target, str(target))  # still nothing but a regular file or nothing there
        os.replace(tmp, target)
        tmp = ""
    except OSError as exc:
        raise OutputError(f"{target}: cannot write the file ({_reason(exc)})") from None
    finally:
        if tmp:
            Path(tmp).unlink(missing_ok=True)
    _sync_folder(target.parent)


def _sync_folder(folder: Path) -> None:
    """Flush the folder entry of a rename to disk (best effort: some file systems cannot open a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


#: The largest warband, scenario, position or spec file read, in bytes (the biggest bundled file is ~180 kB).
MAX_DOCUMENT_BYTES = 4_000_000
#: The largest game log read, in bytes (a long game's log is a few hundred kB).
MAX_LOG_BYTES = 64_000_000


class InputError(WarbandError):
    """An input file that is not read: not a regular file (a FIFO, a device), too big, unreadable."""


def read_text_bounded(path: str | Path, limit: int = MAX_DOCUMENT_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``limit`` bytes.

    The file is opened without blocking (a FIFO named ``x.yaml`` does not wait for a writer), checked to be a
    regular file after symlinks are followed (a link to ``/dev/zero`` is refused), and read up to ``limit + 1``
    bytes, so no input can make the reader wait or fill memory. Raises :class:`InputError` with the reason in a
    reader's words (the caller adds the file's name); ``FileNotFoundError``/``IsADirectoryError`` are turned
    into the same error.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError("file not found") from None
    except IsADirectoryError:
        raise InputError("expected a file, found a directory") from None
    except OSError as exc:
        raise InputError(f"cannot read the file ({_reason(exc)})") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputError("expected a file, found a directory")
        if not stat.S_ISREG(info.st_mode):
            raise InputError("expected a regular file, found a device, a pipe or a socket")
        if info.st_size > limit:
            raise InputError(f"the file has {info.st_size} bytes; the limit is {limit}")
        chunks: list[bytes] = []
        total = 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:
            raise InputError(f"the file has more than {limit} bytes; the limit is {limit}")
    except OSError as exc:
        raise InputError(f"cannot read the file ({_reason(exc)})") from None
    finally:
        os.close(fd)
    try:
        return b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"expected UTF-8 text, found undecodable bytes ({exc.reason})") from None

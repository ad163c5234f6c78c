"""Game-agnostic helpers for reading data files (warband rosters, scenarios, armouries).

Two jobs live here:

* :func:`read_document` turns a YAML or JSON file into plain Python data, and turns a missing file or a
  syntax error into a :class:`~warband.kernel.errors.FileProblemsError` that names the file and the line.
* :func:`problems_from_validation` turns a :class:`pydantic.ValidationError` into a list of
  :class:`~warband.kernel.errors.Problem`, one per error, with places written the way a user reads the file
  (``models[3].weapons[0]``) and messages of the form "expected ..., found ...".
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pydantic
import yaml

from warband.kernel.errors import FileProblemsError, Problem

__all__ = ["describe_value", "format_place", "problems_from_validation", "read_document"]

YAML_SUFFIXES = frozenset({".yaml", ".yml"})
JSON_SUFFIXES = frozenset({".json"})

_MAX_SHOWN = 60


def format_place(loc: Iterable[str | int]) -> str:
    """``("models", 3, "weapons", 0)`` -> ``models[3].weapons[0]``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif out:
            out += f".{part}"
        else:
            out = str(part)
    return out


def describe_value(value: Any) -> str:
    """A short, quoted rendering of an offending input for an error message."""
    text = repr(value)
    if len(text) > _MAX_SHOWN:
        text = text[: _MAX_SHOWN - 3] + "..."
    return text


def read_document(path: str | Path, error_cls: type[FileProblemsError] = FileProblemsError) -> Any:
    """Load a YAML (``.yaml``/``.yml``) or JSON (``.json``) file into plain data.

    Raises ``error_cls`` (a ``ValueError``) with a single :class:`Problem` when the file is missing, has an
    unsupported extension, or has a syntax error; the place of a syntax error is ``line L, column C``.
    """
    p = Path(path)
    file = str(path)
    suffix = p.suffix.lower()
    if suffix not in YAML_SUFFIXES | JSON_SUFFIXES:
        raise error_cls(
            [Problem(file, "", f"expected a .yaml, .yml or .json file, found extension {suffix or '(none)'!r}")]
        )
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error_cls([Problem(file, "", "file not found")]) from None
    except IsADirectoryError:
        raise error_cls([Problem(file, "", "expected a file, found a directory")]) from None
    except UnicodeDecodeError as exc:
        raise error_cls([Problem(file, "", f"expected UTF-8 text, found undecodable bytes ({exc.reason})")]) from None
    if suffix in JSON_SUFFIXES:
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            place = f"line {exc.lineno}, column {exc.colno}"
            raise error_cls([Problem(file, place, f"JSON syntax error: {exc.msg}")]) from None
    try:
        return yaml.safe_load(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        what = " ".join(x for x in (exc.context, exc.problem) if x)
        raise error_cls([Problem(file, place, f"YAML syntax error: {what or 'malformed document'}")]) from None
    except yaml.YAMLError as exc:
        raise error_cls([Problem(file, "", f"YAML error: {exc}")]) from None


def _clean_loc(loc: Sequence[str | int]) -> list[str | int]:
    """Drop pydantic's internal markers (union member tags like ``function-after[...]``) from a loc."""
    return [p for p in loc if isinstance(p, int) or not any(c in p for c in "[]()")]


def _message(err: Any) -> str:
    kind = err.get("type", "")
    msg = str(err.get("msg", "invalid value"))
    has_input = "input" in err
    value = err.get("input")
    if kind == "missing":
        return "expected this required field, found it missing"
    if kind in ("union_tag_invalid", "union_tag_not_found"):
        ctx = err.get("ctx") or {}
        field = str(ctx.get("discriminator", "'kind'")).strip("'")
        tags = str(ctx.get("expected_tags", "")).replace("'", "")
        if "tag" not in ctx:
            return f"expected a {field!r} field, found none"
        return f"expected a {field} (one of: {tags}), found {ctx['tag']!r}"
    if kind == "extra_forbidden":
        loc = err.get("loc") or ("?",)
        field = str(loc[-1])
        return f"expected only known fields, found unknown field {field!r} (value {describe_value(value)})"
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, ") :]
        # Our own validators already write "expected ..., found ...".
        if "found" in msg:
            return msg
    if msg.startswith("Input should be "):
        msg = msg[len("Input should be ") :]
    elif msg.startswith("Assertion failed, "):
        msg = msg[len("Assertion failed, ") :]
    found = describe_value(value) if has_input else "nothing"
    return f"expected {msg[:1].lower()}{msg[1:]}, found {found}"


def problems_from_validation(file: str, exc: pydantic.ValidationError) -> list[Problem]:
    """One :class:`Problem` per pydantic error, with a readable place and the offending input."""
    problems: list[Problem] = []
    for err in exc.errors(include_url=False):
        place = format_place(_clean_loc(err["loc"]))
        problems.append(Problem(file, place, _message(err)))
    return problems

"""Game-agnostic helpers for reading data files (warband rosters, scenarios, armouries).

Two jobs live here:

* :func:`read_document` turns a YAML or JSON file into plain Python data, and turns a missing file or a
  syntax error into a :class:`~warband.kernel.errors.FileProblemsError` that names the file and the line.
* :func:`problems_from_validation` turns a :class:`pydantic.ValidationError` into a list of
  :class:`~warband.kernel.errors.Problem`, one per error, with places written the way a user reads the file
  (``models[3].weapons[0]``) and messages of the form "expected ..., found ...".

:func:`load_validated` does both, then a ruleset's own checks, for a file in a pydantic format.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import pydantic
import yaml

from warband.kernel.errors import FileProblemsError, Problem
from warband.kernel.files import InputError, read_text_bounded

__all__ = [
    "DocumentEntry",
    "FrozenEntry",
    "describe_value",
    "format_place",
    "load_validated",
    "problems_from_validation",
    "read_document",
]

D = TypeVar("D", bound=pydantic.BaseModel)

YAML_SUFFIXES = frozenset({".yaml", ".yml"})
JSON_SUFFIXES = frozenset({".json"})

_MAX_SHOWN = 60


class DocumentEntry(pydantic.BaseModel):
    """The base of a data file's entries (a warband, a model, a weapon): a key the format does not know is a
    mistake, refused with its place, never ignored."""

    model_config = pydantic.ConfigDict(extra="forbid")


class FrozenEntry(DocumentEntry):
    """A :class:`DocumentEntry` whose values never change once read (hashable, safe to share and cache)."""

    model_config = pydantic.ConfigDict(extra="forbid", frozen=True)


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


class DuplicateKeyError(yaml.MarkedYAMLError):
    """A mapping that names the same key twice (YAML would silently keep the last value)."""


_SafeLoader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed


class _StrictLoader(_SafeLoader):  # type: ignore[valid-type, misc]
    """PyYAML's safe loader (libyaml's when installed), refusing a key repeated in one mapping (``movement: 6``
    then ``movement: 60``)."""

    deadline = float("inf")
    _built = 0

    def construct_object(self, node: yaml.Node, deep: bool = False) -> Any:
        self._built += 1
        if self._built % 4096 == 0 and time.monotonic() > self.deadline:
            raise DocumentTooBigError(f"YAML error: the document took more than {MAX_YAML_SECONDS:g} s to read")
        return super().construct_object(node, deep=deep)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        first: dict[tuple[str, str], yaml.Mark] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag == "tag:yaml.org,2002:merge":
                continue
            ident = (key_node.tag, key_node.value)
            if ident in first:
                was = first[ident]
                raise DuplicateKeyError(
                    problem=f"duplicate key {key_node.value!r} (first at line {was.line + 1}, column "
                    f"{was.column + 1}; again at line {key_node.start_mark.line + 1}, column "
                    f"{key_node.start_mark.column + 1})",
                    problem_mark=key_node.start_mark,
                )
            first[ident] = key_node.start_mark
        mapping: dict[Any, Any] = super().construct_mapping(node, deep=deep)
        return mapping


class DocumentTooBigError(yaml.YAMLError):
    """A YAML document whose anchors and aliases expand to more nodes than any warband file has (a "billion
    laughs" file), one nested too deeply, or one that takes too long to build."""

    def __init__(self, message: str, place: str = "") -> None:
        super().__init__(message)
        self.place = place


#: The most nodes a YAML document may have once every alias is expanded (the biggest bundled file has ~40,000).
MAX_YAML_NODES = 400_000
#: The deepest nesting of mappings and sequences.
MAX_YAML_DEPTH = 64
#: The longest a YAML document may take to build, in seconds.
MAX_YAML_SECONDS = 5.0


def _children(node: yaml.Node) -> list[yaml.Node]:
    if isinstance(node, yaml.MappingNode):
        return [part for pair in node.value for part in pair]
    if isinstance(node, yaml.SequenceNode):
        return list(node.value)
    return []


#: A text value counts as one more node for every this many characters (see :func:`_check_expansion`).
CHARS_PER_NODE = 100


def _weight(node: yaml.Node) -> int:
    if isinstance(node, yaml.ScalarNode):
        return 1 + len(str(node.value)) // CHARS_PER_NODE
    return 1


def _check_expansion(root: yaml.Node) -> None:
    """Count the nodes of ``root`` as if every alias were copied out, in time linear in the nodes written (each
    node's expanded size is computed once); refuse a recursive alias, a nesting deeper than
    :data:`MAX_YAML_DEPTH` or more than :data:`MAX_YAML_NODES` nodes, naming the line where it happens. A long
    text counts as one node per :data:`CHARS_PER_NODE` characters, so one big string aliased many times is
    bounded too."""
    sizes: dict[int, int] = {}
    open_nodes: set[int] = set()
    stack: list[tuple[yaml.Node, int, bool]] = [(root, 0, False)]
    while stack:
        node, depth, children_done = stack.pop()
        key = id(node)
        place = f"line {node.start_mark.line + 1}, column {node.start_mark.column + 1}"
        if children_done:
            open_nodes.discard(key)
            total = _weight(node) + sum(sizes[id(c)] for c in _children(node))
            if total > MAX_YAML_NODES:
                raise DocumentTooBigError(
                    f"YAML error: the document holds more than {MAX_YAML_NODES} values when its anchors and "
                    "aliases expand (no warband file is this big); write the values out",
                    place,
                )
            sizes[key] = total
            continue
        if key in sizes:
            continue
        if key in open_nodes:
            raise DocumentTooBigError("YAML error: an alias refers to a value that contains it", place)
        if depth > MAX_YAML_DEPTH:
            raise DocumentTooBigError(f"YAML error: nested more than {MAX_YAML_DEPTH} levels deep", place)
        open_nodes.add(key)
        stack.append((node, depth, True))
        stack.extend((child, depth + 1, False) for child in _children(node))


def _load_yaml_bounded(text: str) -> Any:
    """Parse ``text`` with :class:`_StrictLoader`, refusing alias bombs before anything is built and stopping
    a build that runs past :data:`MAX_YAML_SECONDS`."""
    loader = _StrictLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _check_expansion(node)
        loader.deadline = time.monotonic() + MAX_YAML_SECONDS
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``json.loads`` hook: a JSON object that names a key twice is refused (JSON keeps the last silently)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"duplicate key {key!r} in one object (the second would silently replace the first)")
        out[key] = value
    return out


def _parse_json(text: str, file: str, error_cls: type[FileProblemsError]) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_unique_pairs)
    except json.JSONDecodeError as exc:
        place = f"line {exc.lineno}, column {exc.colno}"
        raise error_cls([Problem(file, place, f"JSON syntax error: {exc.msg}")]) from None
    except (ValueError, RecursionError) as exc:
        raise error_cls([Problem(file, "", f"JSON error: {_first_line(exc)}")]) from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _parse_yaml(text: str, file: str, error_cls: type[FileProblemsError]) -> Any:
    try:
        return _load_yaml_bounded(text)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        place = f"line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        what = " ".join(x for x in (exc.context, exc.problem) if x)
        kind = "YAML error" if isinstance(exc, DuplicateKeyError) else "YAML syntax error"
        raise error_cls([Problem(file, place, f"{kind}: {what or 'malformed document'}")]) from None
    except DocumentTooBigError as exc:
        raise error_cls([Problem(file, exc.place, str(exc))]) from None
    except yaml.YAMLError as exc:
        raise error_cls([Problem(file, "", f"YAML error: {_first_line(exc)}")]) from None
    except (ValueError, TypeError, RecursionError) as exc:  # a bad timestamp, a too deeply nested document
        raise error_cls([Problem(file, "", f"YAML error: {_first_line(exc)}")]) from None


def read_document(path: str | Path, error_cls: type[FileProblemsError] = FileProblemsError) -> Any:
    """Load a YAML (``.yaml``/``.yml``) or JSON (``.json``) file into plain data.

    Raises ``error_cls`` (a ``ValueError``) with a single :class:`Problem` when the file is missing or
    unreadable, has an unsupported extension, has a syntax error, or names a key twice in one mapping (YAML:
    both places are given); the place of a syntax error is ``line L, column C``.
    """
    p = Path(path)
    file = str(path)
    suffix = p.suffix.lower()
    if suffix not in YAML_SUFFIXES | JSON_SUFFIXES:
        raise error_cls(
            [Problem(file, "", f"expected a .yaml, .yml or .json file, found extension {suffix or '(none)'!r}")]
        )
    try:
        text = read_text_bounded(p)
    except InputError as exc:
        raise error_cls([Problem(file, "", str(exc))]) from None
    if suffix in JSON_SUFFIXES:
        return _parse_json(text, file, error_cls)
    return _parse_yaml(text, file, error_cls)


def read_mapping(path: str | Path, error_cls: type[FileProblemsError] = FileProblemsError) -> dict[str, Any]:
    """:func:`read_document` for a file whose top level must be a mapping (a warband, a scenario): anything else
    is refused with what was found there."""
    raw = read_document(path, error_cls)
    if not isinstance(raw, dict):
        raise error_cls([Problem(str(path), "", f"expected a mapping at the top level, found {describe_value(raw)}")])
    return raw


def require_unique(names: Iterable[str], what: str = "item names") -> None:
    """Refuse a list (of a data file's items) that names something twice, naming every name that repeats: a
    ``ValueError`` that a pydantic validator reports at the list's place."""
    seen = list(names)
    dupes = sorted({n for n in seen if seen.count(n) > 1})
    if dupes:
        raise ValueError(f"expected unique {what}, found duplicates {dupes}")


def unknown_entries(
    file: str, place: str, values: Sequence[Any], known: Collection[Any], expected: str
) -> list[Problem]:
    """A problem for each entry of the list at ``place`` (``units[0].keywords``) that is not ``known``, placed at
    its index (``units[0].keywords[2]``): ``expected <expected>, found <the value>``."""
    return [
        Problem(file, f"{place}[{j}]", f"expected {expected}, found {describe_value(v)}")
        for j, v in enumerate(values)
        if v not in known
    ]


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


def load_validated(
    path: str | Path,
    model: type[D],
    error_cls: type[FileProblemsError] = FileProblemsError,
    check: Callable[[str, D], list[Problem]] | None = None,
) -> D:
    """Read a YAML or JSON file, validate it against the pydantic ``model``, then against ``check`` (a ruleset's
    own rules for the file, given the file name and the validated document); raise ``error_cls`` listing every
    problem of the first stage that finds any (file, place inside it, message)."""
    file = str(path)
    raw = read_document(path, error_cls)
    try:
        doc = model.model_validate(raw)
    except pydantic.ValidationError as exc:
        raise error_cls(problems_from_validation(file, exc)) from None
    problems = check(file, doc) if check is not None else []
    if problems:
        raise error_cls(problems)
    return doc

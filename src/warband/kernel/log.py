"""Game logs (JSON lines) and replay.

A log file is::

    {"format": "warband-log", "ruleset": ..., "ruleset_version": ..., "params": {...}, "rosters": [...],
     "scenario": {...}, "seed": N, ...}                        <- line 1, the header
    {"n": 0, "d": "choice:0:deploy:None", "a": {"kind": "deploy", ...}}   <- a decision
    {"n": 1, "d": "chance:2d6:initiative", "r": [3, 5], "src": "auto"}   <- a roll
    ...
    {"end": {"winner": 0, ...}, "fingerprint": "...", "header_digest": "..."}   <- last line, once the game is over

Replay rebuilds the game from the header and re-applies every line. With ``verify`` it also checks that each
logged decision point is the one the rules reach, that every ``auto`` roll is what the seeded stream gives, and
that the final state and result match; the first divergence raises :class:`ReplayError` naming the line. A
verified log must be whole: its header must name every parameter of the ruleset and no other, hash to the
``header_digest`` of its end line (an edited rule fails even where it changes no step), and the game must be over
(a log cut at a line end is an unfinished game, not a verified one). A ``format_version`` this code does not
read is refused by every reader.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from warband.kernel.actions import Action
from warband.kernel.engine import LOG_FORMAT, LOG_FORMAT_VERSION, Game
from warband.kernel.errors import IllegalActionError, ReplayError
from warband.kernel.events import Event
from warband.kernel.files import MAX_LOG_BYTES, InputError, read_text_bounded, write_atomic


def log_lines(game: Game) -> list[str]:
    """The log of ``game`` as text lines (header, steps and, if over, the end line)."""
    if game.log is None:
        raise ValueError("this game was created without a log (record=False)")
    lines = [json.dumps(game.header, separators=(",", ":"), sort_keys=True)]
    lines.extend(json.dumps(e, separators=(",", ":")) for e in game.log)
    result = game.result()
    if result is not None:
        end = {
            "end": result.to_json(),
            "fingerprint": game.fingerprint(),
            "header_digest": header_digest(game.header),
            "steps_digest": steps_digest(game.header, lines[1:]),
        }
        lines.append(json.dumps(end, separators=(",", ":"), sort_keys=True))
    return lines


def header_digest(header: dict[str, Any]) -> str:
    """A short SHA-256 of the header's canonical JSON: the end line carries it so an edited header is caught."""
    text = json.dumps(header, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def steps_digest(header: dict[str, Any], step_lines: Iterable[str]) -> str:
    """A short SHA-256 of the header's canonical JSON followed by the step lines as written: the end line
    carries it, so a step edited into another legal one (a move nudged half an inch that a later move hides
    from the final fingerprint), or a header edited and its own digest recomputed, is caught."""
    h = hashlib.sha256(json.dumps(header, sort_keys=True, separators=(",", ":")).encode("utf-8"))
    for line in step_lines:
        h.update(b"\n")
        h.update(line.encode("utf-8"))
    return h.hexdigest()[:16]


def write_log(game: Game, path: Path) -> None:
    """Write the log atomically: a reader never sees a half-written file."""
    write_text_atomic(path, "\n".join(log_lines(game)) + "\n")


def write_text_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` with the one safe writer (:func:`warband.kernel.files.write_atomic`)."""
    write_atomic(path, text)


@dataclass(frozen=True, slots=True)
class LogFile:
    """A parsed log: its header, its steps (with their line numbers) and the end line if any."""

    source: str
    header: dict[str, Any]
    steps: list[tuple[int, dict[str, Any]]]
    end: dict[str, Any] | None
    #: the step lines as written (for the end line's steps digest)
    raw_steps: tuple[str, ...] = ()


#: Where a roll's dice came from: the seeded stream (proven by replay), typed by a person, forced by a test.
ROLL_SOURCES = ("auto", "manual", "forced")


class UnprovenError(ReplayError):
    """A log that replays and matches, but holds dice typed by a person (or forced): those cannot be proven."""


def parse_log(lines: Iterable[str], source: str = "<log>") -> LogFile:
    """Parse log lines; a malformed line raises ReplayError naming the source and line number."""
    header: dict[str, Any] | None = None
    steps: list[tuple[int, dict[str, Any]]] = []
    raw_steps: list[str] = []
    end: dict[str, Any] | None = None
    end_no = 0
    for no, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        if end is not None:
            raise ReplayError(f"{source}: line {no}: the log goes on after its end line (line {end_no})")
        try:
            obj = json.loads(raw, parse_constant=_not_finite)
        except json.JSONDecodeError as exc:
            raise ReplayError(f"{source}: line {no}: not JSON ({exc.msg} at column {exc.colno})") from None
        except ValueError as exc:
            raise ReplayError(f"{source}: line {no}: {exc}") from None
        if not isinstance(obj, dict):
            raise ReplayError(f"{source}: line {no}: expected a JSON object, found {type(obj).__name__}")
        if header is None:
            if obj.get("format") != LOG_FORMAT:
                raise ReplayError(
                    f"{source}: line {no}: not a warband log header (format is "
                    f"{obj.get('format')!r}, expected {LOG_FORMAT!r})"
                )
            _check_header(obj, source, no)
            header = obj
        elif "end" in obj:
            if not isinstance(obj["end"], dict):
                raise ReplayError(f"{source}: line {no}: expected the end line's 'end' as an object (the result)")
            end, end_no = obj, no
        elif ("a" in obj or "r" in obj) and "d" in obj:
            _check_step(obj, source, no)
            steps.append((no, obj))
            raw_steps.append(raw)
        else:
            raise ReplayError(f"{source}: line {no}: expected a step with 'd' and 'a' or 'r', found keys {sorted(obj)}")
    if header is None:
        raise ReplayError(f"{source}: empty log (no header line)")
    return LogFile(source, header, steps, end, tuple(raw_steps))


def _not_finite(name: str) -> Any:
    raise ValueError(f"{name} is not a number a log can hold (only finite numbers are written)")


def _check_step(obj: dict[str, Any], source: str, no: int) -> None:
    """A step names its number ``n``, its decision (text) and carries an action (an object) or dice (a list of
    whole numbers) with their source."""
    if type(obj.get("n")) is not int:
        raise ReplayError(
            f"{source}: line {no}: expected the step number 'n' as a whole number, found {obj.get('n')!r}"
        )
    if "r" in obj and obj.get("src") not in ROLL_SOURCES:
        raise ReplayError(
            f"{source}: line {no}: expected the dice source 'src' to be one of {', '.join(ROLL_SOURCES)}, "
            f"found {obj.get('src')!r}"
        )
    if not isinstance(obj["d"], str):
        raise ReplayError(f"{source}: line {no}: expected the decision 'd' as text, found {type(obj['d']).__name__}")
    if "a" in obj and not isinstance(obj["a"], dict):
        raise ReplayError(f"{source}: line {no}: expected the action 'a' as an object, found {type(obj['a']).__name__}")
    if "a" not in obj and not (
        isinstance(obj["r"], list)
        and all(type(v) is int and 0 <= v <= 10**6 for v in obj["r"])
        and len(obj["r"]) <= 1000
    ):
        raise ReplayError(
            f"{source}: line {no}: expected the dice 'r' as a list of whole numbers, found {obj['r']!r}"[:300]
        )


def _check_header(obj: dict[str, Any], source: str, no: int) -> None:
    missing = [k for k in ("ruleset", "ruleset_version", "params", "rosters", "scenario", "seed") if k not in obj]
    if missing:
        raise ReplayError(f"{source}: line {no}: header lacks {', '.join(missing)}")
    version = obj.get("format_version", LOG_FORMAT_VERSION)
    if type(version) is not int or version != LOG_FORMAT_VERSION:
        raise ReplayError(
            f"{source}: line {no}: unknown log format_version {version!r} (this warband reads {LOG_FORMAT_VERSION})"
        )
    if not isinstance(obj["params"], dict):
        raise ReplayError(f"{source}: line {no}: expected the header's params as a mapping")


def read_log(path: Path) -> LogFile:
    """Read and parse a log file; an unreadable or non-UTF-8 file raises ReplayError naming it."""
    try:
        text = read_text_bounded(path, MAX_LOG_BYTES)
    except InputError as exc:
        raise ReplayError(f"{path}: not read as a log: {exc}") from None
    return parse_log(text.splitlines(), str(path))


StepHook = Callable[[int, Game, list[Event]], None]


def replay(log: LogFile, verify: bool = False, on_step: StepHook | None = None) -> Game:
    """Re-play a parsed log and return the final game; with ``verify``, stop at the first divergence."""
    from warband.kernel import ruleset as registry

    h = log.header
    try:
        rs = registry.get(h["ruleset"])
        if verify and h["ruleset_version"] != rs.version:
            raise ReplayError(
                f"{log.source}: line 1: ruleset version {h['ruleset_version']} was logged, installed is {rs.version}"
            )
        if verify:
            _verify_param_names(log, set(rs.params.specs))
            _verify_header_documents(log)
        game = Game.new(rs, h["rosters"], h["scenario"], int(h["seed"]), h["params"])
        if verify:
            _verify_header(log, game.header)
    except ReplayError:
        raise
    except (ValueError, KeyError, TypeError) as exc:  # WarbandError and pydantic's ValidationError included
        raise ReplayError(f"{log.source}: line 1: cannot set up the game: {setup_problem(log, exc)}") from None
    if verify and log.end is not None:
        _require_digests(log)  # before any step: a log without them cannot be proven, however it replays
    for no, step in log.steps:
        _replay_step(game, no, step, verify, log.source, on_step)
    if verify:
        _verify_end(game, log)
        by_hand = [no for no, step in log.steps if "a" not in step and step.get("src") != "auto"]
        if by_hand:
            shown = ", ".join(str(n) for n in by_hand[:10]) + (" ..." if len(by_hand) > 10 else "")
            raise UnprovenError(
                f"{log.source}: NOT PROVEN: {len(by_hand)} roll(s) on line(s) {shown}: dice entered by hand are not "
                "proven (everything else replays and matches)"
            )
    return game


def _verify_header(log: LogFile, made: dict[str, Any]) -> None:
    """The header a new game writes from the logged header's own rosters, scenario, seed and params must be
    the logged header: a parameter outside its range, a roster the loader would not write, is an edit."""
    differ = sorted(k for k in set(made) | set(log.header) if made.get(k) != log.header.get(k))
    if differ:
        params = sorted(
            k
            for k in set(made.get("params", {})) | set(log.header["params"])
            if made.get("params", {}).get(k) != log.header["params"].get(k)
        )
        detail = f" (params {', '.join(params)})" if params else ""
        raise ReplayError(
            f"{log.source}: line 1: the header's {', '.join(differ)}{detail} differ from what the rules make of "
            "them: an edited header"
        )


def _replay_step(
    game: Game, no: int, step: dict[str, Any], verify: bool, source: str, on_step: StepHook | None
) -> None:
    where = f"{source}: line {no}"
    key = game.decision.key()
    if game.over:
        raise ReplayError(f"{where}: the game is already over, but the log goes on")
    if verify and step["n"] != game.state.state_id:
        raise ReplayError(
            f"{where}: step number n={step['n']} but this is step {game.state.state_id} (renumbered or missing steps)"
        )
    if verify and step["d"] != key:
        raise ReplayError(f"{where}: divergence: the log has decision {step['d']!r}, the rules reach {key!r}")
    try:
        if "a" in step:
            events = game.apply(Action.from_json(step["a"]))
        else:
            values = [int(v) for v in step["r"]]
            if verify and step.get("src") == "auto":
                probe = game.state.rng.copy()
                spec = game.decision.dice
                expected = list(probe.dice(spec.n, spec.sides)) if spec else []
                if expected != values:
                    raise ReplayError(
                        f"{where}: divergence: logged roll {values} but the seeded stream gives {expected}"
                    )
                events = game.roll()
            else:
                events = game.roll(values)
    except IllegalActionError as exc:
        raise ReplayError(f"{where}: {exc}") from None
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        if isinstance(exc, ReplayError):
            raise
        raise ReplayError(f"{where}: malformed step ({exc})") from None
    if on_step is not None:
        on_step(no, game, events)


def _verify_param_names(log: LogFile, known: set[str]) -> None:
    """A log names every parameter it was played under: one missing or unknown is an edited header."""
    logged = set(log.header["params"])
    if logged != known:
        lacks = ", ".join(sorted(known - logged)) or "none"
        extra = ", ".join(sorted(logged - known)) or "none"
        raise ReplayError(
            f"{log.source}: line 1: the header's params differ from the ruleset's: lacks {lacks}; unknown {extra}"
        )


def _verify_header_documents(log: LogFile) -> None:
    """The header's warbands and scenario must pass their loaders' rules (a setup does not check them all)."""
    from warband.kernel.position import header_problems

    problems = header_problems(log.source, log.header)
    if problems:
        shown = "; ".join(f"{p.place.removeprefix('header.')}: {p.message}" for p in problems[:5])
        raise ReplayError(f"{log.source}: line 1: the header's warbands or scenario break their rules: {shown}")


def setup_problem(log: LogFile, exc: Exception) -> str:
    """Why the header's game cannot be set up, in the words and places of the warband and scenario loaders
    (``rosters[0].models[1].movement: ...``) when they find it, else the error itself."""
    from warband.kernel.position import header_problems

    try:
        problems = header_problems(log.source, log.header)
    except Exception:  # a header too broken to check piece by piece: the setup's own error says enough
        problems = []
    if problems:
        return "; ".join(f"{p.place.removeprefix('header.')}: {p.message}" for p in problems[:5])
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _require_digests(log: LogFile) -> None:
    assert log.end is not None
    for key, what in (("header_digest", "header"), ("steps_digest", "steps")):
        if not isinstance(log.end.get(key), str):
            raise ReplayError(f"{log.source}: the end line has no {key}: the {what} cannot be proven")


def _verify_digests(log: LogFile) -> None:
    """The end line's header and steps digests (both required) must match the header and the step lines."""
    assert log.end is not None
    _require_digests(log)
    digest = log.end.get("header_digest")
    if digest != header_digest(log.header):
        raise ReplayError(
            f"{log.source}: line 1: the header differs from the one the game was played under "
            "(its digest does not match the end line's header_digest)"
        )
    digest = log.end.get("steps_digest")
    if digest != steps_digest(log.header, log.raw_steps):
        raise ReplayError(
            f"{log.source}: the steps differ from the ones the game was played with "
            "(their digest does not match the end line's steps_digest)"
        )


def _verify_end(game: Game, log: LogFile) -> None:
    result = game.result()
    if log.end is None:
        if result is not None:
            raise ReplayError(f"{log.source}: the game ends after the last step but the log has no end line")
        raise ReplayError(
            f"{log.source}: the log stops after {len(log.steps)} steps with the game unfinished (no end line): "
            "a cut or unfinished log cannot be verified"
        )
    _verify_digests(log)
    if result is None:
        raise ReplayError(f"{log.source}: the log ends the game, but after its steps the game is not over")
    if not result.matches(log.end.get("end") or {}):
        raise ReplayError(
            f"{log.source}: divergence in the result: logged {log.end.get('end')}, replayed {result.to_json()}"
        )
    if log.end.get("fingerprint") != game.fingerprint():
        raise ReplayError(f"{log.source}: divergence: the final state differs from the logged fingerprint")

"""Warband and scenario documents for a new game: a bundled sample named by its id (never a path) or an
uploaded file's content, validated by the ruleset; every problem is answered with its place."""

from __future__ import annotations

import asyncio
import multiprocessing
import tempfile
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from warband.kernel import ruleset as registry
from warband.kernel.errors import FileProblemsError, UnmodelledError, WarbandError
from warband.kernel.ruleset import Ruleset, check_modelled
from warband.web.errors import ApiError
from warband.web.schemas import UPLOAD_LIMIT, DocChoice
from warband.workers import worker_pool


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return registry.get(ruleset_id)
    except WarbandError as exc:
        raise ApiError(422, str(exc)) from None


def sample_path(rs: Ruleset, kind: str, sample: str) -> Path:
    """The bundled sample with this id (file stem); the browser never names a path."""
    for item in rs.samples()[kind + "s"]:
        if Path(item["path"]).stem == sample:
            return Path(item["path"])
    raise ApiError(422, f"no sample {kind} {sample!r} in {rs.id}")


def load_doc(rs: Ruleset, kind: str, choice: DocChoice, label: str) -> dict[str, Any]:
    """A validated warband or scenario document from a sample or an upload; every problem with its place."""
    if choice.sample is not None:
        return _read(rs, kind, sample_path(rs, kind, choice.sample), label)
    if choice.text is None:
        raise ApiError(422, f"{label}: choose a sample or upload a file")
    if len(choice.text) > UPLOAD_LIMIT:
        raise ApiError(413, f"{label}: the upload has {len(choice.text)} characters; the limit is {UPLOAD_LIMIT}")
    with tempfile.TemporaryDirectory(prefix="warband-upload-") as tmp:
        path = Path(tmp) / "upload.yaml"
        path.write_text(choice.text, encoding="utf-8")
        return _read(rs, kind, path, label)


#: an upload longer than this is checked in a process of its own (see :func:`load_doc_async`)
ELSEWHERE_CHARS = 16_000

_upload_pool: ProcessPoolExecutor | None = None


def upload_pool() -> ProcessPoolExecutor:
    """The one worker process that checks long uploads (started at the first, spawned: the server runs threads,
    and a forked copy of a lock held by one of them would never be released; it dies with the server)."""
    global _upload_pool
    if _upload_pool is None:
        _upload_pool = worker_pool(1, multiprocessing.get_context("spawn"))
    return _upload_pool


def _load_elsewhere(ruleset_id: str, kind: str, text: str, label: str) -> tuple[int, Any, str, list[Any]]:
    """Body of :func:`load_doc_async` in the upload process: ``(0, doc, "", [])`` or the error as data
    ``(status, None, message, problems)`` (an exception with keyword fields does not cross processes whole)."""
    try:
        return 0, load_doc(registry.get(ruleset_id), kind, DocChoice(text=text), label), "", []
    except ApiError as exc:
        return exc.status, None, exc.message, list(exc.extra.get("problems", []))


async def load_doc_async(rs: Ruleset, kind: str, choice: DocChoice, label: str) -> dict[str, Any]:
    """:func:`load_doc` off the event loop, so every other request is answered meanwhile: a sample or a short
    upload in a worker thread; a long upload in a process of its own, since checking a valid file of thousands of
    models takes a second or more of CPU on a busy machine, and a thread would hold the server's GIL for all of it
    (issue 24: the table answers ``/api/meta`` within 1 s whatever request is in flight). Every upload is bounded
    as every file is (:func:`warband.kernel.files.read_text_bounded`)."""
    global _upload_pool
    text = choice.text
    if choice.sample is not None or text is None or len(text) <= ELSEWHERE_CHARS or len(text) > UPLOAD_LIMIT:
        return await asyncio.to_thread(load_doc, rs, kind, choice, label)
    loop = asyncio.get_running_loop()
    try:
        status, doc, message, problems = await loop.run_in_executor(
            upload_pool(), _load_elsewhere, rs.id, kind, text, label
        )
    except BrokenProcessPool:
        _upload_pool = None  # the next long upload starts a fresh process; this one is checked here
        return await asyncio.to_thread(load_doc, rs, kind, choice, label)
    if status:
        extra = {"problems": problems} if problems else {}
        raise ApiError(status, message, **extra)
    return dict(doc)


def _read(rs: Ruleset, kind: str, path: Path, label: str) -> dict[str, Any]:
    try:
        return rs.load_roster(path) if kind == "warband" else rs.load_scenario(path)
    except FileProblemsError as exc:
        problems = [{"file": label, "place": p.place, "message": p.message} for p in exc.problems]
        raise ApiError(422, f"{label}: {len(problems)} problem(s)", problems=problems) from None
    except WarbandError as exc:
        raise ApiError(422, f"{label}: {exc}") from None


def refuse_unmodelled(rs: Ruleset, rosters: list[dict[str, Any]], allow: bool) -> None:
    """A warband with rules the engine does not play makes a game of another game: refused (422, every rule
    named) unless the person allows it."""
    try:
        check_modelled(rs, list(zip(("side A", "side B"), rosters, strict=True)), allow)
    except UnmodelledError as exc:
        problems = [
            {"file": label, "place": "models", "message": f"not modelled: {rule}"}
            for label, rules in exc.found
            for rule in rules
        ]
        raise ApiError(
            422,
            "the engine does not play some rules of these warbands; tick 'allow unmodelled rules' to play without them",
            problems=problems,
        ) from None

"""The Ruleset protocol and the registry of rulesets (entry point group ``warband.rulesets``).

A ruleset is one game's rules. The kernel's :class:`~warband.kernel.engine.Game` drives it through the methods
below and never looks inside. A ruleset owns its parameters (``params.toml``), its file formats (rosters) and
its sample data; it mutates the :class:`~warband.kernel.state.GameState` only inside ``apply`` and ``roll``.
"""

from __future__ import annotations

import abc
import contextlib
import functools
import importlib
import inspect
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from importlib.metadata import entry_points
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

from warband.kernel.actions import Action, Decision
from warband.kernel.builder import ListBuilder
from warband.kernel.context import Rosters
from warband.kernel.errors import FileProblemsError, Problem, Reason, UnmodelledError, WarbandError
from warband.kernel.events import Event
from warband.kernel.learned import NoFeaturesError
from warband.kernel.mission import ActionVocabulary
from warband.kernel.offers import OddsCommand, RosterSummary
from warband.kernel.params import ParamTable
from warband.kernel.result import GameResult, ModelFate
from warband.kernel.rng import Rng
from warband.kernel.state import GameState, Model, SideState
from warband.kernel.steps import SteppedRules

C = TypeVar("C")

__all__ = [
    "GameResult",
    "ModelFate",
    "Reason",
    "Ruleset",
    "SteppedRuleset",
    "UnknownRulesetError",
    "available",
    "check_modelled",
    "get",
    "new_state",
    "refresh",
    "register",
    "registered",
    "unregister",
]


#: The faces a ruleset package gives by the names of its modules: a ``prompts.py`` beside the ruleset's class is
#: its ``prompts`` face (the module's ``PROMPTS``), and so on. A ruleset's own :attr:`Ruleset.faces` adds the rest.
PACKAGE_FACES: Mapping[str, str] = {
    "prompts": "prompts:PROMPTS",
    "evaluate": "evaluate:evaluate",
    "features": "features:features",
    "odds": "odds:ODDS_COMMANDS",
    "view": "view:view",
}


class Ruleset(abc.ABC):
    """One game's rules behind the kernel protocol (see DESIGN.md, "The kernel protocol").

    A ruleset package is a folder with a ``params.toml`` beside the module that defines the class: its
    :attr:`params` are that file and its :attr:`faces` start from the modules it holds (:data:`PACKAGE_FACES`), so
    a subclass names only what differs (its id, version and title, a face of another name)."""

    id: ClassVar[str]
    version: ClassVar[str]
    title: ClassVar[str]
    params: ClassVar[ParamTable]
    #: The words this ruleset gives meaning to in scenario actions (``actions:`` in a scenario file); None: it
    #: plays no scenario actions, and a scenario that declares some is refused when loaded.
    action_vocabulary: ClassVar[ActionVocabulary | None] = None
    #: Where the ruleset's faces and helpers live, imported on first use so that playing a game never loads
    #: them: hook name -> ``"module:name"``. Hooks: ``evaluate`` (a function of state and side), ``render``
    #: (state), ``explain`` (state, action), ``odds`` (the tuple of odds commands), ``prompts`` (the prompt book
    #: of :meth:`describe_decision`), ``holder`` (state, at, radius: :meth:`objective_holder`), ``features``
    #: (state, side: a dict of named numbers, :meth:`features`), and for a
    #: :class:`SteppedRuleset` ``view`` (state). A hook
    #: not named here keeps the default method (or the ruleset overrides the method itself).
    faces: ClassVar[Mapping[str, str]] = {}
    #: Tokens whose count the rules let fall below zero (Gangfight's endurance: a model hit past 0 EN keeps the
    #: deficit); a restored position may hold them negative, every other token is 0 or more.
    signed_tokens: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        module = sys.modules.get(cls.__module__)
        file = getattr(module, "__file__", None)
        if module is None or not file or not (Path(file).parent / "params.toml").is_file():
            return  # not a ruleset package (a class made in a test, a notebook): it says all itself
        here = Path(file).parent
        if "params" not in cls.__dict__:
            cls.params = ParamTable.load(here / "params.toml")
        package = module.__package__ or cls.__module__
        found = {
            hook: f"{package}.{where}"
            for hook, where in PACKAGE_FACES.items()
            if (here / f"{where.split(':')[0]}.py").is_file()
        }
        cls.faces = {**found, **cls.faces}

    def face(self, hook: str) -> Any | None:
        """What :attr:`faces` names for ``hook``, imported now; None if it names nothing."""
        where = self.faces.get(hook)
        if where is None:
            return None
        module, _, name = where.partition(":")
        return getattr(importlib.import_module(module), name)

    # --- files and samples -------------------------------------------------------------------------
    def data_dir(self) -> Path:
        """The folder with ``warbands/`` and ``scenarios/`` sample files: by default ``data/`` beside the module
        that defines the ruleset's class."""
        return Path(inspect.getfile(type(self))).parent / "data"

    def samples(self) -> dict[str, list[dict[str, str]]]:
        """The bundled warbands and scenarios: ``{"warbands": [{"name", "path"}], "scenarios": [...]}``."""
        out: dict[str, list[dict[str, str]]] = {}
        for kind in ("warbands", "scenarios"):
            items = []
            for p in sorted((self.data_dir() / kind).glob("*.y*ml")):
                items.append({"name": self.sample_name(p), "path": str(p)})
            out[kind] = items
        return out

    def sample_name(self, path: Path) -> str:
        """The ``name`` inside a sample file, or its file name if it has none (or cannot be read)."""
        from warband.kernel.roster import read_document

        try:
            doc = read_document(path)
            return str(doc.get("name", path.stem)) if isinstance(doc, dict) else path.stem
        except Exception:  # a broken sample still lists under its file name
            return path.stem

    def default_scenario(self) -> Path:
        return self.data_dir() / "scenarios" / "default.yaml"

    @abc.abstractmethod
    def load_roster(self, path: Path) -> dict[str, Any]:
        """Read and validate a warband file; return its document (raises RosterError listing every problem)."""

    def load_scenario(self, path: Path) -> dict[str, Any]:
        """Read and validate a scenario file in the kernel's format; return its document (raises ScenarioError).

        Scenario actions are checked against :attr:`action_vocabulary`."""
        from warband.kernel.scenario import load_scenario

        vocabulary = self.action_vocabulary or ActionVocabulary(supported=False, ruleset=self.id)
        return load_scenario(path, vocabulary).model_dump(mode="json")

    # --- the game ----------------------------------------------------------------------------------
    @abc.abstractmethod
    def setup(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
    ) -> GameState[Any]:
        """A new game at its first decision point. Documents are the validated file contents."""

    @abc.abstractmethod
    def restore(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
        data: dict[str, Any],
    ) -> GameState[Any]:
        """A state saved by ``GameState.to_json()`` in the game those documents describe."""

    @abc.abstractmethod
    def decision(self, state: GameState[Any]) -> Decision:
        """Who decides what now."""

    @abc.abstractmethod
    def legal_actions(self, state: GameState[Any]) -> list[Action]:
        """The legal choices in a deterministic order (moves: a finite set of candidate destinations)."""

    @abc.abstractmethod
    def why_illegal(self, state: GameState[Any], action: Action) -> list[Reason]:
        """Every rule ``action`` breaks now as ``(rule_id, message)``; empty when it is legal.

        Must accept any concrete destination, not only the candidates of ``legal_actions``."""

    @abc.abstractmethod
    def apply(self, state: GameState[Any], action: Action) -> list[Event]:
        """Carry out a legal choice, mutating ``state``; return what happened."""

    @abc.abstractmethod
    def roll(self, state: GameState[Any], values: tuple[int, ...]) -> list[Event]:
        """Resolve the pending chance decision with these dice."""

    @abc.abstractmethod
    def result(self, state: GameState[Any]) -> GameResult | None:
        """The result once the game is over, else None."""

    def roster_points(self, roster: dict[str, Any]) -> int | None:
        """The total points of a validated warband document, or None if the game has no points."""
        return None

    def stored_roster_problems(self, file: str, roster: dict[str, Any]) -> list[Problem]:
        """Problems of a warband document as stored in a log or position header (what :meth:`load_roster`
        returned), each with its place inside the document. The default reads it back through
        :meth:`load_roster`, so a header is checked by the same rules and messages as a warband file; a
        ruleset whose stored form is not a file's (catalogue entries written out) checks its stored form."""
        import json
        import tempfile

        with tempfile.TemporaryDirectory(prefix="warband-roster-") as tmp:
            path = Path(tmp) / "roster.json"
            path.write_text(json.dumps(roster), encoding="utf-8")
            try:
                self.load_roster(path)
            except FileProblemsError as exc:
                return [Problem(file, p.place, p.message) for p in exc.problems]
            except WarbandError as exc:
                return [Problem(file, "", str(exc).replace(str(path), "the warband"))]
        return []

    def describe_roster(self, roster: dict[str, Any]) -> RosterSummary:
        """What a validated warband document holds (``warband validate``, ``info``, ``samples``). The default
        knows only its name and :meth:`roster_points`; a ruleset says how many models and units it fields."""
        return RosterSummary(str(roster.get("name", "?")), self.roster_points(roster), 0, None)

    def unmodelled(self, roster: dict[str, Any]) -> list[str]:
        """The rules of a validated warband document that this ruleset does not play, one line each in the
        player's words (``ability Puppet Master (Father Orobas)``): ``warband validate`` lists them, and the faces
        that answer with played games refuse such a warband unless the user allows it (:func:`check_modelled`).
        Default: none."""
        return []

    def list_builder(self) -> ListBuilder | None:
        """The warband builder this ruleset offers (``warband build RULESET``), or None."""
        return None

    def odds_commands(self) -> tuple[OddsCommand, ...]:
        """The exact-odds commands this ruleset offers (``warband odds RULESET NAME``), as data: the faces build
        their commands from them. The ``odds`` face if there is one, else none."""
        found = self.face("odds")
        return () if found is None else cast("tuple[OddsCommand, ...]", found)

    def all_actions(self, state: GameState[Any]) -> list[Action]:
        """A superset of the legal actions: what a player might try now (``warband legal --explain`` lists the
        illegal ones with their rules). Defaults to the legal actions."""
        return self.legal_actions(state)

    def evaluate(self, state: GameState[Any], side: int) -> float:
        """A heuristic value of ``state`` for ``side`` (higher is better), for agents; public, so agents need
        no ruleset internals. The ``evaluate`` face if there is one; else the default knows nothing."""
        found = self.face("evaluate")
        return 0.0 if found is None else float(found(state, side))

    def features(self, state: GameState[Any], side: int) -> dict[str, float]:
        """Named features of ``state`` seen by ``side``, in the game's own terms (material, objectives,
        threats), for the evaluation learned from games (:mod:`warband.lab.fit`). The ``features`` face; a
        ruleset without one refuses, naming itself."""
        found = self.face("features")
        if found is None:
            raise NoFeaturesError(f"ruleset {self.id!r} names no features (a 'features' face) to learn from")
        return {str(k): float(v) for k, v in found(state, side).items()}

    def learned_evaluation(self, state: GameState[Any], side: int) -> float:
        """Log-odds that ``side`` wins, by the weights fitted to this ruleset's :meth:`features`
        (``data/evaluation.json``, written by ``warband fit-eval``)."""
        from warband.kernel.learned import learned_value

        return learned_value(self, state, side)

    # --- faces -------------------------------------------------------------------------------------
    def render(self, state: GameState[Any]) -> str:
        """A text picture of the table for the terminal (the ``render`` face if there is one)."""
        found = self.face("render")
        return f"turn {state.turn}, {state.phase}" if found is None else str(found(state))

    def view(self, state: GameState[Any]) -> dict[str, Any]:
        """The drawable view of ``state`` (``docs/view.md``): shapes, labels, badges and tooltips that the web
        table and the terminal map draw. The default is the kernel's generic view; a ruleset enriches it."""
        from warband.kernel.view import generic_view

        return generic_view(self.id, state)

    def explain(self, state: GameState[Any], action: Action) -> str:
        """What choosing ``action`` risks: the odds of the rolls it starts (empty if none; the ``explain`` face if
        there is one)."""
        found = self.face("explain")
        return "" if found is None else str(found(state, action))

    def timing(self, kind: str) -> str:
        """When an action of ``kind`` is played, in the player's words (a refusal of one tried at another moment
        says it); empty if the ruleset does not say."""
        return ""

    def describe_action(self, state: GameState[Any], action: Action) -> str:
        """What a player reads about ``action`` beyond its notation (a scenario action's name and guideline);
        empty if nothing."""
        return ""

    def prompt_book(self) -> Mapping[str, Any]:
        """The ruleset's sentences for its decisions by step kind: its ``prompts`` face (a ``prompts.py`` beside
        the rules; see :mod:`warband.kernel.prompts`), else none."""
        found = self.face("prompts")
        return {} if found is None else cast("Mapping[str, Any]", found)

    def pending_step(self, state: GameState[Any]) -> Any:
        """The step the pending decision belongs to (None for a ruleset that is not a step machine)."""
        return None

    def describe_decision(self, state: GameState[Any], decision: Decision) -> str:
        """The pending decision in a player's words: the situation, what each answer costs and its odds (the
        ruleset's prompt book, else the kernel's sentence naming who decides for which model)."""
        from warband.kernel.prompts import describe

        return describe(self, state, self.pending_step(state), decision)

    def objective_holder(self, state: GameState[Any], at: tuple[float, float], radius: float) -> int | None:
        """Who holds an objective at ``at`` now, as the faces show it: the ``holder`` face (state, at, radius) if
        the ruleset names one (what its scoring counts), else the side with more models on the table within
        ``radius`` that are not out of action."""
        from warband.kernel.battlefield import controller

        found = self.face("holder")
        if found is not None:
            return cast("int | None", found(state, at, radius))
        return controller(state.models.values(), at, radius, lambda m: 0 if m.flags.get("out") else 1)

    def fingerprint(self, state: GameState[Any]) -> str:
        """A short digest of the state, logged at the end of a game and compared on replay."""
        import hashlib
        import json

        text = json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()[:16]


class SteppedRuleset(Ruleset):
    """A Ruleset whose game-turn protocol is the kernel's step machine (:class:`~warband.kernel.steps.SteppedRules`)
    over the ruleset's own step kinds; the subclass builds the state before the first step (``blank``) and adds
    its files, result and faces. Every bundled ruleset is built this way."""

    rules: ClassVar[SteppedRules[Any]]

    @abc.abstractmethod
    def blank(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
    ) -> GameState[Any]:
        """The game's context and its models, off the table, before anything has happened."""

    def setup(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
    ) -> GameState[Any]:
        state = self.blank(params, rosters, scenario, seed)
        events: list[Event] = []
        self.rules.start_game(state, events)
        self.rules.run_auto(state, events)
        return state

    def restore(
        self,
        params: Mapping[str, Any],
        rosters: tuple[dict[str, Any], dict[str, Any]],
        scenario: dict[str, Any],
        seed: int,
        data: dict[str, Any],
    ) -> GameState[Any]:
        state = self.blank(params, rosters, scenario, seed)
        state.load_json(data, state.ctx.profiles, self.rules.decode_step)
        return state

    def decision(self, state: GameState[Any]) -> Decision:
        return self.rules.decision(state)

    def legal_actions(self, state: GameState[Any]) -> list[Action]:
        return self.rules.legal_actions(state)

    def why_illegal(self, state: GameState[Any], action: Action) -> list[Reason]:
        return self.rules.why_illegal(state, action)

    def apply(self, state: GameState[Any], action: Action) -> list[Event]:
        return self.rules.apply(state, action)

    def roll(self, state: GameState[Any], values: tuple[int, ...]) -> list[Event]:
        return self.rules.roll(state, values)

    def all_actions(self, state: GameState[Any]) -> list[Action]:
        return self.rules.all_actions(state)

    def view(self, state: GameState[Any]) -> dict[str, Any]:
        """The ruleset's ``view`` face if it names one, else the kernel's generic view (:meth:`Ruleset.view`)."""
        found = self.face("view")
        return super().view(state) if found is None else cast("dict[str, Any]", found(state))

    def pending_step(self, state: GameState[Any]) -> Any:
        return None if self.rules.over(state) else self.rules.current(state)

    def timing(self, kind: str) -> str:
        return self.rules.timings.get(kind, "")


def check_modelled(rs: Ruleset, warbands: Sequence[tuple[str, dict[str, Any]]], allow: bool = False) -> None:
    """Refuse warbands (label, validated document) with rules ``rs`` does not play, unless ``allow``: raises
    :class:`UnmodelledError` naming every such rule of every warband."""
    if allow:
        return
    found = [(label, rs.unmodelled(doc)) for label, doc in warbands]
    found = [(label, rules) for label, rules in found if rules]
    if found:
        raise UnmodelledError(found)


def new_state(ctx: C, models: Iterable[Model], rosters: Rosters, seed: int) -> GameState[C]:
    """The state of a game before anything has happened (what :meth:`SteppedRuleset.blank` returns): the
    ``models`` by id, each side named after its warband (its ``name``, else "side A" / "side B"), the random
    stream seeded with ``seed``."""
    sides = [SideState(str(rosters[s].get("name", f"side {'AB'[s]}"))) for s in (0, 1)]
    return GameState(ctx, {m.id: m for m in models}, sides, Rng(seed))


class UnknownRulesetError(WarbandError):
    """A ruleset id that no installed plug-in provides."""


#: Rulesets registered in this process by :func:`register` (tests, a notebook), by id.
_registered: dict[str, type[Ruleset]] = {}


def available() -> dict[str, type[Ruleset]]:
    """Installed rulesets by id, from the ``warband.rulesets`` entry points, plus those registered in this process
    (:func:`register`); a plug-in that fails to load is left out (see :func:`broken`), so one broken ruleset
    never stops the others."""
    return dict(sorted({**_scan()[0], **_registered}.items()))


def broken() -> dict[str, str]:
    """Entry points that failed to load, by entry point name, with the error."""
    return dict(_scan()[1])


@functools.cache
def _scan() -> tuple[dict[str, type[Ruleset]], dict[str, str]]:
    found: dict[str, type[Ruleset]] = {}
    failed: dict[str, str] = {}
    for ep in entry_points(group="warband.rulesets"):
        try:
            cls = ep.load()
        except Exception as exc:  # a plug-in's import error is reported, not raised
            failed[ep.name] = f"{type(exc).__name__}: {exc}"
            continue
        found[cls.id] = cls
    return dict(sorted(found.items())), failed


def register(cls: type[Ruleset]) -> None:
    """Make ``cls`` available in this process under its id without an entry point (the example ruleset in the
    tests, a game being written in a notebook): :func:`get`, ``Game.from_json`` and replay then find it. An id
    already installed or registered is refused (ValueError). Undo with :func:`unregister`."""
    if cls.id in available():
        raise ValueError(f"a ruleset with id {cls.id!r} is already installed or registered")
    _registered[cls.id] = cls
    get.cache_clear()


def unregister(ruleset_id: str) -> None:
    """Forget a ruleset :func:`register` added (an installed one stays)."""
    _registered.pop(ruleset_id, None)
    get.cache_clear()


@contextlib.contextmanager
def registered(*classes: type[Ruleset]) -> Iterator[None]:
    """Register ``classes`` for the duration of a ``with`` block (a test), then unregister them."""
    done: list[str] = []
    try:
        for cls in classes:
            register(cls)
            done.append(cls.id)
        yield
    finally:
        for ruleset_id in done:
            unregister(ruleset_id)


def refresh() -> None:
    """Read the ``warband.rulesets`` entry points again (a plug-in installed while this process runs)."""
    _scan.cache_clear()
    get.cache_clear()


@functools.cache
def get(ruleset_id: str) -> Ruleset:
    """The ruleset with this id (instances hold no game state, so one per process is shared)."""
    rulesets = available()
    if ruleset_id not in rulesets:
        known = ", ".join(rulesets) or "none"
        failed = broken()
        why = f" ({ruleset_id} failed to load: {failed[ruleset_id]})" if ruleset_id in failed else ""
        raise UnknownRulesetError(f"unknown ruleset {ruleset_id!r}{why}; installed: {known}")
    return rulesets[ruleset_id]()

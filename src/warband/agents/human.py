"""A person at the terminal: shows the table, numbers the legal actions with their odds, reads a choice.

:class:`HumanConsole` is the face the ``warband play`` loop uses for human sides. It talks only through the
public kernel protocol (``Game``) and the ruleset's face hooks (``render``, ``explain``, ``all_actions``), so
every ruleset gets it for free. Input comes from a ``reader`` callable (``None`` means end of input), so tests
feed it scripted lines.

What a person may type at a choice:

* ``N``                 the N-th legal action of the numbered list
* an action's text       ``shoot a1 b4 [Rifle]``, ``to a3 @12.5,8`` (any concrete destination is checked)
* ``x,y``               at a destination prompt, the point (the kind and model come from the candidates)
* ``all``               every action one might try now, numbered, legal or not
* ``why N`` / ``why TEXT``  the rules that forbid the N-th of ``all`` (or that action), as ``[rule-id] message``
* ``map``, ``help``, ``quit``
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rich.console import Console

from warband.kernel.actions import Action, Decision
from warband.kernel.engine import Game
from warband.kernel.errors import IllegalActionError
from warband.kernel.events import Event
from warband.kernel.menu import full_menu
from warband.kernel.names import action_label, name_of, with_names

Reader = Callable[[str], str | None]

_POINT_RE = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*")
_DICE_SPLIT = re.compile(r"[\s,]+")

HELP = """\
  N                  choose the N-th action of the list
  ACTION TEXT        e.g. 'shoot a1 b4 [Rifle]' or 'to a3 @12.5,8' (any destination is checked)
  X,Y                at a destination prompt: move there
  all                every action one might try now (legal or not), numbered
  why N | why TEXT   why the N-th action of 'all' (or that action) is not allowed
  map                show the table again
  help               this text
  quit               stop (the log is saved if --log was given)"""


class Quit(Exception):
    """The person typed ``quit`` or the input ended."""


@dataclass
class HumanConsole:
    """Terminal I/O for human players: output through ``console``, input through ``reader``."""

    console: Console
    reader: Reader

    # --- output ------------------------------------------------------------------------------------
    def say(self, text: str, style: str | None = None) -> None:
        """Print plain text (never interpreted as rich markup: rules text has brackets)."""
        self.console.print(text, style=style, markup=False, highlight=False, soft_wrap=True)

    def show_events(self, events: list[Event], game: Game | None = None) -> None:
        for event in events:
            text = event.describe() if game is None else with_names(game.state, event.describe())
            self.say(f"  {text}", style="dim")

    def show_map(self, game: Game) -> None:
        self.say(game.ruleset.render(game.state))

    def describe_decision(self, game: Game, d: Decision) -> str:
        """The decision in the ruleset's words (:meth:`Ruleset.describe_decision`): who, for which model, what
        is at stake."""
        said = game.ruleset.describe_decision(game.state, d)
        if d.kind == "chance":
            return f"Dice: {d.dice} - {said}" if d.dice is not None else f"Dice - {said}"
        model = f" for {name_of(game.state, d.model)}" if d.model is not None else ""
        return f"{side_label(game, d.player)}: {d.prompt}{model} - {said}"

    def show_choices(self, game: Game) -> None:
        for i, action in enumerate(game.legal_actions(), start=1):
            about = game.ruleset.describe_action(game.state, action)
            odds = game.ruleset.explain(game.state, action)
            notes = "   — ".join(x for x in (about, odds) if x)
            self.say(f"  {i:>2}. {action_label(game.state, action)}" + (f"   — {notes}" if notes else ""))

    def show_all(self, game: Game) -> None:
        """Every action one might try now (:func:`~warband.kernel.menu.full_menu`, as the web table's greyed
        buttons): the ones not allowed carry their first rule and reason; ``why N`` gives them all."""
        for i, item in enumerate(full_menu(game), start=1):
            about = f"   — {item.note}" if item.note else ""
            if item.legal:
                self.say(f"  {i:>2}. {item.label}{about}")
            else:
                rule, text = item.reasons[0]
                more = f" (+{len(item.reasons) - 1} more: why {i})" if len(item.reasons) > 1 else ""
                self.say(f"  {i:>2}. {item.label}   (not allowed: [{rule}] {text}{more}){about}")

    def show_why(self, game: Game, action: Action) -> None:
        reasons = game.why_illegal(action)
        if not reasons:
            self.say(f"{action} is legal now")
            return
        self.say(f"{action} is not allowed:")
        for rule, message in reasons:
            self.say(f"  [{rule}] {message}")

    # --- input -------------------------------------------------------------------------------------
    def read(self, prompt: str) -> str:
        line = self.reader(prompt)
        if line is None:
            raise Quit("end of input")
        return line.strip()

    def choose(self, game: Game) -> Action:
        """Ask until the person gives a legal action (raises :class:`Quit`); the game is not changed."""
        self.say(self.describe_decision(game, game.decision), style="bold")
        self.show_choices(game)
        while True:
            text = self.read("choice> ")
            action = self.interpret(game, text)
            if action is not None:
                return action

    def interpret(self, game: Game, text: str) -> Action | None:
        """One line of input: an action to take, or None after handling a command or an error."""
        word, _, rest = text.partition(" ")
        low = word.lower()
        if not text:
            return None
        if low in ("quit", "exit", "q"):
            raise Quit("quit")
        if low in ("help", "?"):
            self.say(HELP)
        elif low == "map":
            self.show_map(game)
            self.show_choices(game)
        elif low == "all":
            self.show_all(game)
        elif low == "why":
            self._why(game, rest.strip())
        else:
            return self._action(game, text)
        return None

    def _why(self, game: Game, arg: str) -> None:
        if arg.isdigit():
            actions = game.ruleset.all_actions(game.state)
            n = int(arg)
            if not 1 <= n <= len(actions):
                self.say(f"no action {n}: 'all' lists {len(actions)}")
                return
            self.show_why(game, actions[n - 1])
            return
        try:
            self.show_why(game, Action.parse(arg))
        except ValueError as exc:
            self.say(str(exc))

    def _action(self, game: Game, text: str) -> Action | None:
        legal = game.legal_actions()
        if text.isdigit():
            n = int(text)
            if 1 <= n <= len(legal):
                return legal[n - 1]
            self.say(f"no choice {n}: pick 1 to {len(legal)}")
            return None
        point = _POINT_RE.fullmatch(text)
        try:
            action = point_action(legal, (float(point[1]), float(point[2]))) if point else Action.parse(text)
        except ValueError as exc:
            self.say(str(exc))
            return None
        reasons = game.why_illegal(action)
        if reasons:
            self.say(f"{action} is not allowed:")
            for rule, message in reasons:
                self.say(f"  [{rule}] {message}")
            return None
        return action

    def roll(self, game: Game) -> list[Event]:
        """Read physical dice for the pending roll and apply them (``auto`` rolls from the seeded stream)."""
        d = game.decision
        said = game.ruleset.describe_decision(game.state, d)
        self.say(f"Roll {d.dice} - {said}: type the values (e.g. '3 5'), or 'auto'", style="bold")
        while True:
            text = self.read("dice> ")
            low = text.lower()
            if low in ("quit", "exit", "q"):
                raise Quit("quit")
            if not text:
                continue
            try:
                if low == "auto":
                    return game.roll()
                values = [int(v) for v in _DICE_SPLIT.split(text) if v]
                return game.roll(values)
            except ValueError as exc:
                if isinstance(exc, IllegalActionError):
                    for rule, message in exc.reasons:
                        self.say(f"  [{rule}] {message}")
                else:
                    self.say(f"expected whole numbers, found {text!r}")


def point_action(legal: list[Action], point: tuple[float, float]) -> Action:
    """The action to a bare point: the kind and model of the candidates that carry a point."""
    shapes = sorted({(a.kind, a.model or "") for a in legal if a.point is not None})
    if not shapes:
        picks = [a for a in legal if a.model is not None]
        if picks and len({a.kind for a in picks}) == 1:
            # A pick-then-place step (e.g. deployment): coordinates answer "where", asked once the model is chosen.
            example = f"'{picks[0].kind} {picks[0].model} @x,y'"
            raise ValueError(
                "no destination is asked for here: first choose which model (type its number); "
                f"or type the action with its spot at once, e.g. {example}"
            )
        raise ValueError("no destination is asked for here: type a number or an action")
    if len(shapes) > 1:
        names = ", ".join(f"'{k} {m} @x,y'" for k, m in shapes[:4])
        raise ValueError(f"several models could go there; type the action, e.g. {names}")
    kind, model = shapes[0]
    return Action(kind, model or None, point=point)


def side_label(game: Game, side: int | None) -> str:
    if side is None:
        return "nobody"
    name = game.state.sides[side].name if side < len(game.state.sides) else ""
    letter = "AB"[side] if side < 2 else str(side)
    return f"Side {letter}" + (f" ({name})" if name else "")

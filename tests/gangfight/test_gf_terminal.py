"""Gangfight at the terminal (issue 13, Done when): a person pipes answers into ``warband play gangfight``: as the
non-active player it is asked for, and declares, an Interrupt during the AI's turn; it makes a Banding Action;
and with ``--dice manual`` it types the rolls.

The answers a person types depend on what the AI does, so each test first plays the same game through the
engine with the same seed and the same agent the CLI builds, recording the number the person would type at each
of its prompts (a stated policy); then it pipes exactly those numbers into ``warband play`` and reads the
transcript. The AI's play may change with the heuristic's evaluation; the test does not."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from typer.testing import CliRunner

from warband.agents.play import play
from warband.cli.main import app
from warband.cli.play_cmd import build_agent, load_game
from warband.kernel.actions import Action
from warband.kernel.engine import Game
from warband.kernel.ruleset import get

RS = get("gangfight")
PARTIES = {Path(w["path"]).name: Path(w["path"]) for w in RS.samples()["warbands"]}
A, B = PARTIES["shieldwall_sellswords.yaml"], PARTIES["crossroads_marksmen.yaml"]
Policy = Callable[[Game, list[Action]], Action | None]


class Person:
    """Side A's person: answers by ``policy`` (None: stop here) and remembers the number typed each time."""

    def __init__(self, policy: Policy) -> None:
        self.policy = policy
        self.typed: list[str] = []
        self.stopped = False

    def choose(self, game: Game) -> Action:
        legal = game.legal_actions()
        pick = self.policy(game, legal)
        if pick is None:
            self.stopped = True
            raise StopIteration
        self.typed.append(str(legal.index(pick) + 1))
        return pick


def script(seed: int, agent_b: str, policy: Policy, max_steps: int = 4000) -> list[str]:
    """The numbers the person types, up to where the policy stops (the game replayed as the CLI plays it)."""
    game = load_game(RS, A, B, None, seed, [])
    person = Person(policy)
    players = {0: person, 1: build_agent(agent_b, seed * 2 + 1)[0]}
    for _ in range(max_steps):
        try:
            play(game, players, steps=1)
        except StopIteration:
            break
        assert not game.over, "the game ended before the situation came up"
    assert person.stopped
    return person.typed


def terminal(seed: int, agent_b: str, typed: list[str], *extra: str) -> str:
    args = ["play", "gangfight", "--a", str(A), "--b", str(B), "--agent-b", agent_b, "--seed", str(seed), *extra]
    result = CliRunner().invoke(app, args, input="\n".join([*typed, "quit"]) + "\n")
    assert result.exit_code == 0, result.output[-3000:]
    assert "stopped before the end of the game" in result.output
    return result.output


def unnamed(text: str) -> str:
    """The terminal's text with the names beside model ids left out (``a6 (Human Regular 1)`` -> ``a6``)."""
    return re.sub(r"\b([ab]\d+) \([^()]*\)", r"\1", text)


def first(legal: list[Action], kind: str, option: str | None = None) -> Action | None:
    return next((a for a in legal if a.kind == kind and (option is None or a.option == option)), None)


def test_the_person_is_asked_for_an_interrupt_in_the_ais_turn_and_declares_bulwark() -> None:
    # policy: end every own turn at once (every model holds all its AP); when asked for an interrupt, Bulwark;
    # stop at the person's next prompt after that
    declared: list[Action] = []

    def policy(game: Game, legal: list[Action]) -> Action | None:
        if declared:
            return None
        bulwark = first(legal, "interrupt", "bulwark")
        if bulwark is not None:
            declared.append(bulwark)
            return bulwark
        return first(legal, "end-turn") or legal[0]

    typed = script(3, "heuristic", policy)
    named = terminal(3, "heuristic", typed)
    out = unnamed(named)
    b = declared[0]
    # the question is put to side A in side B's turn, "pass" first, and the answer is carried out
    asked = out.index(f"Side A (Shieldwall Sellswords): interrupt for {b.model}")
    assert out.rindex("side B's turn", 0, asked) > out.rindex("side A's turn", 0, asked)
    assert "   1. pass " + str(b.model) in out[asked:]
    assert f"choice> {typed[-1]}\n" in out[asked:]
    assert f"{b.model} interrupts: bulwark [gangfight/interrupt/bulwark]" in out[asked:]
    assert f"{b.model} (Human Regular 1) interrupts: bulwark" in named  # models are named beside their ids


def test_the_person_leads_a_with_me_banding_action() -> None:
    # policy: deploy on the first spots; activate the leader a1, declare With Me!, nominate two models, then
    # every member makes a Move to its first destination; stop when the person is asked to activate again
    led: list[str] = []

    def policy(game: Game, legal: list[Action]) -> Action | None:
        band = first(legal, "band", "with-me")
        if band is not None and not led:
            led.append("declared")
            return band
        joins = [a for a in legal if a.kind == "join"]
        if joins and len(led) < 3:
            led.append(str(joins[0].target))
            return joins[0]
        if led and first(legal, "activate") is not None:
            return None
        if not led and first(legal, "activate") is not None:
            return next(a for a in legal if a.kind == "activate" and a.model == "a1")
        return first(legal, "done") or first(legal, "move") or legal[0]

    typed = script(5, "random", policy)
    out = unnamed(terminal(5, "random", typed))
    assert "band a1 [with-me]" in out
    assert f"{led[1]} joins a1's with-me [gangfight/band/join]" in out
    assert f"{led[2]} joins a1's with-me [gangfight/band/join]" in out
    assert "a1 leads with-me with 2 others [gangfight/band/with-me]" in out
    assert "a1's activation ends" in out  # the leader's activation ends (seed 004, Banding Actions)
    for member in ("a1", led[1], led[2]):  # the order: each member moves in turn
        assert f"Side A (Shieldwall Sellswords): band-order for {member}" in out


def test_manual_dice_a_tied_initiative_is_rolled_again_from_typed_dice() -> None:
    # both leaders have IV 4: eight dice at TN 4, side A's first; a typo is refused with the rule and asked again
    typed = ["7", "4 4 1 1 4 4 1 1", "6 6 6 6 1 1 1 1", "2"]
    out = terminal(1, "random", typed, "--dice", "manual")
    assert "Roll 8d6 (initiative: leaders' IV (A's dice first))" in out
    assert "[kernel/dice] expected 8 value(s) from 1 to 6" in out
    assert "initiative (A, B) rolled [4, 4, 1, 1, 4, 4, 1, 1] -> 2 - 2: tie, roll again" in out
    assert "initiative (A, B) rolled [6, 6, 6, 6, 1, 1, 1, 1] -> 4 - 0: side A wins" in out
    assert "side B is the Attacker [gangfight/setup/role]" in out  # the winner chose Defender

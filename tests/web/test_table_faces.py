"""The table as a player meets it, in headless Chromium at a desktop's 1280x800 and a phone's 390x844, in each of
the four rulesets (issue 25): models by name in the roster and the action list, the actions a model cannot take
greyed with the rule that forbids them, a reaction prompt that names who acts, what it reacts to and what it
costs, an objective's holder on the table and in the side panel, a turn played by clicks, and no sideways
scrolling on the phone.

Each position is reached by playing the game through the public protocol (seeded random choices, seeded dice)
until the moment wanted: a model's action menu with a refused action, a reaction or interrupt put to a side, an
objective held. The table is then opened at that moment for the deciding seat (the other seat is an agent)."""

from __future__ import annotations

import math
import random
import re
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from conftest import LiveServer, shot
from warband.kernel import ruleset as registry
from warband.kernel.engine import Game
from warband.kernel.menu import full_menu
from warband.kernel.names import name_of
from warband.kernel.sheet import table_view
from warband.web.tables import open_table

pytestmark = pytest.mark.xdist_group("browser")

TC, TT, WC, GF = "trench-crusade", "trenches-and-turbines", "wyrdcry", "gangfight"
RULESETS = (TC, TT, WC, GF)
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
WAIT = 20_000

#: per ruleset: the decisions that answer the other side's action, with (what it reacts to, what it costs) as
#: the words the prompt must carry
REACTIONS: dict[str, dict[str, tuple[str, str]]] = {
    TC: {
        "strike": ("retreats", "costs nothing"),
        "spend-hit": ("Success Roll", "Blood marker"),
        "spend-injury": ("Injury Roll", "Blood marker"),
    },
    TT: {"react": ("shooting at|charging", "activation card|Overwatch|already activated")},
    WC: {"reaction": ("attack|Retreat|spell|blow|out of action", "reaction die")},
    GF: {"interrupt": ("declared", "held AP")},
}
#: the scenario of each ruleset's game (one with objectives)
SCENARIOS = {WC: "treasure_hunt.yaml"}
MOMENTS = ("action", "react", "held", "roll")
#: the fields of a pending step that name a model or a unit
MODEL_FIELDS = ("model", "target", "attacker", "actor", "unit", "leader")


def _new_game(ruleset_id: str, seed: int) -> Game:
    rs = registry.get(ruleset_id)
    bands = rs.samples()["warbands"]
    scenario = rs.default_scenario()
    if ruleset_id in SCENARIOS:
        scenario = scenario.with_name(SCENARIOS[ruleset_id])
    rosters = [rs.load_roster(Path(bands[0]["path"])), rs.load_roster(Path(bands[1]["path"]))]
    return Game.new(rs, rosters, rs.load_scenario(scenario), seed, {})


def _held(game: Game) -> bool:
    return any(o["owner"] is not None for o in table_view(game.ruleset, game.state)["objectives"])


def _choose(game: Game, rng: random.Random, goals: list[tuple[float, float]]) -> Any:
    """A seeded random choice, except that a move goes to the spot nearest an objective (so one gets held)."""
    legal = game.legal_actions()
    spots = [a for a in legal if a.point is not None]
    if goals and spots:
        return min(spots, key=lambda a: min(math.dist(a.point or (0, 0), g) for g in goals))
    return rng.choice(legal)


@cache
def moments(ruleset_id: str) -> dict[str, Game]:
    """The game at the :data:`MOMENTS` of a seeded random game: ``action`` (a model's menu holds a refused action),
    ``react`` (a reaction or interrupt is put to a side), ``held`` (a decision while an objective is held),
    ``roll`` (a model's dice are to be rolled)."""
    found: dict[str, Game] = {}
    for seed in range(1, 8):
        game, rng = _new_game(ruleset_id, seed), random.Random(seed)
        goals = [(o["at"][0], o["at"][1]) for o in table_view(game.ruleset, game.state)["objectives"]]
        for _ in range(3000):
            d = game.decision
            if d.kind == "over" or len(found) == len(MOMENTS):
                break
            if d.kind == "chance":
                if "roll" not in found and d.dice is not None and d.dice.model is not None:
                    found["roll"] = game.clone()
                game.roll()
                continue
            if "action" not in found and d.prompt == "action" and any(not i.legal for i in full_menu(game, d.model)):
                found["action"] = game.clone()
            if "react" not in found and d.prompt in REACTIONS[ruleset_id]:
                found["react"] = game.clone()
            if "held" not in found and d.prompt in ("action", "activate") and _held(game):
                found["held"] = game.clone()
            game.apply(_choose(game, rng, goals))
        if len(found) == len(MOMENTS):
            return found
    raise AssertionError(f"{ruleset_id}: seeded games did not reach {sorted(set(MOMENTS) - set(found))}")


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(Path(tmp) / "faces.db")
        yield live
        live.stop()


def seat_link(live: LiveServer, game: Game, name: str, side: int | None = None, dice: str = "digital") -> str:
    """A table at this moment of ``game``, its deciding seat (or ``side``) a person and the other an agent; that
    seat's link."""
    side = game.decision.player if side is None else side
    assert side in (0, 1)
    seats = ["random", "random"]
    seats[side] = "human"
    table_id = f"{name}-{random.Random(name).randrange(10**9)}"
    here = Game.from_json(game.to_json(), record=True)  # a game that logs its steps from this moment on
    here.log = here.log or []
    table = open_table(live.server.store, table_id, here, seats, dice)
    live.server.tables[table_id] = table
    return f"{live.url}/table/{table_id}?token={table.fresh_tokens[str(side)]}"


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("window.innerWidth")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    box = page.locator("[data-testid=actions]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5


def prompt_of(page: Any) -> str:
    page.wait_for_selector("[data-testid=your-turn]", timeout=WAIT)
    return str(page.inner_text("[data-testid=your-turn]"))


def open_at(browser: Any, size: str, url: str) -> Any:
    w, h = SIZES[size]
    page = browser.new_page(viewport={"width": w, "height": h})
    page.goto(url)
    prompt_of(page)
    return page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_a_turn_by_name_with_refusals_reactions_and_holders(
    browser: Any, server: LiveServer, ruleset_id: str, size: str
) -> None:
    at = moments(ruleset_id)

    # a model's menu: names in the roster and the buttons, the refused actions greyed with their rule
    game = at["action"]
    state, model = game.state, game.decision.model
    page = open_at(browser, size, seat_link(server, game, f"{ruleset_id}-{size}-action"))
    assert name_of(state, model) in prompt_of(page)
    page.wait_for_selector("[data-testid=refused] [data-testid^=illegal-]", timeout=WAIT)
    named = [m for m in state.models.values() if m.name and m.name != m.id]
    for side in (0, 1):
        m = next(x for x in named if x.side == side)
        assert m.name in page.inner_text(f"[data-testid='roster-{m.id}'] summary")
    buttons = page.locator("[data-testid^=action-]")
    assert buttons.count() and all(name_of(state, model) in buttons.nth(k).inner_text() for k in range(buttons.count()))
    refused = page.locator("[data-testid^=illegal-]").first
    assert refused.is_disabled()
    rule = str(refused.get_attribute("data-rule"))
    assert rule.startswith(f"{ruleset_id}/") and f"[{rule}]" in refused.inner_text()
    no_sideways_scroll(page)
    shot(page, f"faces-{ruleset_id}-{size}-menu")
    # play on by clicks until the turn passes to the other side (or a few decisions have been taken)
    rng = random.Random(7)
    for _ in range(6):
        before = page.get_attribute("[data-testid=turn]", "data-version")
        buttons = page.locator("[data-testid^=action-]")
        buttons.nth(rng.randrange(buttons.count())).click()
        spots = page.locator("[data-testid^=spot-]")
        if spots.count():
            spots.nth(rng.randrange(spots.count())).click()
        page.wait_for_function(
            f"document.querySelector('[data-testid=turn]')?.dataset.version !== '{before}'", timeout=WAIT
        )
        assert page.inner_text("[data-testid=error]") == ""
        page.wait_for_selector("[data-testid=your-turn], [data-testid=waiting], [data-testid=result]", timeout=WAIT)
        if page.locator("[data-testid=your-turn]").count() == 0:
            break
        page.wait_for_selector("[data-testid^=action-], [data-testid=roll-submit]", timeout=WAIT)
        if page.locator("[data-testid=roll-submit]").count():
            break
    no_sideways_scroll(page)
    page.close()

    # a reaction put to the other side: who acts, what it answers, what it costs
    game = at["react"]
    page = open_at(browser, size, seat_link(server, game, f"{ruleset_id}-{size}-react"))
    text = prompt_of(page)
    step = game.ruleset.pending_step(game.state)
    ids = {getattr(step, f) for f in MODEL_FIELDS if isinstance(getattr(step, f, None), str)} - {""}
    ids |= {game.decision.model} - {None}
    assert ids and all(name_of(game.state, i) in text for i in ids), (ids, text)
    trigger, cost = REACTIONS[ruleset_id][game.decision.prompt]
    assert re.search(trigger, text) and re.search(cost, text), text
    no_sideways_scroll(page)
    shot(page, f"faces-{ruleset_id}-{size}-reaction")
    page.close()

    # an objective held: its holder on the table and in the side panel
    game = at["held"]
    held = [o for o in table_view(game.ruleset, game.state)["objectives"] if o["owner"] is not None]
    page = open_at(browser, size, seat_link(server, game, f"{ruleset_id}-{size}-held"))
    o = held[0]
    who = f"side {'AB'[o['owner']]}"
    assert page.get_attribute(f"[data-testid='objective-{o['id']}']", "data-holder") == who
    assert f"held by {who}" in page.inner_text(f"[data-testid='holder-{o['id']}']")
    page.close()


def test_zoom_by_buttons_and_wheel_keeps_the_board_clickable(browser: Any, server: LiveServer) -> None:
    game = moments(TC)["action"]
    page = open_at(browser, "phone", seat_link(server, game, "zoom"))
    board = page.locator(".boardwrap")
    assert board.get_attribute("data-zoom") == "1.00"
    page.click("[data-testid=zoom-in]")
    assert float(board.get_attribute("data-zoom") or 0) > 1.4
    box = page.locator("[data-testid=board]").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -300)
    page.wait_for_function("Number(document.querySelector('.boardwrap').dataset.zoom) > 1.6")
    no_sideways_scroll(page)
    page.click("[data-testid=zoom-fit]")
    assert board.get_attribute("data-zoom") == "1.00"
    page.close()


def test_typed_dice_survive_a_reload_and_the_seat_recovers_after_a_restart(browser: Any, tmp_path: Path) -> None:
    game = moments(TC)["roll"]
    side = game.state.models[str(game.decision.dice and game.decision.dice.model)].side
    first = LiveServer(tmp_path / "restart.db")
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        page.goto(seat_link(first, game, "restart", side, "physical"))
        page.wait_for_selector("[data-testid=die-0]", timeout=WAIT)
        # the roll names the model and the dice kept
        said = page.inner_text("[data-testid=dice-said]")
        assert name_of(game.state, game.decision.dice.model if game.decision.dice else None) in said
        page.fill("[data-testid=die-0]", "3")
        page.reload()
        page.wait_for_selector("[data-testid=die-0]", timeout=WAIT)
        assert page.input_value("[data-testid=die-0]") == "3"
        first.stop()
        page.wait_for_function(
            "document.querySelector('[data-testid=error]').textContent.includes('cannot be reached')", timeout=WAIT
        )
        second = LiveServer(tmp_path / "restart.db", port=first.port)
        try:
            page.wait_for_function("document.querySelector('[data-testid=error]').textContent === ''", timeout=30_000)
            assert page.locator("[data-testid=your-turn]").count() == 1
            assert page.input_value("[data-testid=die-0]") == "3"
        finally:
            second.stop()
    finally:
        page.close()


@pytest.mark.parametrize("width", [360, 390])
def test_the_new_game_form_fits_a_phone(browser: Any, server: LiveServer, width: int) -> None:
    page = browser.new_page(viewport={"width": width, "height": 800})
    page.goto(server.url + "/")
    page.wait_for_selector("[data-testid=create]")
    page.wait_for_function("document.querySelector('[data-testid=ruleset]').options.length > 0")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.close()


def _close_spots() -> tuple[Game, list[int]]:
    """A Wyrdcry destination of side A whose candidate spots include two within 0.3" (issue 25: one of two such
    spots could not be clicked); the legal indexes of the two."""
    game, rng = _new_game(WC, 1), random.Random(1)
    for _ in range(3000):
        d = game.decision
        if d.kind == "chance":
            game.roll()
            continue
        legal = game.legal_actions()
        spots = [(i, a.point) for i, a in enumerate(legal) if a.point is not None]
        pairs = [(i, j) for i, p in spots for j, q in spots if i < j and p and q and math.dist(p, q) < 0.3]
        if pairs and d.player == 0:
            return game, list(pairs[0])
        game.apply(rng.choice(legal))
    raise AssertionError("no close spots")


def test_spots_a_fraction_of_an_inch_apart_are_each_clickable_once_zoomed(browser: Any, server: LiveServer) -> None:
    game, (i, j) = _close_spots()
    page = open_at(browser, "desktop", seat_link(server, game, "close-spots"))
    page.locator("[data-testid^=action-]", has_text="pick a spot").first.click()
    covered = [k for k in (i, j) if not _clickable(page, k)]
    assert covered, "the two spots were apart already: the case is not the one of the issue"
    box = page.locator(f"[data-testid=spot-{i}]").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    for _ in range(10):
        page.mouse.wheel(0, -200)
    page.wait_for_function("Number(document.querySelector('.boardwrap').dataset.zoom) > 8")
    assert _clickable(page, i) and _clickable(page, j)
    chosen = str(game.legal_actions()[covered[0]])
    page.locator(f"[data-testid=spot-{covered[0]}]").click()
    # the log tells the spot that was clicked, the one that was covered before the zoom
    page.wait_for_function(
        "(where) => document.querySelector('[data-testid=log]').textContent.includes(where)",
        arg=chosen[chosen.index("@") :],
        timeout=WAIT,
    )
    page.close()


def _clickable(page: Any, index: int) -> bool:
    try:
        page.locator(f"[data-testid=spot-{index}]").click(trial=True, timeout=1500)
    except Exception:  # Playwright's TimeoutError: another element would take the click
        return False
    return True

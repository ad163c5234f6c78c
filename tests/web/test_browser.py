"""The web table in a real headless Chromium: whole games by clicks against an agent in every ruleset (with
the other side's reactions and interrupts asked of the human seat in its own browser), two browsers that each act
only on their turn, physical dice typed in, and a replay stepped forward and back. Screenshots go to
``test-output/web/``.

Every wait is on the page's state (a selector, a version change), never on time, so a loaded machine only
makes the tests slower."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import yaml

from conftest import LiveServer, shot
from warband.kernel import ruleset as registry

pytestmark = pytest.mark.xdist_group("browser")

TC = "trench-crusade"
TT = "trenches-and-turbines"
WC = "wyrdcry"
GF = "gangfight"
STEP_TIMEOUT = 20_000


def short_scenario(ruleset_id: str, turns: int | None = None, zone_b: tuple[float, float] | None = None) -> bytes:
    """The ruleset's default scenario as an uploaded file's content, with fewer turns and/or side B's deployment
    zone moved to the band ``zone_b`` (y from, y to) across the table: close enough that the two sides fight in
    the single round a short test plays."""
    doc = yaml.safe_load(registry.get(ruleset_id).default_scenario().read_text(encoding="utf-8"))
    if turns is not None:
        doc["turns"] = turns
    if zone_b is not None:
        width, (y0, y1) = doc["table"]["width"], zone_b
        doc["deployment"][1]["polygon"] = [[0, y0], [width, y0], [width, y1], [0, y1]]
    return yaml.safe_dump(doc).encode()


def create_by_form(page: Any, live: LiveServer, ruleset_id: str, seats: tuple[str, str], **opts: Any) -> dict[str, str]:
    """Fill the new-game form and return the three links it shows."""
    page.goto(live.url + "/")
    page.select_option("[data-testid=ruleset]", ruleset_id)
    if "scenario" in opts:
        page.set_input_files(
            "[data-testid=upload-scenario]",
            files=[{"name": "short.yaml", "mimeType": "text/yaml", "buffer": opts["scenario"]}],
        )
        page.wait_for_function("document.querySelector('[data-testid=scenario]').value === '__upload__'")
    page.fill("[data-testid=seat-a]", seats[0])
    page.fill("[data-testid=seat-b]", seats[1])
    page.select_option("[data-testid=dice]", opts.get("dice", "digital"))
    page.fill("[data-testid=seed]", str(opts.get("seed", 1)))
    page.fill("[data-testid=params]", opts.get("params", ""))
    page.click("[data-testid=create]")
    page.wait_for_selector("[data-testid=link-A]")
    return {k: page.get_attribute(f"[data-testid=link-{k}]", "href") or "" for k in ("A", "B", "spectator")}


def version(page: Any) -> str:
    return str(page.get_attribute("[data-testid=turn]", "data-version"))


def wait_turn_or_end(page: Any) -> bool:
    """Wait until this seat must decide (True) or the game is over (False); if neither comes, fail with what the
    page says (a fault, the status, the last log lines)."""
    try:
        page.wait_for_selector("[data-testid=your-turn], [data-testid=result]", timeout=STEP_TIMEOUT)
    except Exception as exc:
        said = {
            key: page.locator(f"[data-testid={key}]").all_inner_texts()
            for key in ("status", "error", "turn", "waiting", "dice")
        }
        log = page.locator("[data-testid=log]").all_inner_texts()
        tail = log[-1][-800:] if log else ""
        raise AssertionError(f"neither this seat's turn nor the result came: {said}; log ends {tail}") from exc
    return page.locator("[data-testid=result]").count() == 0


def click_far_from(page: Any, spot: Any) -> None:
    """Click the table at the corner farthest from ``spot`` (out of reach of any move or deployment)."""
    board = page.locator("[data-testid=board]").bounding_box()
    box = spot.bounding_box()
    x = board["x"] + (3 if box["x"] - board["x"] > board["width"] / 2 else board["width"] - 3)
    y = board["y"] + (3 if box["y"] - board["y"] > board["height"] / 2 else board["height"] - 3)
    page.mouse.click(x, y)


def probe_illegal_click(page: Any, spots: Any) -> str:
    """Click an unreachable point of the table while choosing a spot: the error names the rule that forbids it.
    The screenshot shows the spots, the actions and the refusal."""
    click_far_from(page, spots.nth(0))
    page.wait_for_function("document.querySelector('[data-testid=error]').textContent.includes('[')")
    shot(page, f"choosing-{page.evaluate('document.title')}")
    return page.inner_text("[data-testid=error]")


def take_turn(page: Any, rng: random.Random, probe: list[str] | None = None) -> str:
    """Answer the pending decision by clicks (an action button, a spot on the table, or typed dice); returns
    what was done."""
    before = version(page)
    if page.locator("[data-testid=roll-submit]").count():
        inputs = page.locator("[data-testid^=die-]")
        for k in range(inputs.count()):
            inputs.nth(k).fill(str(rng.randint(1, int(inputs.nth(k).get_attribute("max") or 6))))
        page.click("[data-testid=roll-submit]")
        done = "dice"
    else:
        page.wait_for_selector("[data-testid^=action-]", timeout=STEP_TIMEOUT)
        buttons = page.locator("[data-testid^=action-]")
        buttons.nth(rng.randrange(buttons.count())).click()
        done = "action"
        spots = page.locator("[data-testid^=spot-]")
        if spots.count() and probe is not None and not probe:
            probe.append(probe_illegal_click(page, spots))
        if spots.count():
            spots.nth(rng.randrange(spots.count())).click()
            done = "spot"
    page.wait_for_function(
        f"document.querySelector('[data-testid=turn]')?.dataset.version !== '{before}'", timeout=STEP_TIMEOUT
    )
    assert page.inner_text("[data-testid=error]") == ""
    return done


def select_a_model(page: Any, name: str) -> bool:
    """Click a model that has actions on the table: only its actions are listed, with their odds."""
    with_model = page.locator("[data-testid^=action-][data-model]:not([data-model=''])")
    if not with_model.count():
        return False
    model = with_model.first.get_attribute("data-model")
    on_table = page.locator(f"[data-testid='model-{model}'], [data-testid^=model-][data-unit='{model}']")
    if not on_table.count():
        return False
    on_table.first.locator("circle.base").click(force=True)  # the base, not its badges beside it
    page.wait_for_selector("[data-testid=show-all]")
    listed = page.locator("[data-testid^=action-]")
    assert listed.count() > 0
    assert all(model in (listed.nth(k).inner_text()) for k in range(listed.count()))
    shot(page, f"selected-{name}")
    return True


def play_to_end(
    page: Any,
    seed: int,
    limit: int = 600,
    probe: list[str] | None = None,
    name: str = "",
    asked: list[str] | None = None,
    shoot: tuple[str, ...] = (),
) -> list[str]:
    """Answer every decision of this seat by clicks until the game is over; ``asked`` collects the prompt of
    each decision this browser was asked (the first of each kind in ``shoot`` is screenshotted)."""
    rng = random.Random(seed)
    done = []
    for n in range(limit):
        if not wait_turn_or_end(page):
            return done
        # the choices (or the dice form) are on the page before anything is clicked, so that what is clicked
        # depends on the seed only, never on how fast the legal actions came back
        page.wait_for_selector("[data-testid^=action-], [data-testid=roll-submit]", timeout=STEP_TIMEOUT)
        if asked is not None:
            prompt = str(page.get_attribute("[data-testid=your-turn]", "data-prompt"))
            if prompt in shoot and prompt not in asked:
                shot(page, f"asked-{name}-{prompt}")
            asked.append(prompt)
        if name and n >= 12 and "selected" not in done and select_a_model(page, name):
            done.append("selected")
        done.append(take_turn(page, rng, probe))
    raise AssertionError(f"the game did not end within {limit} decisions")


#: Per ruleset: the new-game settings of a short game, its seed, and the decisions of the other side's turn that
#: must be asked of the human seat in its own browser. The seeds were chosen so that such a moment occurs: in
#: Wyrdcry side B attacks a fighter of side A, which may react (seed 003 S 26-32: counter, take cover), and side
#: A spends its wyrd dice (ability dice, digest §A2.3); in Gangfight side B charges or shoots a model of side A
#: that holds an AP, which may interrupt (seed 004, Interrupts).
WHOLE_GAMES: dict[str, tuple[dict[str, Any], int, tuple[str, ...]]] = {
    TC: ({"scenario": short_scenario(TC, turns=1)}, 3, ()),
    TT: ({"params": "rounds=1"}, 3, ()),
    WC: (
        {"scenario": short_scenario(WC, zone_b=(5, 8)), "params": "battle_rounds=1, extra_round_from=7"},
        5,
        ("reaction", "wyrd"),
    ),
    GF: ({"scenario": short_scenario(GF, zone_b=(14, 22)), "params": "max_rounds=1"}, 10, ("interrupt",)),
}


@pytest.mark.parametrize("ruleset_id", list(WHOLE_GAMES))
def test_whole_game_by_clicks_against_an_agent(browser: Any, live: LiveServer, ruleset_id: str) -> None:
    settings, seed, must_ask = WHOLE_GAMES[ruleset_id]
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    links = create_by_form(page, live, ruleset_id, ("human", "random"), seed=seed, **settings)
    page.goto(live.url + links["A"])
    page.wait_for_selector("[data-testid^=model-], [data-testid=your-turn]")
    probe: list[str] = []
    asked: list[str] = []
    done = play_to_end(page, seed=7, probe=probe, name=ruleset_id, asked=asked, shoot=must_ask)
    for prompt in must_ask:
        assert prompt in asked, f"the human seat was never asked a {prompt!r} decision: {sorted(set(asked))}"
    assert "selected" in done, "a model was clicked to list its actions"
    assert probe and f"[{ruleset_id}/" in probe[0], f"an illegal click names its rule: {probe}"
    measure_two_models(page)
    shot(page, f"table-{ruleset_id}")
    assert "action" in done or "spot" in done
    assert "spot" in done, "no move was made by clicking a spot on the table"
    assert page.locator("[data-testid^=model-]").count() > 0
    log = page.inner_text("[data-testid=log]")
    assert "A: " in log and "B: " in log and "dice" in log
    page.close()


def measure_two_models(page: Any) -> None:
    """The ruler: two models clicked give their distances and whether one sees the other."""
    page.click("[data-testid=ruler]")
    models = page.locator("[data-testid^=model-]")
    models.nth(0).locator("circle.base").click(force=True)  # bases may overlap: any model answers the ruler
    models.nth(models.count() - 1).locator("circle.base").click(force=True)
    page.wait_for_function("document.querySelector('[data-testid=measure]').textContent.includes('line of sight')")
    text = page.inner_text("[data-testid=measure]")
    assert '" centre to centre' in text and ("clear" in text or "blocked" in text)


def test_two_browsers_each_act_only_on_their_turn(browser: Any, live: LiveServer) -> None:
    ctx_a, ctx_b = browser.new_context(), browser.new_context()
    setup = ctx_a.new_page()
    links = create_by_form(setup, live, TC, ("human", "human"), seed=5)
    pages = [ctx_a.new_page(), ctx_b.new_page()]
    for page, key in zip(pages, "AB", strict=True):
        page.goto(live.url + links[key])
    rng = random.Random(1)
    turns = []
    for _ in range(16):
        pages[0].wait_for_selector("[data-testid=your-turn], [data-testid=waiting]")
        pages[1].wait_for_selector("[data-testid=your-turn], [data-testid=waiting]")
        mine = [p.locator("[data-testid=your-turn]").count() for p in pages]
        if sum(mine) == 0:  # the server is rolling: wait for the next version
            pages[0].wait_for_timeout(50)
            continue
        assert sum(mine) == 1, "exactly one seat decides"
        side = mine.index(1)
        other = pages[1 - side]
        assert other.locator("[data-testid^=action-]").count() == 0, "the waiting seat is offered no action"
        before = version(other)
        take_turn(pages[side], rng)
        other.wait_for_function(
            f"document.querySelector('[data-testid=turn]')?.dataset.version !== '{before}'", timeout=STEP_TIMEOUT
        )
        turns.append(side)
    assert set(turns) == {0, 1}, f"both seats acted: {turns}"
    shot(pages[1], "two-browsers-seat-b")
    ctx_a.close()
    ctx_b.close()


def keeps_typed_faces_over_a_refresh(page: Any) -> None:
    """A refresh that brings no new version (a websocket echo, a reconnect) leaves the dice form alone: the
    faces typed so far stay (they were wiped once, and the submit then sent empty dice)."""
    page.locator("[data-testid=die-0]").fill("5")
    page.evaluate("window.warbandTable.refresh()")
    assert page.locator("[data-testid=die-0]").input_value() == "5"
    page.locator("[data-testid=die-0]").fill("")


def test_physical_dice_typed_by_the_deciding_seat(browser: Any, live: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    links = create_by_form(page, live, TC, ("human", "random"), dice="physical", seed=2)
    page.goto(live.url + links["A"])
    rng = random.Random(4)
    done: list[str] = []
    while done.count("dice") < 3 and wait_turn_or_end(page):
        if page.locator("[data-testid=roll-submit]").count() and "kept" not in done:
            keeps_typed_faces_over_a_refresh(page)
            done.append("kept")
        done.append(take_turn(page, rng))
    assert "kept" in done
    assert done.count("dice") >= 3
    assert "(manual)" in page.inner_text("[data-testid=log]")
    shot(page, "physical-dice")
    page.close()


def test_replay_steps_forward_and_back(browser: Any, live: LiveServer, tmp_path: Path) -> None:
    page = browser.new_page(viewport={"width": 1500, "height": 1000})
    links = create_by_form(page, live, TT, ("random", "random"), seed=4, params="rounds=1")
    page.goto(live.url + links["spectator"])
    page.wait_for_selector("[data-testid=result]", timeout=60_000)
    table_id, query = links["spectator"].split("/")[2].split("?")
    page.goto(f"{live.url}/replay/game-{table_id}?{query}")  # a web game's replay opens with one of its links
    page.wait_for_selector("[data-testid=replay-step]")
    page.click("[data-testid=replay-next]")
    page.click("[data-testid=replay-next]")
    page.wait_for_function("document.querySelector('[data-testid=replay-step]').textContent.startsWith('2 /')")
    page.click("[data-testid=replay-prev]")
    page.wait_for_function("document.querySelector('[data-testid=replay-step]').textContent.startsWith('1 /')")
    page.fill("[data-testid=replay-jump]", "40")
    page.click("[data-testid=replay-go]")
    page.wait_for_function("document.querySelector('[data-testid=replay-step]').textContent.startsWith('40 /')")
    assert page.locator("[data-testid^=model-]").count() > 0
    assert "current" in (page.get_attribute("[data-testid=replay-line-40]", "class") or "")
    # the line highlighted at step 40 is the step that led there, numbered as the slider counts
    assert page.inner_text("[data-testid=replay-line-40]").startswith("40. ")
    page.click("[data-testid=replay-play]")
    page.wait_for_function("!document.querySelector('[data-testid=replay-step]').textContent.startsWith('40 /')")
    page.click("[data-testid=replay-play]")
    shot(page, "replay")
    page.close()


def test_the_form_shows_every_problem_of_an_uploaded_warband(browser: Any, live: LiveServer) -> None:
    rs = registry.get(TC)
    doc = yaml.safe_load(Path(rs.samples()["warbands"][0]["path"]).read_text(encoding="utf-8"))
    doc["models"][0]["equipment"] = ["Rifel of Nowhere"]
    doc["models"][1]["equipment"] = ["Spoon of Doom"]
    page = browser.new_page()
    page.goto(live.url + "/")
    page.select_option("[data-testid=ruleset]", TC)
    page.set_input_files(
        "[data-testid=upload-warband-a]",
        files=[{"name": "broken.yaml", "mimeType": "text/yaml", "buffer": yaml.safe_dump(doc).encode()}],
    )
    page.wait_for_function("document.querySelector('[data-testid=warband-a]').value === '__upload__'")
    page.click("[data-testid=validate]")
    page.wait_for_function("document.querySelector('[data-testid=problems]').textContent.includes('scenario')")
    text = page.inner_text("[data-testid=problems]")
    assert "models[0].equipment[0]" in text and "models[1].equipment[0]" in text
    assert "warband-b: OK" in text and "scenario: OK" in text
    page.click("[data-testid=create]")
    page.wait_for_function("document.querySelector('[data-testid=problems]').textContent.includes('side A')")
    assert page.locator("[data-testid=link-A]").count() == 0
    shot(page, "new-game-problems")
    page.close()

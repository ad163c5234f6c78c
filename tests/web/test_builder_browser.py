"""The warband builder page in a real headless Chromium, on a wide screen and on a phone: a Heretic Legion list
built by clicks (the faction, models from the list, their kit), the rules it would break shown before and after,
the file saved and validated by ``warband validate``, a game started with it, and a short simulation.

Every wait is on the page's state (the plan's revision checked by the server, a selector), never on time."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import LiveServer, shot
from warband.cli.main import app

pytestmark = pytest.mark.xdist_group("browser")

TC = "trench-crusade"
WAIT = 30_000
VIEWPORTS = {"wide": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def checked(page: Any) -> None:
    """Wait until the server has checked the plan as it stands now."""
    page.wait_for_function(
        "() => { const m = document.querySelector('[data-testid=builder]');"
        " return m.dataset.rev && m.dataset.rev === m.dataset.checked; }",
        timeout=WAIT,
    )


def click(page: Any, testid: str) -> None:
    page.click(f"[data-testid='{testid}']")
    checked(page)


def no_sideways_scroll(page: Any) -> None:
    wide, view = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert wide <= view, f"the page scrolls sideways: {wide} px of content in a {view} px window"


def names_not_ids(page: Any) -> None:
    """The page speaks the lists' names: no ids (``heretic_priest``), no Python values (``None``, ``{'``)."""
    text = page.inner_text("main")
    ids = re.findall(r"\b[a-z]+_[a-z_]+\b", text)
    assert not ids and "None" not in text and "{'" not in text and "undefined" not in text, ids


def problems(page: Any) -> list[str]:
    rows = page.locator("[data-testid=problem]")
    return [rows.nth(k).inner_text() for k in range(rows.count())]


def build_the_choir(page: Any, live: LiveServer) -> None:
    """A Heretic Priest with a pistol, a sword and armour, three Heretic Troopers with rifles and clubs, and a
    Chorister with a sword, chosen from the Heretic Legion list."""
    page.goto(live.url + "/builder")
    checked(page)
    page.select_option("[data-testid=faction]", "heretic_legion")
    checked(page)
    page.fill("[data-testid=warband-name]", "The Choir")
    checked(page)
    assert "needs its leader (Heretic Priest)" in " ".join(problems(page))
    click(page, "add-heretic_priest")
    for item in ("pistol_revolver", "sword_axe", "standard_armour"):
        click(page, f"take-{item}")
    click(page, "add-heretic_trooper")
    click(page, "more-1")
    click(page, "more-1")
    for item in ("bolt_action_rifle", "trench_club"):
        click(page, f"take-{item}")
    click(page, "add-heretic_chorister")
    click(page, "take-sword_axe")
    page.fill("[data-testid=entry-name-0]", "Father Orobas")
    page.press("[data-testid=entry-name-0]", "Tab")
    checked(page)


@pytest.mark.parametrize("size", list(VIEWPORTS))
def test_build_a_legal_heretic_legion_list_save_it_and_play_it(
    browser: Any, live: LiveServer, tmp_path: Path, size: str
) -> None:
    page = browser.new_page(viewport=VIEWPORTS[size], accept_downloads=True)
    build_the_choir(page, live)
    assert page.locator("[data-testid=legal]").is_visible(), problems(page)
    assert page.inner_text("[data-testid=entry-title-0]") == "Father Orobas (Heretic Priest)"
    assert page.inner_text("[data-testid=entry-title-1]") == "3 x Heretic Trooper"
    # the list's prices: 80 + 6 + 4 + 15; 3 x (30 + 10 + 3); 65 + 4
    assert page.inner_text("[data-testid=entry-cost-0]") == "105 ducats"
    assert page.inner_text("[data-testid=entry-cost-1]") == "129 ducats"
    assert page.inner_text("[data-testid=tally-ducats]") == "303 of 700 ducats"
    assert page.locator("[data-testid=held-1-bolt_action_rifle]").inner_text().startswith("Bolt-Action Rifle")
    # the list's limits, before the choice: a second leader, a second Chorister, a third hand
    assert page.is_disabled("[data-testid=add-heretic_priest]")
    assert "fields at most 1 Heretic Priest (leader)" in page.inner_text("[data-testid=why-heretic_priest]")
    assert "fields at most 1 Heretic Chorister" in page.inner_text("[data-testid=why-heretic_chorister]")
    assert page.is_disabled("[data-testid=take-greatsword_greataxe]")
    assert "melee weapons need at most 2 hands" in page.inner_text("[data-testid=why-greatsword_greataxe]")
    no_sideways_scroll(page)
    names_not_ids(page)
    shot(page, f"builder-legal-{size}")
    # ... and after it: fewer ducats than it costs, a leader counted twice
    page.fill("[data-testid=points-limit]", "250")
    checked(page)
    assert any("ducats: expected a total of at most 250 ducats, found 303 (53 over)" in p for p in problems(page))
    assert "over" in (page.get_attribute("[data-testid=tally-ducats]", "class") or "")
    assert page.is_disabled("[data-testid=save]") and page.is_disabled("[data-testid=play]")
    assert "breaks 1 rule" in page.inner_text("[data-testid=use-reason]")
    page.fill("[data-testid=points-limit]", "700")
    checked(page)
    click(page, "more-0")
    found = problems(page)
    assert any("the Heretic Legion list fields at most 1 Heretic Priest (leader), found 2" in p for p in found), found
    assert "the Heretic Legion list fields at most 1 Heretic Priest" in page.inner_text("[data-testid=entry-0]")
    shot(page, f"builder-problem-{size}")
    no_sideways_scroll(page)
    names_not_ids(page)
    click(page, "less-0")
    assert page.locator("[data-testid=legal]").is_visible(), problems(page)

    with page.expect_download() as download:
        page.click("[data-testid=save]")
    saved = tmp_path / download.value.suggested_filename
    download.value.save_as(saved)
    assert saved.name == "the_choir.yaml"
    validate = CliRunner().invoke(app, ["validate", str(saved)])
    assert validate.exit_code == 0, validate.output
    assert "not modelled" not in validate.output  # every rule of the built Heretic Legion list is played

    # a game against a sample warband starts at once: no rule of either warband needs allowing
    assert not page.is_disabled("[data-testid=play]")
    page.click("[data-testid=play]")
    page.wait_for_selector("[data-testid=link-A]", timeout=WAIT)
    page.goto(live.url + (page.get_attribute("[data-testid=link-A]", "href") or ""))
    page.wait_for_selector("[data-testid=your-turn], [data-testid=waiting]", timeout=WAIT)
    assert "The Choir" in page.inner_text("[data-testid=who]")
    page.close()


def test_a_short_simulation_of_the_built_warband_kept_across_a_reload(browser: Any, live: LiveServer) -> None:
    page = browser.new_page(viewport=VIEWPORTS["wide"])
    build_the_choir(page, live)
    page.reload()  # the page keeps the draft in the browser
    checked(page)
    assert page.inner_text("[data-testid=entry-title-0]") == "Father Orobas (Heretic Priest)"
    assert page.input_value("[data-testid=warband-name]") == "The Choir"
    page.fill("[data-testid=games]", "2")
    page.select_option("[data-testid=agent-a]", "random")
    page.select_option("[data-testid=agent-b]", "random")
    page.click("[data-testid=simulate]")
    page.wait_for_function(
        "document.querySelector('[data-testid=sim-result]').textContent.includes('2 games')", timeout=120_000
    )
    text = page.inner_text("[data-testid=sim-result]")
    assert "The Choir (random)" in text and "--allow-unmodelled" not in text
    assert page.inner_text("[data-testid=error]") == ""
    shot(page, "builder-simulation")
    page.close()


def test_the_start_page_links_to_the_builder_which_fits_a_small_phone(browser: Any, live: LiveServer) -> None:
    page = browser.new_page(viewport={"width": 360, "height": 740})
    page.goto(live.url + "/")
    page.click("[data-testid=builder-link]")
    page.wait_for_selector("[data-testid=faction]")
    checked(page)
    page.select_option("[data-testid=faction]", "new_antioch")
    page.select_option("[data-testid=variant]", "papal_states_intervention_force")
    checked(page)
    assert page.input_value("[data-testid=points-limit]") == "500"  # the variant's own starting ducats and glory
    assert page.input_value("[data-testid=glory-limit]") == "11"
    click(page, "add-yeoman")
    assert page.locator("[data-testid=held-0-bolt_action_rifle]").count() == 1  # it joins with the rifle it may swap
    assert page.locator("[data-testid=kit]").is_visible()
    no_sideways_scroll(page)
    names_not_ids(page)
    page.close()

"""The README's pictures of the web table: for each installed ruleset, a game played by the API to the middle of its
first turn (seat A by random choices, seat B the random agent), then one model selected in headless Chromium, at a
desktop's 1280x800 (``web-table-RULESET.png``) and a phone's 390x844 (``web-table-RULESET-phone.png``); and
the warband builder holding a Heretic Legion list, one model's kit open (``web-builder.png``).

    python scripts/web_screenshots.py --out docs/images [--only builder|tables]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from warband.kernel import ruleset as registry

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "web"))
from conftest import CHROMIUM_ARGS, LiveServer, chromium_path

#: seat A's decisions before the picture, per ruleset (any ruleset not named: DEFAULT_CHOICES)
GAMES: dict[str, int] = {"trench-crusade": 40, "trenches-and-turbines": 40}
DEFAULT_CHOICES = 40
#: the sizes of each table's pictures: a desktop's, and a phone's (``web-table-RULESET-phone.png``)
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def advance(url: str, game: dict[str, Any], choices: int, rng: random.Random) -> None:
    """Seat A answers ``choices`` of its decisions with random legal actions."""
    token = game["links"]["A"].split("token=")[1]
    done = 0
    while done < choices:
        snap = httpx.get(f"{url}/api/games/{game['id']}", params={"token": token}).json()
        if not snap["your_turn"]:
            time.sleep(0.05)
            continue
        actions = httpx.get(f"{url}/api/games/{game['id']}/legal", params={"token": token}).json()["actions"]
        a = rng.choice(actions)
        action = {k: a[k] for k in ("kind", "model", "target", "point", "option") if k in a}
        body = {"version": snap["version"], "action": action}
        httpx.post(f"{url}/api/games/{game['id']}/act", json=body, headers={"X-Token": token})
        done += 1


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=Path("docs/images"))
    ap.add_argument("--ruleset", action="append", help="only this ruleset (repeatable; default: every installed one)")
    ap.add_argument("--only", choices=("builder", "tables"), help="only the builder's picture, or only the tables'")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        live = LiveServer(Path(tmp) / "shots.db")
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
                for ruleset_id in (args.ruleset or registry.available()) if args.only != "builder" else ():
                    shoot(browser, live.url, ruleset_id, GAMES.get(ruleset_id, DEFAULT_CHOICES), args.out)
                if args.only != "tables":
                    shoot_builder(browser, live.url, args.out)
                browser.close()
        finally:
            live.stop()


def shoot(browser: Any, url: str, ruleset_id: str, choices: int, out: Path) -> None:
    meta = httpx.get(f"{url}/api/meta").json()
    bands = next(r for r in meta["rulesets"] if r["id"] == ruleset_id)["warbands"]
    body = {
        "ruleset": ruleset_id,
        "a": {"sample": bands[0]["id"]},
        "b": {"sample": bands[1]["id"]},
        "seats": ["human", "random"],
        "seed": 11,
    }
    game = httpx.post(f"{url}/api/games", json=body).json()
    advance(url, game, choices, random.Random(5))
    for size, (width, height) in SIZES.items():
        name = f"web-table-{ruleset_id}{'' if size == 'desktop' else '-' + size}.png"
        page = browser.new_page(viewport={"width": width, "height": height})
        page.goto(url + game["links"]["A"])
        page.wait_for_selector("[data-testid=your-turn]")
        with_model = page.locator("[data-testid^=action-][data-model]:not([data-model=''])")
        if with_model.count():
            model = with_model.first.get_attribute("data-model")
            base = page.locator(f"[data-testid='model-{model}'], [data-testid^=model-][data-unit='{model}']")
            base.first.locator("circle.base").click(force=True)
            page.wait_for_selector("[data-testid=show-all]")
            roster = page.locator("details.rmodel.chosen summary")
            if size == "desktop" and roster.count():
                roster.first.click()  # the model's sheet: profile, weapons with range and keywords
            pick = page.locator("[data-testid^=action-]", has_text="pick a spot")
            if pick.count():
                pick.first.click()
        page.mouse.move(0, 0)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / name))
        page.close()
        print(out / name)


#: The builder's picture: a draft as the page keeps it (its own localStorage), the Troopers' kit open.
BUILDER_DRAFT = {
    "ruleset": "trench-crusade",
    "plan": {
        "name": "The Choir of the Ninth Gate",
        "list_id": "heretic_legion",
        "points_limit": 700,
        "glory_limit": 0,
        "picks": [
            {
                "model": "heretic_priest",
                "count": 1,
                "name": "Father Orobas",
                "items": ["pistol_revolver", "sword_axe", "standard_armour"],
                "upgrades": [],
            },
            {
                "model": "heretic_trooper",
                "count": 3,
                "name": None,
                "items": ["bolt_action_rifle", "trench_club"],
                "upgrades": [],
            },
            {"model": "heretic_chorister", "count": 1, "name": None, "items": ["sword_axe"], "upgrades": []},
            {"model": "war_wolf_assault_beast", "count": 1, "name": None, "items": [], "upgrades": []},
        ],
    },
}


def shoot_builder(browser: Any, url: str, out: Path) -> None:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url + "/builder")
    page.evaluate("draft => localStorage.setItem('warband-builder-draft', JSON.stringify(draft))", BUILDER_DRAFT)
    page.reload()
    wait_checked(page)
    page.click("[data-testid=kit-1]")
    wait_checked(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(out / "web-builder.png"))
    page.close()
    print(out / "web-builder.png")


def wait_checked(page: Any) -> None:
    page.wait_for_function(
        "() => { const m = document.querySelector('[data-testid=builder]');"
        " return m.dataset.rev && m.dataset.rev === m.dataset.checked; }"
    )


if __name__ == "__main__":
    main()

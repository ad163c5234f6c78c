"""Issue 24 item 8: scenario numbers are checked like warband numbers (a finite number, in its range, ``true``
is not a number). Each edit of a bundled scenario is refused by ``validate`` (exit 2, the file and the place
named) and by the web's upload (422), instead of breaking the game later."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml
from attack import RULESETS, timed, web
from hardcli import cli, scenario

from warband.kernel.errors import ScenarioError
from warband.kernel.ruleset import get

Doc = dict[str, Any]

EDITS: dict[str, tuple[Callable[[Doc], None], str]] = {
    "terrain-height-inf": (lambda d: d["terrain"][0].update(height=float("inf")), "terrain[0].height"),
    "terrain-height-nan": (lambda d: d["terrain"][0].update(height=float("nan")), "terrain[0].height"),
    "terrain-height-huge": (lambda d: d["terrain"][0].update(height=1e9), "terrain[0].height"),
    "terrain-height-true": (lambda d: d["terrain"][0].update(height=True), "terrain[0].height"),
    "terrain-point-inf": (
        lambda d: d["terrain"][0]["polygon"][0].__setitem__(0, float("inf")),
        "terrain[0].polygon[0][0]",
    ),
    "terrain-point-true": (lambda d: d["terrain"][0]["polygon"][0].__setitem__(0, True), "terrain[0].polygon[0][0]"),
    "terrain-cover-1": (lambda d: d["terrain"][0].update(cover=1), "terrain[0].cover"),
    "table-width-inf": (lambda d: d["table"].update(width=float("inf")), "table.width"),
    "table-width-huge": (lambda d: d["table"].update(width=1e40), "table.width"),
    "table-width-true": (lambda d: d["table"].update(width=True), "table.width"),
    "table-depth-negative": (lambda d: d["table"].update(depth=-36), "table.depth"),
    "turns-1e40": (lambda d: d.update(turns=1e40), "turns"),
    "turns-true": (lambda d: d.update(turns=True), "turns"),
    "turns-1000": (lambda d: d.update(turns=1000), "turns"),
    "turns-float": (lambda d: d.update(turns=4.5), "turns"),
    "objective-radius-inf": (lambda d: d["objectives"][0].update(radius=float("inf")), "objectives[0].radius"),
    "objective-vp-1e30": (lambda d: d["objectives"][0].update(vp=10**30), "objectives[0].vp"),
    "objective-vp-true": (lambda d: d["objectives"][0].update(vp=True), "objectives[0].vp"),
    "objective-at-nan": (lambda d: d["objectives"][0].update(at=[float("nan"), 1]), "objectives[0].at"),
    "zone-side-true": (lambda d: d["deployment"][0].update(side=True), "deployment[0].side"),
    "rules-inf": (lambda d: d.setdefault("rules", {}).update(anything=float("inf")), "rules"),
}


def _edited(ruleset: str, edit: str) -> Doc:
    doc: Doc = yaml.safe_load(scenario(ruleset).read_text())
    if edit.startswith("objective") and not doc.get("objectives"):
        doc["objectives"] = [{"id": "o1", "at": [10, 10], "radius": 3, "vp": 1}]
    EDITS[edit][0](doc)
    return doc


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_scenario_loader_refuses_a_number_out_of_bounds(edit: str, ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / f"{edit}.yaml"
    path.write_text(yaml.safe_dump(_edited(ruleset, edit)))
    with pytest.raises(ScenarioError) as info:
        timed(lambda: get(ruleset).load_scenario(path))
    assert any(p.file == str(path) and p.place.startswith(EDITS[edit][1]) for p in info.value.problems), info.value


@pytest.mark.parametrize("ruleset", RULESETS)
@pytest.mark.parametrize("edit", ["terrain-height-inf", "table-width-true", "objective-vp-1e30", "turns-1e40"])
def test_validate_refuses_them_with_exit_2(edit: str, ruleset: str, tmp_path: Path) -> None:
    path = tmp_path / f"{edit}.yaml"
    path.write_text(yaml.safe_dump(_edited(ruleset, edit)))
    out = timed(lambda: cli("validate", path))
    assert out.code == 2 and str(path) in out.text and EDITS[edit][1] in out.text, out.text


@pytest.mark.parametrize("edit", ["terrain-height-inf", "table-width-inf", "objective-vp-1e30", "turns-1e40"])
def test_the_web_refuses_them_too(edit: str) -> None:
    text = yaml.safe_dump(_edited("trench-crusade", edit))
    with web() as c:
        r = timed(
            lambda: c.post(
                "/api/validate", json={"ruleset": "trench-crusade", "kind": "scenario", "doc": {"text": text}}
            )
        )
    assert r.status_code == 422 and EDITS[edit][1] in r.text, r.text

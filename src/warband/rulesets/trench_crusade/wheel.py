"""Broken on the Wheel (Anchorite Shrine, Trench Pilgrims; ../shared/data/trench-crusade/keywords.yaml).

Before battle a Pilgrim or a Prisoner (ours: a Trench Pilgrim or an Ecclesiastic Prisoner of the warband) may be
strapped to the shrine's wheel: the warband file says so with ``wheel: true`` on that model's entry (a single
model; at most one per Anchorite Shrine, checked by :func:`wheel_problems`). In battle the pair act as one model:
the volunteer is not deployed nor activated and counts for nothing in Morale (ours), and every Injury Roll the
shrine would take is the volunteer's while it lives (the attacks hit it first). The volunteer dies afterwards
(ours): taken Out of Action with its shrine, and Out of Action in the battle's result when the battle ends.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from warband.kernel.events import Event, Note
from warband.kernel.state import Model
from warband.rulesets.trench_crusade.book import Entry
from warband.rulesets.trench_crusade.core import R, State

RULE = f"{R}/ability/broken_on_the_wheel"
VOLUNTEERS = ("trench_pilgrim", "ecclesiastic_prisoner")
SHRINE_ABILITY = "broken_on_the_wheel"


def wheel_problems(entries: Sequence[Entry]) -> list[tuple[str, str]]:
    """(place, why) of each volunteer the list's rule refuses: its model, its count, more than the shrines."""
    out = []
    shrines = sum(e.count for e in entries if SHRINE_ABILITY in e.profile.abilities)
    volunteers = [e for e in entries if e.wheel]
    for e in volunteers:
        if e.profile.id not in VOLUNTEERS:
            out.append(
                (
                    f"{e.place}.wheel",
                    f"Broken on the Wheel: only a Trench Pilgrim or an Ecclesiastic Prisoner is "
                    f"strapped to the wheel, not a {e.profile.name}",
                )
            )
        if e.count > 1:
            out.append(
                (f"{e.place}.count", f"Broken on the Wheel: a volunteer is a single model, found count {e.count}")
            )
    if len(volunteers) > shrines:
        out.append(
            (
                f"{volunteers[0].place}.wheel",
                f"Broken on the Wheel: {len(volunteers)} volunteers for {shrines} Anchorite Shrine(s) (one each)",
            )
        )
    return out


def strap(models: Iterable[Model]) -> None:
    """Pair each side's volunteers with its shrines, in roster order (flags ``on_wheel`` and ``wheel``)."""
    ms = list(models)
    for side in (0, 1):
        shrines = [m for m in ms if m.side == side and SHRINE_ABILITY in m.data.get("abilities", ())]
        volunteers = [m for m in ms if m.side == side and m.data.get("wheel")]
        for shrine, v in zip(shrines, volunteers, strict=False):
            shrine.flags["wheel"] = v.id
            v.flags["on_wheel"] = shrine.id


def volunteer(state: State, m: Model) -> Model | None:
    """The living volunteer strapped to ``m``'s wheel, who takes its injuries, or None."""
    vid = m.flags.get("wheel")
    v = state.models.get(str(vid)) if vid else None
    return v if v is not None and not v.flags.get("out") else None


def on_wheel(m: Model) -> bool:
    return bool(m.data.get("wheel"))


def fall_with(state: State, m: Model, events: list[Event]) -> None:
    """A shrine taken out takes its volunteer with it; a volunteer taken out leaves the wheel empty."""
    shrine = state.models.get(str(m.flags.get("on_wheel") or ""))
    if shrine is not None and shrine.flags.get("wheel") == m.id:
        shrine.flags.pop("wheel", None)
    v = volunteer(state, m)
    if v is not None:
        m.flags.pop("wheel", None)
        v.flags["out"] = True
        v.flags.pop("down", None)
        events.append(Note(f"{v.id} dies on {m.id}'s wheel", RULE))

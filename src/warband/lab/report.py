"""A run's results as a self-contained HTML report: ``warband report DB [--run ID] [--out DIR]``.

Everything is read from the results database (:mod:`warband.lab.store`): no ruleset is needed to draw it.
``DIR/index.html`` has its CSS inline and its charts embedded as ``data:`` URIs (the file alone is the whole
report); the same charts are written as PNG files beside it, and the logs of the most lopsided games under
``DIR/games/`` so that ``warband replay <log> --verify`` re-plays them.

Every chart has a heading saying what it shows and a one-line takeaway computed from the data; "significant"
always means that the 95% Wilson interval excludes the even (50%) line.
"""

from __future__ import annotations

import base64
import html
import io
import os
import textwrap
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from matplotlib.figure import Figure

from warband.kernel.files import write_atomic
from warband.kernel.log import write_text_atomic
from warband.kernel.result import ModelFate
from warband.lab.fonts import chart_fonts, drawable
from warband.lab.stats import wilson_interval
from warband.lab.store import GameRow, RunInfo, Store, StoreError

SIDES = ("a", "b")
COLOURS = {"a": "#2b6cb0", "b": "#c05621", None: "#8a8a8a"}
LOPSIDED = 3
#: where ``warband serve`` listens by default; its replay view opens lab games as ``lab-<run>-<index>``
WEB_TABLE = "http://127.0.0.1:8000"


# --- numbers ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Rate:
    """``count`` of ``n`` with its 95% Wilson interval."""

    count: int
    n: int

    @property
    def value(self) -> float:
        return self.count / self.n if self.n else 0.0

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.count, self.n)

    def text(self) -> str:
        low, high = self.ci
        return f"{_pct(self.value)} ({_pct(low)}–{_pct(high)})"

    def verdict(self) -> str:
        low, high = self.ci
        if low > 0.5:
            return "significantly better than even"
        if high < 0.5:
            return "significantly worse than even"
        return "no significant difference from even"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}%"


@dataclass(slots=True)
class TypeStats:
    """One model type of one side, over every game of the run."""

    side: str
    type: str
    fielded: int = 0
    points: float = 0
    kills: int = 0
    deaths: int = 0
    down: int = 0
    friendly_kills: int = 0

    @property
    def survival(self) -> float:
        return 1.0 - self.deaths / self.fielded if self.fielded else 0.0

    @property
    def kills_per_100(self) -> float:
        return 100.0 * self.kills / self.points if self.points else 0.0


@dataclass(slots=True)
class Material:
    """One side's points fielded and points of enemies taken out, over every game."""

    fielded: float = 0
    taken_out: float = 0

    @property
    def per_point(self) -> float:
        return self.taken_out / self.fielded if self.fielded else 0.0


@dataclass(frozen=True, slots=True)
class Lopsided:
    row: GameRow
    vp_margin: int
    material: tuple[float, float]
    log: Path | None


@dataclass(slots=True)
class Analysis:
    """What the report shows, computed from a run's stored games."""

    run: RunInfo
    games: list[GameRow]
    wins: dict[str | None, int] = field(default_factory=dict)
    types: list[TypeStats] = field(default_factory=list)
    material: dict[str, Material] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.games)

    def rate(self, side: str | None) -> Rate:
        return Rate(self.wins.get(side, 0), self.n)

    def decisive(self) -> Rate:
        """Side A's share of the games that were not drawn."""
        a, b = self.wins.get("a", 0), self.wins.get("b", 0)
        return Rate(a, a + b)

    def first_player(self) -> tuple[Rate, int]:
        """The first-Initiative side's share of the decisive games where it is known, and how many games know it."""
        known = [g for g in self.games if g.first_player is not None]
        decisive = [g for g in known if g.winner is not None]
        return Rate(sum(1 for g in decisive if g.winner == g.first_player), len(decisive)), len(known)


def analyse(run: RunInfo, games: Sequence[GameRow]) -> Analysis:
    result = Analysis(run, list(games))
    types: dict[tuple[str, str], TypeStats] = {}
    result.material = {side: Material() for side in SIDES}
    for game in games:
        result.wins[game.winner] = result.wins.get(game.winner, 0) + 1
        for model in game.models:
            _count_model(model, types, result.material)
    result.types = sorted(types.values(), key=lambda t: (t.side, -t.points, t.type))
    return result


def _count_model(model: ModelFate, types: dict[tuple[str, str], TypeStats], material: dict[str, Material]) -> None:
    side = SIDES[model.side]
    stats = types.setdefault((side, model.type), TypeStats(side, model.type))
    stats.fielded += 1
    stats.points += model.points
    stats.kills += model.kills  # enemies only: friends a model took out are counted apart
    stats.friendly_kills += model.friendly_kills
    stats.deaths += int(model.out)
    stats.down += int(model.fate == "down")
    material[side].fielded += model.points
    if model.out_by_enemy:
        material[SIDES[1 - model.side]].taken_out += model.points


def material_taken(game: GameRow) -> tuple[float, float]:
    """Points of enemies each side (a, b) took out in ``game``."""
    lost = [0.0, 0.0]
    for model in game.models:
        if model.out:
            lost[model.side] += model.points
    return (_whole(lost[1]), _whole(lost[0]))


def _whole(x: float) -> float:
    """Points as a reader expects them: whole numbers without a decimal point."""
    return int(x) if float(x).is_integer() else round(x, 1)


def lopsided(games: Iterable[GameRow], k: int = LOPSIDED) -> list[tuple[GameRow, int, tuple[float, float]]]:
    """The ``k`` games with the largest VP margin, ties broken by the larger material margin, then by index."""
    scored = []
    for game in games:
        taken = material_taken(game)
        scored.append((abs(game.score[0] - game.score[1]), abs(taken[0] - taken[1]), -game.index, game, taken))
    scored.sort(key=lambda s: s[:3], reverse=True)
    return [(s[3], s[0], s[4]) for s in scored[:k]]


# --- charts ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Chart:
    name: str
    png: bytes

    def data_uri(self) -> str:
        return "data:image/png;base64," + base64.b64encode(self.png).decode("ascii")


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    return buf.getvalue()


def _wrap(label: str, width: int = 22) -> str:
    return "\n".join(textwrap.wrap(label, width)) or label


def _error_bars(rates: Sequence[Rate]) -> list[list[float]]:
    return [[r.value - r.ci[0] for r in rates], [r.ci[1] - r.value for r in rates]]


def chart_wins(a: Analysis) -> Chart:
    fig = Figure(figsize=(7, 3.6))
    ax = fig.add_subplot()
    labels = [_wrap(drawable(a.run.names[0], "warband A")), _wrap(drawable(a.run.names[1], "warband B")), "draw"]
    rates = [a.rate("a"), a.rate("b"), a.rate(None)]
    ax.bar(
        labels,
        [100 * r.value for r in rates],
        color=[COLOURS["a"], COLOURS["b"], COLOURS[None]],
        yerr=[[100 * e for e in row] for row in _error_bars(rates)],
        capsize=8,
    )
    for i, r in enumerate(rates):
        ax.annotate(
            f"{_pct(r.value)}\n({r.count} of {r.n})",
            (i, 100 * r.ci[1]),
            ha="center",
            va="bottom",
            fontsize=9,
            xytext=(0, 3),
            textcoords="offset points",
        )
    ax.set_ylim(0, 115)
    ax.set_ylabel("% of games (bars: 95% Wilson interval)")
    ax.set_title("Share of games won by each warband")
    return Chart("win_rates.png", _png(fig))


def chart_length(a: Analysis) -> Chart:
    fig = Figure(figsize=(7, 3.6))
    ax = fig.add_subplot()
    turns = sorted({g.turns for g in a.games})
    bottom = [0] * len(turns)
    names = (drawable(a.run.names[0], "warband A"), drawable(a.run.names[1], "warband B"))
    for side, label in (("a", names[0]), ("b", names[1]), (None, "draw")):
        counts = [sum(1 for g in a.games if g.turns == t and g.winner == side) for t in turns]
        ax.bar(
            [str(t) for t in turns],
            counts,
            bottom=bottom,
            color=COLOURS[side],
            label=f"won by {label}" if side else label,
        )
        bottom = [b + c for b, c in zip(bottom, counts, strict=True)]
    ax.set_xlabel("turn the game ended in")
    ax.set_ylabel("games")
    ax.set_title("When games end, and who won them")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
    return Chart("game_length.png", _png(fig))


def chart_first(a: Analysis) -> Chart:
    fig = Figure(figsize=(7, 3.2))
    ax = fig.add_subplot()
    first, _known = a.first_player()
    second = Rate(first.n - first.count, first.n)
    rates = [first, second]
    ax.bar(
        ["side with the first Initiative", "the other side"],
        [100 * r.value for r in rates],
        color=["#2f855a", "#9b2c2c"],
        yerr=[[100 * e for e in row] for row in _error_bars(rates)],
        capsize=8,
    )
    ax.axhline(50, color="#444", linestyle="--", linewidth=1)
    ax.set_ylim(0, 105)
    ax.set_ylabel("% of decisive games won")
    ax.set_title("Does going first help? (dashed line: even)")
    return Chart("first_player.png", _png(fig))


def chart_types(a: Analysis) -> Chart:
    types = a.types
    fig = Figure(figsize=(9, 0.45 * max(4, len(types)) + 1.4))
    left, right = fig.subplots(1, 2, sharey=True)
    labels = [f"{drawable(t.type, 'model type')} ({'AB'[SIDES.index(t.side)]})" for t in types]
    colours = [COLOURS[t.side] for t in types]
    y = list(range(len(types)))
    left.barh(y, [t.kills_per_100 for t in types], color=colours)
    left.set_yticks(y, labels, fontsize=8)
    left.invert_yaxis()
    left.set_xlabel("kills per 100 points spent")
    left.set_title("Damage dealt for the points")
    right.barh(y, [100 * t.survival for t in types], color=colours)
    right.set_xlim(0, 100)
    right.set_xlabel("% of models still in the game at the end")
    right.set_title("Survival")
    return Chart("model_types.png", _png(fig))


# --- takeaways ---------------------------------------------------------------------------------------
def takeaway_wins(a: Analysis) -> str:
    name_a, name_b = a.run.names
    decisive = a.decisive()
    if decisive.n == 0:
        return f"All {a.n} games were drawn."
    leader, share = (
        (name_a, decisive) if decisive.value >= 0.5 else (name_b, Rate(decisive.n - decisive.count, decisive.n))
    )
    return (
        f"{name_a} wins {a.rate('a').text()} of games, {name_b} {a.rate('b').text()}, draws "
        f"{_pct(a.rate(None).value)}. Of the {decisive.n} decisive games {leader} wins {share.text()}: "
        f"{share.verdict()}."
    )


def takeaway_length(a: Analysis) -> str:
    if not a.games:
        return "No games."
    last = max(g.turns for g in a.games)
    at_last = sum(1 for g in a.games if g.turns == last)
    reasons: dict[str, int] = {}
    for g in a.games:
        reasons[g.reason] = reasons.get(g.reason, 0) + 1
    common, count = max(reasons.items(), key=lambda kv: (kv[1], kv[0]))
    mean = sum(g.turns for g in a.games) / a.n
    return (
        f"Games last {mean:.1f} turns on average; {_pct(at_last / a.n)} end in turn {last}. Most common "
        f"ending: \u201c{common}\u201d ({count} of {a.n})."
    )


def takeaway_first(a: Analysis) -> str:
    rate, known = a.first_player()
    if known == 0:
        return (
            "Not recorded: this ruleset does not expose who holds the Initiative, so first-player advantage "
            "cannot be measured."
        )
    if rate.n == 0:
        return f"The first player is known in {known} games, but none was decisive."
    return f"The side with the first Initiative wins {rate.text()} of the {rate.n} decisive games: {rate.verdict()}."


def takeaway_types(a: Analysis) -> str:
    if not a.types:
        return "No per-model outcomes were recorded."
    best = max(a.types, key=lambda t: (t.kills_per_100, t.type))
    hardy = max(a.types, key=lambda t: (t.survival, t.fielded, t.type))
    ma, mb = a.material["a"], a.material["b"]
    return (
        f"Most kills for the points: {best.type} ({a.run.names[SIDES.index(best.side)]}), "
        f"{best.kills_per_100:.2f} per 100 points. Hardiest: {hardy.type} "
        f"({a.run.names[SIDES.index(hardy.side)]}), {_pct(hardy.survival)} survive. Points of enemies taken out "
        f"per point fielded: {a.run.names[0]} {ma.per_point:.2f}, {a.run.names[1]} {mb.per_point:.2f}."
        + _friendly_text(a)
    )


def _friendly_text(a: Analysis) -> str:
    """Friends taken out by their own side (stray shots into a melee), counted apart from kills; empty if none."""
    n = sum(t.friendly_kills for t in a.types)
    return f" Friendly casualties (counted apart, no kills): {n}." if n else ""


# --- the page --------------------------------------------------------------------------------------
CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; max-width: 980px; margin: 2em auto;
       padding: 0 1em; color: #1a202c; line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; } h2 { font-size: 1.25em; margin-top: 2em;
     border-bottom: 2px solid #e2e8f0; padding-bottom: 0.2em; }
.meta { color: #4a5568; font-size: 0.9em; } .takeaway { font-weight: 600; background: #f7fafc;
        border-left: 4px solid #2b6cb0; padding: 0.5em 0.8em; }
table { border-collapse: collapse; margin: 0.8em 0; font-size: 0.9em; } th, td { padding: 0.25em 0.7em;
        border-bottom: 1px solid #e2e8f0; text-align: right; } th:first-child, td:first-child { text-align: left; }
img { max-width: 100%; } code { background: #edf2f7; padding: 0.1em 0.3em; border-radius: 3px; }
table.games td, table.games th { text-align: left; vertical-align: top; }
.a { color: #2b6cb0; } .b { color: #c05621; } .note { color: #4a5568; font-size: 0.85em; }
"""


def _e(x: object) -> str:
    return html.escape(str(x))


def _figure(chart: Chart, alt: str) -> str:
    return (
        f'<p><a href="{_e(chart.name)}"><img src="{chart.data_uri()}" alt="{_e(alt)}"></a><br>'
        f'<span class="note">Chart file: <a href="{_e(chart.name)}">{_e(chart.name)}</a></span></p>'
    )


def _table(head: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    out = ["<table><tr>", *(f"<th>{_e(h)}</th>" for h in head), "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _header(a: Analysis) -> str:
    r = a.run
    params = ", ".join(f"{k}={v}" for k, v in r.params.items()) or "defaults"
    scenario = r.scenario.get("name", "scenario") if isinstance(r.scenario, dict) else "scenario"
    return (
        f"<h1><span class='a'>{_e(r.names[0])}</span> vs <span class='b'>{_e(r.names[1])}</span></h1>"
        f"<p class='meta'>{a.n} games of {_e(r.ruleset)} {_e(r.ruleset_version)} on {_e(scenario)} · "
        f"agents {_e(r.agents[0])} (A) and {_e(r.agents[1])} (B) · seed {r.seed} · parameters: {_e(params)}"
        f"{' · sides swapped in odd games' if r.swap_sides else ''} · run {r.id}, created {_e(r.created)}</p>"
    )


def _wins_section(a: Analysis, chart: Chart) -> str:
    rows = [
        (a.run.names[0] + " (A)", f"won {a.rate('a').count} of {a.n} games", a.rate("a").text()),
        (a.run.names[1] + " (B)", f"won {a.rate('b').count} of {a.n} games", a.rate("b").text()),
        ("draws", f"{a.rate(None).count} of {a.n} games", a.rate(None).text()),
    ]
    return (
        f"<h2>Who wins? Share of games won by each warband</h2><p class='takeaway'>{_e(takeaway_wins(a))}</p>"
        + _figure(chart, "win rates with 95% intervals")
        + _table(("", "games", "rate (95% Wilson interval)"), rows)
    )


def _types_section(a: Analysis, chart: Chart) -> str:
    rows = [
        (
            f"{t.type} ({'AB'[SIDES.index(t.side)]})",
            t.fielded,
            _whole(t.points),
            t.kills,
            t.deaths,
            _pct(t.survival),
            f"{t.kills_per_100:.2f}",
        )
        for t in a.types
    ]
    material = [
        (
            f"{a.run.names[i]} ({'AB'[i]})",
            _whole(a.material[s].fielded),
            _whole(a.material[s].taken_out),
            f"{a.material[s].per_point:.2f}",
        )
        for i, s in enumerate(SIDES)
    ]
    return (
        "<h2>Which models pull their weight? Kills, deaths and survival per model type</h2>"
        f"<p class='takeaway'>{_e(takeaway_types(a))}</p>"
        + _figure(chart, "per model type")
        + "<p class='note'><b>Kills per 100 points</b> = kills made by models of that type ÷ points spent on them "
        "(over all games) × 100; a kill is an enemy taken out: a friend felled by a stray shot into a melee is "
        "counted apart, in no one's kills and in no enemy's points taken out. <b>Survival</b> = share of those "
        "models not taken out at the end of the game "
        "(Down models count as surviving). <b>Points taken out per point fielded</b> = total points of enemy "
        "models taken out ÷ total points of the warband fielded: above 1 means it destroyed more than it "
        "brought.</p>"
        + _table(
            ("model type (side)", "fielded", "points spent", "kills", "taken out", "survival", "kills / 100 pts"), rows
        )
        + _table(("warband", "points fielded", "enemy points taken out", "taken out per point"), material)
    )


def _lopsided_section(a: Analysis, games: Sequence[Lopsided], web_base: str = WEB_TABLE) -> str:
    rows = []
    for item in games:
        g = item.row
        winner = "draw" if g.winner is None else a.run.names[SIDES.index(g.winner)]
        log = (
            "log not stored"
            if item.log is None
            else (
                f"<a href='games/{_e(item.log.name)}'>{_e(item.log.name)}</a><br><code>warband replay "
                f"{_e(item.log)} --verify</code>"
            )
        )
        log += (
            f"<br><a href='{_e(web_base.rstrip('/'))}/replay/lab-{a.run.id}-{g.index}'>open in the web table</a> "
            "(with <code>warband serve --db</code> this database running)"
        )
        rows.append(
            f"<tr><td>game {g.index}</td><td>{_e(winner)}</td><td>{g.score[0]}–{g.score[1]}</td>"
            f"<td>{item.material[0]}–{item.material[1]}</td><td>{g.turns}</td><td>{log}</td></tr>"
        )
    head = "".join(
        f"<th>{h}</th>" for h in ("game", "winner", "VP A–B", "enemy points taken out A–B", "turns", "replay")
    )
    return (
        "<h2>The most lopsided games: largest victory-point margin (then material margin)</h2>"
        "<p class='note'>Each log re-plays move by move with the command shown (from the folder the report was "
        "written from).</p>" + f"<table class='games'><tr>{head}</tr>{''.join(rows)}</table>"
    )


def render(a: Analysis, charts: dict[str, Chart], worst: Sequence[Lopsided], web_base: str = WEB_TABLE) -> str:
    first_rate, known = a.first_player()
    first = (
        f"<h2>Does going first help? Win rate of the side holding the first Initiative</h2>"
        f"<p class='takeaway'>{_e(takeaway_first(a))}</p>"
        + (
            _figure(charts["first"], "first player advantage")
            + f"<p class='note'>Among the {first_rate.n} decisive games of the {known} where the first player is "
            "known; draws left out.</p>"
            if first_rate.n
            else ""
        )
    )
    body = [
        _header(a),
        _wins_section(a, charts["wins"]),
        "<h2>How long do games last, and when are they won? Games by the turn they ended in</h2>"
        f"<p class='takeaway'>{_e(takeaway_length(a))}</p>" + _figure(charts["length"], "game length"),
        first,
        _types_section(a, charts["types"]),
        _lopsided_section(a, worst, web_base),
        f"<p class='note'>Written by <code>warband report</code> from run {a.run.id} (key {a.run.key[:12]}…). "
        "Intervals are 95% Wilson score intervals.</p>",
    ]
    title = f"{a.run.names[0]} vs {a.run.names[1]}: {a.n} games"
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(title)}</title>"
        f"<style>{CSS}</style></head><body>{''.join(body)}</body></html>\n"
    )


@dataclass(frozen=True, slots=True)
class Report:
    """What :func:`write_report` wrote."""

    index: Path
    run: RunInfo
    charts: list[Path]
    logs: list[Path]
    takeaways: list[str]


def write_report(
    db: str | Path, out: Path = Path("report"), run_id: int | None = None, web_base: str = WEB_TABLE
) -> Report:
    """Write the report of run ``run_id`` (default: the latest) of the database ``db`` into ``out``; its
    "open in the web table" links start with ``web_base`` (the address ``warband serve`` answers at; "" for
    links relative to the server that serves the report)."""
    if str(db) != ":memory:" and not Path(db).is_file():
        raise StoreError(f"{db}: no such results database (create one with `warband simulate ... --db {db}`)")
    with Store(db, readonly=True) as store:
        run = store.run(run_id) if run_id is not None else store.latest_run()
        games = store.games(run.id)
        if not games:
            raise StoreError(f"{db}: run {run.id} has no finished games yet")
        analysis = analyse(run, games)
        worst = [
            Lopsided(g, margin, taken, _save_log(store, run.id, g.index, out)) for g, margin, taken in lopsided(games)
        ]
    with chart_fonts():  # fonts with more scripts, where installed
        charts = {
            "wins": chart_wins(analysis),
            "length": chart_length(analysis),
            "first": chart_first(analysis),
            "types": chart_types(analysis),
        }
    shown = [c for key, c in charts.items() if key != "first" or analysis.first_player()[0].n]
    for chart in shown:
        write_atomic(out / chart.name, chart.png)
    index = out / "index.html"
    write_text_atomic(index, render(analysis, charts, worst, web_base))
    for path in (index, *(w.log for w in worst if w.log)):
        os.chmod(path, 0o644)  # a report is for reading (and serving); temporary files are created 0600
    takeaways = [takeaway_wins(analysis), takeaway_length(analysis), takeaway_first(analysis), takeaway_types(analysis)]
    return Report(index, run, [out / c.name for c in shown], [w.log for w in worst if w.log], takeaways)


def _save_log(store: Store, run_id: int, index: int, out: Path) -> Path | None:
    text = store.log_text(run_id, index)
    if text is None:
        return None
    path = out / "games" / f"run-{run_id}-game-{index}.jsonl"
    write_text_atomic(path, text)
    return path

"""The ladder as one self-contained HTML file: a chart of every agent's Elo with its 95% interval (a PNG inline as
a ``data:`` URI, no external resource), the ratings table, and each pair of agents' wins, draws and losses."""

from __future__ import annotations

import html
from pathlib import Path

from matplotlib.figure import Figure

from warband.kernel.log import write_text_atomic
from warband.lab.fonts import chart_fonts, drawable
from warband.lab.ladder import PRIOR_DRAWS, LadderResult
from warband.lab.report import CSS, Chart, _png


def chart_elo(result: LadderResult) -> Chart:
    """Each agent's Elo (strongest at the top) with its 95% interval as an error bar."""
    order = result.order()[::-1]
    agents = result.config.agents
    fig = Figure(figsize=(7, 0.6 * len(order) + 1.4))
    ax = fig.add_subplot()
    ratings = [result.ratings[i] for i in order]
    ys = list(range(len(order)))
    ax.errorbar(
        [r.elo for r in ratings],
        ys,
        xerr=[[r.elo - r.low for r in ratings], [r.high - r.elo for r in ratings]],
        fmt="o",
        color="#2b6cb0",
        capsize=6,
    )
    for y, r in zip(ys, ratings, strict=True):
        ax.annotate(f"{r.elo:+.0f}", (r.elo, y), xytext=(0, 7), textcoords="offset points", ha="center", fontsize=9)
    ax.set_yticks(ys, [drawable(agents[i], f"agent {i}") for i in order])
    ax.axvline(0, color="#8a8a8a", linewidth=0.8)
    ax.set_xlabel(f"Elo relative to {agents[result.anchor]} (bars: 95% interval)")
    ax.set_title(f"{result.config.ruleset}: agent strength")
    ax.set_ylim(-0.7, len(order) - 0.3)
    return Chart("ladder.png", _png(fig))


def _e(x: object) -> str:
    return html.escape(str(x))


def _row(cells: list[object]) -> str:
    return "<tr>" + "".join(f"<td>{_e(c)}</td>" for c in cells) + "</tr>"


def render_ladder(result: LadderResult, chart: Chart) -> str:
    c = result.config
    s = result.summary()
    head = "".join(f"<th>{h}</th>" for h in ("#", "agent", "Elo", "95% interval", "games", "score"))
    rows = "".join(
        _row(
            [
                n,
                a["agent"],
                f"{a['elo']:+.0f}",
                f"{a['ci95'][0]:+.0f} … {a['ci95'][1]:+.0f}",
                a["games"],
                f"{100 * a['score_rate']:.0f}%",
            ]
        )
        for n, a in enumerate(s["agents"], 1)
    )
    pair_head = "".join(f"<th>{h}</th>" for h in ("agent", "opponent", "wins", "draws", "losses", "s / game"))
    pairs = "".join(
        _row([p["agent"], p["opponent"], p["wins"], p["draws"], p["losses"], f"{p['seconds_per_game']:.2f}"])
        for p in s["pairs"]
    )
    warbands = ", ".join(Path(w).stem for w in s["warbands"])
    crashed = f" {len(result.crashes)} game(s) crashed and are left out." if result.crashes else ""
    body = (
        f"<h1>{_e(c.ruleset)}: Elo ladder of {len(c.agents)} agents</h1>"
        f"<p class='meta'>{result.games} games · {c.games_per_pair} per run · seed {c.seed} · warbands: "
        f"{_e(warbands)} · every pair of agents on every pair of warbands, both ways round with the same seeds, "
        f"sides swapped in odd games{_e(crashed)}</p>"
        f"<p><img src='{chart.data_uri()}' alt='Elo of each agent with 95% intervals'></p>"
        f"<table><tr>{head}</tr>{rows}</table>"
        f"<h2>Games between each pair of agents</h2><table><tr>{pair_head}</tr>{pairs}</table>"
        "<p class='note'>Bradley-Terry maximum-likelihood fit (a draw counts half a win), "
        f"{_e(c.agents[result.anchor])} "
        f"held at 0 Elo; 95% intervals from the observed information; {PRIOR_DRAWS:g} virtual draw added to each "
        "pair of agents that met, so that a clean sweep still has a finite rating (it pulls ratings slightly "
        "together). s / game: mean wall time of a game between the two agents.</p>"
    )
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>{_e(c.ruleset)} ladder</title>"
        f"<style>{CSS}</style></head><body>{body}</body></html>\n"
    )


def write_ladder_report(result: LadderResult, out: Path) -> Path:
    """Write the ladder's HTML report to the file ``out``."""
    with chart_fonts():
        chart = chart_elo(result)
    write_text_atomic(out, render_ladder(result, chart))
    out.chmod(0o644)
    return out

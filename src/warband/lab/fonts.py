"""Fonts for the report's charts: names in any script are drawn, or left out cleanly, never as boxes.

Matplotlib draws each character with the first font of ``font.family`` that has it (3.6 and later). The charts
ask for DejaVu Sans (always there: matplotlib ships it) followed by every installed font of
:data:`FALLBACK_FONTS` (CJK, emoji, symbols). A character that none of them has is dropped from a chart label by
:func:`drawable` (the HTML page around the charts still shows the full name), so matplotlib never warns about a
missing glyph nor draws a box.
"""

from __future__ import annotations

import functools
import unicodedata
from contextlib import AbstractContextManager

import matplotlib
from matplotlib import font_manager, ft2font

__all__ = ["FALLBACK_FONTS", "chart_families", "chart_fonts", "drawable"]

FALLBACK_FONTS: tuple[str, ...] = (
    "Noto Sans CJK JP",
    "Noto Sans CJK SC",
    "Noto Sans CJK KR",
    "Noto Sans JP",
    "Noto Sans SC",
    "WenQuanYi Zen Hei",
    "Droid Sans Fallback",
    "Noto Sans Symbols 2",
    "Noto Emoji",
    "Symbola",
)
"""Fonts used after DejaVu Sans when they are installed, in this order."""

BASE_FONT = "DejaVu Sans"


@functools.cache
def _installed() -> dict[str, str]:
    """Family name -> one font file, for the chart fonts found on this machine."""
    wanted = {BASE_FONT, *FALLBACK_FONTS}
    found: dict[str, str] = {}
    for entry in font_manager.fontManager.ttflist:
        if entry.name in wanted and entry.name not in found and entry.fname.lower().endswith((".ttf", ".otf")):
            found[entry.name] = entry.fname
    return found


def chart_families() -> list[str]:
    """The font families a chart uses, the base font first, only those installed."""
    installed = _installed()
    return [BASE_FONT, *(f for f in FALLBACK_FONTS if f in installed)]


@functools.cache
def _covered() -> frozenset[int]:
    """Every code point some chart font can draw."""
    points: set[int] = set()
    for family in chart_families():
        path = _installed().get(family)
        if path is None:
            continue
        try:
            points.update(ft2font.FT2Font(path).get_charmap())
        except (OSError, RuntimeError):  # an unreadable font file draws nothing
            continue
    return frozenset(points)


def chart_fonts() -> AbstractContextManager[None]:
    """A context in which new matplotlib text uses :func:`chart_families` (build the charts inside it)."""
    return matplotlib.rc_context({"font.family": chart_families()})


def drawable(text: str, fallback: str) -> str:
    """``text`` without the characters no chart font has; ``fallback`` if nothing readable is left."""
    covered = _covered()
    kept = "".join(c for c in text if c.isspace() or (ord(c) in covered and unicodedata.category(c) != "Cn"))
    kept = " ".join(kept.split())
    return kept if any(c.isalnum() for c in kept) else fallback

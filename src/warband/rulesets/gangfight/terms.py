"""Gangfight's vocabulary: ranks, sizes and terrain densities, with their orders.

* Ranks: seed 004, Banding Actions ("a Hero can incorporate other Heroes, Veterans, or Regulars ... a Veteran
  can only include other Veterans and Regulars"), so Hero > Veteran > Regular.
* Sizes: digest B1 Size (Small, Medium, Large, Huge).
* Densities: seed 004, Charge! (flat, light, dense terrain).
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["DENSITIES", "RANKS", "SIZES", "Density", "Rank", "Size", "rank_order", "size_order"]

Rank = Literal["Regular", "Veteran", "Hero"]
Size = Literal["Small", "Medium", "Large", "Huge"]
Density = Literal["flat", "light", "dense"]

#: Lowest first.
RANKS: Final[tuple[Rank, ...]] = ("Regular", "Veteran", "Hero")
SIZES: Final[tuple[Size, ...]] = ("Small", "Medium", "Large", "Huge")
DENSITIES: Final[tuple[Density, ...]] = ("flat", "light", "dense")


def rank_order(rank: Rank) -> int:
    """0 for Regular, 1 for Veteran, 2 for Hero (seed 004, Banding Actions)."""
    return RANKS.index(rank)


def size_order(size: Size) -> int:
    """0 for Small up to 3 for Huge (digest B1 Size); Slam! compares sizes with it."""
    return SIZES.index(size)

"""The seeded random stream that lives inside the game state.

A counter-based generator (SplitMix64 over ``seed + counter``): its whole state is two integers, so cloning a
game, saving it to JSON mid-reaction and replaying it are all exact and cheap. Every die a game rolls is drawn
here and logged; nothing in the project uses module-level randomness.
"""

from __future__ import annotations

_MASK = (1 << 64) - 1

MAX_SEED = (1 << 63) - 1
"""The largest seed a game or run takes: seeds are ``0..MAX_SEED`` (what a results database stores exactly)."""
_GOLDEN = 0x9E3779B97F4A7C15


def _mix(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & _MASK
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & _MASK
    return z ^ (z >> 31)


class Rng:
    """A reproducible stream of 64-bit values; ``(seed, counter)`` is its entire state."""

    __slots__ = ("counter", "seed")

    def __init__(self, seed: int, counter: int = 0) -> None:
        self.seed = seed & _MASK
        self.counter = counter

    def next64(self) -> int:
        """The next raw 64-bit value of the stream."""
        self.counter += 1
        return _mix((self.seed + self.counter * _GOLDEN) & _MASK)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, without modulo bias (rejection of the ragged top)."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, got {n}")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next64()
            if v < limit:
                return v % n

    def die(self, sides: int) -> int:
        """One die with faces ``1..sides``."""
        return self.below(sides) + 1

    def dice(self, n: int, sides: int) -> tuple[int, ...]:
        """``n`` dice with faces ``1..sides``, in the order rolled."""
        return tuple(self.below(sides) + 1 for _ in range(n))

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 bits of precision (for agents' own streams)."""
        return (self.next64() >> 11) / float(1 << 53)

    def choice_index(self, n: int) -> int:
        """An index in ``[0, n)``; an alias of :meth:`below` that reads better in agents."""
        return self.below(n)

    def spawn(self, salt: int) -> Rng:
        """An independent stream derived from this one's seed and ``salt`` (per-game seeds in the lab)."""
        return Rng(_mix((self.seed ^ _mix(salt & _MASK)) & _MASK))

    def copy(self) -> Rng:
        return Rng(self.seed, self.counter)

    def to_json(self) -> list[int]:
        return [self.seed, self.counter]

    @classmethod
    def from_json(cls, data: list[int]) -> Rng:
        return cls(int(data[0]), int(data[1]))


def derive_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded with ``seed``: independent of worker count and order."""
    return _mix((seed * _GOLDEN + index + 1) & _MASK) & 0x7FFFFFFFFFFFFFFF


def check_seed(seed: int, flag: str = "--seed") -> int:
    """``seed`` if it is in ``0..MAX_SEED``, else a :class:`~warband.kernel.errors.SeedError` naming the range."""
    from warband.kernel.errors import SeedError

    if not 0 <= seed <= MAX_SEED:
        raise SeedError(f"{flag}: expected a seed from 0 to {MAX_SEED} (2**63 - 1), found {seed}")
    return seed

"""Summarise a py-spy raw profile (``py-spy record -f raw``) of ``profile_games.py ... -``: the share of the games'
time (samples under ``play_out``; loading and the warm-up game are left out) spent in each function's own body
and inside it (cumulative), or, with ``--under NAME``, what the time inside one function goes to (its callees).

    python benchmarks/spy_report.py tcr.raw [--top 40] [--under _move_candidates]
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path


def _label(frame: str) -> str:
    """``function (path:line)`` as ``function path``: one row per function, not per line."""
    name, _, where = frame.partition(" (")
    path = where.split(":")[0]
    return f"{name} {path.split('/src/')[-1]}" if path else name


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("raw", type=Path)
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--under", help="a function name: the shares of its callees (and its own body)")
    parser.add_argument("--root", default="play_out", help="only stacks through this function [play_out]")
    args = parser.parse_args(argv)
    own: Counter[str] = Counter()
    cumulative: Counter[str] = Counter()
    callees: Counter[str] = Counter()
    total = 0
    for line in args.raw.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if args.root not in stack or not count.isdigit():
            continue
        n = int(count)
        total += n
        frames = [_label(f) for f in stack.split(";")]
        own[frames[-1]] += n
        for label in set(frames):
            cumulative[label] += n
        if args.under:
            hits = [i for i, f in enumerate(frames) if f.split(" ")[0] == args.under]
            if hits:
                i = hits[0]
                callees[frames[i + 1] if i + 1 < len(frames) else "<own body>"] += n
    if not total:
        print(f"no samples under {args.root}", file=sys.stderr)
        return 1
    tables = [("callees of " + args.under, callees)] if args.under else [("own", own), ("cumulative", cumulative)]
    for title, counts in tables:
        print(f"{title} (% of {total} samples)")
        for label, n in counts.most_common(args.top):
            print(f"{100 * n / total:6.1f}  {label}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

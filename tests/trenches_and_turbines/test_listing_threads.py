"""A game and its clones share one context, and the web table lists a seat's menu on the game (the server's
thread) while an agent thinks on a clone in another thread. A listing that ends (``spots.frozen_models``: the
answers kept while nothing moves) must never leave behind, or put back, an index whose own listing has ended, or
the game would later be judged on where its models stood then; and a thread never reads another state's index."""

from __future__ import annotations

import threading

from ttpos import position, unit

from warband.kernel.engine import Game
from warband.rulesets.trenches_and_turbines import spots


def _game() -> Game:
    return position([unit()], [unit()], {"a1": [(10, 10), (11, 10), (12, 10)], "b1": [(30, 30), (31, 30), (32, 30)]})


def test_a_listing_on_a_clone_in_another_thread_never_leaves_the_games_index_behind() -> None:
    game = _game()
    state = game.state
    clone = game.clone().state
    assert clone.ctx is state.ctx  # the index lives on this shared context
    game_open, clone_open, game_closed = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, object] = {}

    def server() -> None:  # lists on the game, ends its listing while the agent's is still open
        with spots.frozen_models(state):
            seen["server inside"] = spots.listing_cache(state)
            game_open.set()
            clone_open.wait(5)
        seen["server after"] = spots.listing_cache(state)
        game_closed.set()

    def agent() -> None:  # opens a listing on the clone while the game's is open, ends it last
        game_open.wait(5)
        with spots.frozen_models(clone):
            seen["agent inside"] = spots.listing_cache(clone)
            seen["agent sees the game's"] = spots.listing_cache(state)
            clone_open.set()
            game_closed.wait(5)
        seen["agent after"] = spots.listing_cache(clone)

    threads = [threading.Thread(target=server), threading.Thread(target=agent)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    assert seen["server inside"] is not None and seen["agent inside"] is not None
    assert seen["agent sees the game's"] is None  # each thread keeps to its own state's listing
    assert seen["server after"] is None and seen["agent after"] is None  # neither keeps its ended listing
    # the game's thread (here the test's) finds no index left over: it lists afresh after its models move
    assert state.ctx.frozen is None and spots.listing_cache(state) is None
    with spots.frozen_models(state):
        assert spots.listing_cache(state) is not None
    assert spots.listing_cache(state) is None

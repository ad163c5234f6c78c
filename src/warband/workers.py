"""Worker processes that die with the process that started them: the lab's pools (simulate, compare, balance)
and the web table's agent pool both start theirs here, so neither face depends on the other.

A worker runs a watchdog thread that ends it at once when its parent is gone (a ``kill -9`` of a run or of the
web server leaves no orphan playing on for minutes).
"""

from __future__ import annotations

import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.context import BaseContext

__all__ = ["PARENT_POLL_S", "worker_init", "worker_pool"]

PARENT_POLL_S = 0.2
"""How often a worker process checks that the process that started it is still alive."""


def _exit_with_parent(parent: int) -> None:
    """Body of a worker's watchdog thread: end the worker when its parent is gone (it has been re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_S)
    os._exit(1)


def worker_init(parent: int) -> None:
    """``ProcessPoolExecutor`` initializer: start the watchdog that makes a worker die with its parent."""
    threading.Thread(target=_exit_with_parent, args=(parent,), name="warband-parent-watch", daemon=True).start()


def worker_pool(workers: int, mp_context: BaseContext | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes that die with this process (started the ``mp_context`` way, if given)."""
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=mp_context, initializer=worker_init, initargs=(os.getpid(),)
    )

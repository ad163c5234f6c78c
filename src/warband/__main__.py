"""``python -m warband``: the ``warband`` command."""

from warband.cli.main import run

run()

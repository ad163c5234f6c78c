"""The ``warband`` command line: one module per command group."""

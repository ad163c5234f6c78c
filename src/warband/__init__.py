"""warband: rules engine, simulator and digital table for tabletop skirmish wargames."""

__version__ = "0.1.0"

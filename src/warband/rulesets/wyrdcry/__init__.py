"""Wyrdcry (seed 003): groundwork only, not yet a registered ruleset.

Pure, tested modules the engine will stand on: :mod:`.dice` (the initiative and ability-dice economy),
:mod:`.attacks` (hit table, damage, modifiers), :mod:`.odds` (exact distributions), :mod:`.activation`
(the seed's action limits), :mod:`.roster` (warband files) and ``data/`` (factions, samples, scenarios).
The engine and the ``Ruleset`` class come with the kernel's step skeleton; see docs/design/wyrdcry-steps.md.
"""

"""Wyrdcry (seed 003, the Notion Warcry variant; digests ``wyrdcry.md`` and ``wyrdcry-data.md``). Where things are,
in the order of the rulebook (each module's docstring cites its clauses; ``docs/rules/wyrdcry.md`` maps every
sentence of the seed to code and tests):

* ``ruleset.py``     the ``Wyrdcry`` ruleset class (entry point ``wyrdcry``)
* ``round.py``       the battle round and the step machine (``RULES``): the phases in order, passing, the end
* ``setup.py``       set-up: deployment zones and deploying fighters
* ``initiative.py``  the initiative phase: initiative dice, roll-offs, wyrd dice, Channeling, reaction dice
* ``activation.py``  activation: the seed's action and ability limits, activating, ending, Command's follow-on
* ``actions.py``     the action menu and its refusals: Move, Attack, Retreat, Wait, Channel, treasure, bonus actions
* ``movement.py``    Move and Retreat: legal destinations, walking, climbing over, jumping across
* ``climbing.py``    climbing costs, ladders, falls, failed jumps, edges (on ``kernel/climbing.py``)
* ``attacks.py``     the Attack: targets, cover, the hit numbers, hit rolls, damage, free attacks
* ``reactions.py``   reactions: the reaction window, Strike Them Down, Martyrdom, Sudden Accusation, damage
* ``abilities.py``   abilities: costs, who may, the universal five (Rush ... Rampage), faction ability effects
* ``factions.py``    faction data and states: Zeal, Sigmar's Blessing, Captain's Command tokens, Condemn, ...
* ``morale.py``      the morale phase (morale and panic tests) and the end of the round
* ``scenario.py``    the scenario's options, treasure tokens, objectives, victory
* ``core.py``        the context, the state type, step bases and fighter helpers
* ``dice.py``        the initiative and ability-dice economy (pure)
* ``rolls.py``       the hit table, damage, the universal reactions' dice, falls, Bravery tests (pure)
* ``odds.py``        exact odds (``warband odds wyrdcry``) on ``dice.py`` and ``rolls.py``
* ``evaluate.py``    the heuristic's evaluation of a position
* ``render.py``      the terminal picture and the attack odds shown with an action
* ``view.py``        the web table's view: dice, victory points, carried treasure
* ``roster.py``      warband files and the bundled data (``data/``: factions, sample warbands, scenarios)
"""

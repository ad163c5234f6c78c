"""The ``trenches-and-turbines`` ruleset: the Actions chapter of Trenches and Turbines (seed 002) plus the PROPOSED
core rules of the digest (``../shared/rules/trenches-and-turbines.md`` §3), every number in ``params.toml``; the
clause matrix ``docs/rules/trenches-and-turbines.md`` maps each seed sentence to code and test.

Where things are, in the order of play:

* ``ruleset.py``    the Ruleset class (the entry point), the blank state, the result and each model's fate
* ``machine.py``    the step machine (set-up, standing decisions, the deck's advance) and every step kind
* ``setup.py``      set-up: roll-off, deployment zone, deploying units (digest §3.2)
* ``turn.py``       the round and the activation deck: Start phase, card draws, End phase (digest §3.2)
* ``activation.py`` a unit's activation: two actions (rarely three), Rally and pinned test at its start, spending
* ``actions.py``    the action menu: the universal actions, the refusals of any action, doing the chosen one
* ``movement.py``   the Move and Shift actions: the destination choice, its candidates and plans
* ``unit_moves.py`` unit move plans: where every model of a moving or fleeing unit ends
* ``paths.py``      a model's way: leg costs (difficult, obstacles, SCALABLE), 1" round enemies, routed paths
* ``spots.py``      where a model may stand; the index of models that stand still while candidates are listed
* ``vehicles.py``   VEHICLE movement: straight ahead, one pivot of at most 90 degrees
* ``coherency.py``  Unit Coherency: out-of-coherency models, formation slots, the new coherency leader
* ``prone.py``      Go Prone/Take Cover!: Go Prone, Stand, remain prone or stand after shedding a pin
* ``charge.py``     Charge: walking and running, its reach, the charge move and placement, the FREE Fight
* ``shooting.py``   Shoot: who can shoot, range, hit modifiers and groups, pins after the attack
* ``sight.py``      line of sight by size, Conceal
* ``cover.py``      Cover (X) of a model and a unit
* ``attacks.py``    hit rolls, saves, Pen, casualties (shared by Shoot and Fight)
* ``fight.py``      Fight: who fights, Priority, resolving the Fight, Shift after it, pins of a draw
* ``reactions.py``  reactions and Overwatch: who may react, what, and its consequences
* ``pins.py``       pins: taking them, the pinned test, Shed a Pin
* ``morale.py``     Leadership checks, Routed and Rally, flee, loss of leader and half strength
* ``scoring.py``    objective control, victory points, the result
* ``missions.py``   the scenario's Mission-Based Actions (requirements, limits, effects, what they forbid)
* ``units.py``      a unit on the table: its models, leader, kind, engagement, gaps
* ``core.py``       step bases, unit status, the d10 test; ``context.py`` the immutable game context
* ``roster.py``     force files; ``data/`` sample forces and scenarios
* ``evaluate.py``   the heuristic value; ``odds.py`` exact Shoot odds; ``render.py`` / ``view.py`` text and drawable
"""

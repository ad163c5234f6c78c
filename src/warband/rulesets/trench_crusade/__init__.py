"""The ``trench-crusade`` ruleset: Trench Crusade v1.0 (seed 000's Activation Phase; seed 001's Shoot reading as
an option; the rest from the digest ``trench-crusade.md``). The clause matrix ``docs/rules/trench-crusade.md``
maps every seed sentence to the functions below.

Where things are (the rulebook's parts first; each module imports only those above it in the chain that
``core`` describes):

* ``ruleset.py``    :class:`~.ruleset.TrenchCrusade`, the ruleset the kernel loads
* ``setup.py``      set-up: the deployment zones and alternating deployment
* ``turn.py``       the turn: Initiative, alternating activations, the end of the Activation Phase, the turn loop
* ``activation.py`` activating a model and its action menu: once each, one of Move, Charge or Retreat
* ``actions.py``    each action's requirements (ASSAULT, HEAVY, targets, ranges) and taking it
* ``movement.py``   Move, Dash, Retreat, Charge as steps: climbing, jumping, falls, dangerous terrain
* ``attacks.py``    ranged and melee attacks, Injury Rolls, Blood markers, Down, Out of Action
* ``keywords.py``   the keywords of models and weapons, and where each is played
* ``morale.py``     the Morale phase: checks, Shaken, fleeing
* ``scenario.py``   objectives, victory points, the end of the game and each model's fate
* ``space.py``      where a model can move: checked moves, paths, candidates, retreat lines
* ``charge_spots.py`` where a Charge ends: the spots round the target it reaches, else as close as it gets
* ``sight.py``      engagement, line of sight, cover and elevation
* ``core.py``       the state type, step bases, model helpers and the Success Roll
* ``rolls.py``      Success Roll and Injury Roll arithmetic (shared with the odds)
* ``odds.py``       exact odds of the rolls, and the ``warband odds`` commands
* ``context.py``    the game's fixed context (table, profiles, memos)
* ``evaluate.py``   the heuristic value of a position, for agents; ``evaluate_tables.py`` its weights and
  per-game tables
* ``render.py``, ``view.py``  the text map, the odds before an action, the drawable view
* ``roster.py``     warband files (``catalogue.py``, ``book.py``, ``listrules.py``, ``kitrules.py``: the factions'
  lists; ``custom.py``: hand-typed models; ``builder.py``: the list builder); ``data/`` the armoury, the
  catalogue, samples and scenarios
* ``params.toml``   every number of the rules
"""

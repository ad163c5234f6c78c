"""Gangfight (seed 004: Actions and Action Points; digests ``rules/gangfight.md``, ``rules/gangfight-data.md``).

Where things are (the rules in one module a part of the rulebook; each module builds only on those above it):

* ``terms``       the game's words: ranks, sizes, terrain densities
* ``dice``        every roll rule as pure arithmetic on the parameters (``params.toml``)
* ``terrain``     the scenario's terrain density and ladders; ``roster`` party files and the armoury
* ``core``        the context, state type, step bases, parameters and dice on the state, model helpers, the
  Action Sequence's numbering, the table queries (paths, sight, close combat, threat range)
* ``scenario``    Interact on the scenario's objectives, victory points, the end of the game and its winner
* ``morale``      Fear and Bravery: the Bravery test of a broken party or one that saw a Hero fall
* ``turn``        the Player's Turn: AP from IV, activating a model, holding AP, the end of a turn and a round
* ``setup``       the initiative roll, Attacker and Defender, table edges, deployment
* ``attacks``     Fight! (Power, Finesse, Slam!), Reload/Fire!, Areas of Effect, one attack's dice to removal
* ``interrupts``  the interrupt window in the opponent's turn (Counter-Charge, Dodge, Flee!, Fire!, Bulwark,
  Fight!) and the Fire! and Fight! interrupts' attacks
* ``charge``      Charge!: declaration, roll, move, the free Fight! after it; Counter-Charge and Flee! resolving
* ``movement``    Move, Run, Jump/Climb and falling
* ``banding``     Banding Actions: With Me!, Bring it Down!, On my Mark!
* ``actions``     the active model's actions menu: legality, AP cost, declaring each action
* ``machine``     the step machine (``GangfightRules``, ``STEPS``, ``RULES``): the standing decision, between steps
* ``ruleset``     the Ruleset class (entry point ``gangfight``), party files to model profiles, the result
* ``evaluate``    the position evaluation for agents; ``odds`` exact odds; ``render`` the text table

The Ruleset class lives in ``ruleset`` (not here) so that ``dice`` and ``roster`` can import the paths below
without an import loop. See ``docs/rules/gangfight.md`` (clause matrix) and ``docs/design/gangfight-steps.md``.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).parent
PARAMS_PATH = PACKAGE_DIR / "params.toml"
DATA_DIR = PACKAGE_DIR / "data"

__all__ = ["DATA_DIR", "PACKAGE_DIR", "PARAMS_PATH"]

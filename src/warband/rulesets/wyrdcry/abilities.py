"""Abilities (seed 003 paragraphs 3-4, the asides "Ability Dice" and "Ability values", the universal abilities
S 17-25; digest ``wyrdcry.md`` §A3; the faction abilities, data digest §4.1-4.4): what an ability costs, who may use
it now, and what it does.

A fighter uses one ability per activation (``activation.ability_problem``) by discarding a group of ability dice
that pays its cost (``dice.pay``: a higher group pays a lower cost); the value is the group's face. The universal
five are Rush, Onslaught, Respite, Command and Rampage (:func:`use_ability`); the faction abilities' effects are
:func:`use_faction_ability`, with Lead By Example's free actions (:class:`LeadChoice`) and the spells an enemy
priest may Denounce (:class:`MagicEffect`, :class:`DenounceRoll`). The faction rules these consult, and the steps
that stand alone (Captain's Command's token, Condemn, Strategize, Blessed Sight), are ``factions.py``.
"""

from __future__ import annotations

from warband.kernel import values
from warband.kernel.actions import Action
from warband.kernel.errors import Reason
from warband.kernel.events import DiceRolled, Event, Note, StatusChanged, TokensChanged
from warband.kernel.space import gap
from warband.kernel.state import Model
from warband.kernel.steps import push
from warband.rulesets.wyrdcry import dice as wd
from warband.rulesets.wyrdcry import factions as fx
from warband.rulesets.wyrdcry import rolls
from warband.rulesets.wyrdcry.activation import ability_problem, limits
from warband.rulesets.wyrdcry.attacks import FreeAttack, free_attacks
from warband.rulesets.wyrdcry.core import (
    FighterD6,
    R,
    State,
    WAuto,
    WChoice,
    damage,
    deal_damage,
    enemies_of,
    eng_range,
    engaged,
    has_kw,
    is_out,
    next_action,
    pool,
    set_pool,
    side_name,
    status,
    visible,
    weapons,
)
from warband.rulesets.wyrdcry.factions import (
    Accuse,
    BankRoll,
    PlaceCommandToken,
    add_zeal,
    denouncers,
    greedy,
    led_henchmen,
    magic_targets,
)
from warband.rulesets.wyrdcry.movement import MoveTo, allowance
from warband.rulesets.wyrdcry.reactions import Reactable, ReactWindow, hurt, push_window, react_actions

UNIVERSAL_ABILITIES = ("rush", "onslaught", "respite", "command", "rampage")


def ability_cost(state: State, name: str) -> wd.Cost:
    """A universal ability's cost is a parameter (seed table); a faction ability's is in the data (§4)."""
    cost = str(state.ctx.params[f"cost_{name}"]) if name in UNIVERSAL_ABILITIES else fx.cost_of(name)
    assert cost in wd.COST_SIZES
    return cost  # type: ignore[return-value]


def ability_reasons(state: State, m: Model, a: Action) -> list[Reason]:
    """S 7-13 and the universal abilities' own conditions (S 19-25)."""
    try:
        name, face_text = str(a.option).split()
        face = int(face_text)
    except ValueError:
        return [(f"{R}/ability/syntax", "use an ability as 'ability FIGHTER [TARGET] [name face]'")]
    if name not in UNIVERSAL_ABILITIES:
        why_not = faction_ability_problem(m, name)
        if why_not is not None:
            return [why_not]
    why = ability_problem(int(m.flags.get("abilities_used", 0)), limits(state))
    if why is not None:
        return [(f"{R}/ability/one-per-activation", why)]
    cost = ability_cost(state, name)
    g = pool(state, m.side).group_at(face)
    if g is None:
        return [(f"{R}/ability/dice", f"side {side_name(m.side)} has no group of {face}s to discard")]
    if not wd.can_pay(g, cost):
        return [(f"{R}/ability/cost", f"{name} needs a [{cost}] (or higher), found a [{g.name}] of {face}s")]
    p = state.ctx.params
    if name == "respite" and any(gap(m, e) <= float(p["respite_enemy_range"]) + 1e-9 for e in enemies_of(state, m)):
        return [(f"{R}/ability/respite", f'Respite cannot be used within {p["respite_enemy_range"]:g}" of an enemy')]
    if name == "command":
        f = state.models.get(a.target or "")
        if f is None or f.side != m.side or f.id == m.id or is_out(f) or not f.on_table:
            return [(f"{R}/ability/command", "Command picks another friendly fighter on the table")]
        if status(f) != "ready":
            return [(f"{R}/ability/command", f"{f.id} has already activated this battle round")]
        if gap(m, f) > float(p["command_range"]) + 1e-9:
            return [(f"{R}/ability/command", f'{f.id} is not within {p["command_range"]:g}" of {m.id}')]
        if not visible(state, m, f):
            return [(f"{R}/ability/command", f"{f.id} is not visible to {m.id}")]
    elif a.target is not None:
        return [(f"{R}/ability/syntax", f"{name} names no target")]
    if name == "disengage" and not engaged(state, m):
        return [(f"{R}/ability/disengage", f'Disengage needs an enemy within {eng_range(state):g}" of {m.id}')]
    if name == "hammer-of-sigmar" and not any("Warhammer" in w["weapon"] for w in weapons(m, "melee")):
        return [(f"{R}/ability/hammer-of-sigmar", f"Hammer of Sigmar needs a Warhammer; {m.id} carries none")]
    if name == "lead-by-example":
        if not m.flags.get("took_out"):
            return [
                (
                    f"{R}/ability/lead-by-example",
                    f"Lead By Example is used after taking an enemy out of action: {m.id} has not this activation",
                )
            ]
        if not led_henchmen(state, m, ()):
            return [(f"{R}/ability/lead-by-example", f"no visible friendly HENCHMAN within reach of {m.id} can act")]
    if name == "driven-by-greed" and not greedy(state, m):
        return [
            (
                f"{R}/ability/driven-by-greed",
                f'Driven by Greed needs {m.id} to carry treasure or be within {p["treasure_range"]:g}" of it',
            )
        ]
    return []


def faction_ability_problem(m: Model, name: str) -> Reason | None:
    """Data §4: a fighter uses the abilities on its own card; traits act by themselves; a spell-book ability is
    barred for the round after a Channeling roll of 1 (D §A2.4)."""
    own = list(m.data.get("abilities", []))
    if name not in own:
        mine = ", ".join([*UNIVERSAL_ABILITIES, *fx.own_dice_abilities(m.data)])
        return (f"{R}/ability/unknown", f"{name!r} is not an ability {m.id} can use (it can use: {mine})")
    if name in fx.PENDING:
        return (f"{R}/ability/pending", f"{name} cannot be played: {fx.PENDING[name]}")
    if name not in fx.DICE_ABILITIES:
        return (f"{R}/ability/trait", f"{name} is a trait of {m.id}: it applies by itself, no dice are spent")
    if fx.is_spellbook(name) and m.flags.get("spellbook_blocked"):
        return (f"{R}/ability/spellbook", f"{m.id} rolled a 1 when channeling: no spell-book ability this round")
    return None


def use_ability(state: State, m: Model, a: Action, events: list[Event]) -> None:
    """S 7-13: discard the dice (a higher group pays a lower cost, discarded whole); value = the face."""
    p = state.ctx.params
    name, face_text = str(a.option).split()
    newpool, value = wd.pay(pool(state, m.side), ability_cost(state, name), int(face_text))
    set_pool(state, m.side, newpool)
    m.flags["abilities_used"] = int(m.flags.get("abilities_used", 0)) + 1
    events.append(Note(f"{m.id} uses {name.title()} (value {value})", f"{R}/ability/{name}"))
    if name == "rush":
        m.flags["move_bonus"] = int(m.flags.get("move_bonus", 0)) + int(p["rush_move_bonus"])
    elif name == "onslaught":
        m.flags["melee_bonus"] = int(m.flags.get("melee_bonus", 0)) + int(p["onslaught_attacks_bonus"])
    elif name == "respite":
        before = damage(m)
        after = rolls.remove_damage(before, value)
        m.tokens["damage"] = after
        events.append(TokensChanged(m.id, "damage", after - before, after))
    elif name == "command":
        state.vars["command_next"] = a.target
    elif name == "rampage":
        m.flags["bonus_attacks"] = int(m.flags.get("bonus_attacks", 0)) + int(p["rampage_bonus_attacks"])
        m.flags["rampaged"] = True
        events.append(StatusChanged(m.id, "Rampage (-Defense)", True))
    elif fx.is_spellbook(name) and denouncers(state, m, name):
        # data §4.4 Denounce: the enemy may react before the magical ability takes effect; its dice are spent
        seq = next_action(state)
        push(state, MagicEffect(m.id, name, value))
        push_window(state, ReactWindow(1 - m.side, "magic", m.id, name, seq))
    else:
        use_faction_ability(state, m, name, value, events)


def use_faction_ability(state: State, m: Model, name: str, value: int, events: list[Event]) -> None:
    """Data §4.1-4.4: the effects of the faction abilities the engine plays (X = value, X/2 rounded up)."""
    p = state.ctx.params
    half = wd.half_value(value)
    if name == "hunters-eye":  # next ranged attack: +1 damage per hit and critical hit
        m.flags["next_ranged_bonus"] = int(m.flags.get("next_ranged_bonus", 0)) + 1
    elif name == "hammer-of-sigmar":  # next melee attack this activation: +X/2 per hit and critical hit
        m.flags["next_melee_bonus"] = int(m.flags.get("next_melee_bonus", 0)) + half
    elif name == "death-grip":  # next melee attack: a hit costs the target an action
        m.flags["death_grip"] = True
    elif name == "words-of-healing":  # X/2 off each friendly within range (this fighter too)
        for f in magic_targets(state, m, name):
            before = damage(f)
            after = rolls.remove_damage(before, half)
            if after != before:
                f.tokens["damage"] = after
                events.append(TokensChanged(f.id, "damage", after - before, after))
    elif name == "soulfire":  # X/2 to each visible enemy within range; X to VAMPIRE, DAEMON, THRALL
        for e in magic_targets(state, m, name):
            full = any(has_kw(e, k) for k in fx.SOULFIRE_FULL)
            hurt(state, e, m, value if full else half, f"{m.id}'s Soulfire", events)
    elif name == "self-flagellation":  # X/2 damage to itself, Zeal +1, then a free attack
        add_zeal(state, m.side, 1, events)
        if not deal_damage(state, m, half, f"{m.id}'s Self-Flagellation", events):
            m.flags["bonus_attacks"] = int(m.flags.get("bonus_attacks", 0)) + 1
    elif name == "strategize":  # if it Waits this activation: X dice, each 4+ banks a wyrd die
        m.flags["strategize"] = value
    elif name == "blessed-sight":  # a die per visible enemy within X inches, each 4+ banks a wyrd die
        n = sum(1 for e in enemies_of(state, m) if gap(m, e) <= value + 1e-9 and visible(state, m, e))
        if n:
            push(state, BankRoll(m.id, n, "Blessed Sight"))
    elif name == "condemn":  # up to X/2 visible enemies without one get an Accused token
        push(state, Accuse(m.side, m.id, half))
    elif name == "disengage":  # a free Retreat
        m.flags["bonus_retreats"] = int(m.flags.get("bonus_retreats", 0)) + 1
    elif name == "captain-command":  # a Seize or Hold token within 12" until the round ends
        push(state, PlaceCommandToken(m.side, m.id))
    elif name == "lead-by-example":  # up to 2 visible friendly HENCHMEN within 6": a free move or attack each
        push(state, LeadChoice(m.side, m.id, int(p["lead_by_example_fighters"]), ()))
    elif name == "driven-by-greed":  # next melee attack: +1 Fight and +1 Attacks
        m.flags["greed"] = True


@values.value
class LeadChoice(WChoice, kind="lead", about="model"):
    """Lead By Example: the player picks up to ``left`` henchmen one at a time, each with a free move or a free
    attack, taken at once in the middle of the leader's activation; or stops."""

    by: int
    model: str
    left: int
    chosen: tuple[str, ...]

    def options(self, state: State) -> list[Action]:
        m = state.models[self.model]
        out: list[Action] = []
        for f in led_henchmen(state, m, self.chosen):
            if not engaged(state, f):
                out.append(Action("lead", m.id, f.id, option="move"))
            if free_attacks(state, f):
                out.append(Action("lead", m.id, f.id, option="attack"))
        return [*out, Action("lead", m.id, option="done")]

    def apply(self, state: State, action: Action, events: list[Event]) -> None:
        if action.option == "done" or action.target is None:
            return
        f = state.models[action.target]
        events.append(Note(f"{self.model} leads by example: {f.id} takes a free {action.option}", f"{R}/ability/lead"))
        if self.left > 1:
            push(state, LeadChoice(self.by, self.model, self.left - 1, (*self.chosen, f.id)))
        next_action(state)
        if action.option == "move":
            push(state, MoveTo(f.side, f.id, "move", allowance(state, f)))
        else:
            push(state, FreeAttack(f.side, f.id, "Lead By Example"))


@values.value
class MagicEffect(WAuto, Reactable, kind="magic-effect"):
    """A magical ability's effect, waiting beneath the enemy's chance to Denounce it."""

    timings = ("magic",)
    model: str
    name: str
    value: int

    def run(self, state: State, events: list[Event]) -> None:
        m = state.models[self.model]
        if not is_out(m):
            use_faction_ability(state, m, self.name, self.value, events)

    def reactions(self, state: State, window: ReactWindow) -> list[Action]:
        """Denounce (data §4.4): each enemy priest within ``denounce_range`` of a fighter the spell targets."""
        caster = state.models[window.actor]
        out: list[Action] = []
        for f in denouncers(state, caster, window.target):
            out.extend(react_actions(state, f, caster, "denounce", window.seq))
        return out

    def react(self, state: State, f: Model, name: str, window: ReactWindow, events: list[Event]) -> None:
        """Denounce: a D6 over the priest's Bravery cancels the spell. Another priest may still Denounce it
        (each fighter makes its own reaction, seed 003 Timing): the window asks again after this roll."""
        push_window(state, window)
        push(state, DenounceRoll(f.id, window.actor, window.target))


@values.value
class DenounceRoll(FighterD6, kind="denounce-roll", label="denounce"):
    """Denounce (data §4.4): a D6 over the priest's Bravery cancels the magical ability (its dice stay spent)."""

    model: str
    caster: str
    name: str

    def roll(self, state: State, values: tuple[int, ...], events: list[Event]) -> None:
        bravery = int(state.models[self.model].data["bravery"])
        cancelled = values[0] > bravery
        events.append(DiceRolled("denounce", values, "cancelled" if cancelled else "no effect", self.model))
        if cancelled:
            state.stack = [
                s
                for s in state.stack
                if not (isinstance(s, MagicEffect) and s.model == self.caster)
                and not (isinstance(s, ReactWindow) and s.timing == "magic" and s.actor == self.caster)
            ]
            events.append(Note(f"{self.caster}'s {self.name} is cancelled", f"{R}/reaction/denounce"))

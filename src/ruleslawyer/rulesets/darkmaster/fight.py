"""A whole Against the Darkmaster fight: Round after Round, state carried, every change cited, replayable.

:class:`DarkmasterEncounter` is the Against the Darkmaster :class:`~ruleslawyer.encounter.Encounter`.
Each Round runs the Tactical Round Sequence (:data:`.fight_play.ROUND_STAGES`): the Assessment Phase
counts lasting effects down (Bleeding's hits, a Spell's effect, Unconscious, the Dying count) and takes
the Assessment Rolls; the declarations, checked against the state when made (:mod:`.fight_checks`),
are ordered by :func:`~.trs.sequence_round`; each character's CMB is split between attack and Parry;
the phases resolve in order, Readied Actions firing as their trigger acts; a Multi-Round Action goes on
from Round to Round and is lost when interrupted. The combat chapter has no attack, critical or Spell
tables: an action's outcome (hits, conditions and their Rounds) is declared with it (ruling
``darkmaster.declared-outcome``), and its roll (open-ended d100) picks among outcomes by total.

Example::

    from ruleslawyer.rulesets.darkmaster import DarkmasterEncounter
    fight = DarkmasterEncounter.start([
        {"name": "Aldric", "side": "player", "cmb": 60, "hits": 40},
        {"name": "Grak", "side": "npc", "cmb": 45, "hits": 30}], seed=7)
    fight.declare("Aldric", {"parry": 20, "actions": [{"name": "Longsword attack", "kind": "melee",
        "weapon": "longsword", "target": "Grak",
        "result": {"hits": 5, "conditions": [{"name": "Bleeding", "per_round": 2, "rounds": 3}]}}]})
    r = fight.resolve_round()
    [line.text for line in r.lines], fight.state.combatant("Grak").hits

The input format: ``ruleslawyer fight darkmaster --schema`` (:data:`FIGHT_INPUT`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ruleslawyer.dice import Dice
from ruleslawyer.encounter import MAX_COMBATANTS, Encounter, FightState, LogLine
from ruleslawyer.inputs import RULINGS, SEED, Any_, DiceSlots, ListOf, MapOf, Obj, Text, at, json_schema
from ruleslawyer.registry import check_rulings
from ruleslawyer.trace import Step

from .fight_checks import check_against_state, check_carried, check_names, check_out_of_hits
from .fight_play import DICE_SLOTS, play
from .fight_state import COMBATANT, DECLARATION, Declaration, Fighter, read_declaration, read_fighter

__all__ = ["DarkmasterEncounter", "FIGHT_INPUT"]

FIGHT_INPUT = Obj({
    "description": Text("what the fight shows (ignored)"),
    "seed": SEED,
    "rulings": RULINGS,
    "options": Obj({}, "Against the Darkmaster fights take no options"),
    "combatants": ListOf(COMBATANT, "the characters, in order", min_items=1, max_items=MAX_COMBATANTS),
    "rounds": ListOf(Obj({
        "declare": MapOf(DECLARATION, "combatant name -> what it does this Round (none: nothing new; a "
                                      "Multi-Round Action under way goes on, a Readied Action stays held)"),
        "dice": DiceSlots(DICE_SLOTS, "scripted open-ended d100 faces by slot, in resolution order: attack "
                                      "(melee, ranged), spell, skill (other rolled actions)"),
    }, "one Round"), "the Rounds to play"),
    "fight": Any_("instead of combatants: a fight saved with --json (its 'fight' member), to play more Rounds"),
}, title="Against the Darkmaster fight")
"""The ``ruleslawyer fight darkmaster`` input, declared once (``--schema`` prints it)."""


class DarkmasterEncounter(Encounter):
    """A whole Against the Darkmaster fight (see the module docstring; the framework is
    :class:`~ruleslawyer.encounter.Encounter`). Combatants are :class:`.fight_state.Fighter` states,
    declarations :class:`.fight_state.Declaration` s. Ruling overrides (``darkmaster.*``) hold for every
    Round and are checked when the fight starts."""

    ruleset = "darkmaster"
    dice_slots = DICE_SLOTS

    @classmethod
    def start(cls, combatants: Sequence[Any], **kw) -> DarkmasterEncounter:
        """A new fight (see :meth:`Encounter.start`).

        Raises:
            RulesInputError: a bad combatant (``combatants[i].<field>``; one at 0 hits or below who is not down:
                :meth:`check_new`) or ruling override (``rulings.<id>``).
        """
        check_rulings(kw.get("rulings"), "darkmaster")
        return super().start(combatants, **kw)

    def check_new(self) -> None:
        """A new fight's combatant at 0 hits or below must be down (:func:`.fight_checks.check_out_of_hits`);
        a saved fight's may stand there, woken from Unconscious by play."""
        check_out_of_hits(self.state.combatants, self.rulings)

    @classmethod
    def read_combatant(cls, data: Any, field_name: str, rules) -> Fighter:
        """A :class:`.fight_state.Fighter` from its JSON shape (:func:`.fight_state.read_fighter`)."""
        f = read_fighter(data, field_name)
        check_carried(f, field_name, {}, rules)
        return f

    @classmethod
    def write_combatant(cls, combatant: Fighter) -> dict:
        return combatant.to_dict()

    @classmethod
    def link_combatants(cls, combatants: tuple[Fighter, ...], rules) -> tuple[Fighter, ...]:
        """The targets and triggers of carried actions name other combatants."""
        state = FightState(cls.ruleset, 0, combatants)
        for i, f in enumerate(combatants):
            for key, a in (("ongoing.action", f.ongoing.action if f.ongoing else None), ("held", f.held)):
                if a is not None:
                    check_names(a, f.name, state, at(f"combatants[{i}]", key))
        return combatants

    def check_declaration(self, state: FightState, combatant: Fighter, declaration: Any,
                          field_name: str) -> Declaration:
        """The declaration read (:func:`.fight_state.read_declaration`) and checked against the state
        (:func:`.fight_checks.check_against_state`)."""
        if isinstance(declaration, Declaration):  # built in Python: checked as its JSON shape is
            declaration = declaration.to_dict()
        decl = read_declaration(declaration, field_name)
        return check_against_state(decl, combatant, state, field_name, self.rulings, self.rules)

    def play_round(self, state: FightState, declarations: Mapping[str, Any], dice: Dice
                   ) -> tuple[FightState, Step, list[LogLine]]:
        """Resolve one Round (:func:`.fight_play.play`); a combatant who declared nothing takes no new action."""
        new, steps, lines = play(state, declarations, dice, self.rulings, self.rules)
        return new, self.round_step(state.round + 1, steps), lines

    @classmethod
    def schema(cls) -> dict:
        return json_schema(FIGHT_INPUT, "Against the Darkmaster fight input",
                           "ruleslawyer fight darkmaster --input FILE.json [--rounds N] [--seed S] [--json] "
                           "[--ruling ID=ANSWER]: combatants, then each Round's declarations and optional dice.")

    @classmethod
    def summary(cls, combatant: Fighter) -> str:
        """``Grak: 23 hits, CMB 45; Bleeding 2/round (1 Round); Load (2) 1/2 done; holds Shoot; Assessment Roll due``."""
        f = combatant
        if f.dead:
            return f"{f.name}: dead"
        parts = [f"{f.hits} hits, CMB {f.cmb}"] + [c.label() for c in f.conditions]
        if f.ongoing:
            parts.append(f"{f.ongoing.action.name} {f.ongoing.done}/{f.ongoing.action.duration} done")
        if f.held:
            parts.append(f"holds {f.held.name}")
        if f.due_next:
            parts.append("Assessment Roll due")
        return f"{f.name}: " + "; ".join(parts)

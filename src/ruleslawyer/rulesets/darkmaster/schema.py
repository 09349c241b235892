"""The Against the Darkmaster round input, declared once (:mod:`ruleslawyer.inputs`): the engine reads
its JSON with these declarations and ``ruleslawyer sequence darkmaster --schema`` prints them as JSON
Schema.

Light on purpose (standard library and the core input layer only), so ``--schema`` starts quickly;
the enums' values are the engine's own (a test checks each :class:`~ruleslawyer.inputs.Choice`
against its StrEnum).
"""

from __future__ import annotations

from typing import Any

from ruleslawyer.inputs import RULINGS, Bool, Choice, Int, ListOf, Name, Obj, Text, json_schema

__all__ = ["ACTION", "COMBATANT", "SEQUENCE", "SEQUENCE_SCHEMA", "combatant_field"]

_CMB = 999  # actions.MAX_CMB


def combatant_field(name: object, index: int) -> str:
    """The input field of a combatant: ``combatants.Brom`` by name, ``combatants[3]`` when it has none."""
    return f"combatants.{name}" if isinstance(name, str) and name.strip() else f"combatants[{index}]"


def _by_name(field: str, index: int, value: Any) -> str:
    name = value.get("name") if isinstance(value, dict) else None
    return combatant_field(name if isinstance(name, str) and len(name) <= 100 else None, index)


ACTION = Obj({
    "name": Name("a trailing (n), e.g. 'Load (2)', makes it a Multi-Round Action of n Rounds"),
    "type": Choice(("Full", "Half", "Free"), "default: the type the chapter gives the kind, else Full; a melee or "
                   "ranged attack or a non-instant Spell must be Full (action-types#2), an Instant Spell Half "
                   "(action-types#3)", null=True),
    "kind": Choice(("move", "spell", "ranged", "melee", "other"), default="other"),
    "target": Name("whom it is aimed at (shown only)", null=True),
    "weapon_length": Name("melee: Hand, Short, Long, Longest, or a weapon the supplement table weapon-examples "
                          "names (longsword, staff, spear, ...)", null=True),
    "weapon": Name("the weapon's name (any kind); a melee attack without weapon_length takes its length from "
                   "weapon-examples", null=True),
    "positional_bonus": Bool("melee: from higher ground or mounted, flanking, or from the rear", default=False),
    "dashing": Bool("melee: a Dashing Attack", default=False),
    "instant": Bool("spell: an Instant Spell", default=False),
    "prepared_rounds": Int(0, 1000, "spell: full previous Rounds of preparation", default=0),
    "reloaded_before": Bool("ranged: loaded and aimed a complete Round or more before this one", default=False),
    "thrown_in_hand": Bool("ranged: a readied thrown weapon already in hand", default=False),
    "readied": Bool("held until a circumstance arises (resolves outside the TRS)", default=False),
    "rounds": Int(1, 1000, "duration of a Multi-Round Action (null: from the name, else 1)", null=True),
    "round": Int(1, 1000, "which Round of it this is (1..rounds)", default=1),
    "interrupted": Bool("the Multi-Round Action was interrupted (it is lost)", default=False),
    "continuing": Bool("carries on what the character was doing last Round", default=False),
}, "one declared action", required=("name",))

COMBATANT = Obj({
    "name": Name("unique; errors name the combatant by it (combatants.Brom.parry)"),
    "cmb": Int(-_CMB, _CMB, "combat bonus of the skill in use", default=0),
    "side": Choice(("npc", "player"), "the GM's NPCs declare first", default="player"),
    "caster_level": Int(0, 1000, "for ordering Spells", default=0),
    "spell_casting_bonus": Int(-_CMB, _CMB, "Spell Casting Roll bonus, breaks caster-level ties", default=0),
    "assessment": Choice(("passed", "failed"), "this Round's Assessment Roll, if one was made", null=True),
    "parry": Int(0, _CMB, "CMB held back to Parry: at most the CMB (supplement parry#1), at most half of it "
                 "after a failed Assessment Roll", default=0),
    "actions": ListOf(ACTION, "declared actions"),
}, "a character in the Round", required=("name",))

SEQUENCE = Obj({
    "combatants": ListOf(COMBATANT, min_items=1, label=_by_name),
    "rulings": RULINGS,
    "description": Text("free text, ignored"),
}, required=("combatants",))
"""The input of ``ruleslawyer sequence darkmaster``."""

SEQUENCE_SCHEMA = json_schema(SEQUENCE, "Against the Darkmaster round input",
                              "The combatants of one Round and their declared actions; the result is the order "
                              "of resolution through the nine TRS phases.")
"""The documented input of ``ruleslawyer sequence darkmaster``."""

"""JSON input format of ``ruleslawyer sequence darkmaster`` (``--schema``)."""

from __future__ import annotations

__all__ = ["SEQUENCE_SCHEMA"]

SEQUENCE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Against the Darkmaster round input",
    "description": "The combatants of one Round and their declared actions; the result is the order of "
                   "resolution through the nine TRS phases.",
    "type": "object", "additionalProperties": False, "required": ["combatants"],
    "properties": {
        "combatants": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False, "required": ["name"],
            "properties": {
                "name": {"type": "string", "description": "unique; errors name the combatant by it "
                                                          "(combatants.Brom.parry)"},
                "cmb": {"type": "integer", "description": "combat bonus of the skill in use"},
                "side": {"enum": ["npc", "player"], "description": "the GM's NPCs declare first"},
                "caster_level": {"type": "integer", "minimum": 0},
                "spell_casting_bonus": {"type": "integer"},
                "assessment": {"enum": ["passed", "failed", None],
                               "description": "this Round's Assessment Roll, if one was made"},
                "parry": {"type": "integer", "minimum": 0,
                          "description": "CMB held back to Parry: at most the CMB (supplement parry#1), at most "
                                         "half of it after a failed Assessment Roll"},
                "actions": {"type": "array", "items": {
                    "type": "object", "additionalProperties": False, "required": ["name"],
                    "properties": {
                        "name": {"type": "string", "description": "a trailing (n), e.g. 'Load (2)', makes it "
                                                                  "a Multi-Round Action of n Rounds"},
                        "type": {"enum": ["Full", "Half", "Free", None],
                                 "description": "default: the type the chapter gives the kind, else Full; a "
                                                "melee or ranged attack or a non-instant Spell must be Full "
                                                "(action-types#2), an Instant Spell Half (action-types#3)"},
                        "kind": {"enum": ["move", "spell", "ranged", "melee", "other"]},
                        "target": {"type": "string"},
                        "weapon_length": {"type": "string", "description": "melee: Hand, Short, Long, Longest, "
                                                                           "or a weapon the supplement table "
                                                                           "weapon-examples names (longsword, "
                                                                           "staff, spear, ...)"},
                        "weapon": {"type": "string", "description": "the weapon's name (any kind); a melee "
                                                                    "attack without weapon_length takes its "
                                                                    "length from weapon-examples"},
                        "positional_bonus": {"type": "boolean"},
                        "dashing": {"type": "boolean"},
                        "instant": {"type": "boolean"},
                        "prepared_rounds": {"type": "integer", "minimum": 0},
                        "reloaded_before": {"type": "boolean"},
                        "thrown_in_hand": {"type": "boolean"},
                        "readied": {"type": "boolean"},
                        "rounds": {"type": "integer", "minimum": 1},
                        "round": {"type": "integer", "minimum": 1},
                        "interrupted": {"type": "boolean"},
                        "continuing": {"type": "boolean"},
                    }}},
            }}},
        "rulings": {"type": "object", "additionalProperties": {"type": "string"}},
    },
}
"""The documented input of ``ruleslawyer sequence darkmaster``."""

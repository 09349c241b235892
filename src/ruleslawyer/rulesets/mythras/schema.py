"""JSON input formats of the Mythras commands (``ruleslawyer exchange|initiative mythras --schema``)."""

from __future__ import annotations

__all__ = ["EXCHANGE_SCHEMA", "INITIATIVE_SCHEMA", "FIGHT_SCHEMA"]

_GRADES = ["Very Easy", "Easy", "Standard", "Hard", "Formidable", "Herculean", "Hopeless"]
_SIZES = "Small, Medium, Large, Huge or Enormous (the supplement table weapon-size)"
_DICE = {"type": "object", "description": "scripted dice by slot, e.g. {\"attack\": [7], \"parry\": [40]}; "
         "unscripted slots roll from --seed",
         "additionalProperties": {"type": "array", "items": {"type": "integer", "minimum": 1}}}
_RULINGS = {"type": "object", "description": "ruling overrides, id -> answer (see `ruleslawyer rulings`)",
            "additionalProperties": {"type": "string"}}

_WEAPON = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "name": {"type": "string"},
        "damage": {"type": "string", "description": "damage dice, e.g. 1d8 or 1d10+1"},
        "size": {"type": "string", "description": "Size (melee, parrying) — " + _SIZES},
        "force": {"type": "string", "description": "Force of a ranged weapon (same scale as Size)"},
        "traits": {"type": "array", "items": {"enum": ["cutting", "impaling", "bludgeoning", "shield",
                                                        "two-handed", "unarmed", "firearm"]}},
        "ranged": {"enum": ["bow", "thrown", "firearm", None]},
        "damage_modifier_applies": {"type": ["boolean", "null"],
                                    "description": "ranged: does the Damage Modifier apply (null: ruling)"},
    },
}

EXCHANGE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Mythras exchange input",
    "description": "One attack–parry exchange. Dice slots: attack, parry, evade, damage, damage_modifier, "
                   "location, stray, rounds (how many of a burst's rounds hit).",
    "type": "object", "additionalProperties": False, "required": ["attacker", "defender"],
    "properties": {
        "attacker": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "skill": {"type": "integer", "minimum": 0, "maximum": 999, "description": "Combat Style %"},
                "weapon": _WEAPON,
                "difficulty": {"enum": _GRADES, "description": "situational grade (default Standard)"},
                "outside_style": {"type": "boolean"},
                "outside_style_grades": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
                "str_siz": {"type": "integer", "minimum": 0, "description": "STR+SIZ for the Damage Modifier"},
                "damage_modifier": {"type": "string", "description": "a Damage Modifier given directly, e.g. +1d6"},
                "charge": {"type": "boolean"},
                "quadruped": {"type": "boolean"},
                "range": {"enum": ["Close", "Effective", "Long", None]},
                "aimed": {"type": "boolean"},
                "into_melee": {"enum": ["Hard", "Formidable", None]},
                "adjacent": {"type": "array", "items": {"type": "string"}},
                "target_still_or_unaware": {"type": "boolean"},
                "effects": {"type": "array", "items": {"type": "string"},
                            "description": "Special Effects wanted, in order of preference"},
                "chosen_location": {"type": ["string", "null"],
                                    "description": "location named with Choose Location"},
                "surprised": {"type": "boolean",
                              "description": "ambushed this Round: no offensive actions, so no attack"},
                "set_against_charge": {"type": "boolean",
                                       "description": "a counter's spear set against the Charge"},
                "fire_mode": {"enum": ["single", "burst", "full-auto", None],
                              "description": "a firearm's burst (Hard) or full-auto spray (Formidable)"},
                "rounds": {"type": ["integer", "null"], "minimum": 1, "maximum": 100,
                           "description": "rounds of a burst or spray fired at this target"},
            },
        },
        "defender": {
            "type": "object", "additionalProperties": False,
            "properties": {
                "name": {"type": "string"},
                "skill": {"type": "integer", "minimum": 0, "maximum": 999, "description": "Parry or Evade %"},
                "defence": {"enum": ["parry", "evade", "none"]},
                "weapon": _WEAPON,
                "difficulty": {"enum": _GRADES},
                "outside_style": {"type": "boolean"},
                "outside_style_grades": {"type": ["integer", "null"], "minimum": 1, "maximum": 5},
                "action_points": {"type": "integer", "minimum": 0},
                "surprised": {"type": "boolean", "description": "ambushed: cannot defend; the first "
                              "successful attack against them gains a bonus Special Effect"},
                "surprise_bonus_spent": {"type": "boolean", "description": "an earlier successful attack "
                                         "this Round already took the surprise bonus Effect"},
                "armour": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                           "description": "worn Armor Points by hit location"},
                "natural_armour": {"type": ["integer", "object"]},
                "ward": {"type": "object", "properties": {"locations": {"type": "array", "items": {"type": "string"}},
                                                          "size": {"type": "string"}}},
                "traits": {"type": "array", "items": {"type": "string"}},
                "effects": {"type": "array", "items": {"type": "string"}},
            },
        },
        "dice": _DICE,
        "seed": {"type": "integer"},
        "rulings": _RULINGS,
    },
}
EXCHANGE_SCHEMA["properties"]["counter"] = {
    "type": "object", "additionalProperties": False,
    "description": "a Charge met by a counter-attack (mythras/combat/charge-evade-outmanoeuvre#1): the "
                   "target's attack on the charger (attacker.set_against_charge for a set spear) and the "
                   "charger's defence; its dice slots are prefixed counter. (counter.attack, counter.damage)",
    "properties": {"attacker": EXCHANGE_SCHEMA["properties"]["attacker"],
                   "defender": EXCHANGE_SCHEMA["properties"]["defender"]},
}
EXCHANGE_SCHEMA["properties"]["longer"] = {"enum": ["charger", "counter", "same"],
                                           "description": "with a counter: whose weapon is longer"}
"""The documented input of ``ruleslawyer exchange mythras``."""

INITIATIVE_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Mythras Initiative input",
    "description": "1d10 + Initiative Modifier − highest Armor Points worn (−10 surprised). Dice slots: "
                   "initiative (one d10 per combatant, in order), tiebreak.",
    "type": "object", "additionalProperties": False, "required": ["combatants"],
    "properties": {
        "combatants": {"type": "array", "minItems": 1, "items": {
            "type": "object", "additionalProperties": False, "required": ["name"],
            "properties": {
                "name": {"type": "string"},
                "initiative_modifier": {"type": "integer"},
                "dex": {"type": "integer", "minimum": 0},
                "armour_points": {"type": "integer", "minimum": 0, "description": "highest Armor Points worn"},
                "armour": {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0},
                           "description": "worn Armor Points by location (the highest counts)"},
                "surprised": {"type": "boolean"},
                "roll": {"type": "integer", "minimum": 1, "maximum": 10, "description": "a d10 already rolled"},
            }}},
        "dice": _DICE,
        "seed": {"type": "integer"},
        "rulings": _RULINGS,
    },
}
"""The documented input of ``ruleslawyer initiative mythras``."""

_LOCATIONS = "hit locations of the supplement table hit-location-humanoid (Right Leg, Left Leg, Abdomen, Chest, " \
             "Right Arm, Left Arm, Head)"
_BY_LOCATION = {"type": "object", "additionalProperties": {"type": "integer"}, "description": "by " + _LOCATIONS}
_EFFECTS = {"type": "array", "items": {"type": "string"},
            "description": "Special Effects wanted, in order of preference (supplement table special-effects)"}
_ACTION = {
    "type": "object", "additionalProperties": False, "required": ["action"],
    "properties": {
        "action": {"enum": ["Attack", "Charge", "Move", "Regain Footing", "Ready Weapon"],
                   "description": "a Proactive action (mythras/combat/action-menu-essentials#1); a bare name "
                                  "string is allowed too"},
        "target": {"type": ["string", "null"], "description": "whom to Attack or Charge, or Move into contact "
                                                              "with (default: the only foe)"},
        "effects": _EFFECTS,
        "chosen_location": {"type": ["string", "null"], "description": "named with Choose Location"},
    },
}
_CONDITION = {
    "type": "object", "additionalProperties": False,
    "description": "where the combatant stands (written by a saved fight; every field optional: a fresh fighter)",
    "properties": {
        "hit_points": dict(_BY_LOCATION, description="Hit Points left by location (may be below 0)"),
        "action_points_left": {"type": "integer", "minimum": 0},
        "status": {"enum": ["active", "incapacitated", "dead"]},
        "out_by": {"type": ["string", "null"], "description": "the ruling that put them out of the fight"},
        "prone": {"type": "boolean"},
        "disarmed": {"type": "boolean", "description": "the weapon was knocked away (ruling mythras.disarm-opponent)"},
        "useless": {"type": "array", "items": {"type": "string"}, "description": "limbs a Serious Wound made useless"},
        "bleeding": {"type": "array", "items": {"type": "string"}, "description": "bleeding locations"},
        "impaled_by": {"type": "array", "items": {"type": "object", "properties": {
            "by": {"type": "string"}, "location": {"type": "string"}}}, "description": "weapons stuck in them"},
        "weapon_stuck_in": {"type": ["string", "null"], "description": "whom their own weapon is stuck in"},
        "initiative": {"type": ["integer", "null"]},
        "place": {"type": ["integer", "null"], "minimum": 1, "description": "place in the Initiative order"},
    },
}
_COMBATANT = {
    "type": "object", "additionalProperties": False,
    "required": ["name", "combat_style", "weapon", "hit_points"],
    "properties": {
        "name": {"type": "string"},
        "side": {"type": "string", "description": "who fights together (default: the combatant's own name)"},
        "combat_style": {"type": "integer", "minimum": 0, "maximum": 999, "description": "Combat Style %"},
        "evade": {"type": ["integer", "null"], "minimum": 0, "maximum": 999, "description": "Evade %"},
        "endurance": {"type": ["integer", "null"], "minimum": 0, "maximum": 999,
                      "description": "Endurance %, rolled after a Serious Wound (ruling mythras.serious-wound)"},
        "weapon": _WEAPON,
        "shield": dict(_WEAPON, description="a shield or second weapon they parry with (in the other arm)"),
        "str_siz": {"type": "integer", "minimum": 0, "description": "STR+SIZ for the Damage Modifier"},
        "damage_modifier": {"type": "string", "description": "a Damage Modifier given directly, e.g. +1d4"},
        "initiative_modifier": {"type": "integer"},
        "dex": {"type": "integer", "minimum": 0, "description": "breaks Initiative ties"},
        "armour": dict(_BY_LOCATION, description="worn Armor Points by location (the highest counts against "
                                                 "Initiative)"),
        "natural_armour": {"type": ["integer", "object"]},
        "traits": {"type": "array", "items": {"type": "string"}, "description": "Combat Style traits (Daredevil)"},
        "weapon_arm": {"enum": ["Right Arm", "Left Arm"], "description": "default Right Arm"},
        "action_points": {"type": "integer", "minimum": 0, "maximum": 10,
                          "description": "AP each Round (mythras/combat/setup#2: 2 unless the input says)"},
        "hit_points": dict(_BY_LOCATION, description="starting Hit Points of every location"),
        "engaged_with": {"type": "array", "items": {"type": "string"},
                         "description": "whom they start Engaged with (mutual)"},
        "surprised": {"type": "boolean", "description": "ambushed: the first Round only"},
        "condition": _CONDITION,
    },
}
_DECLARATION = {
    "type": "object", "additionalProperties": False,
    "description": "one Round of one combatant: Proactive actions for their Turns, in order (each spends 1 AP; "
                   "at most their AP a Round), and their Reactive defence",
    "properties": {
        "actions": {"type": "array", "items": {"oneOf": [{"type": "string"}, _ACTION]}},
        "target": {"type": "string", "description": "default target of every Attack or Charge"},
        "effects": _EFFECTS,
        "chosen_location": {"type": ["string", "null"]},
        "defence": {"enum": ["parry", "evade", "none", None],
                    "description": "the Reactive reply to every attack while AP last (default: parry when "
                                   "they hold something to parry with, else evade when they have the skill)"},
        "defence_effects": _EFFECTS,
    },
}

FIGHT_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Mythras fight input",
    "description": "A fight across Rounds (ruleslawyer fight mythras). Dice slots a Round rolls from: initiative "
                   "(one d10 per fighter able to fight, in input order, in the first Round), tiebreak, attack, "
                   "parry, evade, damage, damage_modifier, location, rounds, stray, endurance (after a Serious "
                   "Wound). Unscripted slots roll from the fight's seed and the Round's number.",
    "type": "object", "additionalProperties": False, "required": ["combatants"],
    "properties": {
        "seed": {"type": "integer"},
        "rulings": _RULINGS,
        "combatants": {"type": "array", "minItems": 1, "items": _COMBATANT},
        "rounds": {"type": "array", "items": {
            "type": "object", "additionalProperties": False,
            "properties": {"declare": {"type": "object", "additionalProperties": _DECLARATION,
                                       "description": "combatant name -> declaration"},
                           "dice": _DICE}}},
        "fight": {"type": "object", "description": "a fight saved with --json (its 'fight' member), to play on"},
    },
}
"""The documented input of ``ruleslawyer fight mythras``."""

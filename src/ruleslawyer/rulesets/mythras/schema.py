"""The Mythras inputs, declared once (:mod:`ruleslawyer.inputs`): the engines read their JSON with
these declarations and ``ruleslawyer exchange|initiative mythras --schema`` prints them as JSON Schema.

Light on purpose (standard library and the core input layer only), so ``--schema`` starts quickly;
the enums' values are the engines' own (a test checks each :class:`~ruleslawyer.inputs.Choice`
against its StrEnum).
"""

from __future__ import annotations

from ruleslawyer.inputs import (RULINGS, SEED, Any_, Bool, Choice, DiceSlots, Either, Int, ListOf, MapOf, Name, Obj,
                                Text, json_schema)

__all__ = ["EXCHANGE_SLOTS", "CHARGE_SLOTS", "INITIATIVE_SLOTS", "WEAPON", "ATTACKER", "DEFENDER", "EXCHANGE",
           "CHARGE", "INITIATIVE", "INITIATIVE_COMBATANT", "EXCHANGE_SCHEMA", "INITIATIVE_SCHEMA", "FIGHT_SCHEMA",
           "FIGHT_SLOTS", "FIGHTER", "DECLARATION", "FIGHT"]

EXCHANGE_SLOTS = ("attack", "parry", "evade", "damage", "damage_modifier", "location", "stray", "rounds")
"""Dice slots of the exchange (the counter to a Charge rolls the same slots prefixed ``counter.``)."""
CHARGE_SLOTS = EXCHANGE_SLOTS + tuple(f"counter.{s}" for s in EXCHANGE_SLOTS)
"""Dice slots of a Charge met by a counter: the charge's, then the counter's."""
INITIATIVE_SLOTS = ("initiative", "tiebreak")
"""Dice slots of Initiative: one d10 per combatant in input order, then roll-offs in tie order."""

GRADES = ("Very Easy", "Easy", "Standard", "Hard", "Formidable", "Herculean", "Hopeless")
TRAITS = ("cutting", "impaling", "bludgeoning", "shield", "two-handed", "unarmed", "firearm")
_SIZES = "Small, Medium, Large, Huge or Enormous (the supplement table weapon-size)"
_SKILL = 999  # levels.MAX_SKILL
_STR_SIZ = 999  # damage.MAX_STR_SIZ
_AP = 10  # fighter.MAX_ACTION_POINTS
_ARMOUR = MapOf(Int(0, 999), "Armor Points by hit location, e.g. {\"Chest\": 4}")

WEAPON = Obj({
    "name": Name(default="weapon"),
    "damage": Name("damage dice, e.g. 1d8 or 1d10+1", default="1d6"),
    "size": Name("Size (melee, parrying): " + _SIZES, default="Medium"),
    "force": Name("Force of a ranged weapon (same scale as Size; instead of size)"),
    "traits": ListOf(Choice(TRAITS)),
    "ranged": Choice(("bow", "thrown", "firearm"), "a ranged weapon's kind", null=True),
    "damage_modifier_applies": Bool("ranged: does the Damage Modifier apply (null: ruling "
                                    "mythras.ranged-damage-modifier)", null=True),
}, "a weapon or shield")

_OUTSIDE_GRADES = Int(1, 5, "grades harder outside the Combat Style (null: ruling mythras.outside-style-grades)",
                      null=True)

ATTACKER = Obj({
    "name": Name(default="Attacker"),
    "skill": Int(0, _SKILL, "Combat Style %", default=50),
    "weapon": WEAPON,
    "difficulty": Choice(GRADES, "situational grade", default="Standard"),
    "outside_style": Bool("the weapon is outside the attacker's Combat Styles"),
    "outside_style_grades": _OUTSIDE_GRADES,
    "str_siz": Int(0, _STR_SIZ, "STR+SIZ for the Damage Modifier", null=True),
    "damage_modifier": Name("a Damage Modifier given directly, e.g. +1d6 (wins over str_siz)", null=True),
    "charge": Bool("a Charge: Hard, Size +1 step, Damage Modifier +1 step"),
    "quadruped": Bool("the charger is a quadruped: Damage Modifier +2 steps"),
    "range": Choice(("Close", "Effective", "Long"), "range of a ranged attack", null=True),
    "aimed": Bool("aimed for a full Round"),
    "into_melee": Choice(("Hard", "Formidable"), "firing into a crowd or melee", null=True),
    "adjacent": ListOf(Name(), "who stands next to the target (for a stray shot)"),
    "target_still_or_unaware": Bool("the target is stationary or unaware (Choose Location at range)"),
    "effects": ListOf(Name(), "Special Effects wanted, in order of preference"),
    "chosen_location": Name("the location named with Choose Location", null=True),
    "surprised": Bool("ambushed this Round: no offensive actions, so no attack"),
    "set_against_charge": Bool("a counter's spear set against the Charge"),
    "fire_mode": Choice(("single", "burst", "full-auto"), "a firearm's burst (Hard) or full-auto spray "
                        "(Formidable)", null=True),
    "rounds": Int(1, 100, "rounds of a burst or spray fired at this target", null=True),
}, "the attacking side")

DEFENDER = Obj({
    "name": Name(default="Defender"),
    "skill": Int(0, _SKILL, "Parry (Combat Style) or Evade %", default=50),
    "defence": Choice(("parry", "evade", "none"), default="parry"),
    "weapon": Obj(WEAPON.fields, "the parrying weapon or shield (needed to Parry)", null=True),
    "difficulty": Choice(GRADES, default="Standard"),
    "outside_style": Bool(),
    "outside_style_grades": _OUTSIDE_GRADES,
    "action_points": Int(0, _AP, "Action Points left this Round (a Parry or Evade spends 1)", default=2),
    "surprised": Bool("ambushed: cannot defend; the first successful attack against them gains a bonus "
                      "Special Effect"),
    "surprise_bonus_spent": Bool("an earlier successful attack this Round already took the surprise bonus Effect"),
    "armour": MapOf(Int(0, 999), "worn Armor Points by hit location, e.g. {\"Chest\": 4}"),
    "natural_armour": Either(Int(0, 999), _ARMOUR, description="natural Armor Points: everywhere (a whole "
                             "number) or by location", default=0),
    "ward": Obj({"locations": ListOf(Name()), "size": Name(default="Medium")},
                "Ward Location (a passive block): the locations a shield covers and its Size", null=True),
    "traits": ListOf(Name(), "Combat Style traits, e.g. Daredevil"),
    "effects": ListOf(Name(), "Special Effects wanted, in order of preference"),
}, "the defending side")

EXCHANGE = Obj({
    "attacker": ATTACKER,
    "defender": DEFENDER,
    "dice": DiceSlots(EXCHANGE_SLOTS),
    "seed": SEED,
    "rulings": RULINGS,
    "description": Text("free text, ignored"),
}, required=("attacker", "defender"))
"""One exchange (:meth:`.inputs.ExchangeInput.from_dict`)."""

CHARGE = EXCHANGE.extend(
    counter=Obj({"attacker": ATTACKER, "defender": DEFENDER},
                "a Charge met by a counter-attack (mythras/combat/charge-evade-outmanoeuvre#1): the target's "
                "attack on the charger (attacker.set_against_charge for a set spear) and the charger's "
                "defence; its dice slots are prefixed counter. (counter.attack, counter.damage)",
                required=("attacker", "defender")),
    longer=Choice(("charger", "counter", "same"), "with a counter: whose weapon is longer", default="same"),
    dice=DiceSlots(CHARGE_SLOTS))
"""The input of ``ruleslawyer exchange mythras``."""

INITIATIVE_COMBATANT = Obj({
    "name": Name(),
    "initiative_modifier": Int(-999, 999, "the Initiative bonus", default=0),
    "dex": Int(0, 999, "DEX, breaks ties", default=10),
    "armour_points": Int(0, 999, "highest Armor Points worn", default=0),
    "armour": MapOf(Int(0, 999), "worn Armor Points by location (the highest counts)"),
    "surprised": Bool("ambushed this Round: -10 Initiative"),
    "roll": Int(1, 10, "a d10 already rolled", null=True),
}, required=("name",))

INITIATIVE = Obj({
    "combatants": ListOf(INITIATIVE_COMBATANT, min_items=1),
    "dice": DiceSlots(INITIATIVE_SLOTS),
    "seed": SEED,
    "rulings": RULINGS,
    "description": Text("free text, ignored"),
}, required=("combatants",))
"""The input of ``ruleslawyer initiative mythras``."""

EXCHANGE_SCHEMA = json_schema(CHARGE, "Mythras exchange input",
                              "One attack–parry exchange (with counter and longer: a Charge met by a counter). "
                              "Dice slots: attack, parry, evade, damage, damage_modifier, location, stray, "
                              "rounds (how many of a burst's rounds hit).")
"""The documented input of ``ruleslawyer exchange mythras``."""

INITIATIVE_SCHEMA = json_schema(INITIATIVE, "Mythras Initiative input",
                                "1d10 + Initiative Modifier − highest Armor Points worn (−10 surprised). Dice "
                                "slots: initiative (one d10 per combatant, in order), tiebreak.")
"""The documented input of ``ruleslawyer initiative mythras``."""

FIGHT_SLOTS = INITIATIVE_SLOTS + EXCHANGE_SLOTS + ("endurance",) + tuple(f"counter.{s}" for s in EXCHANGE_SLOTS)
"""Dice slots a fight's Round rolls: Initiative (the first Round), each exchange's (a Charge's counter
prefixed ``counter.``) and the Endurance roll after a Serious Wound."""

_LOCATIONS = "hit locations of the supplement table hit-location-humanoid (Right Leg, Left Leg, Abdomen, Chest, " \
             "Right Arm, Left Arm, Head)"
_HP = 9999  # Hit Points a location may have (or be below 0 by)
_EFFECTS = ListOf(Name("a Special Effect"), "Special Effects wanted, in order of preference (supplement table "
                  "special-effects)")

_CONDITION = Obj({
    "hit_points": MapOf(Int(-_HP, _HP), "Hit Points left by location (may be below 0), by " + _LOCATIONS),
    "action_points_left": Int(0, _AP, "Action Points left this Round"),
    "status": Choice(("active", "incapacitated", "dead")),
    "out_by": Name("the ruling that put them out of the fight", null=True),
    "prone": Bool(),
    "disarmed": Bool("the weapon was knocked away (ruling mythras.disarm-opponent)"),
    "useless": ListOf(Name("a location"), "limbs a Serious Wound made useless"),
    "bleeding": ListOf(Name("a location"), "bleeding locations"),
    "impaled_by": ListOf(Obj({"by": Name(), "location": Name()}), "weapons stuck in them"),
    "weapon_stuck_in": Name("whom their own weapon is stuck in", null=True),
    "initiative": Int(-999, 999, null=True),
    "place": Int(1, 1000, "place in the Initiative order", null=True),
}, "where the combatant stands (written by a saved fight; every field optional: a fresh fighter)")

FIGHTER = Obj({
    "name": Name("unique; declarations name the combatant by it"),
    "side": Name("who fights together (default: the combatant's own name)"),
    "combat_style": Int(0, _SKILL, "Combat Style %"),
    "evade": Int(0, _SKILL, "Evade %", null=True),
    "endurance": Int(0, _SKILL, "Endurance %, rolled after a Serious Wound (ruling mythras.serious-wound)",
                     null=True),
    "weapon": WEAPON,
    "shield": Obj(WEAPON.fields, "a shield or second weapon they parry with (in the other arm)", null=True),
    "str_siz": Int(0, 999, "STR+SIZ for the Damage Modifier", null=True),
    "damage_modifier": Name("a Damage Modifier given directly, e.g. +1d4", null=True),
    "initiative_modifier": Int(-999, 999),
    "dex": Int(0, 999, "breaks Initiative ties"),
    "armour": MapOf(Int(0, 999), "worn Armor Points by location (the highest counts against Initiative)"),
    "natural_armour": Either(Int(0, 999), _ARMOUR, description="natural Armor Points: everywhere or by location"),
    "traits": ListOf(Name(), "Combat Style traits (Daredevil)"),
    "weapon_arm": Choice(("Right Arm", "Left Arm"), default="Right Arm"),
    "action_points": Int(0, _AP, "AP each Round (mythras/combat/setup#2: 2 unless the input says)", default=2),
    "hit_points": MapOf(Int(-_HP, _HP), "starting Hit Points of every location, by " + _LOCATIONS),
    "engaged_with": ListOf(Name(), "whom they start Engaged with (mutual)"),
    "surprised": Bool("ambushed: the first Round only"),
    "condition": _CONDITION,
}, "one combatant", required=("name", "combat_style", "weapon", "hit_points"))

_ACTION = Obj({
    "action": Choice(("Attack", "Charge", "Move", "Regain Footing", "Ready Weapon"),
                     "a Proactive action (mythras/combat/action-menu-essentials#1)"),
    "target": Name("whom to Attack or Charge, or Move into contact with (default: the only foe)", null=True),
    "effects": _EFFECTS,
    "chosen_location": Name("named with Choose Location", null=True),
}, "one action", required=("action",))

DECLARATION = Obj({
    "actions": ListOf(Either(Name("a Proactive action by name"), _ACTION), "Proactive actions for their Turns, in "
                      "order (each spends 1 AP; at most their AP a Round)", max_items=20),
    "target": Name("default target of every Attack or Charge"),
    "effects": _EFFECTS,
    "chosen_location": Name(null=True),
    "defence": Choice(("parry", "evade", "none"), "the Reactive reply to every attack while AP last (default: "
                      "parry when they hold something to parry with, else evade when they have the skill)",
                      null=True),
    "defence_effects": _EFFECTS,
}, "one Round of one combatant: Proactive actions for their Turns and their Reactive defence")

FIGHT = Obj({
    "description": Text("what the fight shows (ignored)"),
    "seed": SEED,
    "rulings": RULINGS,
    "options": Obj({}, "Mythras fights take no options"),
    "combatants": ListOf(FIGHTER, "the combatants, in order", min_items=1, max_items=50),
    "rounds": ListOf(Obj({
        "declare": MapOf(DECLARATION, "combatant name -> declaration"),
        "dice": DiceSlots(FIGHT_SLOTS, "scripted faces by slot, e.g. {\"attack\": [7], \"parry\": [40]}"),
    }, "one Round"), "the Rounds to play", max_items=200),
    "fight": Any_("instead of combatants: a fight saved with --json (its 'fight' member), to play on"),
})
"""The input of ``ruleslawyer fight mythras``, declared once (read and printed by ``--schema``)."""

FIGHT_SCHEMA = json_schema(FIGHT, "Mythras fight input",
                           "A fight across Rounds (ruleslawyer fight mythras). Dice slots a Round rolls from: "
                           "initiative (one d10 per fighter able to fight, in input order, in the first Round), "
                           "tiebreak, attack, parry, evade, damage, damage_modifier, location, rounds, stray, "
                           "endurance (after a Serious Wound), and a Charge's counter.* slots. Unscripted slots "
                           "roll from the fight's seed and the Round's number.")
"""The documented input of ``ruleslawyer fight mythras``."""

"""The Mastery inputs, declared once (:mod:`ruleslawyer.inputs`): the exchange, the round's sequence,
the AP planner and the trauma sheet read their JSON with these declarations, and ``ruleslawyer
exchange|sequence mastery --schema``, ``mastery-ap --schema`` and ``trauma --schema`` (the sheet) print
them as JSON Schema.

Light on purpose (standard library and the core input layer only), so ``--schema`` starts quickly;
the enums' values are the engines' own (a test checks each :class:`~ruleslawyer.inputs.Choice`
against its StrEnum, and each bound against the engine's constant).
"""

from __future__ import annotations

from ruleslawyer.inputs import (RULINGS, SEED, Any_, Bool, Choice, DiceSlots, Either, Int, ListOf, MapOf, Name, Obj,
                                Tagged, Text, json_schema)

__all__ = ["EXCHANGE_SLOTS", "SEQUENCE_SLOTS", "ATTACK", "SHEET", "COMBATANT", "SITUATION", "EXCHANGE",
           "SEQUENCE", "AP", "ACTION", "EXCHANGE_SCHEMA", "SEQUENCE_SCHEMA", "AP_SCHEMA", "SHEET_SCHEMA",
           "FIGHT_SLOTS", "FIGHTER", "FIGHT_ACTION", "ORDERS", "FIGHT_OPTIONS", "FIGHT", "FIGHT_SCHEMA"]

EXCHANGE_SLOTS = ("attack", "defense", "aim", "endurance", "trauma", "finger")
"""Dice slots of the exchange: tier dice and weapon dice (attack, defense), the Aiming Trial, Endurance
trials, the Trauma d100 and the finger 1d10."""
SEQUENCE_SLOTS = ("side", "startle_agility", "startle_perception")
"""Dice slots of a round's sequence: the 1d6 side roll and the Startle trial's two tier dice."""
FIGHT_SLOTS = SEQUENCE_SLOTS + EXCHANGE_SLOTS + ("agility", "physique")
"""Dice slots of a fight's round: the sequence's, the exchanges', and the Agility (Unstable terrain) and
Physique (moving with a Trauma) trials."""

_TIER = 10  # tiers.MAX_TIER
_COMBATANTS = 50  # encounter.MAX_COMBATANTS
_ROUNDS = 200  # encounter.MAX_ROUNDS
_MOVES = 100  # movement.MAX_MOVES
DAMAGE_TYPES = ("cutting", "cleaving", "crushing", "piercing", "puncturing", "fire", "sea", "sky", "stone",
                "primal", "profane", "sacred", "void")
PHASES = ("fast", "moderate", "slow")


def _tier(what: str) -> Int:
    return Int(1, _TIER, what, default=1)


ATTACK = Obj({
    "kind": Choice(("melee", "thrown", "bow", "crossbow", "sling", "unarmed", "natural"), default="melee"),
    "tier": _tier("the formula's tier: STR or PHY (melee, thrown), PHY (bow), PER (crossbow)"),
    "weapon": Either(Int(0, 1000), Name("weapon dice"), description="WEA as a whole number, or dice such as "
                     "\"1d4\" (a crossbow's fixed weapon dice); dice explode", default=0),
    "modifiers": Int(description="other modifiers to the attack roll", default=0),
    "damage_type": Choice(DAMAGE_TYPES, default="cutting"),
    "magic": ListOf(Obj({"amount": Int(0, description="a fixed amount"), "type": Choice(DAMAGE_TYPES)},
                        required=("amount", "type")), "magic portions of the hit (Imbue, an enchantment)"),
    "spanned": Bool("crossbow already spanned", default=True),
}, "an attack profile")

SHEET = Obj({
    "traumas": ListOf(Text("a Trauma, \"<roll>: <first sentence>\"", 1000), "the Traumas suffered, in order"),
    "lost": ListOf(Name(), "body parts lost (\"left eye\", \"right hand\", \"left thumb\", ...)"),
    "punctured_lungs": Int(0, 2, "Punctured Lung results (2: both lungs)", default=0),
    "ap_per_round": Int(1, 2, "1 after a Trauma that says 'You have 1 AP per round'", default=2),
    "conditions": ListOf(Name(), "derived from the rest (as a saved sheet holds it); ignored"),
}, "a trauma sheet")

COMBATANT = Obj({
    "name": Name("label (default: the key)"),
    "ap": Int(0, 2, "AP left this round (2 at its start)", default=2),
    "health": Int(0, description="current health", default=10),
    "durability": Int(0, description="armour durability", default=0),
    "armour_resistance": Int(0, description="armour resistance", default=0),
    "endurance_tier": _tier("dying timer and Endurance trials"),
    "defense_tier": _tier("tier die for defense: the wielded melee weapon's, or STR/PHY"),
    "shield": Int(0, 1000, "shield bonus to defense (null: no shield); required with wielding shield, refused "
                  "with unarmed or projectile", null=True, default=None),
    "defense_modifiers": Int(description="other modifiers to defense", default=0),
    "wielding": Choice(("melee", "shield", "unarmed", "projectile"), default="melee"),
    "perception_tier": _tier("Perception tier for the Aiming Trial"),
    "casting": Bool("in the middle of casting a spell", default=False),
    "state": Choice(("standing", "fighting-on", "unconscious", "dead"), "0 health: fighting-on or unconscious "
                    "(a dead defender is refused)", default="standing"),
    "dying_rounds": Int(0, 1000, "rounds left on the dying timer (null: not dying)", null=True),
    "stabilized": Bool("Triage stopped the dying timer", default=False),
    "sheet": SHEET,
    "attack": Obj(ATTACK.fields, "the attack profile (the attacker's is required; a defender's only for a "
                  "counterattack)", null=True),
}, "a combatant")

SITUATION = Obj({
    "defend": Bool("the defender declares a defense (1 AP) before the roll", default=True),
    "range": Choice(("melee", "close", "moderate", "far"), "ranged attacks: Aiming DC 2, +1 moderate, +3 far",
                    default="melee"),
    "flanking": Bool("the target is threatened on the other side too: +2", default=False),
    "first_attack_of_ap": Bool("first attack made with this AP (flanking counts once per AP)", default=True),
    "elevation": Choice(("none", "attacker", "defender"), default="none"),
    "allies_adjacent_to_target": Int(0, 1000, "+1 Aiming DC each", default=0),
    "cover": Int(0, 1000, "extra Aiming DC from cover or maneuvers", default=0),
    "hostile_within_5ft": Bool("a hostile creature is within 5 ft of the attacker", default=False),
    "counterattack": Bool("after a successful defense the defender counterattacks (1 AP)", default=False),
    "counter_defend": Bool("the attacker defends the counterattack if able", default=True),
    "fight_on": Bool("remain conscious at 0 health after a successful Endurance trial", default=True),
    "setting": Choice(("realistic", "brutal", "deadly"), "trauma setting", default="realistic"),
    "sheet_effects": Bool("apply the Traumas on the sheets where they bite (a fight sets it)", default=False),
    "precipitation": Bool("rain, sleet, hail or snow (Painful Scar's trial; with sheet_effects)", default=False),
}, "the circumstances of the exchange")

EXCHANGE = Obj({
    "attacker": COMBATANT.extend("the attacking combatant; attack is required"),
    "defender": COMBATANT.extend("the defending combatant"),
    "situation": SITUATION,
    "dice": DiceSlots(EXCHANGE_SLOTS),
    "seed": SEED,
    "rulings": RULINGS,
    "description": Text("free text, ignored"),
}, required=("attacker", "defender"))
"""The input of ``ruleslawyer exchange mastery``."""

_SPELL = Either(Name("a spell the chapter names (Flame Dart, Thunderclap)"),
                Obj({"name": Name(), "speed": Choice(PHASES, null=True), "magan": Int(1, 1000, null=True)}),
                description="a declared spell: a name, or {name, speed, magan} (1-3 magan is Fast)", null=True)

_DECLARATION = Obj({
    "weapon": Name("a speed (fast, moderate, slow) or a chapter example: dagger, shortbow, unarmed, sword, mace, "
                   "spear, maul, greataxe, heavy crossbow", null=True),
    "attack": Bool("declares an attack with it; a weapon held without one does not set the phase", default=True),
    "switch_to": Name("a weapon switched to this round", null=True),
    "style_speed": Choice(PHASES, "speed of a combat style changed to", null=True),
    "spell": _SPELL,
    "hold_to": Choice(PHASES, "a later phase to act in", null=True),
    "hold_trigger": Obj({"condition": Text("what the combatant waits for", 1000),
                         "ap": Int(1, 2, "AP committed", default=1),
                         "occurs": Choice(PHASES, "the phase the trigger comes in (null: never)", null=True)},
                        "hold for a trigger", required=("condition",), null=True),
}, "what the combatant declares")

SEQUENCE = Obj({
    "combatants": ListOf(Obj({
        "name": Name("unique name"),
        "side": Choice(("pcs", "enemies")),
        "declaration": _DECLARATION,
        "unaware": Bool("makes a Startle trial (round 1)", default=False),
        "agility_tier": _tier("for the Startle trial"),
        "perception_tier": _tier("for the Startle trial"),
    }, required=("name", "side")), min_items=1),
    "round": Int(1, description="round number: Impaired steps down each round", default=1),
    "side_roll": Int(1, 6, "the 1d6 already rolled (else slot side)", null=True),
    "startle_dc": Int(1, 1000, "GM-adjusted Startle DC (default 6)", null=True),
    "ambush_dc": Int(1, 1000, "the ambushers' DC", null=True),
    "dice": DiceSlots(SEQUENCE_SLOTS),
    "seed": SEED,
    "rulings": RULINGS,
    "description": Text("free text, ignored"),
}, required=("combatants",))
"""The input of ``ruleslawyer sequence mastery``."""


def _one(key: str, value, description: str, **more) -> Obj:
    return Obj({key: value, **more}, description, required=(key,))


_ROW = Name("a row of the Other Actions table or the supplement's action-costs table")
_ADJUST = Int(-2, 2, "lighting with a tinderbox: the GM adjusts by up to 2 AP", default=0)

ACTION = Tagged({
    "action": _one("action", _ROW, "any row of the action tables", adjust=_ADJUST),
    "table": _one("table", _ROW, "the same as action", adjust=_ADJUST),
    "retrieve": _one("retrieve", Choice(("quick", "body", "container")), "get items into your hand",
                     items=Either(Name(), ListOf(Name())), use=Int(0, 100, "AP its use costs", default=0)),
    "stow": _one("stow", Name(), "stow an item"),
    "draw": _one("draw", Name(), "draw an item from the body"),
    "swap": _one("swap", Either(Name(), ListOf(Name(), max_items=2)), "full weapon swap: [old, new]"),
    "drop": _one("drop", Name(), "drop an item: free"),
    "remove_shield": _one("remove_shield", Choice(("heater", "kite", "targe")), "heater, kite (strapped), targe "
                          "(held)"),
    "cast": _one("cast", Name(), "cast a spell", ap=Int(1, 2, "the spell's cost", default=1),
                 components=Choice(("quick", "container"), "where its material components are", null=True)),
    "move": _one("move", Int(1, _MOVES), "n Move actions"),
    "attack": _one("attack", Int(1, _MOVES), "n attacks"),
    "triage": _one("triage", Bool(), "stabilize an adjacent dying creature, 2 AP"),
}, "one action: an object with one of these keys")

AP = Obj({
    "actions": ListOf(ACTION, min_items=1),
    "ap_per_round": Int(1, 2, "2, or 1 after a Trauma that says 'You have 1 AP per round'", default=2),
    "rulings": RULINGS,
    "description": Text("free text, ignored"),
}, required=("actions",))
"""The input of ``ruleslawyer mastery-ap`` (a bare list of actions is read as ``{"actions": [...]}``)."""

EXCHANGE_SCHEMA = dict(json_schema(EXCHANGE, "Mastery exchange input",
                                   "One attack and defense (then a counterattack). Dice slots: attack, defense, "
                                   "aim, endurance, trauma, finger; unscripted slots roll."),
                       **{"$comment": "examples: examples/mastery/exchange-melee.json, "
                                      "examples/mastery/exchange-ranged.json, "
                                      "examples/mastery/exchange-fighting-on.json"})
"""The documented input of ``ruleslawyer exchange mastery``."""

SEQUENCE_SCHEMA = dict(json_schema(SEQUENCE, "Mastery round sequence input",
                                   "The order of action of one round: declarations, Startle, the side roll, "
                                   "phases and holds. Dice slots: side, startle_agility, startle_perception."),
                       **{"$comment": "examples: examples/mastery/sequence.json"})
"""The documented input of ``ruleslawyer sequence mastery``."""

AP_SCHEMA = dict(json_schema(AP, "Mastery AP planner input", "A list of actions: their AP and the rounds they "
                                                            "take at 2 AP per round."),
                 **{"$comment": "examples: examples/mastery/ap-torch.json"})
"""The documented input of ``ruleslawyer mastery-ap``."""

SHEET_SCHEMA = json_schema(SHEET, "Mastery trauma sheet", "A character's Traumas so far (trauma --sheet).")
"""The documented input of ``ruleslawyer trauma --sheet``."""


# -- a whole fight (ruleslawyer fight mastery) ------------------------------------------------------

_FIGHTER = COMBATANT.extend(
    "",
    name=Name("unique; declarations name the combatant by it"),
    side=Choice(("pcs", "enemies"), "the 1d6 side roll; who is hostile to whom"),
    weapon=Name("the equipped weapon for the phase: fast, moderate, slow or a chapter example (dagger, sword, "
                "maul, ...); required with a weapon attack, default unarmed", null=True),
    agility_tier=_tier("Startle, the Unstable terrain trial"),
    physique_tier=_tier("the Physique trial for moving more than once with a Trauma"),
    unaware=Bool("unaware at the start of combat: a Startle trial in round 1", default=False),
    fight_on=Bool("at 0 health after a successful Endurance trial, remain conscious", default=True),
    within_reach=ListOf(Name("a combatant's name"), "names within melee reach (null: every creature of the "
                        "other side; both ways, ruling mastery.fight-reach)", max_items=_COMBATANTS, null=True),
    prone=Bool("Prone", default=False),
    impaired=Int(0, 3, "Impaired tier: 1 Dazed, 2 Stunned, 3 Paralyzed", default=0),
    exhausted=Int(0, 99, "Exhausted tier", default=0),
    engaged_with=ListOf(Name("a combatant's name"), "names it is Engaged with", max_items=_COMBATANTS),
    hazard=Choice(DAMAGE_TYPES, "the damage type of the Hazardous terrain it stands in", null=True),
    dying_since=Int(0, _ROUNDS, "the round it reached 0 health (a saved fight writes it)", null=True),
    triage_begun=ListOf(Either(Name(), Int(1, 2)), "[patient, AP spent] of a Triage begun in an earlier round",
                        min_items=2, max_items=2, null=True),
)
FIGHTER = Obj(_FIGHTER.fields, "a combatant of the fight: every field of an exchange combatant, and the fight's",
              required=("name", "side"))

_SITUATION_KEYS = ("range", "flanking", "first_attack_of_ap", "elevation", "allies_adjacent_to_target", "cover")

FIGHT_ACTION = Obj({
    "action": Name("attack, move, stand, prone, cast, triage; reactions keeping AP: defend, counterattack, "
                   "reprisal, reposition; or any other row of the action tables by name (\"Skill, Active\")"),
    "target": Name("attack, triage: the other combatant"),
    "attack": Obj(ATTACK.fields, "attack: this attack's profile, if not the combatant's"),
    "situation": Obj({k: SITUATION.fields[k] for k in _SITUATION_KEYS},
                     "attack: the circumstances the fight does not know (the rest comes from its state)"),
    "leave": ListOf(Name(), "move, reposition: whom it moves away from", max_items=_COMBATANTS),
    "approach": ListOf(Name(), "move, reposition: whom it moves up to", max_items=_COMBATANTS),
    "through": Choice(("normal", "rugged", "unstable", "hazardous"), "move: the terrain", default="normal"),
    "dc": Int(1, 1000, "move: the GM's DC for the terrain's trial"),
    "damage_type": Choice(DAMAGE_TYPES, "move through hazardous terrain: the hazard's damage type"),
    "ends_in": Choice(DAMAGE_TYPES, "move: ends the turn in a hazard of this damage type"),
    "after": Name("reposition: the other combatant whose turn triggers it"),
    "spell": Name("cast: the spell's name"),
    "ap": Int(1, 2, "cast: the spell's cost in AP (casting#1)", default=1),
    "speed": Choice(PHASES, "cast: the spell's speed", null=True),
    "magan": Int(1, 1000, "cast: its magan (1-3 magan is Fast)", null=True),
    "reaction": Bool("cast: a Fast spell cast as a reaction", default=False),
}, "one action; which fields an action takes depends on it (an unknown one is named)", required=("action",))

ORDERS = Obj({
    "actions": ListOf(FIGHT_ACTION, "this round's actions in order (AP: action-points#1)", max_items=20),
    "weapon": Name("this round's weapon, if not the combatant's", null=True),
    "hold_to": Choice(("moderate", "slow"), "a later phase to act in", null=True),
}, "what one combatant does in the next round")

FIGHT_OPTIONS = Obj({
    "trauma_setting": Choice(("realistic", "brutal", "deadly"), "the Trauma setting (trauma-table#1)",
                             default="realistic"),
    "precipitation": Bool("rain, sleet, hail or snow: Painful Scar's trial", default=False),
}, "the fight's options")

FIGHT = Obj({
    "description": Text("what the fight shows (ignored)"),
    "seed": SEED,
    "rulings": RULINGS,
    "options": FIGHT_OPTIONS,
    "combatants": ListOf(FIGHTER, "the combatants, in order", min_items=1, max_items=_COMBATANTS),
    "rounds": ListOf(Obj({
        "declare": MapOf(ORDERS, "combatant name -> its declaration (none: no action; its AP defend, ruling "
                                 "mastery.fight-spare-ap)"),
        "dice": DiceSlots(FIGHT_SLOTS, "scripted faces by slot, in the order rolled: " + ", ".join(FIGHT_SLOTS)),
    }, "one round"), "the rounds to play", max_items=_ROUNDS),
    "fight": Any_("instead of combatants: a fight saved with --json (its 'fight' member), to play more rounds"),
})
"""The input of ``ruleslawyer fight mastery``."""

FIGHT_SCHEMA = dict(json_schema(FIGHT, "Mastery fight input",
                                "ruleslawyer fight mastery --input FILE.json [--rounds N] [--seed S] [--json] "
                                "[--ruling ID=ANSWER]: combatants, then each round's declarations and optional "
                                "dice. Dice slots: " + ", ".join(FIGHT_SLOTS) + "; unscripted slots roll from the "
                                "fight's seed and the round's number."),
                    **{"$comment": "examples: examples/mastery/fight-duel.json, examples/mastery/fight-skirmish.json"})
"""The documented input of ``ruleslawyer fight mastery``."""

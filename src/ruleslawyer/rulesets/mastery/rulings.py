"""Named rulings of the Mastery engine: every point the combat chapter leaves open.

Each ruling is registered at import (``ruleslawyer rulings --ruleset mastery`` lists them). An
engine step that depends on one carries a :class:`~ruleslawyer.trace.RulingUse`; callers pick a
non-default answer with ``rulings={"mastery.failed-defense-damage": "attack-minus-defense"}``.
"""

from __future__ import annotations

from collections.abc import Mapping

from ruleslawyer.trace import (PROVENANCE_KIT_DEFAULT, PROVENANCE_SOURCE_SILENT, Ruling, RulingUse,
                               register, resolve_ruling)

from . import ids

__all__ = [
    "TIER_DIE_ABOVE_3", "FAILED_DEFENSE_DAMAGE", "HIT_DAMAGE", "ENERGY_VS_ARMOUR", "DOMINANCE",
    "IMPOTENCE", "INFERIORITY", "EDGE_COMBINING", "ELEVATION_LOWER_DEFENSE", "EDGE_ON_AIMING",
    "TRIAL_DICE_EXPLODE", "TRIAL_TIE", "STARTLE_ROLL", "IMPAIRED_FIRST_STEP", "IMPAIRED_BELOW_1",
    "TRAUMA_LOST_PART", "ZERO_HEALTH_DC", "HEALTH_FLOOR", "RESISTANCE_DEPLETED", "PORTION_RESISTANCE",
    "DEFENSE_AP_ON_MISS", "THROWN_PROJECTILE", "CASTING_HEALTH_DAMAGE", "TRAUMA_PER_HIT",
    "RESIST_DAMAGE_TRIAL", "PHASE_NOTHING_DECLARED", "FINGER_ORDER", "SLING_FORMULA",
    "UNCONSCIOUS_DEFENSE", "MAGIC_PORTION_ROLL", "HEALTH_DICE_EXPLODE", "MELEE_COUNTER_AT_RANGE",
    "ONE_AP_TRAUMA_TIMING", "REPEATED_MOVE", "CLOSE_CALL_TRIAL", "TRIAGE_FIGHTING_ON", "TRIAGE_ACROSS_ROUNDS",
    "NEGATIVE_ATTACK_TOTAL", "FIGHT_REACH", "SPARE_AP", "PRONE_STAND_FIRST", "IMPAIRED_EFFECT", "EXHAUSTED_EFFECT",
    "DYING_TIMER_TICK", "TURN_WHILE_DOWN", "HAZARD_DAMAGE", "HAZARD_TRIGGERS", "UNSTABLE_DC", "BALANCE_TRIALS",
    "TRAUMA_EFFECTS_STACK", "AIMING_SIGHT", "REPEATED_MOVE_TRIAL", "HALVED_MOVEMENT", "REPRISAL_STOPS_MOVE",
    "use", "ruling_use",
    "check", "RULINGS",
]

_R = "mastery"
_SILENT = "mastery/supplement/where-the-chapter-is-silent#"


_ALL: list[Ruling] = []


def _reg(id_: str, question: str, default: str, alternatives: tuple[str, ...], explanation: str,
         cites: tuple[str, ...], provenance: str = PROVENANCE_SOURCE_SILENT) -> str:
    _ALL.append(register(Ruling(id_, _R, question, default, alternatives, provenance, explanation, cites)))
    return id_


TIER_DIE_ABOVE_3 = _reg(
    "mastery.tier-die-above-3",
    "Which die does a tier above 3 roll?",
    "next-die", ("refuse",),
    "The chapter fixes only tiers 1-3 (d2, d3, d4, from the Endurance tier 3 health example). "
    "'next-die': continue the progression, tier n rolls d(n+1) (tier 4 d5, tier 5 d6, ...). "
    "'refuse': a tier above 3 is an input error.",
    (ids.HEALTH_ENDURANCE, _SILENT + "6"))

FAILED_DEFENSE_DAMAGE = _reg(
    "mastery.failed-defense-damage",
    "How much damage lands when an active defense is made and fails?",
    "as-passive", ("attack-minus-defense",),
    "The chapter describes damage only for passive defense. 'as-passive': the full attack roll "
    "meets armour resistance, then durability, then health, as if no defense were made. "
    "'attack-minus-defense': only the margin by which the attack beat the defense lands; since the "
    "defense roll already added armour resistance, the margin goes to durability, then health.",
    (ids.PASSIVE_DEFENSE, ids.DEFENSE_TIE, ids.FORMULA_DEFENSE, _SILENT + "2"))

HIT_DAMAGE = _reg(
    "mastery.hit-damage",
    "What is the damage of a hit?",
    "attack-roll", (),
    "Passive defense applies 'incoming attack damage' against armour resistance; the chapter never "
    "names another damage roll, so the attack roll total is the damage.",
    (ids.PASSIVE_DEFENSE, ids.FORMULA_MELEE))

ENERGY_VS_ARMOUR = _reg(
    "mastery.energy-vs-armour",
    "How does Energy damage (Fire, Sky, Sacred, Void) meet armour resistance and durability?",
    "resistance-then-health", ("straight-to-health", "as-material"),
    "Durability decreases only for mundane or material magic damage. 'resistance-then-health': "
    "armour resistance still absorbs, the excess skips durability and goes to health. "
    "'straight-to-health': energy ignores armour entirely. 'as-material': treat it like material damage.",
    (ids.DURABILITY, ids.DAMAGE_ENERGY, ids.PASSIVE_DEFENSE, _SILENT + "3"))

DOMINANCE = _reg(
    "mastery.dominance",
    "What does Dominance do to an attack or defense roll?",
    "roll-twice-keep-higher", ("plus-2", "no-effect"),
    "Elevation grants Dominance; its effect is defined outside the chapter (Conditions/General "
    "Rules). 'roll-twice-keep-higher': roll the tier die twice (each exploding) and keep the higher. "
    "'plus-2': +2 to the roll. 'no-effect': note it only.",
    (ids.ELEVATION, _SILENT + "4"))

IMPOTENCE = _reg(
    "mastery.impotence",
    "What does Impotence do to an attack or defense roll?",
    "roll-twice-keep-lower", ("minus-2", "no-effect"),
    "Attacking an elevated target gives Impotence; its effect is not in the chapter. "
    "'roll-twice-keep-lower': roll the tier die twice (each exploding) and keep the lower. "
    "'minus-2': -2 to the roll. 'no-effect': note it only.",
    (ids.ELEVATION, _SILENT + "4"))

INFERIORITY = _reg(
    "mastery.inferiority",
    "What does Inferiority do to a defense roll?",
    "roll-twice-keep-lower", ("minus-2", "no-effect"),
    "An unarmed defense against a weapon attack has Inferiority; its effect is not in the chapter. "
    "Answers as for mastery.impotence.",
    (ids.DEFENSE_INFERIORITY, _SILENT + "4"))

EDGE_COMBINING = _reg(
    "mastery.edge-combining",
    "How do Dominance, Impotence and Inferiority on the same roll combine?",
    "cancel-no-stack", (),
    "Dominance cancels one Impotence or Inferiority; what is left applies once (two drawbacks do not "
    "stack; Inferiority's answer is used when both remain).",
    (ids.ELEVATION, ids.DEFENSE_INFERIORITY))

ELEVATION_LOWER_DEFENSE = _reg(
    "mastery.elevation-lower-defense",
    "Does the lower creature's defense against an elevated attacker have Impotence?",
    "impotence", ("none",),
    "The chapter gives the elevated creature Dominance 'on attack and defense rolls against that "
    "target' and the creature attacking an elevated target Impotence 'on attack and defense rolls'; "
    "it does not say whether the lower creature defending (not attacking) has Impotence.",
    (ids.ELEVATION,))

EDGE_ON_AIMING = _reg(
    "mastery.edge-on-aiming",
    "Do Dominance and Impotence from elevation apply to the Aiming Trial?",
    "no", ("yes",),
    "Elevation affects 'attack and defense rolls'; the Aiming Trial is a trial, so by default it is "
    "rolled plain.",
    (ids.ELEVATION, ids.AIMING_TRIAL))

TRIAL_DICE_EXPLODE = _reg(
    "mastery.trial-dice-explode",
    "Do dice rolled for trials (Aiming, Endurance, Startle) explode on their maximum?",
    "no", ("yes",),
    "Only attack and defense dice are said to explode.",
    (ids.ATTACK_EXPLODES, ids.DEFENSE_EXPLODES, _SILENT + "5"))

TRIAL_TIE = _reg(
    "mastery.trial-tie",
    "Does a trial succeed when the roll equals the DC?",
    "success", ("failure",),
    "The chapter says a defense equal to the attack succeeds but says nothing for trials against a "
    "DC; 'success' reads the DC as the number to reach.",
    (ids.DEFENSE_TIE, ids.AIMING_TRIAL, _SILENT + "7"))

STARTLE_ROLL = _reg(
    "mastery.startle-roll",
    "How are the two Startle dice compared with the DC?",
    "sum", (),
    "The Startle trial rolls the Agility and the Perception tier dice; their sum is compared with "
    "the DC.",
    (ids.STARTLE_TRIAL, _SILENT + "8"))

IMPAIRED_FIRST_STEP = _reg(
    "mastery.impaired-first-step",
    "In which round does Impaired from a Startle trial first step down?",
    "from-round-2", ("from-round-1",),
    "Startle is rolled before round 1. 'from-round-2': the full tier applies in round 1 and steps down "
    "at the start of round 2. 'from-round-1': it already steps down at the start of round 1.",
    (ids.IMPAIRED_PROGRESSION, ids.FLOW_STARTLE))

IMPAIRED_BELOW_1 = _reg(
    "mastery.impaired-below-1",
    "What happens when Impaired tier 1 steps down?",
    "ends", (),
    "'Until they are no longer afflicted': stepping below tier 1 ends the condition.",
    (ids.IMPAIRED_PROGRESSION, _SILENT + "9"))

TRAUMA_LOST_PART = _reg(
    "mastery.trauma-lost-part",
    "What happens when a Trauma result names a part already lost (a lost eye, ear, hand, foot or "
    "finger, or a third punctured lung)?",
    "no-further-effect", ("reroll",),
    "'no-further-effect': nothing more happens (as a Close Call). 'reroll': roll the Trauma again.",
    (ids.TRAUMA_TABLE,))

ZERO_HEALTH_DC = _reg(
    "mastery.zero-health-dc",
    "When a hit deals more health damage than the health left, what is the Endurance trial's DC?",
    "all-health-damage", ("health-lost",),
    "'all-health-damage': the health damage of the hit, including any beyond 0. 'health-lost': only "
    "the health actually lost (what was left before the hit).",
    (ids.ZERO_ENDURANCE,))

HEALTH_FLOOR = _reg(
    "mastery.health-floor",
    "Can health go below 0?",
    "floor-at-zero", (),
    "The chapter speaks only of reaching and being at 0 health; health stops at 0.",
    (ids.REACHING_ZERO, ids.FIGHTING_ON))

RESISTANCE_DEPLETED = _reg(
    "mastery.resistance-depleted",
    "Does armour resistance still apply once the armour's durability is 0?",
    "still-applies", ("none",),
    "Resistance is a 'static resistance value of your equipped armor'; the chapter does not say it "
    "fails with durability.",
    (ids.ARMOR_RESISTANCE, ids.PASSIVE_DEFENSE))

PORTION_RESISTANCE = _reg(
    "mastery.portion-resistance",
    "When a hit has several portions (a weapon's mundane damage plus a magic portion), how does "
    "armour resistance apply?",
    "each-portion", ("once-per-hit",),
    "'each-portion': each portion meets armour resistance on its own. 'once-per-hit': resistance "
    "absorbs once, from the portions in order.",
    (ids.DAMAGE_PORTIONS, ids.PASSIVE_DEFENSE))

DEFENSE_AP_ON_MISS = _reg(
    "mastery.defense-ap-on-miss",
    "Is the defender's AP spent when a ranged attack they declared a defense against misses its "
    "Aiming Trial?",
    "spent", ("refunded",),
    "Defense is declared before the roll is made and costs 1 AP; the chapter does not refund it.",
    (ids.DEFENSE_DECLARE, ids.DEFENSE))

THROWN_PROJECTILE = _reg(
    "mastery.thrown-projectile",
    "Is a thrown weapon a 'projectile weapon' for the 5-foot hostile rule?",
    "no", ("yes",),
    "The rule names projectile weapons and slings; a thrown weapon is itself the missile, so by default "
    "the rule does not stop it.",
    (ids.HOSTILE_WITHIN_5FT, ids.FORMULA_MELEE))

CASTING_HEALTH_DAMAGE = _reg(
    "mastery.casting-health-damage",
    "Is a spell being cast lost when its caster takes health damage?",
    "flag", ("lost",),
    "Health damage 'can cost you the spell' per Magic Mastery, Interrupted Casting (not in the kit). "
    "'flag': the trace marks the spell at risk for the GM. 'lost': the spell is lost.",
    (ids.CASTING_INTERRUPTED,))

TRAUMA_PER_HIT = _reg(
    "mastery.trauma-per-hit",
    "When one hit meets several Trauma triggers (e.g. fighting on and, under Deadly, exploding dice), "
    "how many Traumas follow?",
    "each-trigger", ("one-per-hit",),
    "'each-trigger': each trigger is resolved on its own. 'one-per-hit': at most one Trauma per hit.",
    (ids.SETTING_DEADLY, ids.FIGHTING_ON_TRAUMA))

RESIST_DAMAGE_TRIAL = _reg(
    "mastery.resist-damage-trial",
    "Which trials are 'a trial to resist damage' for the Brutal setting's natural minimum?",
    "endurance-vs-damage", (),
    "The Endurance trials rolled against health damage (on reaching 0 and while fighting on).",
    (ids.SETTING_BRUTAL, ids.ZERO_ENDURANCE, ids.FIGHTING_ON_ENDURANCE))

PHASE_NOTHING_DECLARED = _reg(
    "mastery.phase-nothing-declared",
    "In which phase does a combatant act who declares no weapon attack, style change or spell?",
    "fast", ("moderate", "slow"),
    "The phase comes from what is declared; movement, items and reactions have no speed in the "
    "chapter.",
    (ids.PHASE_DECLARED,))

FINGER_ORDER = _reg(
    "mastery.finger-order",
    "In what order does the 1d10 'from the left little finger' count the fingers?",
    "across-both-hands", ("little-to-little",),
    "'across-both-hands': hands side by side, palms down: 1 left little, 2 left ring, 3 left middle, "
    "4 left index, 5 left thumb, 6 right thumb, 7 right index, 8 right middle, 9 right ring, "
    "10 right little. 'little-to-little': each hand from its little finger: 6 right little ... "
    "10 right thumb.",
    (ids.TRAUMA_TABLE,))

SLING_FORMULA = _reg(
    "mastery.sling-formula",
    "What is a sling's attack formula?",
    "tier-die-plus-wea", (),
    "The chapter gives formulas for melee/thrown, bow and crossbow attacks but not slings; a sling "
    "rolls the tier die the caller names plus WEA, like a thrown or bow attack.",
    (ids.FORMULA_MELEE, ids.FORMULA_BOW, ids.HOSTILE_WITHIN_5FT))

UNCONSCIOUS_DEFENSE = _reg(
    "mastery.unconscious-defense",
    "Can an unconscious creature defend?",
    "cannot-defend", ("can-defend",),
    "An unconscious creature 'cannot take actions'; the chapter does not mention reactions. By "
    "default it cannot defend, so the attack meets its passive defense.",
    (ids.GOING_DOWN_UNCONSCIOUS, ids.DEFENSE))

MAGIC_PORTION_ROLL = _reg(
    "mastery.magic-portion-roll",
    "Does a hit's magic portion (Imbue, an enchantment) add to the attack roll?",
    "separate", (),
    "The chapter calls it 'a separate portion of the hit with its own type'; it is not added to the "
    "attack roll and lands, with its own type, only when the hit does.",
    (ids.DAMAGE_PORTIONS,))

HEALTH_DICE_EXPLODE = _reg(
    "mastery.health-dice-explode",
    "Do the Endurance tier dice rolled for health explode?",
    "no", ("yes",),
    "Only attack and defense dice are said to explode.",
    (ids.HEALTH_ENDURANCE, ids.ATTACK_EXPLODES))

MELEE_COUNTER_AT_RANGE = _reg(
    "mastery.melee-counter-at-range",
    "Can a defender counterattack in melee an attacker who shot or threw from a range band?",
    "not-possible", ("allowed",),
    "A counterattack is 'against your attacker'; the chapter does not say it closes the distance. "
    "'not-possible': a melee counterattack needs the attacker within reach, so none is made against a "
    "ranged attacker. 'allowed': resolve it as a melee attack anyway.",
    (ids.COUNTERATTACK,))

ONE_AP_TRAUMA_TIMING = _reg(
    "mastery.one-ap-trauma-timing",
    "When a Trauma that says 'You have 1 AP per round' strikes mid-round, does it cut the AP left now?",
    "next-round", ("at-once",),
    "'next-round': the AP left this round stand; from the next round the character has 1 AP. "
    "'at-once': AP left this round drop to at most 1.",
    (ids.TRAUMA_TABLE, ids.AP_PER_ROUND))

REPEATED_MOVE = _reg(
    "mastery.repeated-move",
    "How much farther does each movement action after the first in a row go?",
    "half-speed-each", ("compounding",),
    "'Increased by half (rounded down)'. 'half-speed-each': every later move covers speed + half the "
    "speed, rounded down (speed 5: 5, 7, 7...). 'compounding': each later move is half again the one "
    "before it (5, 7, 10...).",
    (ids.MOVE_REPEATED,))

CLOSE_CALL_TRIAL = _reg(
    "mastery.close-call-trial",
    "While fighting on, does a Close Call ('No Trauma') on the Trauma table call for the Endurance "
    "trial that follows each Trauma?",
    "no-trial", ("trial",),
    "Health damage at 0 'results in a Trauma' (fighting-on#2) and 'each time you suffer a Trauma, roll "
    "an Endurance trial against the health damage taken' (fighting-on#3), but a Close Call row reads "
    "'Close Call! No Trauma.'. 'no-trial': no Trauma was suffered, so no trial. 'trial': the health "
    "damage still made a Trauma roll, so the trial is rolled as for any Trauma.",
    (ids.FIGHTING_ON_ENDURANCE, ids.FIGHTING_ON_TRAUMA, ids.TRAUMA_TABLE, _SILENT + "11"))

TRIAGE_FIGHTING_ON = _reg(
    "mastery.triage-fighting-on",
    "Does Triage knock out a creature that is fighting on at 0 health?",
    "keeps-fighting-on", ("unconscious",),
    "Triage stops the dying timer and 'the creature remains unconscious at 0 health', which speaks of "
    "a creature already unconscious. 'keeps-fighting-on': the timer stops and a creature fighting on "
    "stays conscious. 'unconscious': a stabilized creature is unconscious, whatever it was before.",
    (ids.TRIAGE, ids.FIGHTING_ON, _SILENT + "12"))

TRIAGE_ACROSS_ROUNDS = _reg(
    "mastery.triage-across-rounds",
    "May Triage's 2 AP be spent over two rounds (1 AP now, 1 AP next round)?",
    "across-rounds", ("one-round",),
    "Triage costs 2 AP; the chapter prices actions that take more AP than a round has (lighting a torch "
    "from a pack, 8 AP, 'about four rounds') and AP do not carry over. 'across-rounds': the AP may be "
    "spent over consecutive rounds; the creature is stabilized when the second AP is spent (a medic "
    "with 1 AP a round takes two rounds). 'one-round': both AP in one round; a medic with fewer AP left "
    "cannot start, and one with 1 AP a round cannot triage.",
    (ids.TRIAGE, ids.AP_PER_ROUND, ids.USE_IT_OR_LOSE_IT, ids.CONTAINER_ITEM, _SILENT + "13"))

NEGATIVE_ATTACK_TOTAL = _reg(
    "mastery.negative-attack-total",
    "What damage does a hit deal when its attack total is below 0?",
    "no-damage", (),
    "Modifiers (or an edge answered as -2) can take an attack roll below 0. Damage never heals: the "
    "weapon portion deals 0; any magic portion of the hit still lands.",
    (ids.PASSIVE_DEFENSE, ids.FORMULA_MELEE, _SILENT + "14"), PROVENANCE_KIT_DEFAULT)


# -- a whole fight (rulesets.mastery.fight): state carried from round to round -----------------

FIGHT_REACH = _reg(
    "mastery.fight-reach",
    "A fight in the kit keeps no map: who is within whose melee attack range, and is that 'adjacent' and "
    "'within 5 feet'?",
    "reach-is-adjacent", (),
    "Each combatant carries the names of the creatures within its melee attack range; the relation is "
    "symmetric. Being within reach counts as adjacent (Triage) and as a hostile creature within 5 feet (no "
    "projectile or sling attack). A move names the creatures it leaves and approaches; leaving one's reach "
    "invites its reprisal attack.",
    (ids.REPRISAL, ids.MOVE_REPOSITION, ids.HOSTILE_WITHIN_5FT, ids.TRIAGE), PROVENANCE_KIT_DEFAULT)

SPARE_AP = _reg(
    "mastery.fight-spare-ap",
    "Which reactions does a combatant make with AP its declaration left unassigned?",
    "defend-only", ("all-reactions", "none"),
    "AP can be spent reactively without being declared. 'defend-only': AP neither spent on a declared action "
    "nor reserved for a reaction are used to defend against incoming attacks; a counterattack or a reprisal "
    "attack needs AP reserved for it ({\"action\": \"counterattack\"}, {\"action\": \"reprisal\"}). "
    "'all-reactions': spare AP also pay for counterattacks and reprisal attacks. 'none': only reserved AP react.",
    (ids.USE_IT_OR_LOSE_IT, ids.ACTIONS_AND_REACTIONS, ids.DEFENSE_DECLARE), PROVENANCE_KIT_DEFAULT)

PRONE_STAND_FIRST = _reg(
    "mastery.prone-stand-first",
    "Must a Prone combatant stand (Prone, Stand from: 1 AP) before it moves or attacks?",
    "stand-first", ("may-act-prone",),
    "The Conditions chapter that defines Prone is not in the kit; the Other Actions table prices standing "
    "(1 AP, Action + Movement). 'stand-first': a move or attack declared while Prone must follow a declared "
    "stand; a combatant knocked Prone mid-round takes no further move or attack that round. 'may-act-prone': "
    "Prone is recorded only.",
    (ids.OTHER_ACTIONS_TABLE, ids.UNSTABLE_TRIAL, ids.FLOW_ONLY_DECLARED))

IMPAIRED_EFFECT = _reg(
    "mastery.impaired-effect",
    "What does Impaired (Dazed, Stunned, Paralyzed) do to a combatant's AP?",
    "record-only", ("minus-1-ap-per-tier",),
    "Impaired is defined in the Conditions chapter, which is not in the kit. 'record-only': its tier is carried "
    "and steps down each round, with no effect on AP. 'minus-1-ap-per-tier': each tier costs 1 AP of the round "
    "(tier 2 Stunned: 0 AP from 2), from the round it applies.",
    (ids.STARTLE_DAZED, ids.STARTLE_STUNNED, ids.STARTLE_PARALYZED, ids.IMPAIRED_PROGRESSION))

EXHAUSTED_EFFECT = _reg(
    "mastery.exhausted-effect",
    "What does Exhausted do to a combatant's AP?",
    "record-only", ("minus-1-ap-per-tier",),
    "Suffocating advances Exhausted by 1 tier at the end of each of your turns (Punctured Lung); Exhausted "
    "itself is defined in the Conditions chapter, which is not in the kit. 'record-only': the tier is carried. "
    "'minus-1-ap-per-tier': each tier costs 1 AP per round, to a minimum of 0.",
    (ids.TRAUMA_TABLE, ids.AP_PER_ROUND))

DYING_TIMER_TICK = _reg(
    "mastery.dying-timer-tick",
    "When does the dying timer count a round?",
    "later-rounds", ("this-round",),
    "'You have a number of rounds equal to your Endurance tier before you die.' 'later-rounds': the round in "
    "which you reach 0 health does not count; each later round counts at its end, so Endurance tier 2 reached "
    "in round 1 dies at the end of round 3. 'this-round': the round of reaching 0 counts at its end (dies at the "
    "end of round 2).",
    (ids.DYING_TIMER, ids.FIGHTING_ON_TIMER, ids.GOING_DOWN_TIMER))

TURN_WHILE_DOWN = _reg(
    "mastery.turn-while-down",
    "Does a combatant who cannot take actions (unconscious) still have a turn, for what happens at the start "
    "or end of your turn (Engaged ends, suffocation, a hazard)?",
    "has-a-turn", ("no-turn",),
    "'has-a-turn': it has a turn in the phase mastery.phase-nothing-declared gives and takes no actions in it. "
    "'no-turn': nothing happens at the start or end of its turn; Engaged ends at the end of the round.",
    (ids.GOING_DOWN_UNCONSCIOUS, ids.ENGAGED, ids.PHASE_DECLARED))

HAZARD_DAMAGE = _reg(
    "mastery.hazard-damage",
    "How does the 1 damage of Hazardous terrain meet armour?",
    "as-any-damage", ("health-only",),
    "'as-any-damage': like any damage, it meets armour resistance, then durability, then health. 'health-only': "
    "it goes straight to health.",
    (ids.HAZARD_DAMAGE, ids.PASSIVE_DEFENSE))

HAZARD_TRIGGERS = _reg(
    "mastery.hazard-triggers",
    "A creature that enters a hazard triggered by entering or ending a turn in it (fire) and ends its turn "
    "there: how many times does it take the damage?",
    "each-trigger", ("once-per-turn",),
    "'each-trigger': once on entering and once on ending the turn there. 'once-per-turn': at most once in a turn.",
    (ids.HAZARD_DAMAGE,))

UNSTABLE_DC = _reg(
    "mastery.unstable-dc",
    "What is the DC of the Agility trial for Unstable terrain when the GM gives none?",
    "straightforward", ("easy", "tricky"),
    "The DC is 'as determined by the GM'; a move may give it (dc). Without one: Straightforward (4), Easy (2) "
    "or Tricky (6), the named difficulties.",
    (ids.UNSTABLE_TRIAL, ids.NAMED_DC_TABLE), PROVENANCE_KIT_DEFAULT)

BALANCE_TRIALS = _reg(
    "mastery.balance-trials",
    "Which trials of a fight take the Trauma table's penalties 'on trials to keep your balance' and 'on "
    "Strength and Physique trials that use your legs'?",
    "fall-prone-trials", ("none",),
    "'fall-prone-trials': the trials whose failure means falling Prone keep your balance: the Unstable terrain "
    "Agility trial and the Physique trial for moving more than once (lost foot, Limp); the Physique trial also "
    "uses your legs. 'none': the penalties are recorded only.",
    (ids.UNSTABLE_TRIAL, ids.TRAUMA_TABLE))

TRAUMA_EFFECTS_STACK = _reg(
    "mastery.trauma-effects-stack",
    "When several Traumas on a sheet carry the same effect (two penalties on ranged attack rolls, two Endurance "
    "trials when spending AP to attack), do they stack?",
    "stack", ("once",),
    "Only the lost finger's penalty says it does not stack. 'stack': penalties add up and each Trauma rolls its "
    "own Endurance trial. 'once': the largest penalty applies, and one trial is rolled.",
    (ids.TRAUMA_TABLE,))

AIMING_SIGHT = _reg(
    "mastery.aiming-sight",
    "Is the Aiming Trial a 'Perception trial that relies on sight' for the lost eye and Blurred Vision penalty?",
    "yes", ("no",),
    "The Aiming Trial rolls the Perception tier die to hit a seen target. 'yes': the penalty applies to it as well "
    "as to the ranged attack roll. 'no': only the ranged attack roll.",
    (ids.AIMING_TRIAL, ids.TRAUMA_TABLE))

REPEATED_MOVE_TRIAL = _reg(
    "mastery.repeated-move-trial",
    "'When you move more than once in a round' (broken leg, lost foot, Limp): on which moves does it apply?",
    "each-later-move", ("once-per-round",),
    "'each-later-move': on every move after the first in the round (reactions included). 'once-per-round': only "
    "on the second.",
    (ids.MOVE_REPEATED, ids.TRAUMA_TABLE))

HALVED_MOVEMENT = _reg(
    "mastery.halved-movement",
    "How is halved movement rounded (broken leg, lost foot)?",
    "round-down", ("round-up",),
    "The chapter rounds the half added to repeated moves down; halved movement follows it by default.",
    (ids.MOVE_REPEATED, ids.SPEED, ids.TRAUMA_TABLE))

REPRISAL_STOPS_MOVE = _reg(
    "mastery.reprisal-stops-move",
    "Does a creature knocked unconscious or killed by a reprisal attack as it leaves still leave?",
    "down-stays", ("move-completes",),
    "'down-stays': it falls where it was and stays within reach. 'move-completes': it leaves all the same.",
    (ids.REPRISAL, ids.GOING_DOWN_UNCONSCIOUS))


RULINGS: tuple[Ruling, ...] = tuple(_ALL)
"""Every Mastery ruling, in the order above (the registry lists these)."""

def use(ruling_id: str, overrides: Mapping[str, str] | None) -> str:
    """The answer of ``ruling_id`` under ``overrides`` (raises RulingError on a bad answer)."""
    return resolve_ruling(ruling_id, overrides).answer


def ruling_use(ruling_id: str, overrides: Mapping[str, str] | None) -> RulingUse:
    """The :class:`RulingUse` of ``ruling_id`` under ``overrides``."""
    return resolve_ruling(ruling_id, overrides)


def check(overrides: Mapping[str, str] | None) -> dict[str, str]:
    """Validate a whole overrides mapping for Mastery (:func:`ruleslawyer.registry.check_rulings`: a
    non-object, an unknown id, another ruleset's ruling or a disallowed answer is a RulingError naming
    ``rulings`` or ``rulings.<id>``); returns it as a plain dict."""
    from ruleslawyer.registry import check_rulings

    return check_rulings(overrides, "mastery")

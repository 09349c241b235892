"""Named rulings of the Mythras engine: every point where the combat chapter is silent or vague.

Each ruling is registered at import; engines resolve them with
:func:`ruleslawyer.trace.resolve_ruling` so a caller can override any of them per call
(``rulings={"mythras.halving": "round-down"}``).
"""

from __future__ import annotations

from ruleslawyer.trace import (PROVENANCE_KIT_DEFAULT, PROVENANCE_PUBLISHED_PREFIX,
                               PROVENANCE_SOURCE_SILENT, Ruling, register)

from . import ids

__all__ = [
    "HALVING", "HERCULEAN", "OVER_100", "RANGED_CHOOSE_LOCATION", "MAXIMISE_DAMAGE", "BYPASS_ARMOR",
    "IMPALE", "ENHANCE_PARRY", "EFFECT_TEXT", "EVADE_SUCCESS", "WARD_LOCATION", "COMBINE_GRADES",
    "STEP_PAST_END", "DAMAGE_FLOOR", "PARRY_MISSILES", "RANGED_DAMAGE_MODIFIER", "ROLL_OFF_DIE",
    "OUTSIDE_STYLE_GRADES", "DAMAGE_MODIFIER_LADDER", "AIM_EASES", "CIRCUMVENT_PARRY", "CHARGE_SAME_LENGTH",
    "CHARGE_FIRST_BLOW", "SET_SPEAR_MODIFIER", "OPPOSED_ROLL", "OUTMANOEUVRE_UNOPPOSED",
    "SPRAY_HITS", "TURN_CYCLES", "INITIATIVE_ROLLS", "NO_DECLARATION", "VOID_ACTION", "WOUND_LEVELS",
    "SERIOUS_WOUND", "MAJOR_WOUND", "TRIP_OPPONENT", "PRONE", "DISARM_OPPONENT", "BLEED", "IMPALED_WEAPON",
    "RULINGS",
]

_CORE = PROVENANCE_PUBLISHED_PREFIX + "Mythras core rules"
_IMPERATIVE = PROVENANCE_PUBLISHED_PREFIX + "Mythras Imperative"

HALVING = register(Ruling(
    id="mythras.halving",
    ruleset="mythras",
    question="When a parry one Size step smaller, or a Long range shot, halves an odd amount of "
             "damage, which way does the half that gets through round?",
    default="round-up",
    alternatives=("round-down",),
    provenance=_CORE,
    explanation="The published rules round every fraction up; the kit rounds the damage that still "
                "gets through up (7 halved lets 4 through). 'round-down' lets 3 through.",
    cites=(ids.EX_PARRY_HALF, ids.RANGED_LONG),
))

HERCULEAN = register(Ruling(
    id="mythras.herculean",
    ruleset="mythras",
    question="Does the Herculean grade multiply the skill by 1/5 or by 1/10?",
    default="1/5",
    alternatives=("1/10",),
    provenance=_IMPERATIVE,
    explanation="Mythras Imperative gives one fifth; other printings give one tenth.",
    cites=(ids.COMBAT_STYLE,),
))

OVER_100 = register(Ruling(
    id="mythras.over-100",
    ruleset="mythras",
    question="When one side of an opposed or differential roll has a skill above 100%, are the "
             "skills adjusted before rolling?",
    default="reduce-by-excess",
    alternatives=("no-adjustment",),
    provenance=_CORE,
    explanation="The published rules take the highest skill's excess over 100 off every participant's "
                "skill (attack 130 vs parry 80 becomes 100 vs 50). 'no-adjustment' rolls the skills "
                "as they are.",
    cites=(ids.EX_DIFFERENTIAL,),
))

RANGED_CHOOSE_LOCATION = register(Ruling(
    id="mythras.ranged-choose-location",
    ruleset="mythras",
    question="Does Choose Location at range need a Critical?",
    default="critical-unless-close-and-still",
    alternatives=("as-melee",),
    provenance=_CORE,
    explanation="The chapter only says Close range allows it 'more freely' when the target is still "
                "or unaware. The published rules need a Critical at range unless the target is at "
                "Close range and stationary or unaware. 'as-melee' allows it on any win.",
    cites=(ids.RANGED_CLOSE, ids.EFFECTS),
))

MAXIMISE_DAMAGE = register(Ruling(
    id="mythras.maximise-damage",
    ruleset="mythras",
    question="What does Maximise Damage (stackable) maximise?",
    default="weapon-then-modifier",
    alternatives=("weapon-and-modifier",),
    provenance=_CORE,
    explanation="The effect's text is not in the chapter. Published rules: the first pick rolls the "
                "weapon's dice at maximum; stacking a second pick maximises the Damage Modifier too. "
                "'weapon-and-modifier' maximises both with one pick.",
    cites=(ids.EFFECTS,),
))

BYPASS_ARMOR = register(Ruling(
    id="mythras.bypass-armor",
    ruleset="mythras",
    question="What armour does Bypass Armor (stackable) ignore?",
    default="worn-then-natural",
    alternatives=("natural-then-worn", "all-armour"),
    provenance=_CORE,
    explanation="The effect's text is not in the chapter. Published rules: one pick ignores one layer "
                "of armour, a second pick both. The kit ignores worn armour first; 'natural-then-worn' "
                "the natural layer first; 'all-armour' ignores both with one pick.",
    cites=(ids.EFFECTS, ids.EX_ARMOUR),
))

IMPALE = register(Ruling(
    id="mythras.impale",
    ruleset="mythras",
    question="How does Impale change the damage roll?",
    default="roll-twice-keep-higher",
    alternatives=("record-only",),
    provenance=_CORE,
    explanation="Published rules: roll the weapon's damage twice and keep the better (the weapon may "
                "stick, which the kit records). 'record-only' leaves the numbers alone.",
    cites=(ids.EFFECTS,),
))

ENHANCE_PARRY = register(Ruling(
    id="mythras.enhance-parry",
    ruleset="mythras",
    question="How does Enhance Parry change the parry's Size reduction?",
    default="stop-all",
    alternatives=("record-only",),
    provenance=_CORE,
    explanation="Published rules: the parry stops all the damage whatever the Sizes. 'record-only' "
                "leaves the Size comparison alone.",
    cites=(ids.EFFECTS, ids.EX_PARRY_REDUCES),
))

CIRCUMVENT_PARRY = register(Ruling(
    id="mythras.circumvent-parry",
    ruleset="mythras",
    question="How does Circumvent Parry (a critical-only offensive Effect) change the exchange?",
    default="ignore-parry",
    alternatives=("record-only",),
    provenance=_CORE,
    explanation="The Effect is not in the chapter. Published rules: the blow gets round the parry, so a "
                "successful parry stops none of the damage (armour still counts). 'record-only' leaves "
                "the parry's Size reduction alone.",
    cites=(ids.EFFECTS, ids.EX_PARRY_REDUCES),
))

EFFECT_TEXT = register(Ruling(
    id="mythras.effect-text",
    ruleset="mythras",
    question="How are Special Effects whose text is not in the chapter applied?",
    default="record-for-gm",
    alternatives=(),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter defers every Effect's wording to the Combat reference. Effects that do not "
                "change the exchange's numbers are recorded in the trace for the Games Master to apply.",
    cites=(ids.EFFECTS_TEXT_ELSEWHERE,),
))

EVADE_SUCCESS = register(Ruling(
    id="mythras.evade-success",
    ruleset="mythras",
    question="What Evade result counts as 'winning' so the evader takes no damage?",
    default="evade-succeeds",
    alternatives=("level-at-least-attack", "level-above-attack"),
    provenance=_CORE,
    explanation="Published rules: any successful Evade avoids the attack; the differential only decides "
                "Special Effects. 'level-at-least-attack' needs the Evade's level to equal or beat the "
                "attack's; 'level-above-attack' needs it to beat it.",
    cites=(ids.EVADE,),
))

WARD_LOCATION = register(Ruling(
    id="mythras.ward-location",
    ruleset="mythras",
    question="What does Ward Location (a passive block) do when a hit lands on a warded location?",
    default="block-as-parry",
    alternatives=("record-only",),
    provenance=_CORE,
    explanation="Published rules (passive blocking): the shield reduces damage to a warded location by "
                "its Size as a successful parry would. 'record-only' notes the ward and changes nothing.",
    cites=(ids.MENU_FREE, ids.WARD_HABIT),
))

COMBINE_GRADES = register(Ruling(
    id="mythras.combine-grades",
    ruleset="mythras",
    question="When several conditions each make a roll harder (a Charge, a weapon outside the style, "
             "firing into a melee), how do they combine?",
    default="add-steps",
    alternatives=("hardest-only",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'add-steps': each condition moves the grade the number of steps it names past Standard "
                "(Hard = 1, Formidable = 2), added together. 'hardest-only': only the hardest single "
                "condition counts. Aiming cancels one grade of penalty first (mythras.aim-eases).",
    cites=(ids.CHARGE, ids.COMBAT_STYLE, ids.RANGED_INTO_MELEE),
))

STEP_PAST_END = register(Ruling(
    id="mythras.step-past-end",
    ruleset="mythras",
    question="What happens when a step moves a Size or a Force past the end of its table (Enormous "
             "+1 step, Small -1 step), or a Damage Modifier below its first row?",
    default="stay-at-end",
    alternatives=("refuse",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The Size steps end there and the chapter gives no further Sizes. 'stay-at-end' keeps "
                "the last row; 'refuse' raises an error naming the input. (Past its last row the Damage "
                "Modifier goes on: ruling mythras.damage-modifier-ladder.)",
    cites=(ids.SIZE_STEPS, ids.CHARGE),
))

DAMAGE_FLOOR = register(Ruling(
    id="mythras.damage-floor",
    ruleset="mythras",
    question="Can a negative Damage Modifier or armour take damage below 0?",
    default="zero",
    alternatives=(),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="Damage never goes below 0; a blow reduced below 0 simply does no harm.",
    cites=(ids.EX_DAMAGE, ids.EX_ARMOUR),
))

PARRY_MISSILES = register(Ruling(
    id="mythras.parry-missiles",
    ruleset="mythras",
    question="Which weapons can parry a missile (bow or thrown)?",
    default="shields-only",
    alternatives=("any-weapon",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter: 'only shields (or cover/Evade) meaningfully parry most missiles'. With "
                "'shields-only' a non-shield parry against a missile cannot be made and counts as no "
                "parry; 'any-weapon' allows it.",
    cites=(ids.RANGED,),
))

RANGED_DAMAGE_MODIFIER = register(Ruling(
    id="mythras.ranged-damage-modifier",
    ruleset="mythras",
    question="Does the Damage Modifier apply to a ranged weapon whose entry does not say?",
    default="bows-and-thrown",
    alternatives=("never", "always"),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter says 'usually bows and thrown yes; firearms no'. A weapon may say so "
                "itself (damage_modifier_applies); otherwise this ruling decides.",
    cites=(ids.RANGED,),
))

ROLL_OFF_DIE = register(Ruling(
    id="mythras.roll-off-die",
    ruleset="mythras",
    question="Which die breaks an Initiative tie that DEX does not break?",
    default="1d10",
    alternatives=("1d100",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="The chapter says 'then a die roll'. The tied combatants roll 1d10 each (again while "
                "still tied); the higher goes first.",
    cites=(ids.INITIATIVE,),
))

OUTSIDE_STYLE_GRADES = register(Ruling(
    id="mythras.outside-style-grades",
    ruleset="mythras",
    question="How many grades harder is a weapon outside your Combat Styles when the Games Master "
             "does not say?",
    default="1",
    alternatives=("2", "3"),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter: 'one or more difficulty grades harder'. The input may give the number "
                "(outside_style_grades); otherwise this ruling does.",
    cites=(ids.COMBAT_STYLE,),
))

DAMAGE_MODIFIER_LADDER = register(Ruling(
    id="mythras.damage-modifier-ladder",
    ruleset="mythras",
    question="The Damage Modifier 'continues by one step per 10 points' past STR+SIZ 120 (supplement, "
             "from the published rules): which dice is each further step?",
    default="add-to-2d10",
    alternatives=("stay-at-end", "refuse"),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="The published progression past the table is a step per 10 points; the dice of each "
                "step are the kit's reading of the table's own ladder. 'add-to-2d10': as 111-120 is "
                "+2d10 plus the first step (+1d2), each further step adds the next step of the ladder "
                "to +2d10: 121-130 +2d10+1d4, 131-140 +2d10+1d6, ..., 211-220 +4d10, 221-230 "
                "+4d10+1d2. 'stay-at-end' keeps +2d10+1d2 (the table's last row); 'refuse' raises an "
                "error naming the input.",
    cites=(ids.EX_DAMAGE, ids.CHARGE),
))

AIM_EASES = register(Ruling(
    id="mythras.aim-eases",
    ruleset="mythras",
    question="Aiming for a full Round eases 'one situational or range grade (once)'. Is the Hard or "
             "Formidable penalty for firing into a crowd or melee such a grade?",
    default="situational-or-melee",
    alternatives=("situational-only",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="Aiming cancels one grade of a penalty and never makes a shot easier than Standard. "
                "'situational-or-melee': the shot's situational grade is eased first when it is harder "
                "than Standard, else the crowd or melee penalty (Formidable -> Hard, Hard -> none). "
                "'situational-only': the crowd or melee penalty is never eased by aiming. Either way a "
                "stray shot is judged against the grade the shot would have had without that penalty.",
    cites=(ids.RANGED_AIM, ids.RANGED_INTO_MELEE),
))

CHARGE_SAME_LENGTH = register(Ruling(
    id="mythras.charge-same-length",
    ruleset="mythras",
    question="A Charge met by a counter: the 'longer weapon strikes first if both counter'. Who strikes "
             "first when the two weapons are the same length?",
    default="simultaneous",
    alternatives=("charger-first", "counter-first"),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter only orders weapons of different lengths. 'simultaneous': both blows land "
                "at once, so neither can stop the other; 'charger-first' or 'counter-first' put one "
                "blow before the other.",
    cites=(ids.CHARGE,),
))

CHARGE_FIRST_BLOW = register(Ruling(
    id="mythras.charge-first-blow",
    ruleset="mythras",
    question="A Charge met by a counter: when the first blow lands, is the second still struck?",
    default="both-strike",
    alternatives=("hit-stops-second",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter says which blow is first, not what the first does to the second. "
                "'both-strike': both blows are resolved, and the Games Master judges whether a wound "
                "stops the later one; 'hit-stops-second': a first blow that deals damage means the "
                "second is not struck.",
    cites=(ids.CHARGE,),
))

SET_SPEAR_MODIFIER = register(Ruling(
    id="mythras.set-spear-modifier",
    ruleset="mythras",
    question="'Spears set against charge may steal the charger's Damage Modifier': the charger's "
             "Damage Modifier with or without the Charge's step?",
    default="charging",
    alternatives=("standing",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'charging': the charger's Damage Modifier as it charges (one step up, two for a "
                "quadruped), the momentum the spear turns back; 'standing': the charger's own Damage "
                "Modifier without the Charge's step.",
    cites=(ids.CHARGE,),
))

OPPOSED_ROLL = register(Ruling(
    id="mythras.opposed-roll",
    ruleset="mythras",
    question="Who wins an Opposed roll (an Outmanoeuvre's group Opposed Evade) when both sides reach the "
             "same level of success?",
    default="higher-success-roll",
    alternatives=("higher-roll", "level-only"),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="The chapter names Opposed rolls without their procedure. The higher level of success "
                "(Critical > Success > Failure > Fumble) always wins. At the same level: "
                "'higher-success-roll': two successes go to the higher roll, two failures to nobody; "
                "'higher-roll': the higher roll wins at any level; 'level-only': nobody wins.",
    cites=(ids.OUTMANOEUVRE, ids.EVADE),
))

OUTMANOEUVRE_UNOPPOSED = register(Ruling(
    id="mythras.outmanoeuvre-unopposed",
    ruleset="mythras",
    question="An Outmanoeuvre's foes 'spend 1 AP each' to oppose it: what of a foe who cannot (no Action "
             "Point left, or an Evade that is Hopeless)?",
    default="counts-as-failure",
    alternatives=("not-beaten",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'counts-as-failure': as a defender who cannot parry counts as a Failure, the foe is "
                "beaten without a roll; 'not-beaten': the move cannot get past that foe this Round.",
    cites=(ids.OUTMANOEUVRE, ids.EX_NO_PARRY),
))

SPRAY_HITS = register(Ruling(
    id="mythras.spray-hits",
    ruleset="mythras",
    question="Burst fire: 'roll how many rounds in the burst hit' — with which die? And how many of the "
             "rounds a full-auto spray puts at one target hit it?",
    default="1d-rounds",
    alternatives=("all-hit",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="The chapter says to roll but gives no die. '1d-rounds': a hit from a burst or spray "
                "lands one die as large as the rounds fired at the target (3 rounds: 1d3 hit); "
                "'all-hit': every round fired at the target hits. Either way only the first hit enjoys "
                "Special Effects.",
    cites=(ids.FIREARMS,),
))

# -- a whole fight across rounds (:mod:`.fight`) -----------------------------------------------------

TURN_CYCLES = register(Ruling(
    id="mythras.turn-cycles",
    ruleset="mythras",
    question="'On your Turn you spend one AP on a Proactive action.' Once everyone has had a Turn, do Turns "
             "go round again in Initiative order while Action Points are left?",
    default="cycle",
    alternatives=("one-turn",),
    provenance=_CORE,
    explanation="The published rules run a Round in Cycles: Turns go round in Initiative order again and "
                "again until nobody has an Action Point left (or anything left to do), so a fighter with 2 AP "
                "may attack twice. 'one-turn': each fighter has a single Turn a Round and keeps the rest of "
                "their AP for Reactive replies (a declaration of more than one Proactive action is refused).",
    cites=(ids.PROACTIVE_REACTIVE, ids.ACTION_POINTS, ids.INITIATIVE),
))

INITIATIVE_ROLLS = register(Ruling(
    id="mythras.initiative-rolls",
    ruleset="mythras",
    question="Is Initiative rolled once, when the fight starts, or again at the start of every Round?",
    default="once",
    alternatives=("each-round",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter rolls Initiative in its Setup, before 'Each Round'. 'once': the order of the "
                "first Round holds for the whole fight; 'each-round': everyone still able to fight rolls "
                "again at the start of each Round (the surprise penalty only in the first).",
    cites=(ids.INITIATIVE, ids.SURPRISE),
))

NO_DECLARATION = register(Ruling(
    id="mythras.no-declaration",
    ruleset="mythras",
    question="What does a fighter do in a Round for which nothing was declared?",
    default="defend-only",
    alternatives=("attack-engaged",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'defend-only': no Proactive action; their AP go to Reactive replies (a Parry when they can, "
                "else an Evade). 'attack-engaged': one Attack on the first foe they are Engaged with (when "
                "their weapon is in hand), the other AP kept for Reactive replies.",
    cites=(ids.PROACTIVE_REACTIVE, ids.EX_PARRY),
))

VOID_ACTION = register(Ruling(
    id="mythras.void-action",
    ruleset="mythras",
    question="When a fighter's Turn comes, the action declared for it may no longer be possible (the target "
             "fell or broke off, the weapon was knocked away, the fighter is already on their feet). Is the "
             "Action Point spent?",
    default="skip-keep-ap",
    alternatives=("spend-ap",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'skip-keep-ap': the Turn passes and the AP stays for Reactive replies (and vanishes at the "
                "Round's end if unused); 'spend-ap': the Turn's AP is spent on the wasted action.",
    cites=(ids.PROACTIVE_REACTIVE,),
))

WOUND_LEVELS = register(Ruling(
    id="mythras.wound-levels",
    ruleset="mythras",
    question="'Apply what's left to the location': how much harm to a location's Hit Points is a Minor, a "
             "Serious or a Major Wound?",
    default="serious-at-0-major-at-minus-max",
    alternatives=(),
    provenance=_CORE,
    explanation="The chapter names the Serious Wound but not its threshold. Published rules: a location "
                "still above 0 Hit Points has a Minor Wound; at 0 or below, a Serious Wound; at minus its "
                "starting Hit Points or below, a Major Wound.",
    cites=(ids.WOUND_LEVELS_NOTE, ids.EX_ARMOUR, ids.SERIOUS_WOUND_HABIT),
))

SERIOUS_WOUND = register(Ruling(
    id="mythras.serious-wound",
    ruleset="mythras",
    question="What does a Serious Wound do to a fighter for the rest of the fight?",
    default="endurance-roll",
    alternatives=("incapacitated", "limb-only", "record-only"),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="The chapter only says an Endurance roll follows a Serious Wound. 'endurance-roll': the "
                "victim rolls Endurance (the fighter's endurance %, dice slot endurance; none given counts as "
                "a failure); a failure or a fumble leaves them incapacitated; either way a wounded limb is "
                "useless: an arm drops what it holds (no Ready Weapon with it), a leg drops them prone (no "
                "Regain Footing). 'incapacitated': no roll, the fighter is out. 'limb-only': no roll; only "
                "the limb is useless. 'record-only': noted for the Games Master. The published rules' own "
                "version (an opposed roll, how long the victim stays down) is left to the Games Master.",
    cites=(ids.WOUNDS_NOTE, ids.EX_ARMOUR, ids.SERIOUS_WOUND_HABIT),
))

MAJOR_WOUND = register(Ruling(
    id="mythras.major-wound",
    ruleset="mythras",
    question="What does a Major Wound do to a fighter?",
    default="incapacitated",
    alternatives=("trunk-kills", "record-only"),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'incapacitated': the fighter is out of the fight; whether they die is left to the Games "
                "Master (the published rules' Endurance roll against death is not made here). 'trunk-kills': "
                "a Major Wound to the head, chest or abdomen kills, to a limb incapacitates. 'record-only': "
                "noted for the Games Master.",
    cites=(ids.WOUNDS_NOTE, ids.EX_ARMOUR, ids.SERIOUS_WOUND_HABIT),
))

TRIP_OPPONENT = register(Ruling(
    id="mythras.trip-opponent",
    ruleset="mythras",
    question="What does Trip Opponent do (its text is in the Combat reference, not the chapter)?",
    default="falls-prone",
    alternatives=("record-only",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'falls-prone': the defender ends prone until they spend a Turn to Regain Footing (the "
                "published rules let them resist with an opposed roll, which is not made here). "
                "'record-only': noted for the Games Master.",
    cites=(ids.EFFECTS, ids.EFFECTS_TEXT_ELSEWHERE, ids.MENU_PROACTIVE),
))

PRONE = register(Ruling(
    id="mythras.prone",
    ruleset="mythras",
    question="How hard are the attacks, parries and Evades of a fighter who is prone?",
    default="formidable",
    alternatives=("hard", "record-only"),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="The chapter sends a fighter prone (Evade, Trip Opponent) and gives Regain Footing as the way "
                "up, but melee grades for lying on the ground are in the published situational tables. "
                "'formidable': their attacks, parries and Evades are Formidable; 'hard': Hard; "
                "'record-only': no grade. Either way a prone fighter cannot Charge (crawl 2 m if you start "
                "prone); attacks against them are not eased here.",
    cites=(ids.EVADE, ids.MENU_PROACTIVE, ids.MOVEMENT),
))

DISARM_OPPONENT = register(Ruling(
    id="mythras.disarm-opponent",
    ruleset="mythras",
    question="What does Disarm Opponent do (its text is in the Combat reference, not the chapter)?",
    default="weapon-lost",
    alternatives=("record-only",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'weapon-lost': the defender's weapon is knocked from their hand: no attacks or parries with "
                "it until they spend a Turn to Ready Weapon (a shield still parries); the published rules' "
                "opposed roll and Size steps are not applied. 'record-only': noted for the Games Master.",
    cites=(ids.EFFECTS, ids.EFFECTS_TEXT_ELSEWHERE, ids.MENU_PROACTIVE),
))

BLEED = register(Ruling(
    id="mythras.bleed",
    ruleset="mythras",
    question="What does Bleed do from Round to Round (its text is in the Combat reference, not the chapter)?",
    default="1-hp-per-round",
    alternatives=("record-only",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'1-hp-per-round': a blow with Bleed that dealt damage leaves its location bleeding: it loses "
                "1 Hit Point at the end of every Round for the rest of the fight (nobody staunches it here). "
                "The published rules instead drain Fatigue after a failed opposed Endurance roll. "
                "'record-only': noted for the Games Master.",
    cites=(ids.EFFECTS, ids.EFFECTS_TEXT_ELSEWHERE, ids.WARD_HABIT),
))

IMPALED_WEAPON = register(Ruling(
    id="mythras.impaled-weapon",
    ruleset="mythras",
    question="After Impale, does the weapon stay stuck in the wound, and what does that do?",
    default="stuck-hard",
    alternatives=("stuck-no-penalty", "record-only"),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'stuck-hard': an impaling blow that dealt damage leaves the weapon in the wound: its wielder "
                "cannot attack or parry with it until they spend a Turn to Ready Weapon (pulling it free), "
                "and while it stays the victim's attacks, parries and Evades are one grade harder (Hard). "
                "'stuck-no-penalty': stuck, without the victim's grade. 'record-only': noted for the Games "
                "Master. A missile's Impale never locks the shooter's weapon (the arrow, not the bow, stays "
                "in). (How Impale rolls damage is mythras.impale.)",
    cites=(ids.EFFECTS, ids.EFFECTS_TEXT_ELSEWHERE, ids.MENU_PROACTIVE),
))

RULINGS: tuple[Ruling, ...] = (
    HALVING, HERCULEAN, OVER_100, RANGED_CHOOSE_LOCATION, MAXIMISE_DAMAGE, BYPASS_ARMOR, IMPALE,
    ENHANCE_PARRY, EFFECT_TEXT, EVADE_SUCCESS, WARD_LOCATION, COMBINE_GRADES, STEP_PAST_END,
    DAMAGE_FLOOR, PARRY_MISSILES, RANGED_DAMAGE_MODIFIER, ROLL_OFF_DIE, OUTSIDE_STYLE_GRADES,
    DAMAGE_MODIFIER_LADDER, AIM_EASES, CIRCUMVENT_PARRY, CHARGE_SAME_LENGTH, CHARGE_FIRST_BLOW,
    SET_SPEAR_MODIFIER, OPPOSED_ROLL, OUTMANOEUVRE_UNOPPOSED, SPRAY_HITS, TURN_CYCLES, INITIATIVE_ROLLS,
    NO_DECLARATION, VOID_ACTION, WOUND_LEVELS, SERIOUS_WOUND, MAJOR_WOUND, TRIP_OPPONENT, PRONE,
    DISARM_OPPONENT, BLEED, IMPALED_WEAPON,
)
"""Every Mythras ruling, in the order above."""

"""Coverage of the Against the Darkmaster chapter by table questions: for every section of the combat
chapter and its supplement, questions a GM types in their own words (other games' jargon, paraphrase,
typos, two-word queries, situations) and the units answering them. An answering unit is in the first
three hits with the ruleset selected.

The questions were written for this test from the chapter, not from the blind evaluation sets.
"""

from __future__ import annotations

import pytest

from _coverage import top_three, unit_ids
from ruleslawyer.rulesdb import open_rules

RULES = open_rules()

#: unit ids: the chapter's sections, then the supplement's
C = "darkmaster/combat/"
T = C + "tactical-round-sequence/"
S = "darkmaster/supplement/"
TR1, TR2 = C + "the-tactical-round#1", C + "the-tactical-round#2"
TRS = C + "tactical-round-sequence#1"
AP1, AP2, AP3 = (T + f"assessment-phase#{i}" for i in (1, 2, 3))
ADP = T + "action-declaration-phase#1"
MP = T + "move-phase#1"
SPA, RPA, RPB, SPB, OAP = (T + phase + "#1" for phase in (
    "spell-phase-a", "ranged-phase-a", "ranged-phase-b", "spell-phase-b", "other-actions-phase"))
M1, M2, M3, M4 = (T + f"melee-phase#{i}" for i in (1, 2, 3, 4))
AT1, FULL, HALF, FREE = (C + f"action-types#{i}" for i in (1, 2, 3, 4))
CA = C + "action-types/combining-actions#1"
RA = C + "action-types/readied-actions#1"
MRA = C + "action-types/multi-round-actions#1"
WL = [S + f"weapon-length#{i}" for i in range(1, 6)]
WBN = {name: S + f"weapons-by-name#{i}" for name, i in (
    ("unarmed", 2), ("dagger", 3), ("longsword", 9), ("flail", 12), ("spear", 14), ("heavycrossbow", 17))}
PARRY = S + "parry#1"
#: the supplement's table of the nine phases: its introduction, then one row per phase in order
PH = [S + f"the-round-phase-by-phase#{i}" for i in range(1, 11)]
SAT = [S + f"action-types#{i}" for i in (1, 2, 3)]  # Full, Half, Free rows
ROLLS = [S + f"rolls#{i}" for i in (1, 2, 3, 4)]  # CMB and open-ended rolls; the 01-05, 06-95, 96-00 rows
SIL = {i: S + f"where-the-chapter-is-silent#{i}" for i in range(1, 9)}

QUESTIONS = [
    # The Tactical Round: lethality
    ("can a weak goblin kill my hero in one hit", [TR1]),
    ("is combat really dangerous in this game", [TR1]),
    ("how deadly are fights", [TR1]),
    ("my veteran got one-shot by a mook, is that right", [TR1]),
    # round length
    ("how long is a round in seconds", [TR2]),
    ("how much game time passes in one round", [TR2]),
    ("what does rnd mean", [TR2]),
    ("when does the next round start", [TR2]),
    ("how long is a rnoud", [TR2]),
    # Tactical Round Sequence
    ("how many phases in a round", [TRS, PH[0]]),
    ("what order do things happen in a round", [TRS, PH[0]]),
    ("nobody casts a spell, do we skip the spell phase", [TRS, PH[0]]),
    ("combat turn structure", [TRS, PH[0]]),
    ("roll initiative", [TRS, PH[0], ADP]),
    # Assessment phase
    ("when do I track bleeding and spell durations", [AP1, PH[1]]),
    ("my character is confused, what can he do", [AP1, AP3]),
    ("how do I keep track of conditions each round", [AP1, PH[1]]),
    ("surprise round", [AP1, AP2, PH[1]]),
    ("when does the GM call for an assessment roll", [AP2]),
    ("knocked prone, do I need a perception roll", [AP2]),
    ("my character wakes up in the middle of the fight", [AP2]),
    ("the torches suddenly go out", [AP2]),
    ("asessment roll", [AP1, AP2, AP3]),
    ("failed my perception roll, can I still act", [AP3]),
    ("can a stunned character parry", [AP3]),
    ("what happens if you fail the assessment roll", [AP3]),
    # Action declaration
    ("do players declare before the monsters", [ADP, PH[2]]),
    ("who declares actions first, GM or players", [ADP, PH[2]]),
    ("do I have to name my target when declaring", [ADP, PH[2]]),
    ("when do I say what I'm doing this round", [ADP, PH[2]]),
    ("does the GM announce what the monsters do before we choose", [ADP, PH[2]]),
    # Move phase
    ("does everyone move at the same time", [MP, PH[3]]),
    ("when does movement happen in the round", [MP, PH[3]]),
    ("two characters race for the door, who gets there first", [MP]),
    ("climb onto a table during combat", [MP]),
    ("tumble past the guard", [MP]),
    # Spell phase A
    ("my wizard held a spell from last round, when does it go off", [SPA, PH[4]]),
    ("what does the asterisk on a spell mean", [SPA]),
    ("two wizards cast at the same time, who goes first", [SPA]),
    ("bonus for preparing a spell over several rounds", [SPA]),
    # Ranged phase A
    ("archer with an arrow already nocked, does he shoot before melee", [RPA, PH[5]]),
    ("I have a throwing knife in hand, when does it fly", [RPA, PH[5]]),
    ("two archers shoot at each other, who is first", [RPA]),
    ("when do ranged attacks happen", [RPA, RPB, PH[5], PH[7]]),
    ("can my archer shoot the orc before it reaches us", [RPA, PH[5]]),
    # Melee phase: attack order and weapon length
    ("who swings first in melee", [M1, M2, PH[6]]),
    ("does a spear hit before a sword", [M1, M2, WBN["spear"]]),
    ("how many weapon lengths are there", [M1, WL[0]]),
    ("weapon reach", [M1, M2, WL[0]]),
    ("he has a spear and I have a dagger, who hits first", [M1, M2, WBN["spear"], WBN["dagger"]]),
    # ties
    ("both fighters have longswords, who attacks first", [M2]),
    ("what if both have the same CMB", [M2]),
    # Positional bonus
    ("bonus for attacking from behind", [M3]),
    ("flankng bonus", [M3]),
    ("does being on higher ground help", [M3]),
    ("two of us surround the orc", [M3]),
    ("sneak attack from the back", [M3]),
    # Dashing attack
    ("charge attack", [M4]),
    ("what's the penalty for a dashing attack", [M4]),
    ("can I lunge to strike before his spear", [M4]),
    ("can I parry after a dashing attack", [M4, PARRY]),
    ("reckless attack", [M4]),
    # Ranged phase B
    ("I reloaded my crossbow this round, can I still shoot", [RPB, PH[7]]),
    ("throw a spear I drew this round", [RPB, PH[7]]),
    ("shooting after the melee", [RPB, PH[7]]),
    # Spell phase B
    ("when does a normal spell resolve", [SPB, PH[8]]),
    ("cast a spell I didn't prepare", [SPB, PH[8]]),
    ("why do unprepared spells go last", [SPB, PH[8]]),
    # Other actions phase
    ("when do I disengage from melee", [OAP, PH[9]]),
    ("using a skill during combat, which phase", [OAP, PH[9]]),
    ("I want to pick a lock during the fight", [OAP, PH[9]]),
    ("trip the orc", [OAP]),
    ("the orc backs away from me, when does that happen", [OAP, PH[9]]),
    # Action types
    ("how many actions do I get per round", [AT1, FULL, HALF, FREE, *SAT]),
    ("what kinds of actions are there", [AT1, *SAT]),
    ("can I attack twice in a round", [FULL, SAT[0]]),
    ("double move", [FULL, SAT[0]]),
    ("does casting a spell take my whole turn", [FULL, HALF, SAT[0]]),
    ("is drawing a sword a half action", [HALF, SAT[1]]),
    ("draw my sword and attack in the same round", [HALF, SAT[1]]),
    ("penalty for doing two things at once", [HALF, SAT[1]]),
    ("bonus action", [HALF, SAT[1]]),
    ("move half and attack", [HALF, SAT[1]]),
    ("can I talk during combat", [FREE, SAT[2]]),
    ("is dropping my weapon free", [FREE, SAT[2]]),
    ("how many free actions per round", [FREE, SAT[2]]),
    ("shout a warning to my friend", [FREE, SAT[2]]),
    # Combining actions
    ("what combinations of actions are allowed", [CA, SIL[5]]),
    ("can I combine a full action with a half action", [HALF, CA, SAT[1]]),
    ("the list of action combos is missing", [SIL[5], CA]),
    # Readied actions
    ("ready an action to attack when the orc comes through the door", [RA]),
    ("hold my action until the enemy moves", [RA]),
    ("overwatch", [RA]),
    ("can a readied action go off in any phase", [RA]),
    ("two gunslingers both waiting to shoot first", [RA]),
    ("delay my turn", [RA]),
    # Multi-round actions
    ("how long to reload a heavy crossbow", [MRA, WBN["heavycrossbow"]]),
    ("what does Load (2) mean", [MRA]),
    ("I get hit while reloading, do I lose it", [MRA]),
    ("how many rounds to climb a wall", [MRA]),
    ("bar the door shut", [MRA]),
    # Supplement: weapon lengths, weapons by name
    ("what are the weapon lengths called", WL + [M1, SIL[2]]),
    ("is a longsword long or longest", [WL[3], WBN["longsword"], M3]),
    ("what length is a dagger", [WBN["dagger"], WL[1]]),
    ("punching, what weapon length", [WBN["unarmed"], WL[1]]),
    ("where does a flail fall in attack order", [WBN["flail"]]),
    # Parry
    ("how does parrying work", [PARRY]),
    ("how much of my OB can I put into defense", [PARRY]),
    ("is parry an action", [PARRY]),
    ("what's my AC", [PARRY]),
    # Rolls
    ("what does CMB stand for", [ROLLS[0]]),
    ("rolled a 98, what now", [ROLLS[3]]),
    ("rolled a 03", [ROLLS[1]]),
    ("do dice explode", [ROLLS[3], ROLLS[0]]),
    ("nat 1", [ROLLS[1]]),
    # Where the chapter is silent
    ("spear with a flanking bonus, does it get longer than longest", [SIL[3]]),
    ("do dashing attack and positional bonus stack", [SIL[3]]),
    ("rules for conflicting actions", [SIL[7]]),
    ("what difficulty is the assessment roll", [SIL[8]]),
    ("does a low open end keep subtracting", [SIL[6]]),
]


@pytest.mark.parametrize(("question", "answers"), QUESTIONS, ids=[q for q, _ in QUESTIONS])
def test_an_answering_unit_is_in_the_first_three(question, answers):
    top = top_three(question, "darkmaster", RULES)
    assert set(top) & set(answers), (question, top)


def test_every_expected_unit_exists():
    units, headings = unit_ids(RULES, "darkmaster")
    known = units | headings
    assert not {a for _, answers in QUESTIONS for a in answers} - known

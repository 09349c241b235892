"""Named rulings of the Against the Darkmaster round sequence, registered at import.

Each covers a point where the combat chapter is silent or breaks off; callers override them per call
(``rulings={"darkmaster.length-past-longest": "ahead-of-longest"}``).
"""

from __future__ import annotations

from ruleslawyer.trace import (PROVENANCE_KIT_DEFAULT, PROVENANCE_PUBLISHED_PREFIX, PROVENANCE_SOURCE_SILENT,
                               Ruling, register)

from . import ids

__all__ = [
    "WEAPON_LENGTHS", "ACTION_COMBINATIONS", "LENGTH_PAST_LONGEST", "LENGTH_STEPS_STACK", "TIE_CMB",
    "SPELL_TIE", "PHASE_B_ORDER", "OTHER_ACTIONS_ORDER", "PARRY_TIMING", "HALF_CMB_ROUNDING", "LOW_OPEN_END",
    "WEAPON_EXAMPLES", "DECLARED_OUTCOME", "ATTACK_TOTAL", "OUT_OF_ACTION", "OUT_OF_HITS", "DYING_ENDS",
    "ASSESSMENT_AFTER_FAILURE", "READIED_UNTRIGGERED", "RULINGS",
]

_VSD = PROVENANCE_PUBLISHED_PREFIX + "Against the Darkmaster core rules"

WEAPON_LENGTHS = register(Ruling(
    id="darkmaster.weapon-lengths",
    ruleset="darkmaster",
    question="What are the four melee weapon lengths? (The chapter announces them and gives no list.)",
    default="hand-short-long-longest",
    alternatives=(),
    provenance=_VSD,
    explanation="The published names, shortest to longest: Hand, Short, Long, Longest (the supplement "
                "table weapon-length). The chapter's examples agree: a longsword is Long and a handaxe "
                "one step below it.",
    cites=(ids.MELEE, ids.POSITIONAL),
))

WEAPON_EXAMPLES = register(Ruling(
    id="darkmaster.weapon-examples",
    ruleset="darkmaster",
    question="Which length is a weapon the chapter does not place? (Its Positional Bonus example places only "
             "the longsword, Long, and the handaxe, one step shorter.)",
    default="kit-table",
    alternatives=("chapter-only",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'kit-table': the supplement table weapon-examples gives common weapons a length (dagger "
                "Hand, mace Short, staff Long, spear Longest, ...; the rows marked kit's reading). "
                "'chapter-only': only the chapter's longsword and handaxe are known by name; any other "
                "weapon must be given its length.",
    cites=(ids.MELEE, ids.POSITIONAL),
))

ACTION_COMBINATIONS = register(Ruling(
    id="darkmaster.action-combinations",
    ruleset="darkmaster",
    question="Which combinations of actions may a character take in a Round? (The chapter's list after "
             "'one of the following combinations:' is missing.)",
    default="full-half-or-two-halves",
    alternatives=("full-and-any-halves",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="Read from the Action Types paragraphs: one Full Action; a Full and a Half Action (-20 to "
                "both); one or two Half Actions; each with one Free Action. 'full-and-any-halves' allows "
                "any number of Half Actions beside at most one Full Action.",
    cites=(ids.COMBINING, ids.FULL, ids.HALF, ids.FREE),
))

LENGTH_PAST_LONGEST = register(Ruling(
    id="darkmaster.length-past-longest",
    ruleset="darkmaster",
    question="Where does a Positional Bonus or Dashing Attack put a weapon that is already Longest?",
    default="stays-longest",
    alternatives=("ahead-of-longest",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'stays-longest': it attacks as Longest (ties with other Longest weapons go to CMB). "
                "'ahead-of-longest': it attacks before every Longest weapon.",
    cites=(ids.POSITIONAL, ids.DASHING),
))

LENGTH_STEPS_STACK = register(Ruling(
    id="darkmaster.length-steps-stack",
    ruleset="darkmaster",
    question="Do a Positional Bonus and a Dashing Attack together make a weapon two steps longer?",
    default="stack",
    alternatives=("one-step",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="Each says 'one step longer'; the kit adds them. 'one-step' counts one step at most.",
    cites=(ids.POSITIONAL, ids.DASHING),
))

TIE_CMB = register(Ruling(
    id="darkmaster.tie-cmb",
    ruleset="darkmaster",
    question="When CMB breaks a tie in attack order, is it the CMB before or after this Round's penalties "
             "(Dashing Attack -30, Half + Full -20)?",
    default="declared-cmb",
    alternatives=("after-penalties",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'declared-cmb' compares the characters' CMB as declared; 'after-penalties' compares it "
                "after the penalties of this Round.",
    cites=(ids.MELEE_ORDER, ids.RANGED_A),
))

SPELL_TIE = register(Ruling(
    id="darkmaster.spell-tie",
    ruleset="darkmaster",
    question="Two Spells in Spell Phase A with equal caster level and equal Spell Casting Roll bonus: "
             "which goes first?",
    default="simultaneous",
    alternatives=(),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter breaks ties only by the bonus; the kit treats a remaining tie as "
                "simultaneous, as the chapter does for ranged and melee ties.",
    cites=(ids.SPELL_A,),
))

PHASE_B_ORDER = register(Ruling(
    id="darkmaster.phase-b-order",
    ruleset="darkmaster",
    question="How are several actions ordered in Ranged Phase B and Spell Phase B?",
    default="as-phase-a",
    alternatives=("simultaneous",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter orders only the A phases. 'as-phase-a' uses the same order (ranged: higher "
                "CMB; spells: higher caster level, then bonus); 'simultaneous' resolves them together.",
    cites=(ids.RANGED_B, ids.SPELL_B),
))

OTHER_ACTIONS_ORDER = register(Ruling(
    id="darkmaster.other-actions-order",
    ruleset="darkmaster",
    question="How are several actions ordered in the Other Actions Phase?",
    default="simultaneous",
    alternatives=("declaration-order",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter gives no order, and its Conflicting Actions rules are not part of it.",
    cites=(ids.OTHER,),
))

PARRY_TIMING = register(Ruling(
    id="darkmaster.parry-timing",
    ruleset="darkmaster",
    question="In which phase does a Parry resolve?",
    default="whenever-attacked",
    alternatives=(),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="A Parry is CMB held back for defence (supplement: Parry); the kit does not place it in a "
                "phase but applies it whenever the character is attacked that Round.",
    cites=(ids.ASSESSMENT_FAILED, ids.DASHING, ids.PARRY),
))

HALF_CMB_ROUNDING = register(Ruling(
    id="darkmaster.half-cmb-rounding",
    ruleset="darkmaster",
    question="After a failed Assessment Roll a character may Parry with up to half their CMB: which way "
             "does half an odd CMB round?",
    default="down",
    alternatives=("up",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'down': CMB 45 allows a Parry of up to 22; 'up': 23.",
    cites=(ids.ASSESSMENT_FAILED,),
))

LOW_OPEN_END = register(Ruling(
    id="darkmaster.low-open-end",
    ruleset="darkmaster",
    question="On a low open end (01–05), does a further 96–00 on the extra roll keep subtracting?",
    default="repeat-on-96",
    alternatives=("once",),
    provenance=_VSD,
    explanation="'repeat-on-96': each extra roll of 96 or more is subtracted and rolled again, as the high "
                "end adds. 'once': one extra roll is subtracted and that is all.",
    cites=(),
))

# -- a fight across Rounds (DarkmasterEncounter) --------------------------------------------------

DECLARED_OUTCOME = register(Ruling(
    id="darkmaster.declared-outcome",
    ruleset="darkmaster",
    question="What does an attack, a Spell or another action do to its target? (The combat chapter orders "
             "actions but holds no attack, critical or Spell tables.)",
    default="as-declared",
    alternatives=(),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The declaration gives the outcome the GM reads off the tables of the other chapters (hits, "
                "conditions such as Bleeding or Dying, Spell effects and their duration), once or by roll total "
                "(at_least); it applies when the action resolves in its Phase, only if the actor can still act. "
                "A CMB modifier it gives counts from the next Round's split of the CMB.",
    cites=(ids.TRS, ids.MELEE),
))

ATTACK_TOTAL = register(Ruling(
    id="darkmaster.attack-total",
    ruleset="darkmaster",
    question="Which total does the kit report for an attack roll? (The chapter splits CMB between attack and "
             "Parry but gives no attack resolution.)",
    default="minus-parry",
    alternatives=("roll-only",),
    provenance=PROVENANCE_KIT_DEFAULT,
    explanation="'minus-parry': open-ended d100 + the CMB not held back to Parry + this Round's penalties − the "
                "Parry the target holds back (applied whenever attacked, darkmaster.parry-timing). 'roll-only': "
                "the same without the target's Parry, which the GM then applies on the table.",
    cites=(ids.PARRY, ids.DASHING),
))

OUT_OF_ACTION = register(Ruling(
    id="darkmaster.out-of-action",
    ruleset="darkmaster",
    question="May an Unconscious or Dead character declare actions, Parry, or finish an action this Round?",
    default="no",
    alternatives=(),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="The chapter names unconsciousness only as a state one wakes from (assessment-phase#2). The kit "
                "lets neither the Unconscious nor the Dead declare or Parry; an action whose actor goes down "
                "before it resolves does not resolve, and a Multi-Round Action under way is lost.",
    cites=(ids.ASSESSMENT_ROLL, ids.TRS, ids.MULTI_ROUND),
))

OUT_OF_HITS = register(Ruling(
    id="darkmaster.out-of-hits",
    ruleset="darkmaster",
    question="What happens when a character's hits fall to 0 or below? (Hits are not in the combat chapter.)",
    default="unconscious",
    alternatives=("record-only",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'unconscious': the character falls Unconscious until the condition is removed. 'record-only': "
                "the kit only notes it; the GM declares what follows as a result.",
    cites=(ids.ASSESSMENT,),
))

DYING_ENDS = register(Ruling(
    id="darkmaster.dying-ends",
    ruleset="darkmaster",
    question="What happens when a Dying count runs out? (The Assessment Phase tracks Dying; the chapter does "
             "not say what its end means.)",
    default="dies",
    alternatives=("count-ends",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'dies': in the Assessment Phase after the last Round of the count the character is Dead. "
                "'count-ends': the condition ends and the GM declares what follows.",
    cites=(ids.ASSESSMENT,),
))

ASSESSMENT_AFTER_FAILURE = register(Ruling(
    id="darkmaster.assessment-after-failure",
    ruleset="darkmaster",
    question="After a failed Assessment Roll, must the character roll again in the next Round's Assessment "
             "Phase?",
    default="once",
    alternatives=("until-passed",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'once': the effect demanded one roll; its failure costs that Round only. 'until-passed': the "
                "character stays confused and rolls in each Assessment Phase until a roll passes.",
    cites=(ids.ASSESSMENT_ROLL, ids.ASSESSMENT_FAILED),
))

READIED_UNTRIGGERED = register(Ruling(
    id="darkmaster.readied-untriggered",
    ruleset="darkmaster",
    question="A Readied Action whose circumstance did not arise this Round: is it still held next Round?",
    default="held",
    alternatives=("lapses",),
    provenance=PROVENANCE_SOURCE_SILENT,
    explanation="'held': the character holds it 'until a specific circumstance arises', Round after Round, "
                "until it triggers or the character gives it up (abandon); it stays the character's action. "
                "'lapses': it is gone at the end of the Round.",
    cites=(ids.READIED,),
))

RULINGS: tuple[Ruling, ...] = (
    WEAPON_LENGTHS, ACTION_COMBINATIONS, LENGTH_PAST_LONGEST, LENGTH_STEPS_STACK, TIE_CMB, SPELL_TIE,
    PHASE_B_ORDER, OTHER_ACTIONS_ORDER, PARRY_TIMING, HALF_CMB_ROUNDING, LOW_OPEN_END, WEAPON_EXAMPLES,
    DECLARED_OUTCOME, ATTACK_TOTAL, OUT_OF_ACTION, OUT_OF_HITS, DYING_ENDS, ASSESSMENT_AFTER_FAILURE,
    READIED_UNTRIGGERED,
)
"""Every Against the Darkmaster ruling."""

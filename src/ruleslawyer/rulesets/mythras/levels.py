"""Mythras skill rolls: levels of success, difficulty grades and the differential.

Numbers come from the supplement tables ``levels-of-success`` and ``difficulty-grades`` in the rules
database; every step cites the table row it used, or a ruling from :mod:`.rulings`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from ruleslawyer.dice import Dice, d100_label
from ruleslawyer.errors import RulesInputError
from ruleslawyer.rulesdb.handle import Rules, resolve_rules
from ruleslawyer.trace import Citation, Step, StepKind, TracedResult, resolve_ruling

from . import _tables, ids, rulings

__all__ = [
    "LevelOfSuccess", "DifficultyGrade", "MAX_SKILL", "check_skill", "critical_range", "level_of_success",
    "rank", "grade_row", "grade_multiplier", "graded_skill", "step_grade", "SkillRoll", "roll_skill", "Differential",
    "differential", "adjust_over_100",
]

MAX_SKILL = 999
"""Largest skill the engine accepts (a sanity bound on input, not a rule)."""


class LevelOfSuccess(StrEnum):
    """The four levels of a skill roll (names as in the ``levels-of-success`` table)."""

    CRITICAL = "Critical"
    SUCCESS = "Success"
    FAILURE = "Failure"
    FUMBLE = "Fumble"

    @property
    def succeeded(self) -> bool:
        """True for Success and Critical."""
        return self in (LevelOfSuccess.CRITICAL, LevelOfSuccess.SUCCESS)


class DifficultyGrade(StrEnum):
    """Difficulty grades, easiest first (names as in the ``difficulty-grades`` table)."""

    VERY_EASY = "Very Easy"
    EASY = "Easy"
    STANDARD = "Standard"
    HARD = "Hard"
    FORMIDABLE = "Formidable"
    HERCULEAN = "Herculean"
    HOPELESS = "Hopeless"


def _enum(cls, value, field: str):
    if isinstance(value, cls):
        return value
    member = cls._value2member_map_.get(value) if isinstance(value, str) else None
    if member is not None:
        return member
    for member in cls:
        if isinstance(value, str) and value.strip().lower() in (member.value.lower(), member.name.lower()):
            return member
    allowed = ", ".join(m.value for m in cls)
    raise RulesInputError(field, f"unknown {cls.__name__} {value!r}; allowed: {allowed}")


def check_skill(skill: object, field: str) -> int:
    """Validate a percentage skill: a whole number from 0 to :data:`MAX_SKILL`.

    Raises:
        RulesInputError: naming ``field`` (e.g. ``"attacker.skill"``) for -5, 12.5 or "60".
    """
    if isinstance(skill, bool) or not isinstance(skill, int) or not 0 <= skill <= MAX_SKILL:
        raise RulesInputError(field, f"a skill must be a whole percentage from 0 to {MAX_SKILL}, got {skill!r}")
    return skill


def critical_range(skill: int) -> int:
    """Highest d100 roll that is a Critical: one tenth of the skill, rounded up (63 -> 7, 4 -> 1).

    Rule: the Critical row of ``levels-of-success``.
    """
    return math.ceil(Fraction(skill, 10))


def rank(level: LevelOfSuccess, *, rules: Rules | None = None) -> int:
    """The level's rank from the ``levels-of-success`` table of ``rules`` (Critical 3 ... Fumble 0)."""
    return _tables.levels(resolve_rules(rules))[level.value].rank


def _row(level: LevelOfSuccess, rules: Rules):
    return _tables.levels(rules)[level.value].row


def level_of_success(roll: int, skill: int, *, rules: Rules | None = None) -> tuple[LevelOfSuccess, Step]:
    """Read a d100 roll against a skill.

    Bands (``levels-of-success``): Critical at or under ceil(skill/10); Success at or under the skill;
    01–05 always at least a Success and 96–00 never one; Fumble on 99–00, or on 00 alone when the
    skill is above 100%. Skill 63: Critical 01–07, Success 08–63, Failure 64–98, Fumble 99–00.

    Args:
        roll: 1..100 (100 is "00").
        skill: the skill after grades, >= 0.
        rules: the rules database (default: the default database).

    Returns:
        The level and a COMPARE step citing the row that decided it.

    Raises:
        RulesInputError: roll outside 1..100 (field ``roll``) or a bad skill (field ``skill``).
    """
    rules = resolve_rules(rules)
    if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 100:
        raise RulesInputError("roll", f"a d100 roll must be a whole number from 1 to 100 (100 = 00), got {roll!r}")
    check_skill(skill, "skill")
    crit = critical_range(skill)
    fumble_low = 100 if skill > 100 else 99
    label = d100_label(roll)
    if roll >= fumble_low:
        level = LevelOfSuccess.FUMBLE
        why = f"{label} is a Fumble ({'00 only, skill above 100%' if skill > 100 else '99–00'})"
    elif roll >= 96:
        level = LevelOfSuccess.FAILURE
        why = f"{label} is in 96–00, which never succeeds"
    elif roll <= crit:
        level = LevelOfSuccess.CRITICAL
        why = f"{label} ≤ {crit} (one tenth of {skill}, rounded up)"
    elif roll <= 5 or roll <= skill:
        level = LevelOfSuccess.SUCCESS
        why = (f"{label} ≤ {skill}" if roll <= skill else f"{label} is in 01–05, always a success")
        why += f" and over the Critical range 01–{crit:02d}" if crit else ""
    else:
        level = LevelOfSuccess.FAILURE
        why = f"{label} > {skill}"
    step = Step.of(StepKind.COMPARE, "Level of success", value=level.value, detail=why,
                   cites=[Citation(_row(level, rules).unit_id, f"{level.value} row")])
    return level, step


def _grade_rows(rules: Rules) -> dict[DifficultyGrade, _tables.GradeRow]:
    return _tables._memo("grade_rows", lambda: {_enum(DifficultyGrade, g.name, "difficulty"): g
                                                for g in _tables.grades(rules)}, rules)


def grade_row(grade: DifficultyGrade, rules: Rules | None = None) -> _tables.GradeRow:
    """The ``difficulty-grades`` row of ``grade`` in ``rules`` (default database)."""
    return _grade_rows(resolve_rules(rules))[grade]


def grade_multiplier(grade: DifficultyGrade | str, overrides: Mapping[str, str] | None = None, *,
                     rules: Rules | None = None) -> tuple[Fraction | None, Step]:
    """The skill multiplier of a grade (None for Hopeless), from ``difficulty-grades``.

    Herculean uses the ruling ``mythras.herculean`` (1/5 by default, 1/10 as the alternative).
    """
    g = _enum(DifficultyGrade, grade, "difficulty")
    row = grade_row(g, rules)
    uses = []
    mult = row.multiplier
    if g is DifficultyGrade.HERCULEAN:
        use = resolve_ruling(rulings.HERCULEAN.id, overrides)
        mult = Fraction(use.answer)
        uses.append(use)
    step = Step.of(StepKind.MODIFIER, f"{g.value} grade", value=None if mult is None else str(mult),
                   detail="no roll can be made" if mult is None else f"skill × {mult}",
                   cites=[Citation(row.row.unit_id, f"{g.value} row")], rulings=uses)
    return mult, step


def graded_skill(skill: int, grade: DifficultyGrade | str = DifficultyGrade.STANDARD,
                 overrides: Mapping[str, str] | None = None, field: str = "skill", *,
                 rules: Rules | None = None) -> tuple[int | None, Step]:
    """The skill after a difficulty grade, rounded up (63 Hard -> 42; 63 Easy -> 95; Hopeless -> None).

    Rule: the grade's row of ``difficulty-grades`` in ``rules`` (default database).

    Raises:
        RulesInputError: bad skill or unknown grade (field ``field`` / ``difficulty``).
    """
    check_skill(skill, field)
    mult, step = grade_multiplier(grade, overrides, rules=rules)
    if mult is None:
        return None, step
    value = math.ceil(skill * mult)
    return value, Step.of(StepKind.MODIFIER, step.label, value=value,
                          detail=f"{skill} × {mult} = {float(skill * mult):g}, rounded up to {value}",
                          cites=step.cites, rulings=step.rulings)


def step_grade(grade: DifficultyGrade | str, steps: int, *, rules: Rules | None = None) -> DifficultyGrade:
    """Move ``steps`` grades harder (negative: easier), stopping at Very Easy and Hopeless.

    The order is the ``difficulty-grades`` table's, easiest first.
    """
    order = list(_grade_rows(resolve_rules(rules)))
    g = _enum(DifficultyGrade, grade, "difficulty")
    i = min(max(order.index(g) + steps, 0), len(order) - 1)
    return order[i]


@dataclass(frozen=True)
class SkillRoll(TracedResult):
    """One d100 skill roll.

    Attributes:
        skill: the skill before the grade.
        grade: the difficulty grade applied.
        effective_skill: the graded skill (None when Hopeless: no roll).
        roll: the d100 face (1..100, 100 = "00"), None when no roll was made.
        level: the level of success, None when no roll was made.
        trace: the explanation.
    """

    skill: int
    grade: DifficultyGrade
    effective_skill: int | None
    roll: int | None
    level: LevelOfSuccess | None
    trace: Step

    @property
    def attempted(self) -> bool:
        return self.level is not None


def roll_skill(skill: int, *, grade: DifficultyGrade | str = DifficultyGrade.STANDARD, dice: Dice | None = None,
               slot: str = "skill", roll: int | None = None, rulings: Mapping[str, str] | None = None,
               label: str = "Skill roll", field: str = "skill", skill_after: int | None = None,
               extra: tuple[Step, ...] = (), rules: Rules | None = None) -> SkillRoll:
    """Roll d100 against a skill at a grade (or read an entered ``roll``).

    Args:
        skill: the percentage, 0..999.
        grade: a :class:`DifficultyGrade` or its name.
        dice: seeded or scripted dice; ``slot`` names the scripted slot.
        roll: a face already rolled (1..100), instead of rolling.
        rulings: ruling overrides.
        label: the step label.
        field: the input name used in errors.
        skill_after: a skill already adjusted after grading (e.g. by ``mythras.over-100``);
            replaces the graded skill.
        extra: steps to show between the grade and the roll.
        rules: the rules database whose tables are read (default: the default database).

    Returns:
        A :class:`SkillRoll`; Hopeless makes no roll (level None).
    """
    rules = resolve_rules(rules)
    check_skill(skill, field)
    g = _enum(DifficultyGrade, grade, f"{field.rsplit('.', 1)[0]}.difficulty" if "." in field else "difficulty")
    eff, gstep = graded_skill(skill, g, rulings, field, rules=rules)
    children = [gstep, *extra]
    if eff is None:
        trace = Step.of(StepKind.RESULT, f"{label}: not attempted", value=None,
                        detail="Hopeless: no roll is made", children=children)
        return SkillRoll(skill, g, None, None, None, trace)
    if skill_after is not None:
        eff = skill_after
    if roll is None:
        dice = dice or Dice()
        roll = dice.roll(100, slot)
        children.append(Step.of(StepKind.ROLL, "d100", value=roll, detail=f"rolled {d100_label(roll)}",
                                cites=[_tables.table("levels", rules).section]))
    else:
        if isinstance(roll, bool) or not isinstance(roll, int) or not 1 <= roll <= 100:
            raise RulesInputError(f"{field}.roll", f"a d100 roll must be 1 to 100 (100 = 00), got {roll!r}")
        children.append(Step.of(StepKind.ROLL, "d100 (entered)", value=roll, detail=f"entered {d100_label(roll)}",
                                cites=[_tables.table("levels", rules).section]))
    level, cstep = level_of_success(roll, eff, rules=rules)
    children.append(cstep)
    trace = Step.of(StepKind.RESULT, f"{label}: {level.value}",
                    detail=f"{d100_label(roll)} against {eff}%", children=children)
    return SkillRoll(skill, g, eff, roll, level, trace)


@dataclass(frozen=True)
class Differential:
    """The comparison of two levels: who is superior and how many Special Effects they win.

    Attributes:
        winner: "attacker", "defender" or None (level tie).
        effects: 0..3, the number of levels between them.
        trace: the COMPARE step.
    """

    winner: str | None
    effects: int
    trace: Step


def differential(attack: LevelOfSuccess, defence: LevelOfSuccess, *, defence_note: str = "",
                 rules: Rules | None = None) -> Differential:
    """Compare an attack's level with a defence's (chapter: the-attack-parry-exchange#3).

    Ranks come from ``levels-of-success`` in ``rules`` (default database).
    Success vs Success -> no winner, 0 effects; Critical vs Fumble -> attacker, 3.
    """
    rules = resolve_rules(rules)
    ra, rd = rank(attack, rules=rules), rank(defence, rules=rules)
    gap = abs(ra - rd)
    winner = None if gap == 0 else ("attacker" if ra > rd else "defender")
    detail = (f"attack {attack.value} (rank {ra}) vs defence {defence.value} (rank {rd})"
              + (f" {defence_note}" if defence_note else "") + ": "
              + ("level, no Special Effects" if winner is None
                 else f"{winner} superior by {gap} level{'s' if gap > 1 else ''}"))
    cites = [ids.EX_DIFFERENTIAL, Citation(_row(attack, rules).unit_id, "attack's rank")]
    if defence is not attack:
        cites.append(Citation(_row(defence, rules).unit_id, "defence's rank"))
    return Differential(winner, gap, Step.of(StepKind.COMPARE, "Differential", value=gap, detail=detail,
                                             cites=cites))


def adjust_over_100(skills: Mapping[str, int], overrides: Mapping[str, str] | None = None
                    ) -> tuple[dict[str, int], Step | None]:
    """Apply ``mythras.over-100`` to the skills of an opposed or differential roll.

    With the default answer the highest skill's excess over 100 comes off every skill, never below 0:
    {"attack": 130, "parry": 80} -> {"attack": 100, "parry": 50}.

    Returns:
        The (possibly) adjusted skills and a RULING step, or the skills unchanged and None when no
        skill is above 100.
    """
    top = max(skills.values(), default=0)
    if top <= 100:
        return dict(skills), None
    use = resolve_ruling(rulings.OVER_100.id, overrides)
    if use.answer == "no-adjustment":
        return dict(skills), Step.of(StepKind.RULING, "Skill above 100%: no adjustment", value=top,
                                     rulings=[use], cites=[ids.EX_DIFFERENTIAL])
    excess = top - 100
    out = {k: max(v - excess, 0) for k, v in skills.items()}
    detail = f"highest skill {top} is {excess} over 100; " + ", ".join(
        f"{k} {skills[k]} − {excess} = {out[k]}" for k in skills)
    return out, Step.of(StepKind.RULING, "Skill above 100%: every skill loses the excess", value=excess,
                        detail=detail, rulings=[use], cites=[ids.EX_DIFFERENTIAL])

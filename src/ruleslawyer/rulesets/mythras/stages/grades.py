"""Grades: how hard the attack is, and whether (and how hard) the defender can defend.

The attack (``mythras/combat/the-attack-parry-exchange#1``) starts at its situational grade; a weapon
outside the Combat Styles (``combat-styles#1``), a Charge (``charge-evade-outmanoeuvre#1``: "Attack is
Hard"), burst or full-auto fire (``firearms-change-the-economy#1``) and firing into a crowd or melee
(``ranged-combat#6``) make it harder; aiming
(``ranged-combat#4``) eases it. The defender may Parry or Evade unless surprised (``surprise#1``), out
of Action Points (``setup#3``), facing bullets (``firearms-change-the-economy#1``) or, with a weapon
that is not a shield, facing a missile (ruling ``mythras.parry-missiles``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind

from .. import _tables, damage as dmg, ids, rulings as _r
from ..inputs import Defence, FireMode, RangedKind
from ..levels import DifficultyGrade, grade_row, step_grade
from ..special_effects import WeaponTrait
from .context import ExchangeContext

__all__ = ["Condition", "attack_grade", "DefenceChoice", "defence_stage"]

Condition = tuple[str, int, str]
"""A condition on a roll: (what, how many grades harder, the rule id that says so)."""


def _steps_of(grade: DifficultyGrade) -> int:
    """How many grades harder than Standard a condition grade is (Hard 1, Formidable 2)."""
    order = list(DifficultyGrade)
    return order.index(grade) - order.index(DifficultyGrade.STANDARD)


def _outside(steps_given: int | None, field: str, ctx: ExchangeContext) -> tuple[Condition, list[RulingUse]]:
    """A weapon outside the Combat Styles: the grades given, else ruling ``mythras.outside-style-grades``."""
    if steps_given is None:
        use = ctx.ruling(_r.OUTSIDE_STYLE_GRADES)
        return ("Weapon outside the Combat Styles", int(use.answer), ids.COMBAT_STYLE), [use]
    if isinstance(steps_given, bool) or not isinstance(steps_given, int) or not 1 <= steps_given <= 5:
        raise RulesInputError(field, f"must be a whole number of grades from 1 to 5, got {steps_given!r}")
    return ("Weapon outside the Combat Styles", steps_given, ids.COMBAT_STYLE), []


def _combine(who: str, base: DifficultyGrade, conds: list[Condition], uses: list[RulingUse], ctx: ExchangeContext,
             aim: Step | None = None, eased: DifficultyGrade | None = None) -> tuple[DifficultyGrade, Step | None]:
    """The base grade (``eased`` by aiming, when it eased it) moved by the conditions (ruling
    ``mythras.combine-grades``); aiming's step last."""
    if not conds and aim is None:
        return base, None
    children = []
    combine: list[RulingUse] = []
    grade = eased or base
    if conds:
        use = ctx.ruling(_r.COMBINE_GRADES)
        combine.append(use)
        total = sum(s for _, s, _ in conds) if use.answer == "add-steps" else max(s for _, s, _ in conds)
        for name, steps, cite in conds:
            children.append(Step.of(StepKind.MODIFIER, name, value=steps,
                                    detail=f"{steps} grade{'s' if steps != 1 else ''} harder", cites=[cite]))
        grade = step_grade(grade, total, rules=ctx.rules)
    if aim is not None:
        children.append(aim)
    row = grade_row(grade, ctx.rules).row
    return grade, Step.of(StepKind.RULE, f"{who} grade: {grade.value}",
                          detail=f"from {base.value}", cites=[Citation(row.unit_id, f"{grade.value} row")],
                          rulings=[*combine, *uses], children=children)


def _aim(ctx: ExchangeContext, conds: list[Condition]
         ) -> tuple[DifficultyGrade | None, list[Condition], Step]:
    """Aiming for a full Round eases one situational or range grade, once (``ranged-combat#4``).

    It cancels one grade of a penalty — the shot's situational grade when harder than Standard, else
    the crowd or melee penalty (ruling ``mythras.aim-eases``) — and never makes a shot easier than
    that: a Standard shot stays Standard.

    Returns:
        ``(eased situational grade or None, the conditions after aiming, the step)``.
    """
    base = ctx.attack_base
    if _steps_of(base) > 0:
        eased = step_grade(base, -1, rules=ctx.rules)
        return eased, conds, Step.of(StepKind.MODIFIER, "Aimed for a full Round", value=-1,
                                     detail=f"the situational grade {base.value} eased one grade to {eased.value} "
                                            "(once)", cites=[ids.RANGED_AIM])
    melee = next((c for c in conds if c[2] == ids.RANGED_INTO_MELEE), None)
    if melee is None:
        return None, conds, Step.of(StepKind.RULE, "Aimed for a full Round: no penalty to ease", value=0,
                                    detail=f"no situational or range penalty: a {base.value} shot stays "
                                           f"{base.value}", cites=[ids.RANGED_AIM])
    use = ctx.ruling(_r.AIM_EASES)
    if use.answer != "situational-or-melee":
        return None, conds, Step.of(StepKind.RULING, "Aimed for a full Round: the crowd or melee penalty stays",
                                    value=0, detail="that penalty is not a situational or range grade under this "
                                                    "ruling, and there is no other to ease",
                                    cites=[ids.RANGED_AIM, ids.RANGED_INTO_MELEE], rulings=[use])
    name, steps, cite = melee
    rest = [c for c in conds if c is not melee] + ([(name + ", eased one grade by aiming", steps - 1, cite)]
                                                   if steps > 1 else [])
    return None, rest, Step.of(StepKind.RULING, "Aimed for a full Round", value=-1,
                               detail=f"the crowd or melee penalty eased one grade ({steps} → {steps - 1}, once)",
                               cites=[ids.RANGED_AIM, ids.RANGED_INTO_MELEE], rulings=[use])


_FIRE_MODE_GRADES = {FireMode.BURST: ("Burst fire is Hard", DifficultyGrade.HARD),
                     FireMode.FULL_AUTO: ("Full-auto is Formidable", DifficultyGrade.FORMIDABLE)}


def attack_grade(ctx: ExchangeContext, *, into_melee: bool = True) -> tuple[DifficultyGrade, Step | None]:
    """The attack's grade and its step (None when nothing changes the situational grade).

    Args:
        into_melee: count the penalty for firing into a crowd or melee (False: the grade the shot
            would have had without it, for the stray-shot rule; aiming then eases only what is left).
    """
    a = ctx.a
    conds: list[Condition] = []
    uses: list[RulingUse] = []
    if a.outside_style:
        cond, uses = _outside(a.outside_style_grades, "attacker.outside_style_grades", ctx)
        conds.append(cond)
    if a.charge:
        conds.append(("Charge: the attack is Hard", _steps_of(DifficultyGrade.HARD), ids.CHARGE))
    if a.fire_mode in _FIRE_MODE_GRADES:
        name, grade = _FIRE_MODE_GRADES[a.fire_mode]
        conds.append((name, _steps_of(grade), ids.FIREARMS))
    if into_melee and a.into_melee is not None:
        conds.append((f"Firing into a crowd or melee: {a.into_melee.value}", _steps_of(a.into_melee),
                      ids.RANGED_INTO_MELEE))
    if not a.aimed:
        return _combine("Attack", ctx.attack_base, conds, uses, ctx)
    eased, conds, aim = _aim(ctx, conds)
    return _combine("Attack", ctx.attack_base, conds, uses, ctx, aim, eased)


@dataclass(frozen=True)
class DefenceChoice:
    """How the defender defends.

    Attributes:
        kind: parry, evade or none, as resolved (none when they cannot defend).
        why_not: the steps saying why a chosen defence cannot be made.
        grade, grade_step: the defence roll's grade and its step (None when unchanged).
        size: the parrying weapon's ``weapon-size`` row (a Parry), else None.
    """

    kind: Defence
    why_not: tuple[Step, ...]
    grade: DifficultyGrade
    grade_step: Step | None
    size: _tables.SizeRow | None


def _cannot_defend(ctx: ExchangeContext) -> Step | None:
    """Why the chosen defence cannot be made, or None when it can."""
    a, d = ctx.a, ctx.d
    kind = d.defence
    if d.surprised:
        return Step.of(StepKind.RULE, "Surprised: cannot defend", detail="flat-footed until their "
                       "Initiative arrives", cites=[ids.SURPRISE])
    if d.action_points < 1:
        return Step.of(StepKind.RULE, "No Action Points left to react", value=d.action_points,
                       detail=f"a {kind.value} spends 1 AP", cites=[ids.EX_PARRY, ids.PROACTIVE_REACTIVE])
    if kind is Defence.PARRY and d.weapon is None:
        raise RulesInputError("defender.weapon", "a Parry needs the parrying weapon or shield")
    if kind is Defence.PARRY and a.weapon.ranged is RangedKind.FIREARM:
        return Step.of(StepKind.RULE, "Bullets outrun reactive Parries", cites=[ids.FIREARMS])
    if kind is Defence.PARRY and ctx.ranged and WeaponTrait.SHIELD not in d.weapon.traits:
        use = ctx.ruling(_r.PARRY_MISSILES)
        if use.answer == "shields-only":
            return Step.of(StepKind.RULING, "Only shields parry missiles", detail=f"{d.weapon.name} is "
                           "not a shield", cites=[ids.RANGED], rulings=[use])
    return None


def defence_stage(ctx: ExchangeContext) -> DefenceChoice:
    """Can the defender Parry or Evade, and at what grade (``the-attack-parry-exchange#2``)?

    A defence that is Hopeless is not rolled either (it counts as no defence, ``#11``).
    """
    d = ctx.d
    kind = d.defence
    why_not: list[Step] = []
    if kind is not Defence.NONE:
        reason = _cannot_defend(ctx)
        if reason is not None:
            why_not.append(reason)
            kind = Defence.NONE
    conds: list[Condition] = []
    uses: list[RulingUse] = []
    if kind is not Defence.NONE and d.outside_style:
        cond, uses = _outside(d.outside_style_grades, "defender.outside_style_grades", ctx)
        conds.append(cond)
    grade, gstep = _combine("Defence", ctx.defence_base, conds, uses, ctx)
    size = dmg.size_row(d.weapon.size, "defender.weapon.size", rules=ctx.rules) if kind is Defence.PARRY else None
    if kind is not Defence.NONE and grade is DifficultyGrade.HOPELESS:
        why_not.append(Step.of(StepKind.RULE, "Defence is Hopeless: no roll", cites=[ids.EX_NO_PARRY]))
        kind = Defence.NONE
    return DefenceChoice(kind, tuple(why_not), grade, gstep, size)

"""Levels of success: the attack roll and the defence roll (``the-attack-parry-exchange#1-2``).

Skills above 100% are adjusted first (ruling ``mythras.over-100``); a defender who does not or cannot
defend counts as a Failure (``#11``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.trace import Citation, Step, StepKind

from .. import _tables, ids
from ..inputs import Defence
from ..levels import DifficultyGrade, LevelOfSuccess, SkillRoll, adjust_over_100, graded_skill, roll_skill
from .context import ExchangeContext
from .grades import DefenceChoice

__all__ = ["Skills", "over_100_stage", "attack_roll_stage", "defence_roll_stage"]


@dataclass(frozen=True)
class Skills:
    """The skills rolled against after ``mythras.over-100`` (None: as graded) and its step."""

    attack: int | None
    defence: int | None
    step: Step | None


def over_100_stage(ctx: ExchangeContext, attack_grade: DifficultyGrade, defence: DefenceChoice) -> Skills:
    """Adjust an opposed pair of skills when one is above 100% (only when both sides roll)."""
    a_eff, _ = graded_skill(ctx.a.skill, attack_grade, ctx.overrides, "attacker.skill", rules=ctx.rules)
    if defence.kind is Defence.NONE or a_eff is None:
        return Skills(None, None, None)
    d_eff, _ = graded_skill(ctx.d.skill, defence.grade, ctx.overrides, "defender.skill", rules=ctx.rules)
    adjusted, step = adjust_over_100({"attack": a_eff, "defence": d_eff}, ctx.overrides)
    if step is None:
        return Skills(None, None, None)
    return Skills(adjusted["attack"], adjusted["defence"], step)


def attack_roll_stage(ctx: ExchangeContext, grade: DifficultyGrade, grade_step: Step | None,
                      skills: Skills) -> tuple[SkillRoll, Step]:
    """Step 1: the attacker spends 1 AP and rolls Combat Style at ``grade``."""
    a = ctx.a
    attack = roll_skill(a.skill, grade=grade, dice=ctx.dice, slot="attack", rulings=ctx.overrides,
                        label=f"Attack ({a.name}, {a.weapon.name})", field="attacker.skill",
                        skill_after=skills.attack, extra=tuple(x for x in (skills.step,) if x is not None),
                        rules=ctx.rules)
    step = Step.of(StepKind.RULE, "1. Attack", value=attack.level.value if attack.level else None,
                   detail=f"{a.name} spends 1 AP and rolls Combat Style", cites=[ids.EX_ATTACK],
                   children=[x for x in (grade_step, attack.trace) if x is not None])
    return attack, step


def defence_roll_stage(ctx: ExchangeContext, attack: SkillRoll, defence: DefenceChoice,
                       skills: Skills) -> tuple[SkillRoll | None, LevelOfSuccess, Step]:
    """Step 2: the defender spends 1 AP to Parry or Evade, or counts as a Failure (``#11``)."""
    d, kind = ctx.d, defence.kind
    if kind is Defence.NONE:
        fail_row = _tables.levels(ctx.rules)[LevelOfSuccess.FAILURE.value].row
        note = "did not defend" if d.defence is Defence.NONE else "could not defend"
        step = Step.of(StepKind.RULE, f"2. Defence: none ({note}) — counts as a Failure",
                       value=LevelOfSuccess.FAILURE.value,
                       detail="if you cannot or will not Parry, you count as a Failure",
                       cites=[ids.EX_NO_PARRY, Citation(fail_row.unit_id, "Failure row")], children=defence.why_not)
        return None, LevelOfSuccess.FAILURE, step
    parrying_with = f", {d.weapon.name})" if d.weapon and kind is Defence.PARRY else ")"
    roll = roll_skill(d.skill, grade=defence.grade, dice=ctx.dice, slot=kind.value, rulings=ctx.overrides,
                      label=f"{kind.value.title()} ({d.name}" + parrying_with, field="defender.skill",
                      skill_after=skills.defence, rules=ctx.rules)
    cites = [ids.EX_PARRY if kind is Defence.PARRY else ids.EVADE]
    detail = f"{d.name} spends 1 AP to {kind.value}"
    if kind is Defence.PARRY and not attack.level.succeeded:
        detail += " — parrying a miss on purpose to fish for defensive Special Effects"
        cites.append(ids.EX_NO_PARRY)
    menu = Citation(_tables.action_row(kind.value.title(), ctx.rules).unit_id, f"{kind.value.title()} is Reactive")
    step = Step.of(StepKind.RULE, f"2. Defence: {kind.value}", value=roll.level.value, detail=detail,
                   cites=[*cites, ids.MENU_REACTIVE, menu],
                   children=[x for x in (defence.grade_step, roll.trace) if x is not None])
    return roll, roll.level, step

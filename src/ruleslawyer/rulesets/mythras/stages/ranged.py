"""Ranged rules inside one exchange (``mythras/combat/ranged-combat``).

The stray shot (``#6``: "a roll that fails only because of that penalty puts the shot into a random
adjacent victim"), whether the Damage Modifier applies to a missile (``#1``; ruling
``mythras.ranged-damage-modifier``), and Long range (``#3``: "Halve damage; Force drops one step").
Aiming and the crowd or melee penalty are grades (:mod:`.grades`).
"""

from __future__ import annotations

from ruleslawyer.trace import Step, StepKind

from .. import _tables, damage as dmg, ids, rulings as _r
from ..inputs import RangeBand, RangedKind
from ..levels import LevelOfSuccess, SkillRoll, graded_skill
from .context import ExchangeContext
from .grades import attack_grade

__all__ = ["stray_shot_stage", "ranged_modifier_stage", "long_range_halving", "long_range_force"]


def stray_shot_stage(ctx: ExchangeContext, attack: SkillRoll) -> tuple[str | None, Step | None]:
    """Who a shot into a crowd or melee hits when it failed only because of that penalty.

    Returns:
        ``(victim, step)``: the adjacent victim (1d``n`` among ``attacker.adjacent``, slot ``stray``;
        ``""`` when none is named), or ``(None, None)`` when the rule does not apply.
    """
    a = ctx.a
    if a.into_melee is None or attack.level is not LevelOfSuccess.FAILURE:
        return None, None
    grade, _ = attack_grade(ctx, into_melee=False)
    skill, _ = graded_skill(a.skill, grade, ctx.overrides, "attacker.skill", rules=ctx.rules)
    if skill is None or attack.roll > max(skill, 5) or attack.roll >= 96:
        return None, None
    if a.adjacent:
        n = len(a.adjacent)
        face = ctx.dice.roll(n, "stray") if n > 1 else 1
        stray = a.adjacent[face - 1]
        detail = f"1d{n} = {face} among {', '.join(a.adjacent)}: {stray}"
    else:
        stray = ""
        detail = "no adjacent victim named"
    return stray, Step.of(StepKind.RULE, "Stray shot: a random adjacent victim is hit", value=stray,
                          detail=f"{attack.roll} would succeed against {skill}% without the melee penalty; "
                                 + detail, cites=[ids.RANGED_INTO_MELEE])


def ranged_modifier_stage(ctx: ExchangeContext) -> tuple[bool, Step | None]:
    """Whether the Damage Modifier applies to this attack (always for a melee weapon, no step)."""
    if not ctx.ranged:
        return True, None
    weapon = ctx.a.weapon
    if weapon.damage_modifier_applies is not None:
        applies = weapon.damage_modifier_applies
        return applies, Step.of(StepKind.RULE, "Damage Modifier " + ("applies" if applies else "does not apply")
                                + f" ({weapon.name})", value=applies, cites=[ids.RANGED])
    use = ctx.ruling(_r.RANGED_DAMAGE_MODIFIER)
    applies = use.answer == "always" or (use.answer == "bows-and-thrown" and weapon.ranged is not RangedKind.FIREARM)
    return applies, Step.of(StepKind.RULING, "Damage Modifier " + ("applies" if applies else "does not apply")
                            + f" to a {weapon.ranged.value}", value=applies, cites=[ids.RANGED], rulings=[use])


def long_range_halving(ctx: ExchangeContext, total: int) -> tuple[int, Step | None]:
    """Long range halves the damage (rounding: ruling ``mythras.halving``); other ranges leave it."""
    if ctx.a.range is not RangeBand.LONG:
        return total, None
    half, use = dmg.halve(total, ctx.overrides)
    return half, Step.of(StepKind.MODIFIER, "Long range: damage halved", value=half,
                         detail=f"{total} → {half}", cites=[ids.RANGED_LONG], rulings=[use])


def long_range_force(ctx: ExchangeContext, size: _tables.SizeRow) -> tuple[_tables.SizeRow, Step | None]:
    """At Long range the missile's Force drops one step."""
    if ctx.a.range is not RangeBand.LONG:
        return size, None
    return dmg.shift_size(size, -1, "Long range: Force drops one step", ids.RANGED_LONG, "attacker.weapon.force",
                          ctx.overrides, rules=ctx.rules)

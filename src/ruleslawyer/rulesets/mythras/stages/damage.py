"""The damage roll of a hit (``the-attack-parry-exchange#5``): "roll weapon damage + Damage Modifier;
roll Hit Location (1d20)".

:func:`damage_plan` decides, without rolling, what is rolled and how — Maximise Damage, Impale, whether
and which Damage Modifier (a missile, a Charge), the attacking Size after a Charge or at Long range —
so the exchange rolls the plan and :mod:`ruleslawyer.odds.mythras` takes its distribution from the
same plan. :func:`damage_stage` is the whole of steps 5–7 for one hit.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.dice import parse_dice
from ruleslawyer.errors import RulesInputError
from ruleslawyer.trace import Citation, RulingUse, Step, StepKind

from .. import _tables, damage as dmg, ids, rulings as _r
from ..inputs import Defence
from ..levels import LevelOfSuccess
from ..special_effects import CHOOSE_LOCATION, IMPALE, MAXIMISE_DAMAGE
from .charge import charge_modifier, charge_size
from .context import ExchangeContext
from .protection import Protection, protection_stage
from .ranged import long_range_force, long_range_halving, ranged_modifier_stage

__all__ = ["chosen_location", "location_stage", "attacker_modifier", "DamagePlan", "damage_plan",
           "rolled_damage_stage", "Harm", "damage_stage"]


def chosen_location(ctx: ExchangeContext, a_fx: tuple[str, ...]) -> str | None:
    """The location named with Choose Location, or None when the location is rolled."""
    if CHOOSE_LOCATION not in a_fx:
        return None
    return dmg.check_location(ctx.a.chosen_location, "attacker.chosen_location", rules=ctx.rules)


def location_stage(ctx: ExchangeContext, a_fx: tuple[str, ...]) -> tuple[str, Step]:
    """The hit location: named with Choose Location, else 1d20 on ``hit-location-humanoid``."""
    named = chosen_location(ctx, a_fx)
    if named is None:
        return dmg.roll_location(ctx.dice, rules=ctx.rules)
    return named, Step.of(StepKind.RULE, "Hit location (Choose Location)", value=named,
                          cites=[ids.EX_DAMAGE, ids.EFFECTS])


@dataclass(frozen=True)
class DamagePlan:
    """What a hit rolls, decided before any die is rolled.

    Attributes:
        maximise: the ruling use when Maximise Damage was taken (weapon dice at their maximum), else None.
        maximise_modifier: the Damage Modifier is maximised too (a second pick, or one pick under
            ``weapon-and-modifier``).
        impale: the ruling use when Impale was taken and the weapon dice are not maximised, else None.
        modifier: the Damage Modifier row, or None when it does not apply.
        modifier_steps: why it applies (a missile), the row, a Charge's shift.
        size: the attacking Size (Force) that meets the parry, after a Charge or Long range.
        charge_size_step, force_step: the steps that moved it, or None.
    """

    maximise: RulingUse | None
    maximise_modifier: bool
    impale: RulingUse | None
    modifier: _tables.DamageModifierRow | None
    modifier_steps: tuple[Step, ...]
    size: _tables.SizeRow
    charge_size_step: Step | None
    force_step: Step | None

    @property
    def impale_twice(self) -> bool:
        """Impale rolls the weapon damage twice and keeps the higher."""
        return self.impale is not None and self.impale.answer == "roll-twice-keep-higher"


def _modifier_row(ctx: ExchangeContext) -> tuple[_tables.DamageModifierRow, Step]:
    """The attacker's Damage Modifier row: given directly (a mount's), else from STR+SIZ."""
    a = ctx.a
    if a.damage_modifier is not None:
        want = str(a.damage_modifier).replace(" ", "").replace("−", "-")
        row = _tables.modifier_for_dice(want, ctx.rules)
        if row is not None:
            return row, Step.of(StepKind.RULE, f"Damage Modifier {row.dice} (given)", value=row.dice,
                                cites=[Citation(row.unit_id, "Damage Modifier row")])
        allowed = ", ".join(dict.fromkeys(r.dice for r in _tables.damage_modifiers(ctx.rules)))
        raise RulesInputError("attacker.damage_modifier", f"unknown Damage Modifier {a.damage_modifier!r}; "
                                                          f"allowed: {allowed}, or a step past the table "
                                                          f"(+2d10+1d4, +2d10+1d6, ...)")
    if a.str_siz is None:
        raise RulesInputError("attacker.str_siz", "give STR+SIZ (or damage_modifier) for the Damage Modifier")
    return dmg.damage_modifier_row(a.str_siz, "attacker.str_siz", ctx.overrides, rules=ctx.rules)


def attacker_modifier(ctx: ExchangeContext) -> tuple[_tables.DamageModifierRow, list[Step]]:
    """The attacker's Damage Modifier (given, else from STR+SIZ), a Charge's step included."""
    row, step = _modifier_row(ctx)
    row, shift = charge_modifier(ctx, row)
    return row, [step, *([shift] if shift is not None else [])]


def _modifier(ctx: ExchangeContext) -> tuple[_tables.DamageModifierRow | None, list[Step]]:
    applies, why = ranged_modifier_stage(ctx)
    steps = [why] if why is not None else []
    if not applies:
        return None, steps
    row, more = attacker_modifier(ctx)
    return row, [*steps, *more]


def damage_plan(ctx: ExchangeContext, a_fx: tuple[str, ...]) -> DamagePlan:
    """Decide the damage roll of a hit with the attacker's Special Effects ``a_fx``.

    Raises:
        RulesInputError: no STR+SIZ (``attacker.str_siz``) or an unknown given Damage Modifier
            (``attacker.damage_modifier``) when the Damage Modifier applies.
    """
    n_max = a_fx.count(MAXIMISE_DAMAGE)
    maximise = ctx.ruling(_r.MAXIMISE_DAMAGE) if n_max else None
    impale = ctx.ruling(_r.IMPALE) if IMPALE in a_fx and not n_max else None
    modifier, modifier_steps = _modifier(ctx)
    size, charge_step = charge_size(ctx, ctx.attack_size)
    size, force_step = long_range_force(ctx, size)
    both = maximise is not None and (n_max >= 2 or maximise.answer == "weapon-and-modifier")
    return DamagePlan(maximise, both, impale, modifier, tuple(modifier_steps), size, charge_step, force_step)


def _weapon_roll(ctx: ExchangeContext, plan: DamagePlan) -> tuple[int, Step]:
    expr = ctx.weapon_dice
    if plan.maximise is not None:
        return expr.max, Step.of(StepKind.RULING, f"Weapon damage {expr.text} maximised", value=expr.max,
                                 cites=[ids.EX_DAMAGE, ids.EFFECTS], rulings=[plan.maximise])
    total, faces = ctx.dice.roll_expr(expr, "damage")
    step = Step.of(StepKind.ROLL, f"Weapon damage {expr.text}", value=total, detail=f"faces {list(faces)}",
                   cites=[ids.EX_DAMAGE])
    if not plan.impale_twice:
        return total, step
    again, faces2 = ctx.dice.roll_expr(expr, "damage")
    best = max(total, again)
    return best, Step.of(StepKind.RULING, "Impale: weapon damage rolled twice, keep the higher", value=best,
                         detail=f"{total} (faces {list(faces)}) and {again} (faces {list(faces2)}) → {best}",
                         cites=[ids.EX_DAMAGE, ids.EFFECTS], rulings=[plan.impale])


def _modifier_roll(ctx: ExchangeContext, plan: DamagePlan) -> tuple[int, Step | None]:
    row = plan.modifier
    if row is None:
        return 0, None
    expr = parse_dice(row.dice)
    if plan.maximise_modifier:
        return expr.max, Step.of(StepKind.RULING, f"Damage Modifier {row.dice} maximised", value=expr.max,
                                 cites=[ids.EFFECTS, Citation(row.unit_id)], rulings=[plan.maximise])
    if expr.is_constant:
        return 0, None
    total, faces = ctx.dice.roll_expr(expr, "damage_modifier")
    return total, Step.of(StepKind.ROLL, f"Damage Modifier {row.dice}", value=total, detail=f"faces {list(faces)}",
                          cites=[ids.EX_DAMAGE, Citation(row.unit_id)])


def rolled_damage_stage(ctx: ExchangeContext, plan: DamagePlan) -> tuple[int, list[Step]]:
    """Roll the plan: weapon dice + Damage Modifier (never below 0), then Long range halving."""
    weapon, w_step = _weapon_roll(ctx, plan)
    modifier, m_step = _modifier_roll(ctx, plan)
    total, floor_use = dmg.floor_zero(weapon + modifier, ctx.overrides)
    steps = [w_step, *plan.modifier_steps, *([m_step] if m_step is not None else [])]
    steps.append(Step.of(StepKind.RESULT, "Damage rolled", value=total,
                         detail=f"{weapon} + ({modifier})" + (" → 0" if floor_use else ""),
                         cites=[ids.EX_DAMAGE], rulings=[floor_use] if floor_use else []))
    if plan.charge_size_step is not None:
        steps.append(plan.charge_size_step)
    total, half_step = long_range_halving(ctx, total)
    steps += [s for s in (half_step, plan.force_step) if s is not None]
    return total, steps


@dataclass(frozen=True)
class Harm:
    """Steps 5–7 of a hit: where it landed, what was rolled, what got through."""

    location: str
    rolled: int
    protection: Protection
    step: Step


def damage_stage(ctx: ExchangeContext, kind: Defence, d_level: LevelOfSuccess, parry_size: _tables.SizeRow | None,
                 a_fx: tuple[str, ...], d_fx: tuple[str, ...]) -> Harm:
    """Resolve a hit: location, damage roll, then parry Size, Ward Location and armour."""
    location, loc_step = location_stage(ctx, a_fx)
    plan = damage_plan(ctx, a_fx)
    rolled, steps = rolled_damage_stage(ctx, plan)
    prot = protection_stage(ctx, kind, d_level, parry_size, plan.size, rolled, location, a_fx, d_fx)
    step = Step.of(StepKind.RULE, "5–7. Damage", value=f"{prot.dealt} to the {location}", cites=[ids.EX_DAMAGE],
                   children=[loc_step, *steps, *prot.steps])
    return Harm(location, rolled, prot, step)

"""What stops damage (``the-attack-parry-exchange#6-10``): a successful parry by Size, a Ward
Location's passive block, then armour (worn + natural).

These stages roll no dice, so :mod:`ruleslawyer.odds.mythras` runs them on every damage total and
hit location it weighs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.trace import Citation, Step, StepKind

from .. import _tables, damage as dmg, ids, rulings as _r
from ..inputs import Defence
from ..levels import LevelOfSuccess
from ..special_effects import BYPASS_ARMOR, CIRCUMVENT_PARRY, ENHANCE_PARRY
from .context import ExchangeContext

__all__ = ["parry_stage", "ward_stage", "armour_stage", "Protection", "protection_stage"]


def parry_stage(ctx: ExchangeContext, kind: Defence, d_level: LevelOfSuccess, parry_size: _tables.SizeRow | None,
                attack_size: _tables.SizeRow, total: int, a_fx: tuple[str, ...], d_fx: tuple[str, ...]
                ) -> tuple[int, Step | None]:
    """Damage left after the parry (``#6-9``): a failed parry stops nothing; a successful one stops
    all, half or none by Size (``parry-size``), all with Enhance Parry (``mythras.enhance-parry``),
    none when the attacker took Circumvent Parry (``mythras.circumvent-parry``)."""
    if kind is not Defence.PARRY:
        return total, None
    if not d_level.succeeded:
        return total, Step.of(StepKind.RULE, "The parry failed: it reduces nothing", value=total,
                              cites=[ids.EX_PARRY_REDUCES])
    if CIRCUMVENT_PARRY in a_fx:
        use = ctx.ruling(_r.CIRCUMVENT_PARRY)
        if use.answer == "ignore-parry":
            row = _tables.effects(ctx.rules)[CIRCUMVENT_PARRY].row
            return total, Step.of(StepKind.RULING, "Circumvent Parry: the parry stops nothing", value=total,
                                  cites=[ids.EX_PARRY_REDUCES, ids.EFFECTS, Citation(row.unit_id, CIRCUMVENT_PARRY)],
                                  rulings=[use])
    if ENHANCE_PARRY in d_fx:
        use = ctx.ruling(_r.ENHANCE_PARRY)
        if use.answer == "stop-all":
            return 0, Step.of(StepKind.RULING, "Enhance Parry: the parry stops all damage", value=0,
                              cites=[ids.EX_PARRY_REDUCES, ids.EFFECTS], rulings=[use])
    after, step = dmg.parry_stops(parry_size, attack_size, total, ctx.overrides,
                                  "Force vs parry Size" if ctx.ranged else "Parry Size", rules=ctx.rules)
    return after, Step.of(step.kind, step.label, step.value, step.detail, (ids.EX_PARRY_REDUCES, *step.cites),
                          step.rulings)


def ward_stage(ctx: ExchangeContext, parried: bool, location: str, attack_size: _tables.SizeRow,
               after: int) -> tuple[int, Step | None]:
    """A Ward Location (a passive block) on the hit location, when no parry succeeded (``mythras.ward-location``).

    A successful parry that Circumvent Parry got round still counts as the defence made: the ward does
    not block as well.
    """
    ward = ctx.d.ward
    if parried or ward is None or location not in ward.locations:
        return after, None
    use = ctx.ruling(_r.WARD_LOCATION)
    if use.answer != "block-as-parry":
        return after, Step.of(StepKind.RULING, f"Ward Location ({location}) recorded", value=after,
                              cites=[ids.MENU_FREE], rulings=[use])
    shield = dmg.size_row(ward.size, "defender.ward.size", rules=ctx.rules)
    through, step = dmg.parry_stops(shield, attack_size, after, ctx.overrides, f"Ward Location ({location})",
                                    rules=ctx.rules)
    menu = Citation(_tables.action_row("Ward Location", ctx.rules).unit_id, "Ward Location: a passive block")
    return through, Step.of(StepKind.RULING, step.label, step.value, step.detail,
                            (ids.MENU_FREE, menu, *step.cites), (use, *step.rulings))


def armour_stage(ctx: ExchangeContext, location: str, after: int, a_fx: tuple[str, ...]) -> tuple[int, int, Step]:
    """Subtract worn + natural armour at the location (``#10``), less what Bypass Armor ignores.

    Returns:
        ``(armour subtracted, damage dealt, step)``.
    """
    d = ctx.d
    worn = dict(d.armour).get(location, 0)
    natural = d.natural_armour if isinstance(d.natural_armour, int) else dict(d.natural_armour).get(location, 0)
    children = [Step.of(StepKind.INFO, f"Worn armour at {location}", value=worn, cites=[ids.EX_ARMOUR]),
                Step.of(StepKind.INFO, f"Natural armour at {location}", value=natural, cites=[ids.EX_ARMOUR])]
    n_bypass = a_fx.count(BYPASS_ARMOR)
    if n_bypass:
        use = ctx.ruling(_r.BYPASS_ARMOR)
        if use.answer == "all-armour" or n_bypass >= 2:
            ignored, worn, natural = "worn and natural", 0, 0
        elif use.answer == "worn-then-natural":
            ignored, worn = "worn", 0
        else:
            ignored, natural = "natural", 0
        children.append(Step.of(StepKind.RULING, f"Bypass Armor ×{n_bypass}: {ignored} armour ignored",
                                value=worn + natural, cites=[ids.EFFECTS], rulings=[use]))
    armour = worn + natural
    dealt, floor_use = dmg.floor_zero(after - armour, ctx.overrides)
    return armour, dealt, Step.of(StepKind.MODIFIER, f"Armour at {location}: −{armour}", value=dealt,
                                  detail=f"{after} − {armour} = {after - armour}" + (" → 0" if floor_use else ""),
                                  cites=[ids.EX_ARMOUR], rulings=[floor_use] if floor_use else [], children=children)


@dataclass(frozen=True)
class Protection:
    """What got past the parry or ward, the armour subtracted, the damage dealt, and the steps."""

    after_parry: int
    armour: int
    dealt: int
    steps: tuple[Step, ...]


def protection_stage(ctx: ExchangeContext, kind: Defence, d_level: LevelOfSuccess,
                     parry_size: _tables.SizeRow | None, attack_size: _tables.SizeRow, rolled: int, location: str,
                     a_fx: tuple[str, ...], d_fx: tuple[str, ...]) -> Protection:
    """Parry, then Ward Location, then armour, on ``rolled`` damage at ``location``."""
    parried = kind is Defence.PARRY and d_level.succeeded
    after, p_step = parry_stage(ctx, kind, d_level, parry_size, attack_size, rolled, a_fx, d_fx)
    after, w_step = ward_stage(ctx, parried, location, attack_size, after)
    armour, dealt, a_step = armour_stage(ctx, location, after, a_fx)
    return Protection(after, armour, dealt, tuple(s for s in (p_step, w_step, a_step) if s is not None))

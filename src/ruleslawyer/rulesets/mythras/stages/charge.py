"""A Charge inside one exchange (``mythras/combat/charge-evade-outmanoeuvre#1``): "Attack is Hard;
weapon Size +1 step; biped Damage Modifier +1 step (quadruped +2; riders may use the mount's)."

The Hard grade is in :mod:`.grades`; a rider gives the mount's Damage Modifier as
``attacker.damage_modifier``.
"""

from __future__ import annotations

from ruleslawyer.trace import Step

from .. import _tables, damage as dmg, ids
from .context import ExchangeContext

__all__ = ["charge_size", "charge_modifier"]


def charge_size(ctx: ExchangeContext, size: _tables.SizeRow) -> tuple[_tables.SizeRow, Step | None]:
    """A charger's weapon counts one Size step larger."""
    if not ctx.a.charge:
        return size, None
    return dmg.shift_size(size, 1, "Charge", ids.CHARGE, "attacker.weapon.size", ctx.overrides, rules=ctx.rules)


def charge_modifier(ctx: ExchangeContext, row: _tables.DamageModifierRow
                    ) -> tuple[_tables.DamageModifierRow, Step | None]:
    """A charger's Damage Modifier moves one step up the table (two for a quadruped)."""
    a = ctx.a
    if not a.charge:
        return row, None
    return dmg.shift_damage_modifier(row, 2 if a.quadruped else 1, "Charge" + (" (quadruped)" if a.quadruped else ""),
                                     ids.CHARGE, "attacker.str_siz", ctx.overrides, rules=ctx.rules)

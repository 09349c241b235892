"""Burst and full-auto fire inside one exchange (``mythras/combat/firearms-change-the-economy#1``):
"Burst fire is Hard (roll how many rounds in the burst hit); full-auto is Formidable and splits ammo
across an arc. Only the first hit in a spray enjoys Special Effects."

The grades are in :mod:`.grades`; the first hit is the exchange's own (:mod:`.damage`). This stage
rolls how many of the rounds fired at the target hit (ruling ``mythras.spray-hits``, slot ``rounds``)
and resolves each further round as a plain hit: its own location, damage and armour, no Special Effects.
"""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.trace import Step, StepKind

from .. import _tables, ids, rulings as _r
from ..inputs import Defence, FireMode
from ..levels import LevelOfSuccess
from .context import ExchangeContext
from .damage import damage_plan, location_stage, rolled_damage_stage
from .protection import protection_stage

__all__ = ["Hit", "spray_stage"]


@dataclass(frozen=True)
class Hit:
    """A further round of a burst or spray that hit: where, the damage rolled, past a parry or ward, the
    armour subtracted and the damage dealt."""

    location: str
    rolled: int
    after_parry: int
    armour: int
    dealt: int


def _count(ctx: ExchangeContext) -> tuple[int, Step]:
    """How many of the rounds fired at the target hit."""
    a = ctx.a
    use = ctx.ruling(_r.SPRAY_HITS)
    if use.answer == "all-hit":
        n, detail = a.rounds, f"all {a.rounds} rounds fired at the target hit"
    else:
        n = ctx.dice.roll(a.rounds, "rounds") if a.rounds > 1 else 1
        detail = f"1d{a.rounds} = {n}"
    mode = "Burst" if a.fire_mode is FireMode.BURST else "Full-auto spray"
    return n, Step.of(StepKind.RULING, f"{mode}: only the first hit enjoys Special Effects",
                      value=f"{n} of {a.rounds} round{'s' if a.rounds > 1 else ''} hit", detail=detail,
                      cites=[ids.FIREARMS], rulings=[use])


def spray_stage(ctx: ExchangeContext, kind: Defence, d_level: LevelOfSuccess, parry_size: _tables.SizeRow | None,
                d_fx: tuple[str, ...]) -> tuple[tuple[Hit, ...], Step | None]:
    """The further hits of a burst or spray that hit (the first is the exchange's own), each without
    Special Effects; ``((), None)`` for a single shot."""
    if ctx.a.fire_mode not in (FireMode.BURST, FireMode.FULL_AUTO):
        return (), None
    n, count_step = _count(ctx)
    hits, steps = [], []
    for i in range(2, n + 1):
        location, loc_step = location_stage(ctx, ())
        plan = damage_plan(ctx, ())
        rolled, rolled_steps = rolled_damage_stage(ctx, plan)
        prot = protection_stage(ctx, kind, d_level, parry_size, plan.size, rolled, location, (), d_fx)
        hits.append(Hit(location, rolled, prot.after_parry, prot.armour, prot.dealt))
        steps.append(Step.of(StepKind.RULE, f"Round {i}", value=f"{prot.dealt} to the {location}",
                             detail="no Special Effects", cites=[ids.EX_DAMAGE, ids.FIREARMS],
                             children=[loc_step, *rolled_steps, *prot.steps]))
    return tuple(hits), Step.of(count_step.kind, count_step.label, count_step.value, count_step.detail,
                                count_step.cites, count_step.rulings, steps)

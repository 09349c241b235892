"""Evade (``mythras/combat/charge-evade-outmanoeuvre#2``): "Opposed Evade vs the threat. Win and you
take no damage (and may gain Effects). Either way you go prone unless Arise or a trait (Daredevil)
says otherwise." What counts as winning is the ruling ``mythras.evade-success``."""

from __future__ import annotations

from dataclasses import dataclass

from ruleslawyer.trace import Step, StepKind

from .. import ids, rulings as _r
from ..inputs import Defence
from ..levels import LevelOfSuccess, rank
from ..special_effects import ARISE
from .context import ExchangeContext

__all__ = ["Evaded", "evade_stage"]


@dataclass(frozen=True)
class Evaded:
    """Whether an Evade avoided the attack, whether the evader ends prone (None: nobody evaded)."""

    evaded: bool
    prone: bool | None
    step: Step | None


def evade_stage(ctx: ExchangeContext, kind: Defence, a_level: LevelOfSuccess, d_level: LevelOfSuccess,
                d_fx: tuple[str, ...]) -> Evaded:
    """Resolve an Evade: no damage when it wins; prone unless Arise or the Daredevil trait."""
    if kind is not Defence.EVADE:
        return Evaded(False, None, None)
    use = ctx.ruling(_r.EVADE_SUCCESS)
    if use.answer == "evade-succeeds":
        evaded = d_level.succeeded
    elif use.answer == "level-at-least-attack":
        evaded = d_level.succeeded and rank(d_level, rules=ctx.rules) >= rank(a_level, rules=ctx.rules)
    else:
        evaded = d_level.succeeded and rank(d_level, rules=ctx.rules) > rank(a_level, rules=ctx.rules)
    stays_up = ARISE in d_fx or any(t.lower() == "daredevil" for t in ctx.d.traits)
    prone = not stays_up
    why = "ends prone" if prone else "stays standing (" + ("Arise" if ARISE in d_fx else "Daredevil") + ")"
    step = Step.of(StepKind.RULING, "Evade: " + ("no damage" if evaded else "not avoided"), value=evaded,
                   detail=why, cites=[ids.EVADE], rulings=[use])
    return Evaded(evaded, prone, step)

"""Surprise inside one exchange (``mythras/combat/surprise#1``): "Ambushed targets: –10 Initiative,
flat-footed until their Initiative arrives (cannot defend), first successful attack against them gains
a bonus Special Effect, and they take no offensive actions that Round."

The Initiative penalty is in :mod:`..initiative`; "cannot defend" is in :mod:`.grades`.
"""

from __future__ import annotations

from ruleslawyer.trace import Step, StepKind

from .. import ids
from ..levels import LevelOfSuccess
from .context import ExchangeContext

__all__ = ["ambushed_attacker_stage", "surprise_bonus_stage"]


def ambushed_attacker_stage(ctx: ExchangeContext) -> Step | None:
    """An ambushed attacker takes no offensive actions that Round: the step saying so, or None."""
    if not ctx.a.surprised:
        return None
    return Step.of(StepKind.RULE, "Surprised: no offensive actions this Round", value=None,
                   detail=f"{ctx.a.name} was ambushed and cannot attack until the next Round", cites=[ids.SURPRISE])


def surprise_bonus_stage(ctx: ExchangeContext, a_level: LevelOfSuccess) -> tuple[int, Step | None]:
    """The bonus Special Effect of the first successful attack against an ambushed defender.

    Returns:
        ``(1, step)`` when this attack takes it; ``(0, step)`` when an earlier attack already did;
        ``(0, None)`` when the defender is not surprised or the attack did not succeed.
    """
    d = ctx.d
    if not (d.surprised and a_level.succeeded):
        return 0, None
    if d.surprise_bonus_spent:
        return 0, Step.of(StepKind.RULE, "Surprise: the bonus Special Effect is spent", value=0,
                          detail="an earlier successful attack this Round took it (the first one only)",
                          cites=[ids.SURPRISE])
    return 1, Step.of(StepKind.MODIFIER, "Surprise: the attack gains a bonus Special Effect", value=1,
                      cites=[ids.SURPRISE])

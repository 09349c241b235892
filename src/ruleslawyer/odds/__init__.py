"""Exact odds computed from the engines' own rules: Mastery, Mythras and the Trauma table.

Core: :class:`Dist` (exact Fractions), :func:`exploding` (exact up to the engine's cap, mass cut off
reported), :func:`enumerate_engine` (every face sequence through a real engine call). Ruleset odds
live in :mod:`ruleslawyer.odds.mastery`, :mod:`ruleslawyer.odds.mythras` and
:mod:`ruleslawyer.odds.trauma`; plots (matplotlib) in :mod:`ruleslawyer.odds.plots`.
"""

from __future__ import annotations

from .core import (DEFAULT_TOLERANCE, Dist, ExplodingInfo, dice_expr, die, enumerate_engine, exploding)

__all__ = [
    "DEFAULT_TOLERANCE", "Dist", "ExplodingInfo", "die", "exploding", "dice_expr", "enumerate_engine",
    "mastery_exchange_odds", "mythras_exchange_odds", "trauma_odds", "tier_die_odds", "aiming_trial_odds",
    "trial_odds", "startle_odds",
]


def __getattr__(name: str):
    """Lazy access to the ruleset odds functions (they import the engines)."""
    if name in ("mastery_exchange_odds", "tier_die_odds", "aiming_trial_odds", "trial_odds", "startle_odds"):
        from . import mastery

        return getattr(mastery, name)
    if name == "mythras_exchange_odds":
        from . import mythras

        return mythras.mythras_exchange_odds
    if name == "trauma_odds":
        from . import trauma

        return trauma.trauma_odds
    raise AttributeError(name)

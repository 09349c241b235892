"""Mythras combat engine: levels of success, the attack–parry exchange, Special Effects, Initiative.

Every step of a result's trace cites the chapter (``mythras/combat/...``), a row of the supplement
tables it runs on (``mythras/supplement/...``), or a registered ruling (``mythras.*``).
"""

from __future__ import annotations

from . import rulings
from .exchange import (Attacker, Defence, Defender, ExchangeInput, ExchangeResult, RangeBand, RangedKind, Ward,
                       Weapon, resolve_exchange)
from .initiative import InitiativeCombatant, InitiativeEntry, InitiativeResult, roll_initiative
from .levels import (DifficultyGrade, LevelOfSuccess, SkillRoll, critical_range, differential, graded_skill,
                     level_of_success, roll_skill)
from .special_effects import EffectContext, Side, WeaponTrait, eligible_effects

__all__ = [
    "Attacker", "Defence", "Defender", "DifficultyGrade", "EffectContext", "ExchangeInput", "ExchangeResult",
    "InitiativeCombatant", "InitiativeEntry", "InitiativeResult", "LevelOfSuccess", "RangeBand", "RangedKind",
    "Side", "SkillRoll", "Ward", "Weapon", "WeaponTrait", "critical_range", "differential", "eligible_effects",
    "graded_skill", "level_of_success", "resolve_exchange", "roll_initiative", "roll_skill", "rulings",
]

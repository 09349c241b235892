"""Mythras combat engine: levels of success, the attack–parry exchange, Special Effects, Initiative.

Every step of a result's trace cites the chapter (``mythras/combat/...``), a row of the supplement
tables it runs on (``mythras/supplement/...``), or a registered ruling (``mythras.*``).
"""

from __future__ import annotations

from ruleslawyer.lazy import lazy_exports

# Names load on first use (PEP 562), so the registry, the CLI and the rules database can import
# this package's declaration (``.ruleset``) and command module without loading the engine.
_EXPORTS = {
    'rulings': 'rulings',
    'Attacker': 'exchange',
    'Defence': 'exchange',
    'Defender': 'exchange',
    'ExchangeInput': 'exchange',
    'ExchangeResult': 'exchange',
    'RangeBand': 'exchange',
    'RangedKind': 'exchange',
    'Ward': 'exchange',
    'Weapon': 'exchange',
    'resolve_exchange': 'exchange',
    'ChargeInput': 'charge',
    'ChargeResult': 'charge',
    'resolve_charge': 'charge',
    'OutmanoeuvreInput': 'outmanoeuvre',
    'OutmanoeuvreResult': 'outmanoeuvre',
    'resolve_outmanoeuvre': 'outmanoeuvre',
    'InitiativeCombatant': 'initiative',
    'InitiativeEntry': 'initiative',
    'InitiativeResult': 'initiative',
    'roll_initiative': 'initiative',
    'MythrasEncounter': 'fight',
    'DifficultyGrade': 'levels',
    'LevelOfSuccess': 'levels',
    'SkillRoll': 'levels',
    'critical_range': 'levels',
    'differential': 'levels',
    'graded_skill': 'levels',
    'level_of_success': 'levels',
    'roll_skill': 'levels',
    'EffectContext': 'special_effects',
    'Side': 'special_effects',
    'WeaponTrait': 'special_effects',
    'eligible_effects': 'special_effects',
}


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)

__all__ = [
    "Attacker", "ChargeInput", "ChargeResult", "Defence", "Defender", "DifficultyGrade", "EffectContext",
    "ExchangeInput", "ExchangeResult", "InitiativeCombatant", "InitiativeEntry", "InitiativeResult",
    "LevelOfSuccess", "MythrasEncounter", "OutmanoeuvreInput", "OutmanoeuvreResult", "RangeBand", "RangedKind",
    "Side", "SkillRoll",
    "Ward", "Weapon", "WeaponTrait", "critical_range", "differential", "eligible_effects", "graded_skill",
    "level_of_success", "resolve_charge", "resolve_exchange", "resolve_outmanoeuvre", "roll_initiative",
    "roll_skill", "rulings",
]

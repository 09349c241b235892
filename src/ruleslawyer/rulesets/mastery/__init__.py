"""The Mastery combat engine: every step cited to the chapter or to a named ruling.

Modules (the field's own terms):

- :mod:`.tiers` — tier dice, exploding rolls, Dominance/Impotence/Inferiority, trials vs a DC.
- :mod:`.trauma` — the d100 Trauma table (from the db), the finger sub-roll, the trauma sheet,
  Realistic/Brutal/Deadly settings.
- :mod:`.damage` — damage types; armour resistance, then durability, then health.
- :mod:`.combatant` — exchange inputs (:class:`Combatant`, :class:`Attack`).
- :mod:`.death` — reaching 0 health, fighting on, the dying timer, Triage.
- :mod:`.exchange` — one melee or ranged exchange (:func:`resolve_exchange`).
- :mod:`.round` — Startle/Ambush, declarations, side roll, phases, holds (:func:`sequence_round`).
- :mod:`.planner` — AP planner (:func:`plan_actions`).
- :mod:`.movement`, :mod:`.health` — speed and movement; starting health.
- :mod:`.rulings` — the named rulings (registered on import).

Example::

    from ruleslawyer.rulesets.mastery import Attack, Combatant, Situation, resolve_exchange
    r = resolve_exchange(Combatant("Aldric", attack=Attack("melee", tier=3, weapon=2)),
                         Combatant("Brute", health=6, armour_resistance=2, durability=3),
                         Situation(defend=False), script={"attack": [4, 4, 1], "endurance": [2]})
    r.outcome, r.to_health, r.defender.state   # ('hit', 6, <State.UNCONSCIOUS>)
"""

import importlib

# Names load on first use (PEP 562), so the registry, the CLI and the rules database can import
# this package's declaration (``.ruleset``) and command module without loading the engine.
_EXPORTS = {
    'rulings': 'rulings',
    'Attack': 'combatant',
    'AttackKind': 'combatant',
    'Combatant': 'combatant',
    'MagicPortion': 'combatant',
    'State': 'combatant',
    'Wielding': 'combatant',
    'DamagePortion': 'damage',
    'DamageType': 'damage',
    'apply_damage': 'damage',
    'classify': 'damage',
    'advance_dying': 'death',
    'health_damage_aftermath': 'death',
    'triage': 'death',
    'Elevation': 'exchange',
    'ExchangeResult': 'exchange',
    'Range': 'exchange',
    'Situation': 'exchange',
    'exchange_from_dict': 'exchange',
    'resolve_exchange': 'exchange',
    'StartingHealth': 'health',
    'starting_health': 'health',
    'MovementPlan': 'movement',
    'plan_movement': 'movement',
    'speed': 'movement',
    'APPlan': 'planner',
    'plan_actions': 'planner',
    'Declaration': 'round',
    'HoldTrigger': 'round',
    'Phase': 'round',
    'RoundCombatant': 'round',
    'SequenceResult': 'round',
    'Side': 'round',
    'Spell': 'round',
    'StartleResult': 'round',
    'declared_phase': 'round',
    'sequence_from_dict': 'round',
    'sequence_round': 'round',
    'startle': 'round',
    'Edge': 'tiers',
    'TrialResult': 'tiers',
    'named_dc': 'tiers',
    'roll_tier_die': 'tiers',
    'roll_trial': 'tiers',
    'tier_die': 'tiers',
    'Trauma': 'trauma',
    'TraumaCheck': 'trauma',
    'TraumaEvent': 'trauma',
    'TraumaSetting': 'trauma',
    'TraumaSheet': 'trauma',
    'finger_name': 'trauma',
    'roll_trauma': 'trauma',
    'trauma_follows': 'trauma',
}


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    imported = importlib.import_module(f".{module}", __name__)
    value = imported if module == name else getattr(imported, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)

__all__ = [
    "rulings",
    "Attack", "AttackKind", "Combatant", "MagicPortion", "State", "Wielding",
    "DamagePortion", "DamageType", "apply_damage", "classify",
    "advance_dying", "health_damage_aftermath", "triage",
    "Elevation", "ExchangeResult", "Range", "Situation", "exchange_from_dict", "resolve_exchange",
    "StartingHealth", "starting_health", "MovementPlan", "plan_movement", "speed", "APPlan", "plan_actions",
    "Declaration", "HoldTrigger", "Phase", "RoundCombatant", "SequenceResult", "Side", "Spell", "StartleResult",
    "declared_phase", "sequence_from_dict", "sequence_round", "startle",
    "Edge", "TrialResult", "named_dc", "roll_tier_die", "roll_trial", "tier_die",
    "Trauma", "TraumaCheck", "TraumaEvent", "TraumaSetting", "TraumaSheet", "finger_name", "roll_trauma",
    "trauma_follows",
]
